package scripts

import "sort"

// Token kinds.
const (
	tName byte = iota + 1
	tOp
	tStr
	tNum
)

// tok is one token of the masked code: its first byte and length (a
// longer literal's cut to 65535), its kind, and for an opening bracket
// the index of the token that closes it (0 when none does).
type tok struct {
	a    int32
	n    uint16
	kind byte
	m    int32
}

func (t tok) end() int32 { return t.a + int32(t.n) }

// lexed is a file's masked code cut into tokens.
type lexed struct {
	code   []byte
	toks   []tok
	starts []int
}

func (x *lexed) text(i int) string { t := x.toks[i]; return string(x.code[t.a:t.end()]) }
func (x *lexed) name(i int) []byte { t := x.toks[i]; return x.code[t.a:t.end()] }

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

// dot reports whether token i reaches a member: . or ?.
func (x *lexed) dot(i int) bool { return x.op(i, '.') || x.is(i, "?.") }

func (x *lexed) posOf(off int) (int, int) {
	l := sort.SearchInts(x.starts, off+1) - 1
	return l + 1, off - x.starts[l] + 1
}

// close returns the index of the bracket closing the one at i, or b.
func (x *lexed) close(i, b int) int {
	if i < 0 || i >= len(x.toks) {
		return b
	}
	if m := int(x.toks[i].m); m > i && m < b {
		return m
	}
	return b
}

// spaced reports whether whitespace separates token i from the one
// before it.
func (x *lexed) spaced(i int) bool {
	return i == 0 || x.toks[i-1].end() != x.toks[i].a
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdent(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// ops3 and ops2 are the operators of three and two bytes that matter to
// telling =, => and ?. apart; others are cut into single bytes.
var ops3 = []string{"===", "!==", "...", "**=", "<<=", ">>=", "&&=", "||=", "??="}
var ops2 = []string{"=>", "==", "!=", "<=", ">=", "?.", "&&", "||", "??", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "**"}

// lex cuts code, whose comments and string contents are blanked, into
// tokens. A template literal's text is one string token per piece; the
// code of its ${} is lexed as code.
func lex(code []byte) *lexed {
	x := &lexed{code: code, starts: make([]int, 1, len(code)/32+1), toks: make([]tok, 0, len(code)/6)}
	var opens []int
	var tmpl []int // brace depth at each open ${
	depth := 0
	n := len(code)
	add := func(kind byte, a, b int) {
		x.toks = append(x.toks, tok{kind: kind, a: int32(a), n: uint16(min(b-a, 0xffff))})
	}
	for i := 0; i < n; {
		c := code[i]
		switch {
		case c == '\n':
			x.starts = append(x.starts, i+1)
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			i++
		case c == '"' || c == '\'':
			j := i + 1
			for j < n && code[j] != c && code[j] != '\n' {
				j++
			}
			if j < n && code[j] == c {
				j++
			}
			add(tStr, i, j)
			i = j
		case c == '`' || c == '}' && len(tmpl) > 0 && tmpl[len(tmpl)-1] == depth-1:
			if c == '}' {
				depth--
				tmpl = tmpl[:len(tmpl)-1]
			}
			j := i + 1
			for j < n && code[j] != '`' && !(code[j] == '$' && j+1 < n && code[j+1] == '{') {
				if code[j] == '\n' {
					x.starts = append(x.starts, j+1)
				}
				j++
			}
			switch {
			case j < n && code[j] == '`':
				add(tStr, i, j+1)
				i = j + 1
			case j < n:
				add(tStr, i, j)
				tmpl = append(tmpl, depth)
				depth++
				i = j + 2
			default:
				add(tStr, i, j)
				i = j
			}
		case isIdentStart(c):
			j := i + 1
			for j < n && isIdent(code[j]) {
				j++
			}
			add(tName, i, j)
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < n && code[i+1] >= '0' && code[i+1] <= '9':
			j := i + 1
			for j < n && (isIdent(code[j]) || code[j] == '.') {
				j++
			}
			add(tNum, i, j)
			i = j
		default:
			j := i + 1
			for _, set := range [][]string{ops3, ops2} {
				for _, op := range set {
					if i+len(op) <= n && string(code[i:i+len(op)]) == op {
						j = i + len(op)
						break
					}
				}
				if j > i+1 {
					break
				}
			}
			if j == i+1 {
				switch c {
				case '(', '[', '{':
					depth++
					opens = append(opens, len(x.toks))
				case ')', ']', '}':
					if depth > 0 {
						depth--
					}
					if len(opens) > 0 {
						x.toks[opens[len(opens)-1]].m = int32(len(x.toks))
						opens = opens[:len(opens)-1]
					}
				}
			}
			add(tOp, i, j)
			i = j
		}
	}
	return x
}
