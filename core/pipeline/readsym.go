package pipeline

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/store"
	"github.com/rubi-dev/rubi/core/text"
)

// Reading a symbol: `rubi read` and the MCP read tool take a symbol as
// their last kind of target, after a note and a path. The forms are
//
//	Name              every definition of Name
//	Q.Name, Q::Name   where Q names the definition's parent (the type or
//	                  class of a method or field: Type.method) or its
//	                  module, or both (pkg.Type.method); the last of Q's
//	                  names is tried as the parent first
//	PATH::Name        the definitions of Name (qualified or not) in the
//	                  indexed file PATH (a PATH with a folder is a file
//	                  even when not indexed: nothing is found in it)
//
// A module is named by the folders of the file's path and, but in Go,
// by the file's name without its extension (django.db.models.query,
// flask.helpers; __init__ and index name their folder); in Go by the
// folders and the package's name (store, core/store, names for
// plugins/rank-names). Any run of those names qualifies: flask.url_for
// finds url_for in src/flask/helpers.py, as Python code imports it.
// Go's (*Type).method is Type.method; Ruby's Class#method, Class.method.
//
// The definitions come from the index's symbols file (core/manifest): it
// is searched for the name as it is written in JSON, and only the lines
// that hold it are decoded, so a read costs one scan of a file of a few
// megabytes and no decoding of every symbol.

// maxCandidates is the most candidates an ambiguous symbol lists.
const maxCandidates = 20

// Definition is one definition of a symbol the index holds.
type Definition struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	EndLine   int    `json:"end_line"`
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	Parent    string `json:"parent,omitempty"`
	Exported  bool   `json:"exported,omitempty"`
	Role      string `json:"role,omitempty"`
	Signature string `json:"signature,omitempty"`

	// tier is how the qualifier named it: 2 its parent, 1 its module
	// alone, 0 no qualifier.
	tier int
	rank float64
	hash [32]byte
}

// Qualified is the definition's name as its parent qualifies it.
func (d *Definition) Qualified() string {
	if d.Parent == "" {
		return d.Name
	}
	return d.Parent + "." + d.Name
}

// SymbolRead is what reading a symbol found: one definition and its
// lines as the file has them now, or the candidates of an ambiguous
// symbol, or nothing (Found).
type SymbolRead struct {
	Target string `json:"target"`
	// Name is the symbol's own name, without qualifier or file.
	Name string `json:"name"`
	// Definition is the one definition found, and Text its lines,
	// numbered, as read now (at most maxDefinitionLines).
	Definition *Definition `json:"definition,omitempty"`
	Text       string      `json:"text,omitempty"`
	// Moved gives the lines the index had, when the file changed since
	// and the definition was found again at Definition's.
	Moved *LineRange `json:"moved_from,omitempty"`
	// Gone says the file changed since the index and no longer holds
	// the definition (or is gone): no lines are shown.
	Gone bool `json:"gone,omitempty"`
	// Candidates are the definitions of an ambiguous symbol, best first
	// (the qualifier's closest, exported, code before tests, central),
	// at most maxCandidates; More counts those left out.
	Candidates []Definition `json:"candidates,omitempty"`
	More       int          `json:"more,omitempty"`
	// Defined counts the symbols of that name anywhere, when none fits
	// the qualifier or the file.
	Defined int `json:"defined,omitempty"`
	// Within is what the target restricted the search to: its qualifier
	// or its file.
	Within string `json:"within,omitempty"`
}

// LineRange is a span of lines, from 1.
type LineRange struct {
	Line    int `json:"line"`
	EndLine int `json:"end_line"`
}

// Found reports whether the read found a definition or candidates.
func (r *SymbolRead) Found() bool {
	return r.Definition != nil && !r.Gone || len(r.Candidates) > 0
}

// symbolQuery is a symbol target parsed: the name, the qualifier's
// names, and the file PATH:: named.
type symbolQuery struct {
	name  string
	quals []string
	file  string
}

// ParseSymbol reports whether target reads as a symbol (see the forms
// above): its last name an identifier, which a note title with spaces or
// a region path:START-END is not.
func ParseSymbol(target string) bool {
	_, ok := parseSymbol(target, func(string) bool { return false })
	return ok
}

