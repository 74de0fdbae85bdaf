package regex

import (
	"bytes"
	"math"
	"slices"
	"sort"
	"unicode/utf8"
)

// fill replaces the bytes inside string literals in the masked copy. It is
// neither a space nor an identifier character, so no pattern can see a
// keyword or a name inside a string, yet the string keeps its length and
// delimiters and its contents can be read back from the original.
const fill = 0x01

// syntax says how a language writes comments and strings, which is all the
// masking lexer needs to know.
type syntax struct {
	lineComment  string // "//" or "#"
	blockComment bool   // /* ... */
	nestComments bool   // block comments nest: /* /* */ */ (Rust, Kotlin, Dart)
	rawBacktick  bool   // Go raw strings: `...`, multi-line, no escapes
	template     bool   // JS template literals: `...${expr}...`
	triple       bool   // Python """...""" and '''...'''
	regexLit     bool   // JS regular-expression literals
	// regexWords are the words after which a slash opens a regular
	// expression; jsRegexKeywords when nil.
	regexWords map[string]bool
	// phpTags: only what lies between <?php (or <?=) and ?> is code; the
	// rest is blanked.
	phpTags bool
	// hook, when set, sees every byte listed in special before the common
	// cases do: it lexes a language's own literals (Rust raw strings and
	// lifetimes, heredocs, Ruby's %w[]...). It returns the offset after
	// what it consumed, or i to leave the byte to the common cases.
	hook    func(l *lexer, i int) int
	special string
	// trigger is special as a table, filled by register.
	trigger [256]bool
}

// strKind says how a string literal ends and what it may hold.
type strKind struct {
	q         byte // closing quote
	triple    bool // closed by three quotes
	raw       bool // a backslash escapes nothing
	multiline bool // may span lines; otherwise it stops at the end of the line
	interp    byte // '$' for ${expr}, '#' for #{expr}: the expression is code
}

var (
	jsTemplate = strKind{q: '`', multiline: true, interp: '$'}
	goRaw      = strKind{q: '`', raw: true, multiline: true}
)

// lexed is one file with comments blanked and string contents masked
// (code has the same length as src, so offsets agree), plus what the
// extractors need per line.
type lexed struct {
	src, code []byte
	// starts[i] is the offset of line i (0-based).
	starts []int
	// depth[i] is the bracket depth ((), [], {}) of code at the start of
	// line i; final is the depth at the end of the file.
	depth []int
	final int
	// inText[i] is set when line i starts inside a string or comment.
	inText []bool
	// pre holds a language's prepared copy of the source, if any.
	pre []byte
}

func (x *lexed) lines() int { return len(x.starts) }

// bounds returns the offsets of line i without its newline (and \r).
func (x *lexed) bounds(i int) (a, b int) {
	a = x.starts[i]
	if i+1 < len(x.starts) {
		b = x.starts[i+1] - 1
	} else {
		b = len(x.src)
	}
	if b > a && x.src[b-1] == '\r' {
		b--
	}
	return a, b
}

func (x *lexed) codeLine(i int) []byte { a, b := x.bounds(i); return x.code[a:b] }
func (x *lexed) srcLine(i int) []byte  { a, b := x.bounds(i); return x.src[a:b] }

// lineOf returns the 0-based line holding offset off.
func (x *lexed) lineOf(off int) int {
	return sort.Search(len(x.starts), func(k int) bool { return x.starts[k] > off }) - 1
}

// depthEnd is the bracket depth at the end of line i.
func (x *lexed) depthEnd(i int) int {
	if i+1 < len(x.depth) {
		return x.depth[i+1]
	}
	return x.final
}

// blank reports whether line i holds no code (empty or comment only).
func (x *lexed) blank(i int) bool { return len(bytes.TrimSpace(x.codeLine(i))) == 0 }

// commentOnly reports whether line i is a comment and nothing else.
func (x *lexed) commentOnly(i int) bool {
	return x.blank(i) && len(bytes.TrimSpace(x.srcLine(i))) > 0
}

