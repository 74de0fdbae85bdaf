package python

import (
	"sort"
	"strings"
)

// Token kinds.
const (
	tName byte = iota + 1
	tOp
	tStr
	tNum
)

// tok is one token of the masked code: its kind, its first byte and
// length (a longer string's length is cut to 65535: no use reads one
// that long), and for an opening bracket the index of the token that
// closes it, 0 when none does.
type tok struct {
	a    int32
	n    uint16
	kind byte
	m    int32
}

func (t tok) end() int32 { return t.a + int32(t.n) }

// stmt is one logical statement: its indentation (a width, tabs to
// multiples of 8 as Python counts them) and its tokens toks[a:b]. A
// compound statement with its body on the same line (`if x: f()`,
// `def f(): return 1`) is split at the header's colon, the body one
// column deeper than the header, so that it lands in the header's block.
type stmt struct {
	indent int
	a, b   int
	eq     bool // holds an = outside brackets: an assignment
	walrus bool // holds a :=
}

// lexed is a file's masked code cut into tokens and statements.
type lexed struct {
	code   []byte
	toks   []tok
	stmts  []stmt
	starts []int // offset of each line
	// buf is reused by the statement-level splits.
	buf [][2]int
}

// text returns token i's text, a new string: for what is kept (a
// binding's name); name reads a token without allocating.
func (x *lexed) text(i int) string { t := x.toks[i]; return string(x.code[t.a:t.end()]) }

func (x *lexed) name(i int) []byte { t := x.toks[i]; return x.code[t.a:t.end()] }

// keyword reports whether token i is a keyword.
func (x *lexed) keyword(i int) bool { return x.toks[i].kind == tName && keywords[string(x.name(i))] }

// is reports whether token i exists and is the name or operator s.
func (x *lexed) is(i int, s string) bool {
	if i < 0 || i >= len(x.toks) {
		return false
	}
	t := x.toks[i]
	return int(t.n) == len(s) && t.kind != tStr && string(x.code[t.a:t.end()]) == s
}

// op reports whether token i is the one-byte operator c.
func (x *lexed) op(i int, c byte) bool {
	if i < 0 || i >= len(x.toks) {
		return false
	}
	t := x.toks[i]
	return t.kind == tOp && t.n == 1 && x.code[t.a] == c
}

func (x *lexed) isName(i int) bool { return i >= 0 && i < len(x.toks) && x.toks[i].kind == tName }

// posOf returns the 1-based line and byte column of offset off.
func (x *lexed) posOf(off int) (int, int) {
	l := sort.SearchInts(x.starts, off+1) - 1
	return l + 1, off - x.starts[l] + 1
}

// Byte classes, looked up rather than compared: the lexer sees every
// byte of every file.
const (
	cStart = 1 << iota // starts a name
	cIdent             // continues a name
)

var byteClass = func() (t [256]uint8) {
	for c := range 256 {
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 {
			t[c] = cStart | cIdent
		} else if c >= '0' && c <= '9' {
			t[c] = cIdent
		}
	}
	return t
}()

func isIdentStart(c byte) bool { return byteClass[c]&cStart != 0 }

func isIdent(c byte) bool { return byteClass[c]&cIdent != 0 }

// opEnd returns the offset after the operator at a: one byte, or the
// longest of Python's operators of two or three (**=, ->, ..., +=).
func opEnd(code []byte, a int) int {
	c, i, n := code[a], a+1, len(code)
	if i >= n {
		return i
	}
	d := code[i]
	switch {
	case (c == '*' || c == '/' || c == '<' || c == '>') && d == c:
		if i+1 < n && code[i+1] == '=' {
			return i + 2
		}
		return i + 1
	case d == '=' && strings.IndexByte("=!<>:+-*/%&|^@", c) >= 0, c == '-' && d == '>':
		return i + 1
	case c == '.' && d == '.' && i+1 < n && code[i+1] == '.':
		return i + 2
	}
	return i
}

