package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"path"
	"regexp"
	"sort"
	"strings"
)

// A code localization query: the doc comment of an exported function or
// type with its own name masked, whose answer is the file that defines it.
type codeQuery struct {
	Module string `json:"module"`
	File   string `json:"file"` // slash path relative to the module root
	Symbol string `json:"symbol"`
	Line   int    `json:"line"`
	Text   string `json:"text"`
	// DocStart and DocEnd are the byte offsets of the doc comment in the
	// file, so it can be taken out of the indexed copy.
	DocStart, DocEnd int `json:"-"`
}

// Limits on a usable doc comment, counted after masking.
const (
	minDocWords = 8
	minDocChars = 40
	maxDocWords = 64
)

// goCandidates returns the queries one Go file offers: top-level exported
// functions (not methods: their docs mostly restate an interface) and
// types with a doc comment that says enough. Test files, generated files
// and files that do not parse offer none.
func goCandidates(rel string, src []byte) []codeQuery {
	if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
		return nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil || ast.IsGenerated(f) {
		return nil
	}
	var out []codeQuery
	add := func(name string, doc *ast.CommentGroup, pos token.Pos) {
		if !ast.IsExported(name) || doc == nil {
			return
		}
		if text, ok := docQuery(doc.Text(), name); ok {
			out = append(out, codeQuery{
				File: rel, Symbol: name, Line: fset.Position(pos).Line, Text: text,
				DocStart: fset.Position(doc.Pos()).Offset, DocEnd: fset.Position(doc.End()).Offset,
			})
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				add(d.Name.Name, d.Doc, d.Pos())
			}
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				continue
			}
			for _, s := range d.Specs {
				ts := s.(*ast.TypeSpec)
				doc := ts.Doc
				if doc == nil && len(d.Specs) == 1 {
					doc = d.Doc
				}
				add(ts.Name.Name, doc, ts.Pos())
			}
		}
	}
	return out
}

// docQuery turns a doc comment into a query: paragraphs after the first
// "Deprecated:" one and indented (code) lines are left out, the name is
// masked wherever it appears as a word, and the text is cut to
// maxDocWords words. It reports false when too little is left.
func docQuery(doc, name string) (string, bool) {
	var kept []string
	for para := range strings.SplitSeq(doc, "\n\n") {
		if strings.HasPrefix(strings.TrimSpace(para), "Deprecated:") {
			break
		}
		for line := range strings.SplitSeq(para, "\n") {
			if strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") {
				continue
			}
			kept = append(kept, line)
		}
	}
	text := maskName(strings.Join(kept, " "), name)
	fields := strings.Fields(text)
	if len(fields) > maxDocWords {
		fields = fields[:maxDocWords]
	}
	text = strings.Join(fields, " ")
	if len(fields) < minDocWords || len(text) < minDocChars {
		return "", false
	}
	return text, true
}

// maskName removes name from text wherever it stands as a word, in any
// case ("NewClient", "newClient"), including as the receiver of a
// selector ("NewClient.Do" keeps ".Do").
func maskName(text, name string) string {
	re := regexp.MustCompile(`(?i)(^|[^\pL\pN_])` + regexp.QuoteMeta(name) + `($|[^\pL\pN_])`)
	for {
		next := re.ReplaceAllString(text, "$1$2")
		if next == text {
			return strings.Join(strings.Fields(next), " ")
		}
		text = next
	}
}

// sampleQueries picks up to n queries: a query whose text occurs more than
// once is ambiguous and dropped, the rest are shuffled with a fixed seed,
// and a file gives at most one query so large files do not dominate.
func sampleQueries(cands []codeQuery, n int, seed uint64) []codeQuery {
	count := map[string]int{}
	for _, c := range cands {
		count[strings.ToLower(c.Text)]++
	}
	var pool []codeQuery
	for _, c := range cands {
		if count[strings.ToLower(c.Text)] == 1 {
			pool = append(pool, c)
		}
	}
	sort.Slice(pool, func(i, j int) bool {
		if pool[i].File != pool[j].File {
			return pool[i].File < pool[j].File
		}
		return pool[i].Line < pool[j].Line
	})
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	used := map[string]bool{}
	var out []codeQuery
	for _, c := range pool {
		if len(out) == n {
			break
		}
		if used[c.File] {
			continue
		}
		used[c.File] = true
		out = append(out, c)
	}
	return out
}

// excludedFromQueries are directories whose files make poor answers:
// vendored, test fixtures, and example or sample code that repeats the
// real thing.
func excludedFromQueries(rel string) bool {
	for part := range strings.SplitSeq(path.Dir(rel), "/") {
		switch part {
		case "vendor", "testdata", "third_party", "example", "examples", "sample", "samples":
			return true
		}
	}
	return false
}

// blankRange returns src with the bytes in [start, end) removed except
// newlines, so a doc comment disappears and line numbers stay.
func blankRange(src []byte, start, end int) []byte {
	if start < 0 || end > len(src) || start >= end {
		return src
	}
	out := make([]byte, 0, len(src))
	out = append(out, src[:start]...)
	for _, c := range src[start:end] {
		if c == '\n' {
			out = append(out, c)
		}
	}
	return append(out, src[end:]...)
}