// lex fills x from src. It is a single linear pass: every byte is looked
// at a bounded number of times, whatever the input.
func lex(x *lexed, src []byte, syn *syntax) {
	x.src = src
	x.code = append(x.code[:0], src...)
	// Sized up front: growing three slices line by line costs more than
	// the whole scan on a file of short lines.
	n := bytes.Count(src, []byte("\n")) + 1
	x.starts = append(slices.Grow(x.starts[:0], n), 0)
	x.depth = append(slices.Grow(x.depth[:0], n), 0)
	x.inText = append(slices.Grow(x.inText[:0], n), false)
	l := lexer{x: x, syn: syn, src: src, code: x.code}
	l.run()
	x.final = l.d
}

type lexer struct {
	x         *lexed
	syn       *syntax
	src, code []byte
	d         int     // bracket depth
	tmpl      []frame // open ${ or #{ substitutions, innermost last
	// heredocs opened on the current line, whose bodies start on the next.
	heredocs []heredoc
	// mark is for a hook to remember how far a look-ahead went in vain,
	// so that it does not look again: that keeps the lexer linear.
	mark int
}

// frame is an open substitution: at bracket depth d, its closing brace
// returns to a string of kind k.
type frame struct {
	d int
	k strKind
}

// heredoc is a pending heredoc body: lines up to one that is id alone
// (Ruby; indented when indent is set) or that starts with id (PHP, whose
// terminator may be indented and followed by code).
type heredoc struct {
	id     string
	indent bool
	php    bool
}

func (l *lexer) newline(i int, inText bool) {
	l.x.starts = append(l.x.starts, i+1)
	l.x.depth = append(l.x.depth, l.d)
	l.x.inText = append(l.x.inText, inText)
}

func (l *lexer) run() {
	src, n := l.src, len(l.src)
	i := 0
	if (l.syn.regexLit || l.syn.lineComment == "#") && bytes.HasPrefix(src, []byte("#!")) {
		i = l.lineComment(0) // shebang
	}
	if l.syn.phpTags {
		i = l.outside(0)
	}
	for i < n {
		c := src[i]
		if l.syn.trigger[c] {
			if j := l.syn.hook(l, i); j != i {
				i = j
				continue
			}
		}
		switch {
		case c == '\n':
			if len(l.heredocs) > 0 {
				i = l.heredocBodies(i)
				continue
			}
			l.newline(i, false)
			i++
		case c == '"' || c == '\'':
			i = l.str(i)
		case c == '`' && l.syn.rawBacktick:
			i = l.strBody(i+1, goRaw)
		case c == '`' && l.syn.template:
			i = l.strBody(i+1, jsTemplate)
		case c == '/' && i+1 < n && src[i+1] == '/' && l.syn.lineComment == "//":
			i = l.lineComment(i)
		case c == '#' && l.syn.lineComment == "#":
			i = l.lineComment(i)
		case c == '/' && i+1 < n && src[i+1] == '*' && l.syn.blockComment:
			i = l.blockComment(i)
		case c == '/' && l.syn.regexLit && l.regexAllowed(i):
			i = l.regex(i)
		case c == '(' || c == '[' || c == '{':
			l.d++
			i++
		case c == '}' && len(l.tmpl) > 0 && l.d-1 == l.tmpl[len(l.tmpl)-1].d:
			// End of a ${...} substitution: back inside the string.
			l.d--
			k := l.tmpl[len(l.tmpl)-1].k
			l.tmpl = l.tmpl[:len(l.tmpl)-1]
			i = l.strBody(i+1, k)
		case c == ')' || c == ']' || c == '}':
			// Clamped so that a stray closer cannot shift the rest of the
			// file below top level.
			if l.d > 0 {
				l.d--
			}
			i++
		default:
			i++
		}
	}
}

func (l *lexer) lineComment(i int) int {
	for i < len(l.src) && l.src[i] != '\n' {
		l.code[i] = ' '
		i++
	}
	return i
}

func (l *lexer) blockComment(i int) int {
	src, n := l.src, len(l.src)
	l.code[i], l.code[i+1] = ' ', ' '
	nest := 1
	for i += 2; i < n; i++ {
		switch {
		case src[i] == '*' && i+1 < n && src[i+1] == '/':
			l.code[i], l.code[i+1] = ' ', ' '
			if nest--; nest == 0 || !l.syn.nestComments {
				return i + 2
			}
			i++
		case src[i] == '/' && i+1 < n && src[i+1] == '*' && l.syn.nestComments:
			l.code[i], l.code[i+1] = ' ', ' '
			nest++
			i++
		case src[i] == '\n':
			l.newline(i, true)
		default:
			l.code[i] = ' '
		}
	}
	return n
}

