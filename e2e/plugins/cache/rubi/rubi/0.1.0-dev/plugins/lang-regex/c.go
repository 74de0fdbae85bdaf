package regex

import (
	"bytes"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/rubi-dev/rubi/core"
)

// One extractor serves C and C++: C++ adds namespaces, classes and
// qualified definitions (T::m), which C code never matches.
func init() {
	register(&language{
		names:   []string{core.LangC, core.LangCPP},
		syntax:  syntax{lineComment: "//", blockComment: true, hook: cLex, special: "R'"},
		extract: extractC,
	})
}

// cLex lexes C++ raw strings R"x(...)x" (also u8R, uR, UR, LR) and digit
// separators (1'000'000), which must not open a character literal.
func cLex(l *lexer, i int) int {
	src, n := l.src, len(l.src)
	if src[i] == '\'' {
		if i > 0 && i+1 < n && isHex(src[i-1]) && isHex(src[i+1]) {
			k := i - 1
			for k > 0 && i-k < 64 && (isIdent(src[k-1]) || src[k-1] == '\'') {
				k--
			}
			if '0' <= src[k] && src[k] <= '9' {
				return i + 1
			}
		}
		return i
	}
	if i+1 >= n || src[i+1] != '"' {
		return i
	}
	if i > 0 && isIdent(src[i-1]) {
		k := i - 1
		for k > 0 && i-k < 3 && isIdent(src[k-1]) {
			k--
		}
		if p := string(src[k:i]); p != "u8" && p != "u" && p != "U" && p != "L" || k > 0 && isIdent(src[k-1]) {
			return i
		}
	}
	j := i + 2
	k := j
	for ; k < n && k-j <= 16 && src[k] != '('; k++ {
		if c := src[k]; isSpace(c) || c == ')' || c == '\\' || c == '"' {
			return i
		}
	}
	if k >= n || src[k] != '(' {
		return i
	}
	term := append(append([]byte{')'}, src[j:k]...), '"')
	return l.until(k+1, term)
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// cRE returns the C and C++ patterns, compiled once on first use.
var cRE = sync.OnceValue(func() *cPatterns {
	return &cPatterns{
		funcPtr:  regexp.MustCompile(`\(\s*[*^&]\s*(?:const\s+)?([A-Za-z_]\w*)\s*\)`),
		macroUse: regexp.MustCompile(`^[A-Z_][A-Z0-9_]*\s*(?:\(.*\))?$`),
	}
})

type cPatterns struct {
	funcPtr, macroUse *regexp.Regexp
}

// cSpecifiers may precede a declaration; static is the one that matters.
var cSpecifiers = map[string]bool{
	"static": true, "inline": true, "constexpr": true, "consteval": true, "constinit": true,
	"virtual": true, "explicit": true, "friend": true, "thread_local": true, "_Thread_local": true,
	"register": true, "__inline": true, "__inline__": true, "__forceinline": true, "_Noreturn": true,
	"export": true, "extern": true, "mutable": true,
}

// cNotName are words that cannot be a function's name or appear in its
// type: statements and operators that look like calls.
var cNotName = map[string]bool{
	"if": true, "while": true, "for": true, "switch": true, "return": true, "sizeof": true, "catch": true,
	"alignof": true, "_Alignof": true, "defined": true, "else": true, "new": true, "delete": true,
	"throw": true, "case": true, "goto": true, "do": true, "using": true, "typedef": true,
	"co_return": true, "co_await": true, "co_yield": true, "static_assert": true, "_Static_assert": true,
	"decltype": true, "typeof": true, "__typeof__": true, "asm": true, "__asm__": true, "noexcept": true,
	"requires": true, "template": true, "namespace": true,
}

var cDoc = docStyle{line: "///", block: "/*"}
var cLineDoc = docStyle{line: "//", block: "/*"}

func cAttr(t []byte) bool {
	return bytes.HasPrefix(t, []byte("template")) || bytes.HasPrefix(t, []byte("[[")) || bytes.HasPrefix(t, []byte("__attribute__"))
}

// C scope kinds.
const (
	cNS    = "namespace" // namespace or extern "C" block: its body is file scope; flag: internal
	cClass = "class"     // flag: in a private or protected section
)

// cTypedef is a typedef whose name comes at its end: typedef struct { ... } Name;
type cTypedef struct {
	line, depth, off int
	enum             bool
	tag              string
	exported         bool
}

func extractC(f *file) {
	n := f.lines()
	pp := make([]bool, n) // the line is (part of) a preprocessor directive
	for i := range n {
		t := bytes.TrimLeft(f.codeLine(i), " \t")
		pp[i] = !f.inText[i] && len(t) > 0 && t[0] == '#' ||
			i > 0 && pp[i-1] && bytes.HasSuffix(bytes.TrimRight(f.codeLine(i-1), " \t"), []byte(`\`))
	}
	classify := func(j int) int {
		t := bytes.TrimSpace(f.codeLine(j))
		switch {
		case pp[j]:
			return stmtYes
		case cAttr(t):
			return stmtSkip
		case cAccessLabel(t) != "", cRE().macroUse.Match(t):
			return stmtYes
		}
		return stmtNo
	}
	c := cState{f: f, d: decls{f: f}, pp: pp, classify: classify, macros: map[string]bool{}}
	skip := 0   // nesting of #if inside an #if 0 being skipped
	guard := "" // name tested by the directive just before: #ifndef X
	for i := 0; i < n && !f.full(); i++ {
		c.scopes = f.popScopes(c.scopes, i)
		code := f.codeLine(i)
		t := bytes.TrimLeft(code, " \t")
		off := f.starts[i] + len(code) - len(t)
		if pp[i] {
			if len(t) == 0 || t[0] != '#' {
				continue // a continuation line
			}
			dir := bytes.TrimLeft(t[1:], " \t")
			w, rest := word(dir)
			restOff := off + len(t) - len(rest)
			if skip > 0 {
				switch w {
				case "if", "ifdef", "ifndef":
					skip++
				case "endif":
					skip--
				case "else", "elif", "elifdef", "elifndef":
					if skip == 1 {
						skip = 0
					}
				}
				continue
			}
			switch w {
			case "if":
				if string(bytes.TrimSpace(rest)) == "0" {
					skip = 1
				}
			case "include", "include_next", "import":
				c.include(restOff, rest)
			case "define":
				if name := firstWord(rest); name != "" && name != guard && !c.macros[name] {
					c.macros[name] = true
					j := i
					for j+1 < n && pp[j+1] && !bytes.HasPrefix(bytes.TrimLeft(f.codeLine(j+1), " \t"), []byte("#")) {
						j++
					}
					f.addSymbol(core.Symbol{Name: name, Kind: core.SymbolConst, Line: i + 1, EndLine: j + 1, Exported: true,
						Signature: f.signature(i), Doc: c.doc(i)})
				}
			}
			guard = ""
			if w == "ifndef" {
				guard = firstWord(rest)
			} else if w == "if" && bytes.HasPrefix(rest, []byte("!defined")) {
				guard = firstWord(bytes.TrimLeft(rest[len("!defined"):], " \t("))
			}
			continue
		}
		if skip > 0 {
			continue
		}
		if c.td != nil {
			c.typedefEnd(i)
		}
		if f.inText[i] || len(t) == 0 {
			continue
		}
		var top *scope
		if len(c.scopes) > 0 {
			top = &c.scopes[len(c.scopes)-1]
		}
		D, internal := 0, false
		var cls *scope
		if top != nil {
			D = top.body
			if top.kind == cClass {
				cls = top
			} else {
				internal = top.flag
			}
		}
		if f.depth[i] != D {
			continue
		}
		if cls != nil {
			if a := cAccessLabel(t); a != "" {
				cls.flag = a != "public"
				continue
			}
		}
		c.decl(i, t, off, cls, internal)
	}
	c.d.finish()
	sort.SliceStable(f.facts.Symbols, func(a, b int) bool { return f.facts.Symbols[a].Line < f.facts.Symbols[b].Line })
}

type cState struct {
	f        *file
	d        decls
	pp       []bool
	classify func(int) int
	scopes   []scope
	macros   map[string]bool
	td       *cTypedef
}

func (c *cState) doc(i int) string {
	if d := c.f.docAboveAttrs(i, cDoc, cAttr); d != "" {
		return d
	}
	return c.f.docAboveAttrs(i, cLineDoc, cAttr)
}

// cAccessLabel returns public, private or protected for an access label
// line (public:, private slots:, Q_SIGNALS:), else "".
func cAccessLabel(t []byte) string {
	w, r := word(t)
	switch w {
	case "public", "private", "protected":
	case "signals", "Q_SIGNALS":
		w = "public"
	default:
		return ""
	}
	if w2, r2 := word(r); w2 == "slots" || w2 == "Q_SLOTS" {
		r = r2
	}
	if len(r) > 0 && r[0] == ':' && (len(r) == 1 || r[1] != ':') {
		return w
	}
	return ""
}

// include reads the target of #include "x.h" or #include <x.h>.
func (c *cState) include(off int, rest []byte) {
	f := c.f
	if len(rest) == 0 {
		return
	}
	switch rest[0] {
	case '"':
		if spec, _, ok := f.quoted(off); ok {
			f.addImport(off+1, spec, core.ImportStatic)
		}
	case '<':
		if k := bytes.IndexByte(rest, '>'); k > 1 {
			f.addImport(off+1, string(f.src[off+1:off+k]), core.ImportSystem)
		}
	}
}

// decl reads a declaration at file scope (or in the body of cls).
func (c *cState) decl(i int, t []byte, off int, cls *scope, internal bool) {
	f := c.f
	adv := func(r []byte) {
		r = bytes.TrimLeft(r, " \t")
		off += len(t) - len(r)
		t = r
	}
	static, friend := false, false
	for range 32 {
		w, r := word(t)
		switch {
		case w == "template" && len(r) > 0 && r[0] == '<':
			k := skipBalanced(r)
			if k < 0 {
				return
			}
			adv(r[k:])
			continue
		case w == "" && bytes.HasPrefix(t, []byte("[[")):
			k := skipBalanced(t)
			if k < 0 {
				return
			}
			adv(t[k:])
			continue
		case (w == "__attribute__" || w == "__declspec" || w == "alignas") && len(r) > 0 && r[0] == '(':
			k := skipBalanced(r)
			if k < 0 {
				return
			}
			adv(r[k:])
			continue
		case w == "extern" && len(r) > 0 && r[0] == '"': // extern "C"
			k := 1
			for k < len(r) && r[k] == fill {
				k++
			}
			r = bytes.TrimLeft(r[min(k+1, len(r)):], " \t")
			if len(r) > 0 && r[0] == '{' {
				brace := off + len(t) - len(r)
				s := f.openScope(brace, "", cNS, !internal)
				s.flag = internal
				c.scopes = append(c.scopes, s)
				return
			}
			adv(r)
			continue
		case cSpecifiers[w] && len(r) < len(t)-len(w):
			static = static || w == "static"
			friend = friend || w == "friend"
			adv(r)
			continue
		}
		break
	}
	if len(t) == 0 || friend {
		return
	}
	exported := !static && !internal
	parent := ""
	if cls != nil {
		exported = cls.exported && !cls.flag
		parent = cls.name
	}
	w, r := word(t)
	switch w {
	case "namespace":
		if cls != nil {
			return
		}
		name := ""
		k := 0
		for k < len(r) && (isIdent(r[k]) || r[k] == ':') {
			k++
		}
		name = string(r[:k])
		if name == "inline" {
			return
		}
		brace := f.bodyBrace(off+len(t)-len(r)+k, "=")
		if brace < 0 {
			return
		}
		in := internal || name == ""
		if name != "" {
			c.d.add(i, core.Symbol{Name: name, Kind: core.SymbolModule, Exported: !in, Doc: c.doc(i)}, brace)
		}
		s := f.openScope(brace, name, cNS, !in)
		s.flag = in
		c.scopes = append(c.scopes, s)
		return
	case "typedef":
		if cls != nil || c.td != nil {
			return
		}
		td := &cTypedef{line: i, depth: f.depth[i], off: off + len(w), exported: !internal}
		if kw, r2 := word(r); kw == "struct" || kw == "union" || kw == "enum" {
			td.enum = kw == "enum"
			if tag := firstWord(r2); tag != "" {
				if b := f.bodyBrace(off+len(t)-len(r2)+len(tag), "=(*"); b >= 0 {
					td.tag = tag
					kind := core.SymbolType
					if td.enum {
						kind = core.SymbolEnum
					}
					c.d.add(i, core.Symbol{Name: tag, Kind: kind, Exported: !internal, Doc: c.doc(i)}, b)
				}
			}
		}
		c.td = td
		c.typedefEnd(i)
		return
	case "struct", "union", "class", "enum":
		if c.aggregate(i, w, r, off+len(t)-len(r), parent, exported) {
			return
		}
	case "using", "static_assert", "_Static_assert", "return", "asm", "__asm__":
		return
	}
	c.function(i, t, off, cls, exported)
}

// aggregate reads struct, union, class or enum Name [: bases] { and
// reports whether it was one (rather than, say, a function returning
// struct X).
func (c *cState) aggregate(i int, kw string, r []byte, off int, parent string, exported bool) bool {
	f := c.f
	if kw == "enum" {
		if w := firstWord(r); w == "class" || w == "struct" {
			r2 := bytes.TrimLeft(r[len(w):], " \t")
			off += len(r) - len(r2)
			r = r2
		}
	}
	name := ""
	k := 0
	for steps := 0; k < len(r) && steps < 16; steps++ {
		for k < len(r) && (r[k] == ' ' || r[k] == '\t') {
			k++
		}
		if k >= len(r) {
			break
		}
		w := firstWord(r[k:])
		if w == "" {
			if bytes.HasPrefix(r[k:], []byte("::")) {
				k += 2
				continue
			}
			if bytes.HasPrefix(r[k:], []byte("[[")) {
				e := skipBalanced(r[k:])
				if e < 0 {
					return false
				}
				k += e
				continue
			}
			break
		}
		k += len(w)
		if w == "__attribute__" || w == "__declspec" || w == "alignas" {
			s := bytes.TrimLeft(r[k:], " \t")
			if e := skipBalanced(s); e > 0 {
				k = len(r) - len(s) + e
			}
			continue
		}
		if w == "final" && name != "" {
			continue
		}
		name = w
	}
	rest := r[k:]
	if len(rest) > 0 && rest[0] == '<' { // template specialization: struct hash<X> {
		e := skipBalanced(rest)
		if e < 0 {
			return false
		}
		rest = bytes.TrimLeft(rest[e:], " \t")
		k = len(r) - len(rest)
	}
	// A body must follow: { or a base clause (or an enum's type) then {.
	if k < len(r) && r[k] != '{' && (r[k] != ':' || k+1 < len(r) && r[k+1] == ':') {
		return r[k] == ';' // a forward declaration or so: nothing to report
	}
	brace := f.bodyBrace(off+k, "=(")
	if brace < 0 {
		return name != ""
	}
	if name == "" || cNotName[name] {
		return true // anonymous: struct { ... } x;
	}
	kind := core.SymbolType
	switch kw {
	case "class":
		kind = core.SymbolClass
	case "enum":
		kind = core.SymbolEnum
	}
	c.d.add(i, core.Symbol{Name: name, Kind: kind, Exported: exported, Parent: parent, Doc: c.doc(i)}, brace)
	if kw != "enum" {
		s := f.openScope(brace, name, cClass, exported)
		s.flag = kw == "class" // class members are private until a label says otherwise
		c.scopes = append(c.scopes, s)
	}
	return true
}

// function reports a function definition: type tokens, a name (maybe
// qualified: T::m, ns::f, T::~T, T::operator==), a parameter list and a
// body, as opposed to a prototype, a variable or a call.
func (c *cState) function(i int, t []byte, off int, cls *scope, exported bool) {
	f := c.f
	var (
		types int      // tokens before the name
		segs  []string // segments of the last name read
		k     int
	)
	for steps := 0; steps < 64; steps++ {
		for k < len(t) && (t[k] == ' ' || t[k] == '\t') {
			k++
		}
		if k >= len(t) {
			return
		}
		ch := t[k]
		if ch == '(' {
			break
		}
		switch {
		case ch == '*' || ch == '&':
			if segs != nil {
				types++
				segs = nil
			}
			k++
			continue
		case ch == '[' && k+1 < len(t) && t[k+1] == '[':
			e := skipBalanced(t[k:])
			if e < 0 {
				return
			}
			k += e
			continue
		case !isIdent(ch) && ch != '~' && !bytes.HasPrefix(t[k:], []byte("::")):
			return
		}
		if w := firstWord(t[k:]); w == "__attribute__" || w == "__declspec" || w == "alignas" {
			r := bytes.TrimLeft(t[k+len(w):], " \t")
			e := skipBalanced(r)
			if e < 0 {
				return
			}
			k = len(t) - len(r) + e
			continue
		}
		name, e := cQualified(t, k)
		if name == nil {
			return
		}
		if segs != nil {
			types++
		}
		segs, k = name, e
	}
	if k >= len(t) || t[k] != '(' || len(segs) == 0 {
		return
	}
	name := segs[len(segs)-1]
	parent := ""
	if len(segs) > 1 {
		parent = segs[len(segs)-2]
	}
	ctor := parent != "" && (name == parent || name == "~"+parent) ||
		cls != nil && (name == cls.name || name == "~"+cls.name)
	if types == 0 && !ctor {
		// GNU style: the return type on the line above.
		if !c.typeLineAbove(i, &exported) {
			return
		}
	} else if !c.f.stmtStart(i, c.classify) {
		return
	}
	if len(segs) == 1 && (cMacroName(name) || strings.HasPrefix(name, "__")) {
		// A macro around the declarator: __NTH (feof_unlocked (FILE *f))
		r := bytes.TrimLeft(t[k+1:], " \t")
		if w := firstWord(r); w != "" && !cNotName[w] {
			if a := bytes.TrimLeft(r[len(w):], " \t"); len(a) > 0 && a[0] == '(' {
				name = w
				k = len(t) - len(a)
			}
		}
	}
	brace, ok, callee, calleeOff := c.definition(off + k)
	if !ok {
		return
	}
	if callee != "" {
		// NAME(args) before the real name is a macro standing for an
		// attribute: static void PRINTF_STYLE(1, 2)\ndie(const char *f, ...)
		if !cMacroName(name) || len(segs) > 1 {
			return
		}
		name, i = callee, f.lineOf(calleeOff)
	}
	kind := core.SymbolFunction
	switch {
	case parent != "":
		kind = core.SymbolMethod
	case cls != nil:
		kind, parent = core.SymbolMethod, cls.name
	}
	c.d.add(i, core.Symbol{Name: name, Kind: kind, Exported: exported, Parent: parent, Doc: c.doc(i)}, brace)
}

// typeLineAbove reports whether line i's name follows a return type alone
// on the line above (static int\nfoo(void)\n{), noting a static there.
func (c *cState) typeLineAbove(i int, exported *bool) bool {
	f := c.f
	j := i - 1
	if j < 0 || c.pp[j] || f.inText[j] || f.depth[j] != f.depth[i] || f.blank(j) {
		return false
	}
	t := bytes.TrimSpace(f.codeLine(j))
	for _, ch := range t {
		if !isIdent(ch) && ch != ' ' && ch != '\t' && ch != '*' && ch != '&' && ch != ':' && ch != '<' && ch != '>' && ch != ',' {
			return false
		}
	}
	if t[len(t)-1] == ',' || cNotName[firstWord(t)] || !f.stmtStart(j, c.classify) {
		return false
	}
	for _, w := range bytes.Fields(t) {
		if string(w) == "static" {
			*exported = false
		}
	}
	return true
}

// definition looks past the parameter list that opens at off for a body:
// it returns the body brace (or -1 after a constructor's initializer
// list) and whether there is one, rather than a ';', '=' or ','. A name
// followed by a parameter list on the way (not noexcept(), throw() or
// an attribute) is returned as callee, with its offset.
func (c *cState) definition(off int) (brace int, ok bool, callee string, calleeOff int) {
	code := c.f.code
	end := min(len(code), off+2048)
	k := off
	depth := 0
	for ; k < end; k++ {
		switch code[k] {
		case '(':
			depth++
		case ')':
			depth--
		case ';':
			return -1, false, "", 0
		}
		if depth == 0 {
			break
		}
	}
	if k >= end {
		return -1, false, "", 0
	}
	k++
	for steps := 0; k < end && steps < 64; steps++ {
		k = skipSpace(code[:end], k)
		if k >= end {
			return -1, false, "", 0
		}
		switch ch := code[k]; {
		case ch == '{':
			return k, true, callee, calleeOff
		case ch == ':' && (k+1 >= end || code[k+1] != ':'):
			return c.f.bodyBrace(k+1, ""), true, callee, calleeOff // constructor initializers
		case ch == '(' || ch == '[' || ch == '<':
			e := skipBalanced(code[k:end])
			if e < 0 {
				return -1, false, "", 0
			}
			k += e
		case ch == '-' && k+1 < end && code[k+1] == '>':
			k += 2
		case ch == '*' || ch == '&' || ch == ':' || ch == fill:
			k++
		case isIdent(ch):
			w := firstWord(code[k:end])
			if p := skipSpace(code[:end], k+len(w)); p < end && code[p] == '(' && !cTailWords[w] && callee == "" {
				callee, calleeOff = w, k
			}
			k += len(w)
		default:
			return -1, false, "", 0
		}
	}
	return -1, false, "", 0
}

// cTailWords may follow a parameter list with arguments of their own.
var cTailWords = map[string]bool{
	"noexcept": true, "throw": true, "__attribute__": true, "__declspec": true, "alignas": true,
	"requires": true, "decltype": true, "__nonnull": true, "__attribute": true,
}

// cMacroName reports whether name is written like a macro: FOO_BAR2.
func cMacroName(name string) bool {
	for k := 0; k < len(name); k++ {
		if c := name[k]; !('A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return name != ""
}

// typedefEnd looks on line i for the ';' that ends the pending typedef,
// and records the names declared before it.
func (c *cState) typedefEnd(i int) {
	f, td := c.f, c.td
	if i-td.line > 4096 {
		c.td = nil
		return
	}
	a, b := f.bounds(i)
	d := f.depth[i]
	if i == td.line {
		a, d = td.off, f.depthAt(td.off)
	}
	semi := -1
	for k := a; k < b; k++ {
		switch f.code[k] {
		case '(', '[', '{':
			d++
		case ')', ']', '}':
			d--
		case ';':
			if d == td.depth {
				semi = k
			}
		}
		if semi >= 0 {
			break
		}
	}
	if semi < 0 {
		return
	}
	c.td = nil
	start := td.off
	if i != td.line {
		start, _ = f.bounds(i)
	}
	text := f.code[start:semi]
	if k := bytes.LastIndexByte(text, '}'); k >= 0 {
		text = text[k+1:]
	}
	kind := core.SymbolType
	if td.enum {
		kind = core.SymbolEnum
	}
	for _, name := range cTypedefNames(text) {
		if name != td.tag {
			c.d.add(td.line, core.Symbol{Name: name, Kind: kind, Exported: td.exported, Doc: c.doc(td.line)}, -1)
		}
	}
}

// cTypedefNames reads the names a typedef declares from the text before
// its ';' (after the body's closing brace, if any).
func cTypedefNames(text []byte) []string {
	if m := cRE().funcPtr.FindSubmatch(text); m != nil { // void (*cb)(int)
		return []string{string(m[1])}
	}
	var names []string
	depth, startPart := 0, 0
	for k := 0; k <= len(text); k++ {
		if k < len(text) {
			switch text[k] {
			case '(', '[':
				depth++
				continue
			case ')', ']':
				depth--
				continue
			case ',':
				if depth != 0 {
					continue
				}
			default:
				continue
			}
		}
		part := text[startPart:k]
		startPart = k + 1
		if p := bytes.IndexAny(part, "(["); p >= 0 {
			part = part[:p] // int F(int), char name[16]
		}
		fs := bytes.FieldsFunc(part, func(r rune) bool { return r < 0x80 && !isIdent(byte(r)) })
		for len(fs) > 0 && (string(fs[len(fs)-1]) == "__attribute__" || cNotName[string(fs[len(fs)-1])]) {
			fs = fs[:len(fs)-1]
		}
		if len(fs) > 0 {
			names = append(names, string(fs[len(fs)-1]))
		}
	}
	return names
}

// cQualified reads a possibly qualified name at k: a::b<T>::~c,
// T::operator==. It returns its segments (nil when there is none, or a
// keyword) and the offset after it.
func cQualified(t []byte, k int) ([]string, int) {
	var segs []string
	for k < len(t) {
		if bytes.HasPrefix(t[k:], []byte("::")) {
			k += 2
			continue
		}
		tilde := ""
		if t[k] == '~' {
			tilde = "~"
			k++
		}
		w := firstWord(t[k:])
		if w == "" || cNotName[w] {
			return nil, k
		}
		k += len(w)
		if w == "operator" {
			e := k
			for e < len(t) && (t[e] == ' ' || t[e] == '\t') {
				e++
			}
			if bytes.HasPrefix(t[e:], []byte("()")) {
				e += 2
			}
			for e < len(t) && t[e] != '(' {
				e++
			}
			return append(segs, w+string(bytes.TrimSpace(t[k:e]))), e
		}
		segs = append(segs, tilde+w)
		if k < len(t) && t[k] == '<' {
			e := skipBalanced(t[k:])
			if e < 0 {
				return nil, k
			}
			k += e
		}
		if !bytes.HasPrefix(t[k:], []byte("::")) {
			break
		}
	}
	return segs, k
}
