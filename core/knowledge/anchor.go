package knowledge

import (
	"bytes"
	"go/scanner"
	"go/token"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/rubi-dev/rubi/core"
)

// What a note is anchored to (Node.Anchors): the code it is about, not
// the whole files it names, so that an edit elsewhere in a file, or to a
// comment, leaves it current.
//
//   - "<path>#<Name>": "body:<sha256>", the declarations named Name in
//     the file (a method as "Type.Name", or its bare name), as the code
//     map spans them, hashed without comments and whitespace. A note is
//     about the symbols it lists (symbols:, anchored in the file of its
//     files that declares them, else where the code map finds them) and
//     about those of its files' symbols that its title or body names: a
//     qualified name (Engine.NotesChanged), a name written as code
//     (`parse` or parse(), or one that looks like an identifier:
//     headCommit, MAX_SIZE), or a capitalized name (Handoff) that does
//     not start a sentence. A bare name declared more than once in the
//     file (two types' Close methods, a redefinition) anchors all of
//     those declarations together; at most 16 names a file.
//   - "<path>": "code:<sha256>", for a file of which the note names no
//     symbol: the file's code without comments and whitespace.
//   - The anchors of rubi before 0.x: "<path>": the SHA-256 of the whole
//     file, and "symbol:<Name>": that of the symbol's signature line. They
//     are still checked as they were, and migrated (Migrate) to the
//     anchors above. A whole-file anchor whose file as it was could not
//     be found is kept as "<path>": "whole:<sha256>", checked as before
//     and not looked for again.
const (
	codePrefix  = "code:"
	bodyPrefix  = "body:"
	wholePrefix = "whole:"
)

// maxAnchorFile caps what is read of a file to anchor or check a note: a
// file the index does not parse (past index.max_file_size) is still
// hashed, but no further than this.
const maxAnchorFile = 8 << 20

// maxTextSymbols caps the symbols a note's text anchors it to in one file.
const maxTextSymbols = 16

// codeText is a file's code, normalized line by line: codeLines.
type codeText struct {
	lang  string
	lines []string
}

// codeLines returns the code of src, a file at path, a string per source
// line: the line's tokens without comments and with whitespace removed
// (one space kept between two word characters). Go is tokenized by
// go/scanner (exact: comments are dropped, strings kept whole, the
// semicolons Go inserts at line ends count like written ones). Other
// languages mask knows (the regex parser's lexer, Options.MaskComments:
// //, /* */, #, Python docstrings, with strings and raw strings respected)
// have their comments blanked; the rest, and every language when mask is
// nil, whitespace only. Approximate:
// outside Go, whitespace inside a string literal is normalized like code
// ("a, b" and "a,b" are one string), and Python keeps each line's
// indentation, which is code there.
func codeLines(path string, src []byte, mask core.CommentMasker) codeText {
	lang := core.DetectLanguage(path)
	n := bytes.Count(src, []byte("\n")) + 1
	lines := make([]string, n)
	if lang == core.LangGo {
		fset := token.NewFileSet()
		f := fset.AddFile(path, -1, len(src))
		var sc scanner.Scanner
		sc.Init(f, src, func(token.Position, string) {}, 0)
		type tok struct {
			line int
			s    string
		}
		var toks []tok
		for {
			pos, t, lit := sc.Scan()
			if t == token.EOF {
				break
			}
			l := f.Line(pos) - 1
			if l < 0 || l >= n {
				continue
			}
			s := lit
			if t == token.SEMICOLON {
				s = ";"
			} else if s == "" {
				s = t.String()
			}
			// A semicolon before a closing ) or } may be left out: "{ return
			// x }" on one line is the code of three lines.
			if (s == ")" || s == "}") && len(toks) > 0 && toks[len(toks)-1].s == ";" {
				toks = toks[:len(toks)-1]
			}
			toks = append(toks, tok{l, s})
		}
		b := make([]strings.Builder, n)
		for _, t := range toks {
			if b[t.line].Len() > 0 {
				b[t.line].WriteByte(' ')
			}
			b[t.line].WriteString(t.s)
		}
		for i := range b {
			lines[i] = b[i].String()
		}
		return codeText{lang: lang, lines: lines}
	}
	code := src
	if mask != nil {
		if masked, ok := mask(lang, src); ok {
			code = masked
		}
	}
	for i, line := range bytes.Split(code, []byte("\n")) {
		if i >= n {
			break
		}
		lines[i] = squeeze(line, lang == core.LangPython)
	}
	return codeText{lang: lang, lines: lines}
}