// escape masks a backslash escape at i and returns the offset after it.
func (l *lexer) escape(i int) int {
	l.code[i] = fill
	if i+1 >= len(l.src) {
		return i + 1
	}
	if l.src[i+1] == '\n' {
		l.newline(i+1, true)
	} else {
		l.code[i+1] = fill
	}
	return i + 2
}

// str masks a quoted string starting at i. Single-quoted forms stop at the
// end of the line even when unterminated, so that a stray quote (an
// apostrophe in JSX text, say) cannot swallow the rest of the file.
func (l *lexer) str(i int) int {
	src, n := l.src, len(l.src)
	q := src[i]
	if l.syn.triple && i+2 < n && src[i+1] == q && src[i+2] == q {
		return l.strBody(i+3, strKind{q: q, triple: true, multiline: true})
	}
	return l.strBody(i+1, strKind{q: q})
}

// strBody masks the inside of a string of kind k from j up to its closing
// quote, which it returns the offset after; or up to an opening ${ (#{),
// whose expression is lexed as code and whose closing brace comes back
// here; or, when k is single-line, up to the end of the line.
func (l *lexer) strBody(j int, k strKind) int {
	src, n := l.src, len(l.src)
	for j < n {
		c := src[j]
		switch {
		case c == '\\' && !k.raw:
			j = l.escape(j)
		case c == k.q && (!k.triple || j+2 < n && src[j+1] == k.q && src[j+2] == k.q):
			if k.triple {
				return j + 3
			}
			return j + 1
		case c == k.interp && c != 0 && j+1 < n && src[j+1] == '{':
			l.tmpl = append(l.tmpl, frame{d: l.d, k: k})
			l.d++
			return j + 2
		case c == '\n':
			if !k.multiline {
				return j
			}
			l.newline(j, true)
			j++
		default:
			l.code[j] = fill
			j++
		}
	}
	return n
}

// until masks from j up to and including term (raw strings with a custom
// delimiter: Rust r#"..."#, C++ R"x(...)x"), or to the end of the file.
// term must be short: it is compared at each occurrence of its first byte.
func (l *lexer) until(j int, term []byte) int {
	src, n := l.src, len(l.src)
	for ; j < n; j++ {
		if src[j] == term[0] && bytes.HasPrefix(src[j:], term) {
			return j + len(term)
		}
		if src[j] == '\n' {
			l.newline(j, true)
		} else {
			l.code[j] = fill
		}
	}
	return n
}

// blankUntil blanks comment text from j to the end of the line holding the
// first occurrence of end at a line start (Ruby =begin ... =end), or to the
// end of the file; end == "" blanks to the end of the file.
func (l *lexer) blankUntil(j int, end string) int {
	src, n := l.src, len(l.src)
	for ; j < n; j++ {
		if src[j] != '\n' {
			l.code[j] = ' '
			continue
		}
		if end != "" && bytes.HasPrefix(src[j+1:], []byte(end)) {
			e := j + 1 + len(end)
			if e >= n || isSpace(src[e]) {
				l.newline(j, true)
				return l.lineComment(j + 1)
			}
		}
		l.newline(j, true)
	}
	return n
}

// heredocBodies masks the bodies of the heredocs opened on the line that
// the newline at i ends, and returns where lexing resumes.
func (l *lexer) heredocBodies(i int) int {
	src, n := l.src, len(l.src)
	hs := l.heredocs
	l.heredocs = l.heredocs[:0]
	for _, h := range hs {
		l.newline(i, true)
		for j := i + 1; ; {
			if j >= n {
				return n
			}
			e := bytes.IndexByte(src[j:], '\n')
			if e < 0 {
				e = n
			} else {
				e += j
			}
			if stop := h.end(src[j:e]); stop >= 0 {
				for k := j; k < j+stop; k++ {
					l.code[k] = fill
				}
				if h.php {
					return j + stop // the terminator may be followed by code
				}
				i = e
				break
			}
			for k := j; k < e; k++ {
				l.code[k] = fill
			}
			if e == n {
				return n
			}
			l.newline(e, true)
			j = e + 1
		}
	}
	return i
}

