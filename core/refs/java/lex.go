package java

import (
	"sort"
	"strings"
)

// tok is one token of a file's masked code: a name (identifier or
// keyword), a number, a string or character literal (its contents
// blanked by the mask), or an operator; a and n are its first byte and
// length.
type tok struct {
	a, n int32
	kind byte
}

const (
	tName byte = iota + 1
	tNum
	tStr
	tOp
)

// lexed is a file's masked code cut into tokens.
type lexed struct {
	code   []byte
	toks   []tok
	starts []int // the offset of each line's first byte
}

func (x *lexed) text(i int) string {
	t := x.toks[i]
	return string(x.code[t.a : t.a+t.n])
}

// is reports whether token i exists and is the name or operator s.
func (x *lexed) is(i int, s string) bool {
	if i < 0 || i >= len(x.toks) {
		return false
	}
	t := x.toks[i]
	return int(t.n) == len(s) && t.kind != tStr && string(x.code[t.a:t.a+t.n]) == s
}

func (x *lexed) isName(i int) bool { return i >= 0 && i < len(x.toks) && x.toks[i].kind == tName }

// pos is token i's line and column (1-based, the column in bytes).
func (x *lexed) pos(i int) (int, int) {
	off := int(x.toks[i].a)
	l := sort.SearchInts(x.starts, off+1) - 1
	return l + 1, off - x.starts[l] + 1
}

func (x *lexed) line(i int) int { l, _ := x.pos(i); return l }

// ops are Java's operators of more than one byte that the resolver reads
// as one: the method reference ::, the lambda arrow, and the rest so that
// a < or > inside them is never taken for a generic's bracket.
var ops = []string{">>>=", "<<=", ">>=", ">>>", "...", "::", "->", "==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<"}

// opStarts are the bytes an operator of ops starts with.
const opStarts = "><.:-=!&|+*/%^"

// lex cuts masked code (comments blanked, string and character contents
// blanked between their quotes) into tokens. >> is left as two > so that
// List<List<Item>> closes both generics.
func lex(code []byte) *lexed {
	x := &lexed{code: code, starts: []int{0}}
	for i := 0; i < len(code); {
		c := code[i]
		switch {
		case c == '\n':
			x.starts = append(x.starts, i+1)
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			i++
		case isIdentStart(c):
			j := i + 1
			for j < len(code) && isIdentPart(code[j]) {
				j++
			}
			x.toks = append(x.toks, tok{int32(i), int32(j - i), tName})
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(code) && code[i+1] >= '0' && code[i+1] <= '9':
			j := i + 1
			for j < len(code) && (isIdentPart(code[j]) || code[j] == '.') {
				j++
			}
			x.toks = append(x.toks, tok{int32(i), int32(j - i), tNum})
			i = j
		case c == '"' || c == '\'':
			j := x.literal(i)
			x.toks = append(x.toks, tok{int32(i), int32(j - i), tStr})
			i = j
		default:
			n := 1
			if strings.IndexByte(opStarts, c) < 0 {
				x.toks = append(x.toks, tok{int32(i), 1, tOp})
				i++
				continue
			}
			for _, op := range ops {
				if len(code)-i >= len(op) && string(code[i:i+len(op)]) == op {
					n = len(op)
					break
				}
			}
			x.toks = append(x.toks, tok{int32(i), int32(n), tOp})
			i += n
		}
	}
	return x
}

// literal returns the end of the string, text block or character literal
// opening at i: the mask blanked its contents, so the next same quote
// closes it (a text block's three). Lines inside a text block are
// counted.
func (x *lexed) literal(i int) int {
	code := x.code
	q := code[i]
	if q == '"' && i+2 < len(code) && code[i+1] == '"' && code[i+2] == '"' {
		for j := i + 3; j < len(code); j++ {
			if code[j] == '\n' {
				x.starts = append(x.starts, j+1)
			}
			if j+2 < len(code) && code[j] == '"' && code[j+1] == '"' && code[j+2] == '"' {
				return j + 3
			}
		}
		return len(code)
	}
	for j := i + 1; j < len(code); j++ {
		switch code[j] {
		case q:
			return j + 1
		case '\\':
			j++
		case '\n':
			return j
		}
	}
	return len(code)
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// keywords are Java's reserved words and literals: never a name the
// project defines.
var keywords = words("abstract assert boolean break byte case catch char class const continue default do double else enum extends " +
	"final finally float for goto if implements import instanceof int interface long native new package private protected public " +
	"return short static strictfp super switch synchronized this throw throws transient try void volatile while true false null " +
	"var record yield sealed permits non-sealed")

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}