// squeeze removes a line's whitespace, keeping one space between two
// word characters and, with indent, the line's indentation.
func squeeze(line []byte, indent bool) string {
	var b strings.Builder
	trimmed := bytes.TrimLeft(line, " \t\r\f\v")
	if len(bytes.TrimSpace(trimmed)) == 0 {
		return ""
	}
	if indent {
		b.Write(line[:len(line)-len(trimmed)])
	}
	space := false
	for _, c := range trimmed {
		if c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' {
			space = true
			continue
		}
		if space && b.Len() > 0 && wordByte(b.String()[b.Len()-1]) && wordByte(c) {
			b.WriteByte(' ')
		}
		space = false
		b.WriteByte(c)
	}
	return b.String()
}

func wordByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= utf8.RuneSelf
}

// hash returns the hash of lines from to to (1-based, inclusive; clamped),
// joined as the language's code is: Python by line (its line breaks are
// code), Go with a space (go/scanner's tokens), others by the word rule of
// squeeze, so that moving a brace to the next line changes nothing.
func (c codeText) hash(from, to int) string {
	from = max(from, 1)
	to = min(to, len(c.lines))
	var b strings.Builder
	for i := from - 1; i < to; i++ {
		l := c.lines[i]
		if l == "" {
			continue
		}
		if b.Len() > 0 {
			switch {
			case c.lang == core.LangPython:
				b.WriteByte('\n')
			case c.lang == core.LangGo || wordByte(b.String()[b.Len()-1]) && wordByte(l[0]):
				b.WriteByte(' ')
			}
		}
		b.WriteString(l)
	}
	return hashString(b.String())
}

// span is a declaration's lines in a file.
type span struct {
	name, qual string // Name, and Parent.Name (Name without a parent)
	start, end int
}

// spans turns a file's symbols into line ranges: a symbol without an end
// runs to the next one that starts after it (or the end of the file), as
// the units of an answer do. Modules, which are whole files, and symbols
// without a line are left out.
func spans(syms []core.Symbol, lines int) []span {
	var out []span
	for _, s := range syms {
		if s.Line < 1 || s.Kind == core.SymbolModule || s.Name == "" {
			continue
		}
		q := s.Name
		if s.Parent != "" {
			q = s.Parent + "." + s.Name
		}
		out = append(out, span{name: s.Name, qual: q, start: s.Line, end: s.EndLine})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].start < out[j].start })
	for i := range out {
		if out[i].end >= out[i].start {
			out[i].end = min(out[i].end, max(lines, out[i].start))
			continue
		}
		out[i].end = max(lines, out[i].start)
		for _, v := range out[i+1:] {
			if v.start > out[i].start {
				out[i].end = v.start - 1
				break
			}
		}
	}
	return out
}

// declsOf returns the declarations a symbol anchor names: by qualified
// name when it has a dot, else every declaration of that bare name.
func declsOf(sp []span, name string) []span {
	var out []span
	for _, s := range sp {
		if strings.Contains(name, ".") && s.qual == name || !strings.Contains(name, ".") && s.name == name {
			out = append(out, s)
		}
	}
	return out
}