// end returns the length of line's terminator prefix if line ends the
// heredoc, else -1.
func (h *heredoc) end(line []byte) int {
	t := line
	if h.indent || h.php {
		t = bytes.TrimLeft(t, " \t")
	}
	if !bytes.HasPrefix(t, []byte(h.id)) {
		return -1
	}
	rest := t[len(h.id):]
	if h.php {
		if len(rest) > 0 && isIdent(rest[0]) {
			return -1
		}
	} else if len(bytes.TrimRight(rest, " \t\r")) > 0 {
		return -1
	}
	return len(line) - len(rest)
}

// outside blanks the text outside PHP tags from i up to the next <?php,
// <?= or <? and returns the offset after that tag.
func (l *lexer) outside(i int) int {
	src, n := l.src, len(l.src)
	for ; i < n; i++ {
		if src[i] == '<' && i+1 < n && src[i+1] == '?' {
			k := i + 2
			switch {
			case k+3 <= n && bytes.EqualFold(src[k:k+3], []byte("php")):
				k += 3
			case k < n && src[k] == '=':
				k++
			case k < n && !isSpace(src[k]):
				k = -1 // <?xml ...
			}
			if k >= 0 {
				for ; i < k; i++ {
					l.code[i] = ' '
				}
				return k
			}
		}
		if src[i] == '\n' {
			l.newline(i, false)
		} else {
			l.code[i] = ' '
		}
	}
	return n
}

// jsRegexKeywords are the words after which a slash starts a regular
// expression rather than a division.
var jsRegexKeywords = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "of": true,
	"new": true, "delete": true, "void": true, "throw": true, "case": true,
	"do": true, "else": true, "yield": true, "await": true,
}

// regexAllowed guesses from the previous code token whether the slash at i
// opens a regular expression: after an operand (name, number, closing
// bracket, string) it is a division. '<' and '>' count as operands too, so
// that JSX closing tags and text are not taken for expressions.
func (l *lexer) regexAllowed(i int) bool {
	k := i - 1
	for stop := max(0, i-1024); k >= stop && isSpace(l.code[k]); k-- {
	}
	if k < 0 {
		return true
	}
	c := l.code[k]
	switch {
	case isIdent(c):
		e := k + 1
		for k >= 0 && isIdent(l.code[k]) && e-k <= 16 {
			k--
		}
		words := l.syn.regexWords
		if words == nil {
			words = jsRegexKeywords
		}
		return words[string(l.code[k+1:e])]
	case c == ')' || c == ']' || c == '}' || c == '"' || c == '\'' || c == '`' || c == fill || c == '<' || c == '>':
		return false
	}
	return true
}

// maxRegexLit bounds the look-ahead for a regex literal's end, which keeps
// the lexer linear on minified code full of slashes.
const maxRegexLit = 512

