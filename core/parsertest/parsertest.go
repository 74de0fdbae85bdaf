// Package parsertest is what every parser is tested with, lang.regex
// in-process and lang.treesitter (a cgo plugin in its own module) alike:
// Contract, the behaviour every parser must have whatever it finds (the
// max_symbols cap, settings, malformed input, canceled and concurrent
// calls), and the fixture suite, Run, so that "as good as" is measured on
// the same cases.
//
// A fixture is a txtar archive of source files annotated, in the style of
// gopls marker tests, with comments on the line where a fact must be
// found:
//
//	@package(name)                      the file's package clause
//	@import("spec", kind)               an import of that kind
//	@sym(name, kind[, exported][, parent=P][, doc="..."][, sig="..."])
//	@end(name) or @end(Parent.name)     the symbol's EndLine
//
// Any marker may add line=-N to point N lines up, for a line that cannot
// hold a comment (one ending with a backslash continuation), and
// only=STAGE or not=STAGE to hold for one parser only: only=lang.treesitter
// marks a fact the regex parser is known to miss (a K&R function), and
// so counts against it in ScoreArchives.
//
// Imports and symbols must match exactly: a fact without a marker is a
// failure, so every "must not be reported" case is simply left unmarked.
package parsertest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/rubi-dev/rubi/core"
)

// Run parses every archive matching pattern with p and checks each file's
// facts against its markers, one subtest per archive and file.
func Run(t *testing.T, p core.Parser, pattern string) {
	t.Helper()
	archives, err := filepath.Glob(pattern)
	if err != nil || len(archives) == 0 {
		t.Fatalf("no fixtures match %s: %v", pattern, err)
	}
	for _, path := range archives {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			files, facts, err := parseArchive(p, path)
			if err != nil {
				t.Fatal(err)
			}
			for i, f := range files {
				t.Run(f.Path, func(t *testing.T) {
					r, err := Check(p.Info().Name, f, facts[i])
					if err != nil {
						t.Fatal(err)
					}
					for _, p := range r.Problems {
						t.Error(p)
					}
				})
			}
		})
	}
}

// Score is how a parser fares on a set of fixtures.
type Score struct {
	// Facts counts what the markers ask for: imports, symbols, end lines,
	// docs, signatures and package clauses.
	Facts int
	// Right counts those the parser got right.
	Right int
	// Extra counts imports and symbols reported without a marker.
	Extra int
	// Problems lists every miss and extra, prefixed with the file.
	Problems []string
}

// Add folds r into s.
func (s *Score) Add(r Score) {
	s.Facts += r.Facts
	s.Right += r.Right
	s.Extra += r.Extra
	s.Problems = append(s.Problems, r.Problems...)
}

// ScoreArchives parses every archive matching pattern with p and scores
// the result per language.
func ScoreArchives(p core.Parser, pattern string) (map[string]*Score, error) {
	archives, err := filepath.Glob(pattern)
	if err != nil {
		return nil, err
	}
	out := map[string]*Score{}
	for _, path := range archives {
		files, facts, err := parseArchive(p, path)
		if err != nil {
			return nil, err
		}
		for i, f := range files {
			r, err := Check(p.Info().Name, f, facts[i])
			if err != nil {
				return nil, err
			}
			for k := range r.Problems {
				r.Problems[k] = filepath.Base(path) + ":" + f.Path + ": " + r.Problems[k]
			}
			s := out[f.Language]
			if s == nil {
				s = &Score{}
				out[f.Language] = s
			}
			s.Add(r)
		}
	}
	return out, nil
}

func parseArchive(p core.Parser, path string) ([]core.SourceFile, []core.FileFacts, error) {
	ar, err := txtar.ParseFile(path)
	if err != nil {
		return nil, nil, err
	}
	files := make([]core.SourceFile, len(ar.Files))
	for i, f := range ar.Files {
		files[i] = core.SourceFile{Path: f.Name, Language: core.DetectLanguage(f.Name), Content: f.Data}
	}
	facts, err := p.Parse(context.Background(), files)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(facts) != len(files) {
		return nil, nil, fmt.Errorf("%s: got %d facts for %d files", path, len(facts), len(files))
	}
	for i, f := range files {
		if facts[i].Path != f.Path || facts[i].Language != f.Language {
			return nil, nil, fmt.Errorf("%s: facts %d are for %s (%s), want %s (%s)", path, i, facts[i].Path, facts[i].Language, f.Path, f.Language)
		}
	}
	return files, facts, nil
}

