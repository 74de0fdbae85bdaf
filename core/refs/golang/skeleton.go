package golang

import (
	"bytes"
	"strings"
)

// Function bodies are most of a Go file and most of go/parser's work
// (two thirds of it on rubi's own tree), and a reader of declarations
// needs none of them: a declaration's lines, name, receiver and doc sit
// outside its body. Skeleton blanks the bodies of the top-level functions
// before go/parser reads the file, which makes lang.go (plugins/lang-go)
// about twice as fast, and spares the resolver the bodies of generated
// files, which it does not check; lang.go's Extract reads either tree
// alike.
//
// Only the inside of a body is blanked, the lines strictly between its
// opening brace's and its closing one's emptied and their line breaks
// kept: every line and column stays the source's, the brace lines
// (and what a gofmt'd file has on them: the signature, a trailing
// comment) are read as written, and a body of one or two lines is left
// whole. The scan knows comments, strings, runes and raw strings, so a
// brace in one of them is not counted. Where it guesses wrong (a
// function without a body followed by a composite literal, code that is
// not gofmt'd) the skeleton may not parse; the file is then parsed whole,
// so a wrong guess costs time, never facts.

// Skeleton returns src with the bodies of its top-level functions
// emptied, or nil when it emptied none.
func Skeleton(src []byte) []byte {
	var (
		out     []byte
		last    int  // src before it is in out
		depth   int  // { } nesting
		parens  int  // ( ) and [ ] nesting
		pending bool // a top-level func was read, its body not yet
		open    = -1 // offset of the body's opening brace, while in one
		word    []byte
	)
	n := len(src)
	for i := 0; i < n; {
		if open >= 0 {
			// Inside a body only braces count, and what hides them.
			for i < n && class[src[i]] != special {
				i++
			}
			if i == n {
				break
			}
		}
		c := src[i]
		switch class[c] {
		case space:
			i++
			continue
		case ident:
			start := i
			for i < n && class[src[i]] == ident {
				i++
			}
			word = src[start:i]
			if depth == 0 && parens == 0 {
				switch string(word) {
				case "func":
					pending = true
				case "type", "var", "const", "import":
					pending = false
				}
			}
			continue
		case special:
			switch c {
			case '/':
				if i+1 < n && src[i+1] == '/' {
					for i < n && src[i] != '\n' {
						i++
					}
					continue
				}
				if i+1 < n && src[i+1] == '*' {
					end := bytes.Index(src[i+2:], []byte("*/"))
					if end < 0 {
						i = n
					} else {
						i += end + 4
					}
					word = nil
					continue
				}
			case '"', '\'':
				for i++; i < n && src[i] != c && src[i] != '\n'; i++ {
					if src[i] == '\\' {
						i++
					}
				}
				i++
				word = nil
				continue
			case '`':
				end := bytes.IndexByte(src[i+1:], '`')
				if end < 0 {
					i = n
				} else {
					i += end + 2
				}
				word = nil
				continue
			case '(', '[':
				parens++
			case ')', ']':
				parens = max(parens-1, 0)
			case '{':
				if depth == 0 && parens == 0 && pending && string(word) != "struct" && string(word) != "interface" {
					pending, open = false, i
				}
				depth++
			case '}':
				depth = max(depth-1, 0)
				if depth == 0 && open >= 0 {
					out, last = empty(out, src, last, open, i)
					open = -1
				}
			}
		}
		word = nil
		i++
	}
	if out == nil {
		return nil
	}
	return append(out, src[last:]...)
}

// empty appends to out what src holds from last up to the body whose
// braces are at open and close, with the lines strictly between the two
// braces' lines left empty, and returns the offset of src it reached.
func empty(out, src []byte, last, open, close int) ([]byte, int) {
	from := open
	for from < close && src[from] != '\n' {
		from++
	}
	to := close
	for to > from && src[to-1] != '\n' {
		to--
	}
	if to <= from+1 {
		return out, last
	}
	if out == nil {
		out = make([]byte, 0, len(src)/2)
	}
	out = append(out, src[last:from+1]...)
	for range bytes.Count(src[from+1:to], []byte("\n")) {
		out = append(out, '\n')
	}
	return out, to
}

// Byte classes of the scan.
const (
	other   = iota
	space   // blanks and line breaks
	ident   // letters, digits, _ and every byte of a multi-byte rune
	special // what opens a comment, a string or a rune, and brackets
)

var class = func() (t [256]byte) {
	for c := range 256 {
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			t[c] = space
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80:
			t[c] = ident
		case strings.IndexByte("/\"'`()[]{}", byte(c)) >= 0:
			t[c] = special
		}
	}
	return t
}()