func (l *lexer) regex(i int) int {
	src := l.src
	class := false
	for j := i + 1; j < len(src) && j-i <= maxRegexLit; j++ {
		switch src[j] {
		case '\n':
			return i + 1 // not a regex after all: a division
		case '\\':
			if j+1 < len(src) && src[j+1] == '\n' {
				return i + 1
			}
			j++
		case '[':
			class = true
		case ']':
			class = false
		case '/':
			if !class {
				for k := i + 1; k < j; k++ {
					l.code[k] = fill
				}
				return j + 1
			}
		}
	}
	return i + 1
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// isIdent reports whether c can be part of an identifier; any non-ASCII
// byte counts, which is right for the letters of every language here.
func isIdent(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// eachWord calls fn with the offset of every occurrence of word in code
// that is a whole identifier; a property access (.word) is skipped unless
// afterDot is set.
func eachWord(code []byte, word string, afterDot bool, fn func(off int)) {
	w := []byte(word)
	for base := 0; ; {
		k := bytes.Index(code[base:], w)
		if k < 0 {
			return
		}
		off := base + k
		base = off + len(w)
		if off > 0 && (isIdent(code[off-1]) || code[off-1] == '.' && !afterDot) {
			continue
		}
		if base < len(code) && isIdent(code[base]) {
			continue
		}
		fn(off)
	}
}

// quoted reads the string literal whose opening quote is at off: the
// masked copy tells where it ends, the original gives its text. ok is false
// when the literal is unterminated or interpolated (a template with ${}).
func (x *lexed) quoted(off int) (s string, end int, ok bool) {
	if off >= len(x.code) {
		return "", 0, false
	}
	q := x.code[off]
	k := off + 1
	for k < len(x.code) && x.code[k] == fill {
		k++
	}
	if k >= len(x.code) || x.code[k] != q || bytes.IndexByte(x.src[off+1:k], '\n') >= 0 {
		return "", 0, false
	}
	return string(x.src[off+1 : k]), k + 1, true
}

// firstWord returns the identifier t starts with. Extractors switch on it
// before trying any pattern: most lines fail that cheap test, and a regexp
// costs far more to set up than to fail.
func firstWord(t []byte) string {
	return string(t[:identLen(t)]) // no allocation when used in a switch or map index
}

// identLen returns the length of the identifier t starts with.
func identLen(t []byte) int {
	k := 0
	for k < len(t) && isIdent(t[k]) {
		k++
	}
	return k
}

// skipSpace returns the first offset at or after off that is not blank.
func skipSpace(code []byte, off int) int {
	for off < len(code) && isSpace(code[off]) {
		off++
	}
	return off
}

const maxText = 200

// Clip trims s and caps it at 200 bytes (maxText) on a rune boundary: the
// length of a signature or doc line the parsers report. The tree-sitter
// parser uses it too.
func Clip(s []byte) string {
	s = bytes.TrimSpace(s)
	if len(s) > maxText {
		cut := maxText
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = bytes.TrimSpace(s[:cut])
	}
	return string(s)
}

// signature is line i of the source, trimmed, without a trailing comment.
func (x *lexed) signature(i int) string {
	code := x.codeLine(i)
	end := len(bytes.TrimRightFunc(code, func(r rune) bool { return r == ' ' || r == '\t' }))
	return Clip(x.srcLine(i)[:end])
}

// docStyle says which comments above a definition document it.
type docStyle struct {
	line       string // line-comment prefix, "//"
	block      string // accepted block-comment opener: "/*", "/**" or ""
	decorators bool   // skip @decorator lines between comment and definition
}

// docAbove returns the first line of text of the comment that ends on the
// line right above line i, or "".
func (x *lexed) docAbove(i int, st docStyle) string {
	j := i - 1
	for st.decorators && j >= 0 && !x.inText[j] && bytes.HasPrefix(bytes.TrimSpace(x.codeLine(j)), []byte("@")) {
		j--
	}
	if j < 0 || !x.commentOnly(j) {
		return ""
	}
	last := bytes.TrimSpace(x.srcLine(j))
	if st.block != "" && bytes.HasSuffix(last, []byte("*/")) {
		top := j
		for top > 0 && !bytes.HasPrefix(bytes.TrimSpace(x.srcLine(top)), []byte("/*")) && x.commentOnly(top-1) {
			top--
		}
		first := bytes.TrimSpace(x.srcLine(top))
		if !bytes.HasPrefix(first, []byte(st.block)) || bytes.HasPrefix(first, []byte("/**/")) {
			return ""
		}
		for k := top; k <= j; k++ {
			t := bytes.TrimSpace(x.srcLine(k))
			if k == top {
				t = bytes.TrimLeft(t[2:], "*!")
			}
			t = bytes.TrimSpace(bytes.TrimSuffix(t, []byte("*/")))
			t = bytes.TrimSpace(bytes.TrimPrefix(t, []byte("*")))
			if len(t) == 0 || t[0] == '@' {
				continue // JSDoc tags are not prose
			}
			return Clip(t)
		}
		return ""
	}
	if st.line == "" || !bytes.HasPrefix(last, []byte(st.line)) {
		return ""
	}
	top := j
	for top > 0 && x.commentOnly(top-1) && bytes.HasPrefix(bytes.TrimSpace(x.srcLine(top-1)), []byte(st.line)) {
		top--
	}
	for k := top; k <= j; k++ {
		t := bytes.TrimPrefix(bytes.TrimSpace(x.srcLine(k)), []byte(st.line))
		if Directive(t) {
			continue
		}
		if t = bytes.TrimSpace(t); len(t) > 0 {
			return Clip(t)
		}
	}
	return ""
}

// Directive reports whether a line comment's text (after "//") is a tool
// directive rather than prose: //go:generate, //nolint:x, eslint-disable...
// Doc comments skip them; the tree-sitter parser does too.
func Directive(t []byte) bool {
	if len(t) > 0 && t[0] != ' ' && t[0] != '\t' {
		if k := bytes.IndexByte(t, ':'); k > 0 && k+1 < len(t) && t[k+1] != ' ' && bytes.IndexByte(t[:k], ' ') < 0 {
			return true
		}
	}
	t = bytes.TrimSpace(t)
	for _, p := range []string{"eslint-", "@ts-", "prettier-ignore", "istanbul ignore", "tslint:", "#region", "#endregion"} {
		if bytes.HasPrefix(t, []byte(p)) {
			return true
		}
	}
	return false
}

// endQuery asks for the first line at or after from whose key is at most
// max; sym is the symbol the answer belongs to.
type endQuery struct {
	sym, from, max int
}

const noKey = math.MaxInt

// firstAtMost answers every query in one backward pass with a monotonic
// stack, O((lines+queries)·log lines), instead of a forward scan per
// symbol, which would be quadratic on a file with unbalanced braces. An
// answer of len(keys) means none.
func firstAtMost(keys []int, qs []endQuery) []int {
	order := make([]int, len(qs))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return qs[order[a]].from > qs[order[b]].from })
	ans := make([]int, len(qs))
	// stack holds line numbers; from bottom to top, lines decrease and
	// keys strictly increase. A line hidden behind an earlier line with a
	// key as small can never be the first answer.
	var stack []int
	q := 0
	for i := len(keys) - 1; i >= 0 && q < len(order); i-- {
		for len(stack) > 0 && keys[stack[len(stack)-1]] >= keys[i] {
			stack = stack[:len(stack)-1]
		}
		stack = append(stack, i)
		for ; q < len(order) && qs[order[q]].from >= i; q++ {
			if qs[order[q]].from > i {
				ans[order[q]] = len(keys) // from beyond the last line
				continue
			}
			m := qs[order[q]].max
			k := sort.Search(len(stack), func(k int) bool { return keys[stack[k]] > m }) - 1
			if k < 0 {
				ans[order[q]] = len(keys)
			} else {
				ans[order[q]] = stack[k]
			}
		}
	}
	for ; q < len(order); q++ {
		ans[order[q]] = len(keys)
	}
	return ans
}