// bodyHash hashes declarations together, in file order.
func bodyHash(c codeText, decls []span) string {
	parts := make([]string, len(decls))
	for i, d := range decls {
		parts[i] = c.hash(d.start, d.end)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return hashString(strings.Join(parts, "\x00"))
}

// linesOf says where declarations are: "L40-62".
func linesOf(decls []span) string {
	a, b := decls[0].start, decls[0].end
	for _, d := range decls[1:] {
		a, b = min(a, d.start), max(b, d.end)
	}
	if a == b {
		return "L" + itoa(a)
	}
	return "L" + itoa(a) + "-" + itoa(b)
}

// SymbolSource is what a CodeMap may add so that notes are anchored to
// the symbols they are about: the symbols of a project file as parsed
// from content (the file's current content, or an older one when anchors
// are migrated), with their lines. Without it, notes are anchored to
// their files' code.
type SymbolSource interface {
	Symbols(path string, content []byte) ([]core.Symbol, bool)
}

// codeIdent finds the names a note's text may name: identifiers, dotted
// chains of them (pipeline.Engine.NotesChanged), each maybe written as
// code (`x`) or called (x().
var codeIdent = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("(`?)([\\pL_$][\\pL\\pN_$]*(?:\\.[\\pL_$][\\pL\\pN_$]*)*)(`|\\()?")
})

// textNames returns the names a note's title and body give to code: for
// a chain a.B.C, "B.C" (qualified) and "C"; a bare name only when it reads
// as code: written `x` or x(, shaped like an identifier (a capital after
// the first letter, an underscore or a digit: headCommit, MAX_SIZE, utf8)
// or capitalized inside a sentence (Handoff), so that "Open the file" and
// "check the index" name neither func Open nor func check.
//
// chained holds the last names of chains (e.NotesChanged): such a name
// names its bare declarations only when no declaration of the file has
// the chain's qualified form (U.Close names U's Close, not T's).
func textNames(title, body string) (qualified, bare map[string]bool, chained map[string][]string) {
	qualified, bare, chained = map[string]bool{}, map[string]bool{}, map[string][]string{}
	for _, t := range []string{title, body} {
		for _, ix := range codeIdent().FindAllStringSubmatchIndex(t, -1) {
			tick, name, after := t[ix[2]:ix[3]], t[ix[4]:ix[5]], ""
			if ix[6] >= 0 {
				after = t[ix[6]:ix[7]]
			}
			parts := strings.Split(name, ".")
			last := parts[len(parts)-1]
			if len(parts) >= 2 {
				q := parts[len(parts)-2] + "." + last
				qualified[q] = true
				chained[last] = append(chained[last], q)
			} else if tick == "`" || after == "(" || identShaped(last) || capitalized(last) && !sentenceStart(t[:ix[0]]) {
				bare[last] = true
			}
		}
	}
	return qualified, bare, chained
}

// capitalized reports whether s starts with a capital: an exported Go
// name, a class (Handoff, Corpus).
func capitalized(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r) && len(s) > 1
}

// sentenceStart reports whether a word after before starts a sentence, a
// line or a list item, where any word is capitalized.
func sentenceStart(before string) bool {
	before = strings.TrimRight(before, " \t")
	if before == "" {
		return true
	}
	switch before[len(before)-1] {
	case '.', '!', '?', ':', ';', '\n', '-', '*', '#', '>', '(', '"', '\'':
		return true
	}
	return false
}

// identShaped reports whether s reads as an identifier, not a word: a
// capital after its first letter, an underscore or a digit.
func identShaped(s string) bool {
	for i, r := range s {
		if r == '_' || r >= '0' && r <= '9' || i > 0 && r >= 'A' && r <= 'Z' {
			return true
		}
	}
	return false
}

// anchorInput is the code anchors are computed from: read returns the
// content of a project file (false when it is missing: now, or as it was
// for a migration), syms its symbols (nil: no symbol anchors).
type anchorInput struct {
	read func(rel string) ([]byte, bool)
	syms func(rel string, content []byte) ([]core.Symbol, bool)
	// where finds the file declaring a symbol the note lists but none of
	// its files declares; nil for none.
	where func(name string) (string, bool)
	// mask blanks comments before code is hashed (Options.MaskComments).
	mask core.CommentMasker
}

type fileCode struct {
	code  codeText
	spans []span
	ok    bool // readable
	syms  bool // symbols known
}

func (in anchorInput) file(cache map[string]*fileCode, rel string) *fileCode {
	if fc, ok := cache[rel]; ok {
		return fc
	}
	fc := &fileCode{}
	cache[rel] = fc
	data, ok := in.read(rel)
	if !ok {
		return fc
	}
	fc.ok = true
	fc.code = codeLines(rel, data, in.mask)
	if in.syms != nil {
		if syms, ok := in.syms(rel, data); ok {
			fc.syms = true
			fc.spans = spans(syms, len(fc.code.lines))
		}
	}
	return fc
}

