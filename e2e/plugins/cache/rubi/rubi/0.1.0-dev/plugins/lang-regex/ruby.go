package regex

import (
	"bytes"
	"regexp"
	"strings"
	"sync"

	"github.com/rubi-dev/rubi/core"
)

func init() {
	register(&language{
		names: []string{core.LangRuby},
		syntax: syntax{lineComment: "#", regexLit: true, regexWords: rubyRegexWords,
			hook: rubyLex, special: "'\"`<%=_$"},
		extract: extractRuby,
	})
}

var rubyRegexWords = map[string]bool{
	"if": true, "unless": true, "when": true, "elsif": true, "and": true, "or": true, "not": true,
	"return": true, "then": true, "until": true, "while": true, "in": true, "case": true, "do": true,
	"else": true, "begin": true, "yield": true,
}

// rubyLex lexes Ruby's strings (which span lines, "..." with #{}
// substitutions), heredocs (<<~EOS ... EOS), percent literals (%w[...]
// %q(...)), =begin/=end comments, __END__ and the globals $' $".
func rubyLex(l *lexer, i int) int {
	src, n := l.src, len(l.src)
	lineStart := i == 0 || src[i-1] == '\n'
	switch c := src[i]; c {
	case '\'':
		return l.strBody(i+1, strKind{q: c, multiline: true})
	case '"', '`':
		return l.strBody(i+1, strKind{q: c, multiline: true, interp: '#'})
	case '$':
		if i+1 < n && bytes.IndexByte([]byte("'\"`/"), src[i+1]) >= 0 {
			return i + 2
		}
	case '=':
		if lineStart && bytes.HasPrefix(src[i:], []byte("=begin")) && (i+6 >= n || isSpace(src[i+6])) {
			return l.blankUntil(i, "=end")
		}
	case '_':
		if lineStart && bytes.HasPrefix(src[i:], []byte("__END__")) && (i+7 >= n || src[i+7] == '\n' || src[i+7] == '\r') {
			return l.blankUntil(i, "")
		}
	case '<':
		return l.rubyHeredoc(i)
	case '%':
		return l.rubyPercent(i)
	}
	return i
}

// rubyHeredoc opens a heredoc at i: <<~ID, <<-ID, <<ID (ID capitalized)
// or a quoted ID; after an operand, << is a shift.
func (l *lexer) rubyHeredoc(i int) int {
	src, n := l.src, len(l.src)
	if i+2 >= n || src[i+1] != '<' {
		return i
	}
	if i > 0 {
		if p := src[i-1]; isIdent(p) || p == ')' || p == ']' || p == '}' || p == '<' {
			return i
		}
	}
	j := i + 2
	indent := src[j] == '~' || src[j] == '-'
	if indent {
		j++
	}
	var quote byte
	if j < n && (src[j] == '\'' || src[j] == '"' || src[j] == '`') {
		quote = src[j]
		j++
	}
	k := j
	for k < n && k-j < 64 && (isIdent(src[k]) && src[k] != '$') {
		k++
	}
	if k == j || '0' <= src[j] && src[j] <= '9' {
		return i
	}
	id := string(src[j:k])
	if quote != 0 {
		if k >= n || src[k] != quote {
			return i
		}
		k++
	} else if !indent && (src[j] < 'A' || src[j] > 'Z') {
		return i
	}
	l.heredocs = append(l.heredocs, heredoc{id: id, indent: indent})
	return k
}

// rubyPercent masks a percent literal at i: %w[a b], %q(it's), %r{a/b}
// with a letter, or %(...) where an operand is expected.
func (l *lexer) rubyPercent(i int) int {
	src, n := l.src, len(l.src)
	j := i + 1
	if j >= n {
		return i
	}
	if strings.IndexByte("qQwWiIrsx", src[j]) >= 0 {
		j++
		if j >= n || isIdent(src[j]) || isSpace(src[j]) || src[j] == '=' {
			return i
		}
		if i > 0 && (isIdent(src[i-1]) || src[i-1] == ')' || src[i-1] == ']') {
			return i
		}
	} else {
		if strings.IndexByte("([{<|!", src[j]) < 0 {
			return i
		}
		k := i - 1
		for k >= 0 && (src[k] == ' ' || src[k] == '\t') {
			k--
		}
		if k >= 0 && strings.IndexByte("=(,[{|&!:;?\n", src[k]) < 0 {
			return i
		}
	}
	open := src[j]
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
		close = open
	}
	depth := 1
	for k := j + 1; k < n; {
		c := src[k]
		switch {
		case c == '\\':
			k = l.escape(k)
			continue
		case c == close:
			if depth--; depth == 0 {
				return k + 1
			}
		case c == open:
			depth++
		case c == '\n':
			l.newline(k, true)
			k++
			continue
		}
		l.code[k] = fill
		k++
	}
	return n
}

// rubyRE returns the Ruby patterns, compiled once on first use.
var rubyRE = sync.OnceValue(func() *rubyPatterns {
	return &rubyPatterns{
		constant: regexp.MustCompile(`^([A-Z][\pL\pN_]*)\s*=(?:[^=~>]|$)`),
		names:    regexp.MustCompile(`:([\pL_][\pL\pN_]*[?!=]?)`),
	}
})

