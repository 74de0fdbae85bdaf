package regex

import (
	"bytes"
	"strings"

	"github.com/rubi-dev/rubi/core"
)

// Helpers shared by the brace languages (Rust, Java, Kotlin, PHP, C, C++,
// Dart): where a body opens, whether a line starts a statement, which
// enclosing type a member belongs to, and the doc above attributes.

// Look-ahead and look-behind bounds, which keep every search local: a
// header is never followed by its body brace further than declLines lines
// or declWindow bytes away, and a statement boundary or a doc comment is
// never further up than lookLines lines of code, past at most lookBlank
// blank ones (a long doc comment is blank code: the JDK's run to 190
// lines).
const (
	declWindow = 4096
	declLines  = 32
	lookLines  = 64
	lookBlank  = 4096
)

// depthAt returns the bracket depth of code just before offset off.
func (x *lexed) depthAt(off int) int {
	i := x.lineOf(off)
	d := x.depth[i]
	for _, c := range x.code[x.starts[i]:off] {
		switch c {
		case '(', '[', '{':
			d++
		case ')', ']', '}':
			if d > 0 {
				d--
			}
		}
	}
	return d
}

// bodyBrace returns the offset of the brace that opens the body of the
// declaration whose header continues at off: the first '{' outside
// parentheses and square brackets. It returns -1 when a ';' or one of the
// bytes of stops comes first, or when none is near.
func (x *lexed) bodyBrace(off int, stops string) int { return x.headerBrace(off, header{stops: stops}) }

// header says what ends a declaration's header before its body brace,
// besides a ';', for headerBrace. Outside brackets, a header ends:
type header struct {
	// at one of these bytes;
	stops string
	// at an '=' that is not part of a comparison (==, !=, <=, >=): an
	// expression body follows (Kotlin);
	assign bool
	// at the line break at offset k when lineEnd, if set, says so (a
	// Kotlin declaration ends with its line unless the next goes on
	// with it).
	lineEnd func(x *lexed, k int) bool
}

// headerBrace is bodyBrace for a header that h says how to end.
func (x *lexed) headerBrace(off int, h header) int {
	paren := 0
	end := min(len(x.code), off+declWindow)
	lines := 0
	for k := off; k < end; k++ {
		switch c := x.code[k]; c {
		case '(', '[':
			paren++
		case ')', ']':
			if paren > 0 {
				paren--
			}
		case '{':
			if paren == 0 {
				return k
			}
		case ';':
			if paren == 0 {
				return -1
			}
		case '\n':
			if lines++; lines > declLines || paren == 0 && h.lineEnd != nil && h.lineEnd(x, k) {
				return -1
			}
		case '=':
			if paren == 0 && (h.assign && !comparison(x.code, k) || strings.IndexByte(h.stops, c) >= 0) {
				return -1
			}
		default:
			if paren == 0 && h.stops != "" && c != fill && c != ' ' && strings.IndexByte(h.stops, c) >= 0 {
				return -1
			}
		}
	}
	return -1
}

// comparison reports whether the '=' at k belongs to ==, !=, <= or >=.
func comparison(code []byte, k int) bool {
	if k+1 < len(code) && code[k+1] == '=' {
		return true
	}
	return k > 0 && bytes.IndexByte([]byte("=!<>"), code[k-1]) >= 0
}

// Answers of a statement classifier: a line that is not a boundary, one
// to look past (an annotation, a template header), one that is a
// boundary (a preprocessor directive).
const (
	stmtNo = iota
	stmtSkip
	stmtYes
)

// stmtStart reports whether line i starts a statement: the code before it
// ends with ';', '{' or '}', possibly past lines that classify says to
// skip (annotations), which may span lines. classify may be nil.
func (x *lexed) stmtStart(i int, classify func(j int) int) bool {
	d := x.depth[i]
	for j, n, b := i-1, 0, 0; ; j-- {
		if j < 0 {
			return true
		}
		if x.blank(j) {
			if b++; b > lookBlank {
				return false
			}
			continue
		}
		if n++; n > lookLines+1 {
			return false
		}
		if classify != nil {
			switch classify(j) {
			case stmtYes:
				return true
			case stmtSkip:
				continue
			}
		}
		t := bytes.TrimSpace(x.codeLine(j))
		switch t[len(t)-1] {
		case ';', '{', '}':
			return true
		}
		// The construct ending on line j starts on the line q where the
		// depth comes back to that of line i: an annotation with
		// arguments spanning lines, say.
		q := j
		for q > 0 && x.depth[q] > d && n <= lookLines {
			q--
			n++
		}
		if q == j || classify == nil || classify(q) != stmtSkip {
			return false
		}
		j = q
	}
}

