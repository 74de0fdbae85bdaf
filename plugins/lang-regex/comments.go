package regex

import (
	"bytes"

	"github.com/rubi-dev/rubi/core"
)

var _ core.CommentMasker = MaskComments

// MaskComments returns a copy of src, a file of language lang, of the same
// length and line breaks, in which every byte of a comment is a space and
// every other byte is src's: the masking lexer the parser reads code with
// (so strings, raw strings, heredocs and regular-expression literals that
// hold comment markers are kept), with string contents restored. A Python
// string that is a statement of its own (a docstring, or a string used as
// a comment) is blanked too. ok is false for a language the parser does
// not know, and for Vue and Svelte, whose templates it does not lex.
// It is a core.CommentMasker: the programs hand it to their engines
// (pipeline.Options.MaskComments), whose knowledge graph hashes code with
// it.
func MaskComments(lang string, src []byte) ([]byte, bool) {
	l := languages[lang]
	if l == nil || l.prepare != nil {
		return nil, false
	}
	var x lexed
	lex(&x, src, &l.syntax)
	out := bytes.Clone(x.code)
	for i, c := range out {
		if c == fill {
			out[i] = src[i]
		}
	}
	if lang == core.LangPython {
		blankStringStatements(&x, out)
	}
	return out, true
}

// blankStringStatements blanks, in out, each Python string literal that
// starts a line (after its indentation and an optional prefix such as r
// or b) and is followed by nothing else on the line it ends: a docstring
// or a string used as a comment, which does not change what the code does.
// x.code still has the string contents masked, so the literal's end is
// found there. Strings inside brackets or after a backslash continuation
// are operands and kept.
func blankStringStatements(x *lexed, out []byte) {
	for i := 0; i < x.lines(); i++ {
		// Inside brackets, or after a backslash continuation, a string
		// on a line of its own is an operand, not a statement.
		if x.inText[i] || x.depth[i] > 0 || i > 0 && bytes.HasSuffix(bytes.TrimRight(x.codeLine(i-1), " \t"), []byte{'\\'}) {
			continue
		}
		a, b := x.bounds(i)
		line := x.code[a:b]
		j := len(line) - len(bytes.TrimLeft(line, " \t"))
		k := j
		for k < len(line) && k-j < 2 && bytes.IndexByte([]byte("rRuUbBfF"), line[k]) >= 0 {
			k++
		}
		if k >= len(line) || line[k] != '"' && line[k] != '\'' {
			continue
		}
		q := line[k]
		start := a + k
		n := 1
		if start+2 < len(x.code) && x.code[start+1] == q && x.code[start+2] == q {
			n = 3
		}
		e := start + n
		for e < len(x.code) && (x.code[e] == fill || x.code[e] == '\n' || x.code[e] == '\r') {
			e++
		}
		// Empty strings ("" and """""") end where they start.
		if n == 1 && start+1 < len(x.code) && x.code[start+1] == q {
			e = start + 1
		}
		close := e + n
		if close > len(x.code) || !bytes.Equal(x.code[e:close], bytes.Repeat([]byte{q}, n)) {
			continue
		}
		rest := close
		for rest < len(x.code) && (x.code[rest] == ' ' || x.code[rest] == '\t' || x.code[rest] == '\r') {
			rest++
		}
		if rest < len(x.code) && x.code[rest] != '\n' && x.code[rest] != ';' {
			continue
		}
		for p := a + j; p < close; p++ {
			if out[p] != '\n' && out[p] != '\r' {
				out[p] = ' '
			}
		}
		i = x.lineOf(close - 1)
	}
}

var _ core.CodeMasker = MaskCode

// MaskCode returns a copy of src, a file of language lang, of the same
// length and line breaks, with comments and the contents of string
// literals blanked (their quotes kept): the masking lexer the parser
// reads code with, the string contents it hides turned to spaces. The
// expressions inside a template literal's ${...} stay code, as the parser
// sees them. ok is false for a language the parser does not know, and for
// Vue and Svelte, whose templates it does not lex. It is a
// core.CodeMasker: the reference resolvers read code through it.
func MaskCode(lang string, src []byte) ([]byte, bool) {
	l := languages[lang]
	if l == nil || l.prepare != nil {
		return nil, false
	}
	var x lexed
	lex(&x, src, &l.syntax)
	out := x.code
	for i, c := range out {
		if c == fill {
			out[i] = ' '
		}
	}
	return out, true
}