type marker struct {
	name      string
	args      []string
	line      int
	only, not string
}

var markerNames = []string{"package", "import", "sym", "end"}

func parseMarkers(file string, content []byte) ([]marker, error) {
	var out []marker
	for n, line := range strings.Split(string(content), "\n") {
		for pos := 0; pos < len(line); {
			k := strings.IndexByte(line[pos:], '@')
			if k < 0 {
				break
			}
			pos += k + 1
			var name string
			for _, m := range markerNames {
				if strings.HasPrefix(line[pos:], m+"(") {
					name = m
				}
			}
			if name == "" {
				continue
			}
			args, rest, err := parseArgs(line[pos+len(name)+1:])
			if err != nil {
				return nil, fmt.Errorf("%s:%d: bad marker: %v", file, n+1, err)
			}
			m := marker{name: name, line: n + 1}
			for _, a := range args {
				// line=-1 moves the marker to the line above, for facts
				// on a line that cannot hold a comment.
				if v, ok := strings.CutPrefix(a, "only="); ok {
					m.only = v
					continue
				}
				if v, ok := strings.CutPrefix(a, "not="); ok {
					m.not = v
					continue
				}
				if d, ok := strings.CutPrefix(a, "line="); ok {
					k, err := strconv.Atoi(d)
					if err != nil {
						return nil, fmt.Errorf("%s:%d: bad line offset %q", file, n+1, d)
					}
					m.line += k
					continue
				}
				m.args = append(m.args, a)
			}
			out = append(out, m)
			pos = len(line) - len(rest)
		}
	}
	return out, nil
}

// parseArgs reads comma-separated arguments up to the closing parenthesis;
// an argument is a Go-quoted string, or key="quoted", or a bare word.
func parseArgs(s string) (args []string, rest string, err error) {
	for {
		s = strings.TrimLeft(s, " ")
		if strings.HasPrefix(s, ")") {
			return args, s[1:], nil
		}
		var arg string
		key, val, hasKey := strings.Cut(s, "=")
		if hasKey && !strings.ContainsAny(key, `,)"`) && strings.HasPrefix(val, `"`) {
			q, err := strconv.QuotedPrefix(val)
			if err != nil {
				return nil, "", err
			}
			uq, _ := strconv.Unquote(q)
			arg, s = key+"="+uq, val[len(q):]
		} else if strings.HasPrefix(s, `"`) {
			q, err := strconv.QuotedPrefix(s)
			if err != nil {
				return nil, "", err
			}
			arg, _ = strconv.Unquote(q)
			s = s[len(q):]
		} else {
			k := strings.IndexAny(s, ",)")
			if k < 0 {
				return nil, "", errors.New("unterminated marker")
			}
			arg, s = strings.TrimSpace(s[:k]), s[k:]
		}
		args = append(args, arg)
		s = strings.TrimLeft(s, " ")
		s = strings.TrimPrefix(s, ",")
	}
}

type symWant struct {
	core.Symbol
	doc, sig *string
}

func symKey(s core.Symbol) string {
	return fmt.Sprintf("line %d: %s %s exported=%v parent=%q", s.Line, s.Kind, s.Name, s.Exported, s.Parent)
}

func impKey(im core.Import) string { return fmt.Sprintf("line %d: %q %s", im.Line, im.Spec, im.Kind) }