// lex cuts code, whose comments and string contents are blanked, into
// tokens and logical statements. It is one linear pass.
func lex(code []byte) *lexed {
	x := &lexed{code: code, starts: make([]int, 1, len(code)/32+1), stmts: make([]stmt, 0, len(code)/64+1)}
	x.toks = make([]tok, 0, len(code)/6)
	depth := 0
	start := 0        // first token of the open statement
	lineStart := true // no token yet on this physical line
	indent, curIn := 0, 0
	eq, walrus := false, false
	var opens []int // the open brackets' tokens
	end := func() {
		if len(x.toks) > start {
			x.stmts = append(x.stmts, stmt{indent: curIn, a: start, b: len(x.toks), eq: eq, walrus: walrus})
		}
		start, eq, walrus = len(x.toks), false, false
	}
	n := len(code)
	for i := 0; i < n; {
		c := code[i]
		switch {
		case c == '\n':
			x.starts = append(x.starts, i+1)
			if depth == 0 {
				end()
			}
			lineStart, indent = true, 0
			i++
			continue
		case c == ' ' || c == '\f' || c == '\r':
			if lineStart {
				indent++
			}
			i++
			continue
		case c == '\t':
			if lineStart {
				indent = indent/8*8 + 8
			}
			i++
			continue
		case c == '\\' && i+1 < n && (code[i+1] == '\n' || code[i+1] == '\r'):
			// A continuation joins the next line to this statement.
			if code[i+1] == '\r' && i+2 < n && code[i+2] == '\n' {
				i++
			}
			x.starts = append(x.starts, i+2)
			lineStart = false
			i += 2
			continue
		}
		if lineStart {
			lineStart = false
			if len(x.toks) == start {
				curIn = indent
			}
		}
		a := i
		kind := tOp
		switch {
		case c == '"' || c == '\'':
			kind = tStr
			i = x.str(i)
			// A prefix (r, b, f, rb...) glued to the quote is part of the
			// literal.
			if k := len(x.toks) - 1; k >= start && x.toks[k].kind == tName && int(x.toks[k].end()) == a && x.toks[k].n <= 2 {
				a = int(x.toks[k].a)
				x.toks = x.toks[:k]
			}
		case isIdentStart(c):
			kind = tName
			for i < n && isIdent(code[i]) {
				i++
			}
		case c >= '0' && c <= '9' || c == '.' && i+1 < n && code[i+1] >= '0' && code[i+1] <= '9':
			kind = tNum
			for i < n && (isIdent(code[i]) || code[i] == '.') {
				i++
			}
		default:
			i = opEnd(code, a)
			switch c {
			case '=':
				eq = eq || depth == 0 && i == a+1
			case ':':
				walrus = walrus || i == a+2
			case '(', '[', '{':
				depth++
				opens = append(opens, len(x.toks))
			case ')', ']', '}':
				if depth > 0 {
					depth--
					x.toks[opens[len(opens)-1]].m = int32(len(x.toks))
					opens = opens[:len(opens)-1]
				}
			}
		}
		x.toks = append(x.toks, tok{kind: kind, a: int32(a), n: uint16(min(i-a, 0xffff))})
		if kind == tOp && c == ';' && depth == 0 && i == a+1 {
			x.toks = x.toks[:len(x.toks)-1]
			end()
		}
	}
	end()
	x.splitCompound()
	return x
}

// str returns the offset after the string literal whose opening quote is
// at i. Its contents are blanked, so the next quote of its kind closes
// it; a single-quoted one stops at the end of its line.
func (x *lexed) str(i int) int {
	code, n := x.code, len(x.code)
	q := code[i]
	if i+2 < n && code[i+1] == q && code[i+2] == q {
		for j := i + 3; j < n; j++ {
			switch code[j] {
			case '\n':
				x.starts = append(x.starts, j+1)
			case q:
				if j+2 < n && code[j+1] == q && code[j+2] == q {
					return j + 3
				}
			}
		}
		return n
	}
	for j := i + 1; j < n; j++ {
		switch code[j] {
		case q:
			return j + 1
		case '\n':
			return j
		}
	}
	return n
}

// compound are the keywords that open a block.
var compound = map[string]bool{"def": true, "class": true, "if": true, "elif": true, "else": true, "for": true,
	"while": true, "try": true, "except": true, "finally": true, "with": true, "async": true}

// splitCompound splits `header: body` statements at the header's colon.
func (x *lexed) splitCompound() {
	out := make([]stmt, 0, len(x.stmts))
	for k := 0; k < len(x.stmts); k++ {
		s := x.stmts[k]
		for {
			if x.toks[s.a].kind != tName || !compound[string(x.name(s.a))] {
				break
			}
			colon := x.headerColon(s.a, s.b)
			if colon < 0 || colon+1 >= s.b {
				break
			}
			out = append(out, stmt{indent: s.indent, a: s.a, b: colon + 1, walrus: s.walrus})
			s = stmt{indent: s.indent + 1, a: colon + 1, b: s.b, eq: s.eq, walrus: s.walrus}
		}
		out = append(out, s)
	}
	x.stmts = out
}

// headerColon returns the index of the colon that ends a compound
// statement's header in toks[a:b], or -1: the first colon outside
// brackets that no lambda claims.
func (x *lexed) headerColon(a, b int) int {
	depth, lambdas := 0, 0
	for i := a; i < b; i++ {
		t := x.toks[i]
		if t.kind == tName && x.is(i, "lambda") && depth == 0 {
			lambdas++
			continue
		}
		if t.kind != tOp || t.n != 1 {
			continue
		}
		switch x.code[t.a] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ':':
			if depth == 0 {
				if lambdas == 0 {
					return i
				}
				lambdas--
			}
		}
	}
	return -1
}

// close returns the index of the bracket closing the one at i, or b
// when none does before b.
func (x *lexed) close(i, b int) int {
	if m := int(x.toks[i].m); m > i && m < b {
		return m
	}
	return b
}

// split returns the ranges of toks[a:b] separated by the operator sep
// outside brackets.
func (x *lexed) split(a, b int, sep byte) [][2]int { return x.splitInto(nil, a, b, sep) }

// splitInto is split appending to out.
func (x *lexed) splitInto(out [][2]int, a, b int, sep byte) [][2]int {
	depth, from := 0, a
	for i := a; i < b; i++ {
		t := x.toks[i]
		if t.kind != tOp {
			continue
		}
		if t.n == 1 {
			switch x.code[t.a] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			}
		}
		if depth == 0 && x.op(i, sep) {
			out = append(out, [2]int{from, i})
			from = i + 1
		}
	}
	return append(out, [2]int{from, b})
}