// parseSymbol parses target; isFile says whether a PATH before "::" is an
// indexed file.
func parseSymbol(target string, isFile func(string) bool) (symbolQuery, bool) {
	var q symbolQuery
	target = strings.TrimSpace(target)
	rest := target
	for i := 0; ; {
		k := strings.Index(target[i:], "::")
		if k < 0 {
			break
		}
		i += k
		// A path with a folder is a file even when the index has none
		// there: the read then says no symbol is in it.
		if p := cleanRel(target[:i]); p != "" && (isFile(p) || strings.Contains(p, "/")) {
			q.file, rest = p, target[i+2:]
			break
		}
		i += 2
	}
	rest = strings.NewReplacer("(*", "", "(", "", ")", "", "::", ".", "#", ".", "/", ".").Replace(rest)
	parts := strings.Split(rest, ".")
	q.name, q.quals = parts[len(parts)-1], parts[:len(parts)-1]
	if !identifier(q.name) {
		return q, false
	}
	for _, s := range q.quals {
		if s == "" || strings.ContainsFunc(s, unicode.IsSpace) {
			return q, false
		}
	}
	return q, true
}

// identifier reports a name a parser gives a symbol: letters, digits,
// _ and $, and a final ? or ! (Ruby).
func identifier(s string) bool {
	s = strings.TrimRight(s, "?!")
	if s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '$' {
			return false
		}
	}
	return true
}

// cleanRel is a project-relative path as the index names files.
func cleanRel(p string) string {
	p = path.Clean(filepath.ToSlash(strings.TrimSpace(p)))
	if p == "." || path.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../") {
		return ""
	}
	return p
}

// ReadSymbol finds target's definitions in the index as it stands (the
// caller refreshes it first, or not) and reads the one it names, or
// lists the candidates. A target that is no symbol (ParseSymbol) finds
// nothing. ErrNoIndex before the first index.
func (e *Engine) ReadSymbol(target string) (*SymbolRead, error) {
	m, err := e.folder.indexed()
	if err != nil {
		return nil, err
	}
	q, ok := parseSymbol(target, m.Has)
	r := &SymbolRead{Target: target, Name: q.name}
	if !ok {
		return r, nil
	}
	defs, err := e.definitions(m, q.name)
	if errors.Is(err, fs.ErrNotExist) {
		// Another process indexed meanwhile and removed the generation
		// this manifest names: read the new one.
		e.folder.set(nil)
		if m, err = e.folder.indexed(); err == nil {
			defs, err = e.definitions(m, q.name)
		}
	}
	if err != nil {
		return nil, err
	}
	r.Within = strings.Join(q.quals, ".")
	if q.file != "" {
		r.Within = strings.TrimSuffix(q.file+"::"+r.Within, "::")
	}
	fit := pick(defs, q, m)
	switch {
	case len(fit) == 0:
		r.Defined = len(defs)
	case len(fit) == 1:
		d := fit[0]
		r.Definition = &d
		e.readDefinition(r)
	default:
		r.Candidates = fit[:min(len(fit), maxCandidates)]
		r.More = len(fit) - len(r.Candidates)
	}
	return r, nil
}

// definitions returns every definition of name in m's symbols file.
func (e *Engine) definitions(m *manifest.Manifest, name string) ([]Definition, error) {
	mapped, err := store.Map(manifest.SymbolsFile(e.folder.dir, m.Generation), e.oneShot)
	if err != nil {
		return nil, err
	}
	defer mapped.Close()
	data := mapped.Data
	// The name and its closing quote are searched for, and the key
	// before it checked: a needle that begins with a quote, as the
	// whole key does, stops the search at every quote of the file and
	// costs two to three times as much.
	quoted, _ := json.Marshal(name)
	needle, key := quoted[1:], []byte(`"name":"`)
	var out []Definition
	for from := 0; from < len(data); {
		i := bytes.Index(data[from:], needle)
		if i < 0 {
			break
		}
		i += from
		if !bytes.HasSuffix(data[:i], key) {
			from = i + 1
			continue
		}
		start := bytes.LastIndexByte(data[:i], '\n') + 1
		end := len(data)
		if k := bytes.IndexByte(data[i:], '\n'); k >= 0 {
			end = i + k
		}
		from = end + 1
		var line manifest.SymbolsLine
		if json.Unmarshal(data[start:end], &line) != nil {
			continue
		}
		p, ok := core.UnescapePath(line.Path)
		if !ok {
			continue
		}
		rec, ok := m.File(p)
		if !ok || rec.SymOff != int64(start) {
			continue // a file no longer indexed, or an older line of it
		}
		for _, s := range line.Symbols {
			if s.Name == name {
				out = append(out, Definition{Path: p, Line: s.Line, EndLine: max(s.EndLine, s.Line), Kind: s.Kind, Name: s.Name,
					Parent: s.Parent, Exported: s.Exported, Role: rec.Role, Signature: s.Signature, rank: rec.Rank, hash: rec.Hash})
			}
		}
	}
	return out, nil
}