// Check compares one file's facts, found by the parser named stage, with
// the markers in its source. An error means the markers themselves are
// malformed.
func Check(stage string, f core.SourceFile, got core.FileFacts) (Score, error) {
	var (
		r        Score
		wantPkg  string
		wantImps []string
		wantSyms []symWant
		ends     = map[string]int{}
	)
	fail := func(format string, args ...any) { r.Problems = append(r.Problems, fmt.Sprintf(format, args...)) }
	if got.Error != "" {
		fail("Error = %q", got.Error)
	}
	markers, err := parseMarkers(f.Path, f.Content)
	if err != nil {
		return r, err
	}
	for _, m := range markers {
		if m.only != "" && m.only != stage || m.not == stage {
			continue
		}
		switch m.name {
		case "package":
			wantPkg = m.args[0]
		case "import":
			if len(m.args) != 2 {
				return r, fmt.Errorf("%s:%d: @import wants spec and kind", f.Path, m.line)
			}
			wantImps = append(wantImps, impKey(core.Import{Spec: m.args[0], Line: m.line, Kind: m.args[1]}))
		case "sym":
			if len(m.args) < 2 {
				return r, fmt.Errorf("%s:%d: @sym wants name and kind", f.Path, m.line)
			}
			w := symWant{Symbol: core.Symbol{Name: m.args[0], Kind: m.args[1], Line: m.line}}
			for _, a := range m.args[2:] {
				switch k, v, _ := strings.Cut(a, "="); k {
				case "exported":
					w.Exported = true
				case "parent":
					w.Parent = v
				case "doc":
					w.doc = &v
				case "sig":
					w.sig = &v
				default:
					return r, fmt.Errorf("%s:%d: unknown @sym option %q", f.Path, m.line, a)
				}
			}
			wantSyms = append(wantSyms, w)
		case "end":
			ends[m.args[0]] = m.line
		}
	}

	if wantPkg != "" || got.Package != "" {
		r.Facts++
		if got.Package != wantPkg {
			fail("Package = %q, want %q", got.Package, wantPkg)
		} else {
			r.Right++
		}
	}
	var gotImps []string
	for _, im := range got.Imports {
		gotImps = append(gotImps, impKey(im))
	}
	diff(&r, "import", wantImps, gotImps)
	if !slices.IsSortedFunc(got.Imports, func(a, b core.Import) int { return a.Line - b.Line }) {
		fail("imports not in source order: %v", gotImps)
	}

	var wantKeys, gotKeys []string
	for _, w := range wantSyms {
		wantKeys = append(wantKeys, symKey(w.Symbol))
	}
	byKey := map[string]core.Symbol{}
	byName := map[string]core.Symbol{}
	for _, s := range got.Symbols {
		gotKeys = append(gotKeys, symKey(s))
		byKey[symKey(s)] = s
		qual := s.Name
		if s.Parent != "" {
			qual = s.Parent + "." + s.Name
		}
		byName[qual] = s
		if s.EndLine != 0 && s.EndLine < s.Line {
			fail("%s: EndLine %d before Line %d", qual, s.EndLine, s.Line)
		}
	}
	diff(&r, "symbol", wantKeys, gotKeys)
	for _, w := range wantSyms {
		s, ok := byKey[symKey(w.Symbol)]
		if w.doc != nil {
			r.Facts++
			if !ok {
				// Counted as missing with the symbol.
			} else if s.Doc != *w.doc {
				fail("%s: Doc = %q, want %q", symKey(s), s.Doc, *w.doc)
			} else {
				r.Right++
			}
		}
		if w.sig != nil {
			r.Facts++
			if !ok {
				// Counted as missing with the symbol.
			} else if s.Signature != *w.sig {
				fail("%s: Signature = %q, want %q", symKey(s), s.Signature, *w.sig)
			} else {
				r.Right++
			}
		}
	}
	for _, qual := range slices.Sorted(maps.Keys(ends)) {
		line := ends[qual]
		r.Facts++
		s, ok := byName[qual]
		if !ok {
			fail("@end(%s): no such symbol", qual)
		} else if s.EndLine != line {
			fail("%s: EndLine = %d, want %d", qual, s.EndLine, line)
		} else {
			r.Right++
		}
	}
	return r, nil
}

// diff counts want in r.Facts, what got has of them in r.Right, and
// reports what is missing from got and what got has in excess.
func diff(r *Score, what string, want, got []string) {
	count := map[string]int{}
	for _, w := range want {
		count[w]++
	}
	r.Facts += len(want)
	r.Right += len(want)
	for _, g := range got {
		count[g]--
	}
	keys := make([]string, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		switch c := count[k]; {
		case c > 0:
			r.Right -= c
			r.Problems = append(r.Problems, fmt.Sprintf("missing %s %s", what, k))
		case c < 0:
			r.Extra -= c
			r.Problems = append(r.Problems, fmt.Sprintf("unexpected %s %s", what, k))
		}
	}
}