// continues reports whether a statement on line i obviously goes on to the
// next line: it ends with an operator or the next code line starts with one.
func continues(last, next byte, arrow bool) bool {
	switch last {
	case '=', ',', '.', '&', '|', '?', ':', '+':
		return true
	}
	if arrow {
		return true
	}
	switch next {
	case '.', '|', '&', '?', ':':
		return true
	}
	return false
}

// braceEnds sets EndLine for brace languages: a definition whose line
// starts at bracket depth d ends on the first line that brings the depth
// back to d or less and does not continue the statement.
func (f *file) braceEnds(qs []endQuery) {
	if len(qs) == 0 {
		return
	}
	x := f.lexed
	n := x.lines()
	keys := make([]int, n)
	var next byte // first byte of the next non-blank code line
	for i := n - 1; i >= 0; i-- {
		code := bytes.TrimSpace(x.codeLine(i))
		if len(code) == 0 {
			keys[i] = noKey
			continue
		}
		arrow := bytes.HasSuffix(code, []byte("=>"))
		if i+1 < n && x.inText[i+1] {
			keys[i] = noKey // the line ends inside a string or comment
		} else if continues(code[len(code)-1], next, arrow) {
			keys[i] = x.depthEnd(i) + 1
		} else {
			keys[i] = x.depthEnd(i)
		}
		next = code[0]
	}
	for k, a := range firstAtMost(keys, qs) {
		if a < n {
			f.facts.Symbols[qs[k].sym].EndLine = a + 1
		}
	}
}