// pick keeps the definitions q names, best first: those whose parent its
// qualifier names before those it names by module alone, then exported,
// code before the other roles, the more central file, and in path and
// line order.
func pick(defs []Definition, q symbolQuery, m *manifest.Manifest) []Definition {
	var out []Definition
	best := 0
	for _, d := range defs {
		if q.file != "" && d.Path != q.file {
			continue
		}
		d.tier = 0
		if len(q.quals) > 0 {
			rec, _ := m.File(d.Path)
			if d.tier = qualifies(q.quals, &d, rec); d.tier == 0 {
				continue
			}
		}
		best = max(best, d.tier)
		out = append(out, d)
	}
	// A qualifier that names a parent leaves out what it names only as a
	// module: Flask.url_for is the method, not every url_for of a flask
	// folder.
	out = slices.DeleteFunc(out, func(d Definition) bool { return d.tier < best })
	slices.SortStableFunc(out, func(a, b Definition) int {
		return cmp.Or(
			boolOrder(a.Exported, b.Exported),
			boolOrder(a.Role == codemap.RoleCode || a.Role == "", b.Role == codemap.RoleCode || b.Role == ""),
			cmp.Compare(b.rank, a.rank),
			strings.Compare(a.Path, b.Path),
			cmp.Compare(a.Line, b.Line))
	})
	return out
}

// boolOrder puts true first.
func boolOrder(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	}
	return 1
}

// qualifies says how quals name d: 2 when the last names its parent and
// the others, if any, its module; 1 when they all name its module; 0
// when they do not name it.
func qualifies(quals []string, d *Definition, rec *manifest.Record) int {
	mod := moduleNames(d.Path, rec)
	if d.Parent != "" {
		parent := strings.Split(d.Parent, ".")
		n := min(len(parent), len(quals))
		if slices.Equal(quals[len(quals)-n:], parent[len(parent)-n:]) {
			if rest := quals[:len(quals)-n]; len(rest) == 0 || runIn(rest, mod) {
				return 2
			}
		}
	}
	if runIn(quals, mod) {
		return 1
	}
	return 0
}

// moduleNames are the names a qualifier may give the module of the file
// p: its folders, and its name without extension but in Go, where the
// package's name comes last when it is not the folder's.
func moduleNames(p string, rec *manifest.Record) []string {
	var names []string
	if dir := path.Dir(p); dir != "." {
		names = strings.Split(dir, "/")
	}
	if rec != nil && rec.Language == "go" {
		if rec.Package != "" && (len(names) == 0 || names[len(names)-1] != rec.Package) {
			names = append(names, rec.Package)
		}
		return names
	}
	base := path.Base(p)
	if stem := strings.TrimSuffix(base, path.Ext(base)); stem != "__init__" && stem != "index" {
		names = append(names, stem)
	}
	return names
}