type rubyPatterns struct {
	constant, names *regexp.Regexp
}

var rubyDoc = docStyle{line: "#"}

// rubyBlock is an open class, module, class << self or def.
type rubyBlock struct {
	name    string
	kind    string // class, module, sclass, def
	indent  int
	private bool // after a bare private or protected
	hidden  map[string]bool
	syms    []int // symbols whose visibility private :name may change
}

func extractRuby(f *file) {
	n := f.lines()
	stmt := make([]bool, n)
	for i := range n {
		stmt[i] = !f.inText[i] && f.depth[i] == 0 && !f.blank(i)
	}
	var (
		stack      []*rubyBlock
		blockQs    []endQuery
		consts     decls
		heads      []int
		oneLines   []bool // the symbol ends on its own line
		closeBlock = func(b *rubyBlock) {
			for _, k := range b.syms {
				if s := &f.facts.Symbols[k]; b.hidden[s.Name] {
					s.Exported = false
				}
			}
		}
	)
	consts.f = f
	for i := 0; i < n; i++ {
		if !stmt[i] {
			continue
		}
		code := f.codeLine(i)
		t := bytes.TrimLeft(code, " \t")
		indent := pyIndent(code)
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			closeBlock(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
		}
		var top *rubyBlock
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.kind == "def" {
			continue // the body of a method
		}
		w, r := word(t)
		private := false
		if (w == "private" || w == "protected") && firstWord(r) == "def" {
			private = true
			t = r
			w, r = word(t)
		}
		add := func(s core.Symbol, block, oneLine bool) int {
			s.Line = i + 1
			s.Signature = f.signature(i)
			s.Doc = rubyDocOf(f.docAbove(i, rubyDoc))
			if top != nil && s.Parent == "" {
				s.Parent = top.name
			}
			k := f.addSymbol(s)
			if k >= 0 {
				if block {
					blockQs = append(blockQs, endQuery{sym: k, from: i + 1, max: indent})
					heads = append(heads, i)
					oneLines = append(oneLines, oneLine)
				} else {
					consts.ends = append(consts.ends, endQuery{sym: k, from: i, max: 0})
				}
				if top != nil {
					top.syms = append(top.syms, k)
				}
			}
			return k
		}
		switch w {
		case "class", "module":
			if w == "class" && bytes.HasPrefix(r, []byte("<<")) {
				name := ""
				if top != nil {
					name = top.name
				}
				stack = append(stack, &rubyBlock{name: name, kind: "sclass", indent: indent})
				continue
			}
			name := rubyConstPath(r)
			if name == "" {
				continue
			}
			kind := core.SymbolClass
			if w == "module" {
				kind = core.SymbolModule
			}
			add(core.Symbol{Name: name, Kind: kind, Exported: true}, true, rubyEndsHere(t))
			stack = append(stack, &rubyBlock{name: name, kind: w, indent: indent})
		case "def":
			name, singleton, rest := rubyDefName(r)
			if name == "" {
				continue
			}
			s := core.Symbol{Name: name, Kind: core.SymbolFunction, Exported: true}
			if top != nil {
				s.Kind = core.SymbolMethod
				// private does not reach def self.x
				s.Exported = !private && (singleton && top.kind != "sclass" || !top.private)
			}
			endless := rubyEndless(rest)
			add(s, true, endless || rubyEndsHere(t))
			if !endless {
				stack = append(stack, &rubyBlock{kind: "def", indent: indent})
			}
		case "private", "protected", "public", "module_function", "private_class_method", "private_constant", "public_class_method":
			if top == nil {
				continue
			}
			if len(bytes.TrimSpace(r)) == 0 {
				top.private = w == "private" || w == "protected"
				continue
			}
			if w == "public" || w == "public_class_method" || w == "module_function" {
				continue
			}
			for _, m := range rubyRE().names.FindAllSubmatch(r, -1) {
				if top.hidden == nil {
					top.hidden = map[string]bool{}
				}
				top.hidden[string(m[1])] = true
			}
		default:
			if len(w) > 0 && 'A' <= w[0] && w[0] <= 'Z' {
				if m := rubyRE().constant.FindSubmatch(t); m != nil {
					add(core.Symbol{Name: string(m[1]), Kind: core.SymbolConst, Exported: true}, false, false)
				}
			}
		}
	}
	for len(stack) > 0 {
		closeBlock(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
	}
	f.rubyImports()
	f.rubyEnds(stmt, blockQs, heads, oneLines)
	consts.finish()
}

// rubyConstPath reads Foo::Bar (or ::Foo) and returns its last name.
func rubyConstPath(r []byte) string {
	k := 0
	for k < len(r) && (isIdent(r[k]) || r[k] == ':') {
		k++
	}
	name := lastSegment(string(r[:k]), "::")
	if name == "" || name[0] < 'A' || name[0] > 'Z' {
		return ""
	}
	return name
}

// rubyEndless reports whether what follows a def's name makes it a
// one-line endless method: def x = 1, def y(a) = a.
func rubyEndless(rest []byte) bool {
	rest = bytes.TrimLeft(rest, " \t")
	if len(rest) > 0 && rest[0] == '(' {
		k := skipBalanced(rest)
		if k < 0 {
			return false
		}
		rest = bytes.TrimLeft(rest[k:], " \t")
	}
	return len(rest) > 0 && rest[0] == '=' && (len(rest) == 1 || rest[1] != '=' && rest[1] != '~')
}

// rubyDocOf drops magic comments and tool directives.
func rubyDocOf(doc string) string {
	for _, p := range []string{"frozen_string_literal:", "encoding:", "rubocop:", "typed:", "-*-", "!"} {
		if strings.HasPrefix(doc, p) {
			return ""
		}
	}
	return doc
}

// rubyImports finds require, require_relative, load and autoload with a
// literal argument.
func (f *file) rubyImports() {
	code := f.code
	for _, kw := range []string{"require", "require_relative", "load", "autoload"} {
		kind := core.ImportRequire
		if kw == "require_relative" {
			kind = core.ImportRelative
		}
		eachWord(code, kw, false, func(off int) {
			p := off + len(kw)
			paren := p < len(code) && code[p] == '('
			if paren {
				p++
			}
			for p < len(code) && (code[p] == ' ' || code[p] == '\t') {
				p++
			}
			if kw == "autoload" { // autoload :Name, "path"
				if p >= len(code) || code[p] != ':' {
					return
				}
				k := bytes.IndexByte(code[p:min(len(code), p+128)], ',')
				if k < 0 {
					return
				}
				p = skipSpace(code, p+k+1)
			} else if !paren && p == off+len(kw) {
				return // no blank: require"x" is rare, requirement is a name
			}
			if p >= len(code) || code[p] != '\'' && code[p] != '"' {
				return
			}
			spec, end, ok := f.quoted(p)
			if !ok {
				return
			}
			e := end
			for e < len(code) && (code[e] == ' ' || code[e] == '\t' || code[e] == '\r') {
				e++
			}
			if paren {
				if e >= len(code) || code[e] != ')' {
					return
				}
				e++
				for e < len(code) && (code[e] == ' ' || code[e] == '\t' || code[e] == '\r') {
					e++
				}
			}
			if w := firstWord(code[e:]); e < len(code) && code[e] != '\n' && code[e] != ';' && w != "if" && w != "unless" {
				return
			}
			f.addImport(p, spec, kind)
		})
	}
}

// rubyEnds sets EndLine of classes, modules and defs: the line of the end
// that closes them, found as the first statement indented no deeper.
func (f *file) rubyEnds(stmt []bool, qs []endQuery, heads []int, oneLine []bool) {
	if len(qs) == 0 {
		return
	}
	n := f.lines()
	keys := make([]int, n)
	lastCode := make([]int, n)
	prev := -1
	for i := range n {
		keys[i] = noKey
		if stmt[i] {
			keys[i] = pyIndent(f.codeLine(i))
		}
		if !f.blank(i) {
			prev = i
		}
		lastCode[i] = prev
	}
	for k, a := range firstAtMost(keys, qs) {
		h := heads[k]
		s := &f.facts.Symbols[qs[k].sym]
		switch {
		case oneLine[k]:
			s.EndLine = h + 1
		case a < n && firstWord(bytes.TrimLeft(f.codeLine(a), " \t")) == "end":
			s.EndLine = a + 1
		default:
			s.EndLine = max(lastCode[a-1], h) + 1
		}
	}
}

// rubyEndsHere reports whether a header line holds its own end:
// class E < StandardError; end, def y; 2; end.
func rubyEndsHere(line []byte) bool {
	line = bytes.TrimRight(line, " \t")
	return len(line) > 3 && bytes.HasSuffix(line, []byte("end")) && !isIdent(line[len(line)-4])
}

// rubyDefName reads what follows def: a name, maybe after self. or
// another receiver, ending in ? ! or =, or an operator. It returns the
// name, whether it has a receiver, and what follows it.
func rubyDefName(r []byte) (name string, singleton bool, rest []byte) {
	w := firstWord(r)
	if w != "" {
		if a := bytes.TrimLeft(r[len(w):], " \t"); len(a) > 1 && a[0] == '.' {
			singleton = true
			r = bytes.TrimLeft(a[1:], " \t")
			w = firstWord(r)
		}
	}
	k := len(w)
	if k > 0 {
		if w[0] >= '0' && w[0] <= '9' || w[0] == '$' {
			return "", false, nil
		}
		if k < len(r) && (r[k] == '?' || r[k] == '!' || r[k] == '=' && (k+1 >= len(r) || r[k+1] != '=' && r[k+1] != '~' && r[k+1] != '>')) {
			k++
		}
	} else {
		for k < len(r) && bytes.IndexByte([]byte("-+*/%<>=!~^&|[]@"), r[k]) >= 0 {
			k++
		}
	}
	if k == 0 {
		return "", false, nil
	}
	return string(r[:k]), singleton, r[k:]
}