// docAboveAttrs is docAbove past attribute lines (Rust #[...], Java and
// Kotlin @Annotation(...), PHP #[...]), which may span lines.
func (x *lexed) docAboveAttrs(i int, st docStyle, isAttr func(t []byte) bool) string {
	j := i - 1
	for n := 0; j >= 0 && n < lookLines; n++ {
		if x.inText[j] || x.blank(j) {
			break
		}
		q := j
		for q > 0 && x.depth[q] > x.depth[i] && j-q < lookLines {
			q--
		}
		if !isAttr(bytes.TrimSpace(x.codeLine(q))) {
			break
		}
		j = q - 1
	}
	return x.docAbove(j+1, st)
}

// scope is an enclosing declaration whose body holds members: a class, an
// impl block, a namespace.
type scope struct {
	name     string
	kind     string // language-specific
	line     int    // line of the opening brace
	body     int    // bracket depth inside the body
	exported bool
	flag     bool // language-specific: trait impl, anonymous namespace, private section...
}

// openScope returns a scope whose body opens at the brace at offset brace.
func (x *lexed) openScope(brace int, name, kind string, exported bool) scope {
	return scope{name: name, kind: kind, line: x.lineOf(brace), body: x.depthAt(brace) + 1, exported: exported}
}

// braceLine prepares line i of a brace language for an extractor: it
// drops the scopes that closed before it, and returns the line's code
// without indentation, that code's offset in the source and the innermost
// open scope (nil at top level). ok is false for a line inside a
// multi-line string, which holds no code.
func (f *file) braceLine(scopes *[]scope, i int) (t []byte, off int, top *scope, ok bool) {
	*scopes = f.popScopes(*scopes, i)
	if f.inText[i] {
		return nil, 0, nil, false
	}
	code := f.codeLine(i)
	t = bytes.TrimLeft(code, " \t")
	off = f.starts[i] + len(code) - len(t)
	if n := len(*scopes); n > 0 {
		top = &(*scopes)[n-1]
	}
	return t, off, top, true
}

// popScopes drops the scopes whose body closed before line i.
func (x *lexed) popScopes(s []scope, i int) []scope {
	for len(s) > 0 && i > s[len(s)-1].line && x.depth[i] < s[len(s)-1].body {
		s = s[:len(s)-1]
	}
	return s
}

// decls collects symbols and the queries for their ends.
type decls struct {
	f    *file
	ends []endQuery
}

// add records s found on line i, whose body opens at offset brace (-1 for
// none): the symbol ends where the depth comes back to that of line i
// after the brace, or after line i when there is no brace.
func (d *decls) add(i int, s core.Symbol, brace int) int {
	f := d.f
	s.Line = i + 1
	if s.Signature == "" {
		s.Signature = f.signature(i)
	}
	k := f.addSymbol(s)
	if k >= 0 {
		from := i
		if brace >= 0 {
			from = max(i, f.lineOf(brace))
		}
		d.ends = append(d.ends, endQuery{sym: k, from: from, max: f.depth[i]})
	}
	return k
}

// addLine records s found on line i, which ends on that line.
func (d *decls) addLine(i int, s core.Symbol) int {
	s.Line, s.EndLine = i+1, i+1
	if s.Signature == "" {
		s.Signature = d.f.signature(i)
	}
	return d.f.addSymbol(s)
}

func (d *decls) finish() { d.f.braceEnds(d.ends) }

// word reads the identifier t starts with and returns it with the rest of
// t, blanks trimmed.
func word(t []byte) (string, []byte) {
	k := 0
	for k < len(t) && isIdent(t[k]) {
		k++
	}
	j := k
	for j < len(t) && (t[j] == ' ' || t[j] == '\t') {
		j++
	}
	return string(t[:k]), t[j:]
}

// skipBalanced returns the index after the bracket closing t[0] (one of
// ( [ { <), or -1 when it does not close within t. For '<', a '>' that
// ends an arrow (->, =>) does not count.
func skipBalanced(t []byte) int {
	if len(t) == 0 {
		return -1
	}
	open := t[0]
	var close byte
	switch open {
	case '(':
		close = ')'
	case '[':
		close = ']'
	case '{':
		close = '}'
	case '<':
		close = '>'
	default:
		return -1
	}
	depth := 0
	for k, c := range t {
		switch c {
		case open:
			depth++
		case close:
			if close == '>' && k > 0 && (t[k-1] == '-' || t[k-1] == '=') {
				continue
			}
			if depth--; depth == 0 {
				return k + 1
			}
		}
	}
	return -1
}

// lastSegment returns what follows the last sep in s.
func lastSegment(s, sep string) string {
	if k := bytes.LastIndex([]byte(s), []byte(sep)); k >= 0 {
		return s[k+len(sep):]
	}
	return s
}