// runIn reports whether run appears in names, in order and contiguous.
func runIn(run, names []string) bool {
	for i := 0; i+len(run) <= len(names); i++ {
		if slices.Equal(names[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

// readDefinition reads r.Definition's lines from its file as it is now.
// A file changed since the index is parsed again, alone, and the
// definition found in it again (same name, parent and kind; of several,
// the nearest the index's line): its lines then, and Moved. When the file
// is gone, unreadable or no longer defines it, Gone.
func (e *Engine) readDefinition(r *SymbolRead) {
	d := r.Definition
	root := e.cfg.Root
	content, err := store.ReadWithin(root, filepath.Join(root, filepath.FromSlash(d.Path)), maxSourceRead)
	if err != nil {
		r.Gone = true
		return
	}
	if sha256.Sum256(content) != d.hash {
		syms, ok := e.stages.parseOne(d.Path, content)
		found := -1
		for i, s := range syms {
			if s.Name == d.Name && s.Parent == d.Parent && s.Kind == d.Kind &&
				(found < 0 || abs(s.Line-d.Line) < abs(syms[found].Line-d.Line)) {
				found = i
			}
		}
		if !ok || found < 0 {
			r.Gone = true
			return
		}
		s := syms[found]
		if s.Line != d.Line || max(s.EndLine, s.Line) != d.EndLine {
			r.Moved = &LineRange{d.Line, d.EndLine}
			d.Line, d.EndLine = s.Line, max(s.EndLine, s.Line)
		}
		d.Signature = s.Signature
	}
	r.Text = numbered(content, d.Path, d.Line, d.EndLine)
}

// Bounds of a definition's text, those of a file region an agent reads
// (core/knowledge.ReadRegion), in the same form: a definition is a
// region whose lines the index found.
const (
	maxDefinitionLines = 400
	maxLineBytes       = 2000
)

// numbered returns lines start to end of content, each prefixed with its
// number as "  42\t<text>", at most maxDefinitionLines of them, each cut
// at maxLineBytes, and a last line saying what was left out.
func numbered(content []byte, p string, start, end int) string {
	last := min(end, start+maxDefinitionLines-1)
	width := len(strconv.Itoa(last))
	var b strings.Builder
	line := 0
	for len(content) > 0 && line < last {
		text := content
		if i := bytes.IndexByte(content, '\n'); i >= 0 {
			text, content = content[:i], content[i+1:]
		} else {
			content = nil
		}
		line++
		if line < start {
			continue
		}
		text = bytes.TrimSuffix(text, []byte("\r"))
		cut := ""
		if len(text) > maxLineBytes {
			text, cut = text[:maxLineBytes], " …"
		}
		fmt.Fprintf(&b, "%*d\t%s%s\n", width, line, text, cut)
	}
	if line == last && last < end {
		fmt.Fprintf(&b, "… %d more lines (at most %d per read): ask for %s:%d-%d\n", end-last, maxDefinitionLines, p, last+1, end)
	}
	return b.String()
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// Render is the read as rubi shows it, in l: the definition headed by
// "path:line-end kind Parent.Name", or the candidates one a line. A read
// that found nothing renders nothing: the caller says what it tried
// (NotFound).
func (r *SymbolRead) Render(l messages.Lang) string {
	var b strings.Builder
	if d := r.Definition; d != nil {
		switch {
		case r.Gone:
			b.WriteString(l.Format(messages.ReadSymbolGone, text.Escape(d.Path), text.Escape(d.Qualified())) + "\n")
		default:
			if r.Moved != nil {
				b.WriteString(l.Format(messages.ReadSymbolMoved, text.Escape(d.Path), text.Escape(d.Qualified()), d.Line, d.EndLine, r.Moved.Line, r.Moved.EndLine) + "\n")
			}
			fmt.Fprintf(&b, "%s:%d-%d %s %s\n", text.Escape(d.Path), d.Line, d.EndLine, d.Kind, text.Escape(d.Qualified()))
			b.WriteString(r.Text)
		}
		return b.String()
	}
	if len(r.Candidates) == 0 {
		return ""
	}
	b.WriteString(l.Format(messages.ReadSymbolCandidates, len(r.Candidates)+r.More, text.Escape(r.Name)) + "\n")
	for _, d := range r.Candidates {
		fmt.Fprintf(&b, "  %s:%d %s %s\n", text.Escape(d.Path), d.Line, d.Kind, text.Escape(d.Qualified()))
	}
	if r.More > 0 {
		b.WriteString(l.Format(messages.ReadSymbolMore, r.More) + "\n")
	}
	return b.String()
}

// NotFound says, in l, why a read of a symbol target shows no lines:
// its file changed and no longer defines it, or what the read tried: no
// note, no file (pathErr, why reading it as a path failed) and no symbol,
// or none where the target's qualifier or file says.
func (r *SymbolRead) NotFound(l messages.Lang, pathErr error) string {
	if r.Gone {
		return strings.TrimSuffix(r.Render(l), "\n")
	}
	why := "-"
	switch {
	case errors.Is(pathErr, fs.ErrNotExist):
		why = fs.ErrNotExist.Error() // not the lstat of a path made of a symbol
	case pathErr != nil:
		why = pathErr.Error()
	}
	if r.Defined == 1 && r.Within != "" {
		return l.Format(messages.ReadNoQualifiedOne, r.Target, why, text.Escape(r.Name), text.Escape(r.Within))
	}
	if r.Defined > 0 && r.Within != "" {
		return l.Format(messages.ReadNoQualified, r.Target, why, r.Defined, text.Escape(r.Name), text.Escape(r.Within))
	}
	return l.Format(messages.ReadNoSymbol, r.Target, why, text.Escape(r.Name))
}