// anchorsOf computes every anchor of n (its files and symbols) from in.
// unknownFiles and unknownSymbols are the files that could not be read
// and the listed symbols found nowhere (only when symbols can be looked
// up).
func anchorsOf(n *Node, in anchorInput) (anchors map[string]string, unknownFiles, unknownSymbols []string) {
	anchors = map[string]string{}
	cache := map[string]*fileCode{}
	symbolsIn := map[string]int{} // file → symbol anchors
	put := func(rel string, fc *fileCode, name string) bool {
		decls := declsOf(fc.spans, name)
		if len(decls) == 0 {
			return false
		}
		k := rel + "#" + name
		if _, dup := anchors[k]; !dup {
			anchors[k] = bodyPrefix + bodyHash(fc.code, decls)
			symbolsIn[rel]++
		}
		return true
	}
	// The symbols it lists: in its own files first.
	for _, sym := range n.Symbols {
		found := false
		for _, rel := range n.Files {
			if fc := in.file(cache, rel); fc.ok && fc.syms && put(rel, fc, sym) {
				found = true
			}
		}
		if !found && in.where != nil {
			if rel, ok := in.where(sym); ok {
				if fc := in.file(cache, rel); fc.ok && fc.syms {
					found = put(rel, fc, sym)
				}
			}
		}
		if !found && in.syms != nil {
			unknownSymbols = append(unknownSymbols, sym)
		}
	}
	// The symbols of its files its text names.
	qualified, bare, chained := textNames(n.Title, n.Body)
	for _, rel := range n.Files {
		fc := in.file(cache, rel)
		if !fc.ok {
			unknownFiles = append(unknownFiles, rel)
			continue
		}
		var names []string
		for _, s := range fc.spans {
			switch {
			case qualified[s.qual] && s.qual != s.name:
				names = append(names, s.qual)
			case bare[s.name]:
				names = append(names, s.name)
			case len(chained[s.name]) > 0 && !slices.ContainsFunc(chained[s.name], func(q string) bool { return len(declsOf(fc.spans, q)) > 0 }):
				names = append(names, s.name)
			}
		}
		slices.Sort(names)
		names = slices.Compact(names)
		for _, name := range names {
			if symbolsIn[rel] >= maxTextSymbols {
				break
			}
			put(rel, fc, name)
		}
		if symbolsIn[rel] == 0 {
			anchors[rel] = codePrefix + fc.code.hash(1, len(fc.code.lines))
		}
	}
	return anchors, unknownFiles, unknownSymbols
}

// anchorFile is the file an anchor key is about ("" for a legacy symbol
// anchor, which names none).
func anchorFile(k, v string) string {
	if strings.HasPrefix(k, "symbol:") && !strings.HasPrefix(v, bodyPrefix) && !strings.HasPrefix(v, codePrefix) {
		return ""
	}
	if strings.HasPrefix(v, bodyPrefix) {
		if i := strings.LastIndexByte(k, '#'); i > 0 {
			return k[:i]
		}
	}
	return k
}

// legacy reports whether an anchor is of the old kind: a whole file's or
// a signature's hash, not yet migrated.
func legacy(v string) bool {
	return !strings.HasPrefix(v, codePrefix) && !strings.HasPrefix(v, bodyPrefix) && !strings.HasPrefix(v, wholePrefix)
}

// Legacy reports whether n has whole-file anchors of the old kind that
// Migrate has not tried yet.
func Legacy(n *Node) bool {
	for k, v := range n.Anchors {
		if legacy(v) && !strings.HasPrefix(k, "symbol:") {
			return true
		}
	}
	return false
}

// WholeFile reports whether n is still anchored to a whole file: an old
// anchor not migrated yet, or one whose content then was found nowhere.
func WholeFile(n *Node) bool {
	for k, v := range n.Anchors {
		if (legacy(v) || strings.HasPrefix(v, wholePrefix)) && !strings.HasPrefix(k, "symbol:") {
			return true
		}
	}
	return false
}
