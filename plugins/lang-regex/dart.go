package regex

import (
	"bytes"
	"regexp"
	"sync"

	"github.com/rubi-dev/rubi/core"
)

func init() { dart.register() }

// dart is Dart for the class extractor (classlang.go). Its members read
// their own modifiers, which are not a type's: final x = 1 declares a
// variable, final class A a type.
var dart = &classLang{
	language: language{names: []string{core.LangDart},
		syntax: syntax{lineComment: "//", blockComment: true, nestComments: true, hook: dartLex, special: `'"r`}},
	doc: docStyle{line: "///", block: "/**"},
	directives: map[string]func(*classFile, []byte, int){
		"library": func(c *classFile, t []byte, _ int) { c.setPackage(dartRE().library, t) },
		"import":  func(c *classFile, t []byte, off int) { c.dartImport(t, off, core.ImportStatic) },
		"export":  func(c *classFile, t []byte, off int) { c.dartImport(t, off, core.ImportReexport) },
		"part":    func(c *classFile, t []byte, off int) { c.dartImport(t, off, core.ImportModule) },
	},
	attrName:     ".",
	leadingAttrs: true,
	modifier:     func(t []byte) (modFlag, []byte, bool) { return tableModifier(dartClassMods, t) },
	keyword:      dartKeyword,
	typeName:     dartTypeName,
	header:       header{stops: "="}, // class A = B with C;
	exported:     dartExported,
	member:       dartMember,
}

// dartLex lexes Dart's strings: '...' and "..." with ${} substitutions,
// their triple-quoted multi-line forms, and raw r'...' forms.
func dartLex(l *lexer, i int) int {
	src, n := l.src, len(l.src)
	j := i
	raw := src[i] == 'r'
	if raw {
		if i+1 >= n || src[i+1] != '\'' && src[i+1] != '"' || i > 0 && isIdent(src[i-1]) {
			return i
		}
		j++
	}
	q := src[j]
	k := strKind{q: q, raw: raw}
	if !raw {
		k.interp = '$'
	}
	if j+2 < n && src[j+1] == q && src[j+2] == q {
		k.triple, k.multiline = true, true
		return l.strBody(j+3, k)
	}
	return l.strBody(j+1, k)
}

// dartRE returns the Dart patterns, compiled once on first use.
var dartRE = sync.OnceValue(func() *dartPatterns {
	return &dartPatterns{
		library: regexp.MustCompile(`^library\s+([\pL_][\pL\pN_]*(?:\s*\.\s*[\pL_][\pL\pN_]*)*)`),
		partOf:  regexp.MustCompile(`^part\s+of\s+['"]`),
		cond:    regexp.MustCompile(`^if\s*\([^)]*\)\s*['"]`),
	}
})

type dartPatterns struct {
	library, partOf, cond *regexp.Regexp
}

// dartClassMods may precede class, mixin or enum.
var dartClassMods = map[string]modFlag{
	"abstract": 0, "base": 0, "final": 0, "interface": 0, "sealed": 0, "mixin": 0, "augment": 0, "macro": 0,
}

// dartMemberMods may precede a function, a variable or a member.
var dartMemberMods = map[string]bool{
	"static": true, "external": true, "late": true, "covariant": true, "factory": true, "abstract": true, "augment": true,
}

// dartNotType are words that cannot start a declaration's type.
var dartNotType = map[string]bool{
	"return": true, "if": true, "for": true, "while": true, "do": true, "switch": true, "case": true,
	"throw": true, "await": true, "yield": true, "assert": true, "new": true, "else": true, "try": true,
	"import": true, "export": true, "part": true, "library": true, "show": true, "hide": true, "as": true,
}

// dartKeyword reads class, enum, extension, and mixin unless a class
// follows: mixin class M declares a class.
func dartKeyword(t []byte) (string, []byte) {
	kw, r := keywordIn(t, "class", "enum", "extension", "mixin")
	if kw == "mixin" && firstWord(r) == "class" {
		return "", nil
	}
	return kw, r
}

// dartTypeName reads the name after the keyword, past extension type; an
// unnamed extension (extension on T) has none.
func dartTypeName(h classHead) (string, int) {
	r, off := h.rest, h.off
	if h.kw == "extension" && firstWord(r) == "type" { // extension type Id(int v)
		t := bytes.TrimLeft(r[len("type"):], " \t")
		off += len(r) - len(t)
		r = t
	}
	name := firstWord(r)
	if name == "on" {
		return "", off
	}
	return name, off + len(name)
}

// dartExported: a name without a leading underscore, in an exported type
// if any.
func dartExported(_ modFlag, name string, top *scope) bool {
	return (top == nil || top.exported) && len(name) > 0 && name[0] != '_'
}

// dartImport reads an import, export or part directive (kind says which)
// at t, offset off: part of 'lib.dart' counts as an import of the
// library's file, part of lib.name as nothing.
func (c *classFile) dartImport(t []byte, off int, kind string) {
	_, r := word(t)
	if kind == core.ImportModule {
		if m := dartRE().partOf.FindIndex(t); m != nil {
			r = t[m[1]-1:]
		} else if firstWord(r) == "of" {
			return
		}
	}
	p := off + len(t) - len(r)
	if len(r) == 0 || r[0] != '\'' && r[0] != '"' {
		return
	}
	spec, end, ok := c.quoted(p)
	if !ok {
		return
	}
	c.addImport(p, spec, kind)
	// Conditional imports: import 'a.dart' if (dart.library.io) 'b.dart';
	stop := min(len(c.code), end+declWindow)
	if k := bytes.IndexByte(c.code[end:stop], ';'); k >= 0 {
		stop = end + k
	} else {
		return
	}
	for q := end; q < stop; {
		k := bytes.Index(c.code[q:stop], []byte("if"))
		if k < 0 {
			break
		}
		q += k
		m := dartRE().cond.FindIndex(c.code[q:stop])
		if m == nil {
			q += 2
			continue
		}
		lit := q + m[1] - 1
		s, e, ok := c.quoted(lit)
		if !ok {
			break
		}
		c.addImport(lit, s, kind)
		q = e
	}
}

// dartMember reads a typedef, and past the line's class modifiers (from
// h.start) functions, methods, constructors, getters, setters and
// variables.
func dartMember(c *classFile, i int, h classHead, top *scope) {
	parent := ""
	if top != nil {
		parent = top.name
	}
	if kw, r := keywordIn(h.rest, "typedef"); kw != "" {
		name := firstWord(r)
		if a := bytes.TrimLeft(r[len(name):], " \t"); name != "" && (len(a) == 0 || a[0] != '=' && a[0] != '<') {
			name = dartName(r) // typedef void F(int x);
		}
		if name != "" && top == nil {
			c.d.add(i, core.Symbol{Name: name, Kind: core.SymbolType, Exported: dartExported(0, name, nil), Doc: c.doc(i)}, -1)
		}
		return
	}
	if !c.startsStmt(i) {
		return
	}
	t, off := h.start, h.startOff
	adv := func(r []byte) {
		r = bytes.TrimLeft(r, " \t")
		off += len(t) - len(r)
		t = r
	}
	exp := func(name string) bool { return dartExported(0, name, top) }
	constant, declared := false, false
	for range 8 {
		w, r := word(t)
		switch {
		case dartMemberMods[w] && len(r) < len(t)-len(w):
			adv(r)
			continue
		case (w == "const" || w == "final" || w == "var") && len(r) < len(t)-len(w):
			constant = constant || w == "const"
			declared = true
			adv(r)
			continue
		}
		break
	}
	if declared && top == nil { // untyped: final x = 1;
		if n := firstWord(t); n != "" {
			if a := bytes.TrimLeft(t[len(n):], " \t"); len(a) == 0 || a[0] == '=' || a[0] == ';' || a[0] == ',' {
				kind := core.SymbolVar
				if constant {
					kind = core.SymbolConst
				}
				c.d.add(i, core.Symbol{Name: n, Kind: kind, Exported: exp(n), Doc: c.doc(i)}, -1)
				return
			}
		}
	}
	// Constructors: Name(, Name.named(, const Name(.
	if top != nil {
		if w := firstWord(t); w == top.name {
			r := t[len(w):]
			name := w
			if len(r) > 1 && r[0] == '.' {
				n := firstWord(r[1:])
				name, r = w+"."+n, r[1+len(n):]
			}
			if r = bytes.TrimLeft(r, " \t"); len(r) > 0 && r[0] == '(' {
				after := off + len(t) - len(r)
				c.d.add(i, core.Symbol{Name: name, Kind: core.SymbolMethod, Parent: parent,
					Exported: exp(lastSegment(name, ".")), Doc: c.doc(i)}, c.dartBody(after))
				return
			}
		}
	}
	var name string
	var after []byte
	switch w, r := word(t); {
	case (w == "get" || w == "set") && firstWord(r) != "" && len(r) < len(t)-len(w):
		name, after = firstWord(r), r[len(firstWord(r)):] // untyped getter or setter
	case w == "operator":
		return
	default:
		k := dartTypeLen(t)
		if k <= 0 {
			return
		}
		r := bytes.TrimLeft(t[k:], " \t")
		if len(r) == len(t)-k {
			return // a type must be followed by a blank
		}
		n := firstWord(r)
		if (n == "get" || n == "set") && firstWord(bytes.TrimLeft(r[3:], " \t")) != "" {
			r = bytes.TrimLeft(r[3:], " \t")
			n = firstWord(r)
		}
		if n == "" || n == "operator" || dartNotType[n] {
			return
		}
		name, after = n, r[len(n):]
	}
	after = bytes.TrimLeft(after, " \t")
	afterOff := off + len(t) - len(after)
	if len(after) > 0 && after[0] == '<' { // T id<T>(T x)
		e := skipBalanced(after)
		if e < 0 {
			return
		}
		after = bytes.TrimLeft(after[e:], " \t")
	}
	switch {
	case len(after) == 0 || after[0] == '(' || after[0] == '{' || bytes.HasPrefix(after, []byte("=>")):
		kind := core.SymbolFunction
		if top != nil {
			kind = core.SymbolMethod
		}
		c.d.add(i, core.Symbol{Name: name, Kind: kind, Parent: parent, Exported: exp(name), Doc: c.doc(i)}, c.dartBody(afterOff))
	case top == nil && (after[0] == '=' || after[0] == ';' || after[0] == ','):
		kind := core.SymbolVar
		if constant {
			kind = core.SymbolConst
		}
		c.d.add(i, core.Symbol{Name: name, Kind: kind, Exported: exp(name), Doc: c.doc(i)}, -1)
	}
}

// dartName reads the name of an old-style function typedef: the last
// word before the parameter list.
func dartName(r []byte) string {
	k := bytes.IndexByte(r, '(')
	if k < 0 {
		return ""
	}
	fs := bytes.Fields(r[:k])
	if len(fs) == 0 {
		return ""
	}
	return firstWord(fs[len(fs)-1])
}

// dartTypeLen returns the length of the type t starts with: p.Name<A>?,
// void Function(int)?, (int, String), or 0.
func dartTypeLen(t []byte) int {
	k := 0
	if len(t) > 0 && t[0] == '(' { // a record type
		e := skipBalanced(t)
		if e < 0 {
			return 0
		}
		k = e
	} else {
		for {
			w := firstWord(t[k:])
			if w == "" || dartNotType[w] {
				return 0
			}
			k += len(w)
			if k+1 < len(t) && t[k] == '.' && isIdent(t[k+1]) {
				k++
				continue
			}
			break
		}
		if k < len(t) && t[k] == '<' {
			e := skipBalanced(t[k:])
			if e < 0 {
				return 0
			}
			k += e
		}
	}
	if k < len(t) && t[k] == '?' {
		k++
	}
	for range 4 { // void Function(int) Function()
		r := bytes.TrimLeft(t[k:], " \t")
		if firstWord(r) != "Function" {
			break
		}
		j := len(t) - len(r) + len("Function")
		if j < len(t) && t[j] == '<' {
			e := skipBalanced(t[j:])
			if e < 0 {
				return 0
			}
			j += e
		}
		if j >= len(t) || t[j] != '(' {
			return 0
		}
		e := skipBalanced(t[j:])
		if e < 0 {
			return 0
		}
		k = j + e
		if k < len(t) && t[k] == '?' {
			k++
		}
	}
	return k
}

// dartBody finds the brace opening a function body after its parameter
// list at off; an arrow body or a ';' has none.
func (f *file) dartBody(off int) int {
	code := f.code
	end := min(len(code), off+declWindow)
	k := skipSpace(code[:end], off)
	if k < end && code[k] == '(' {
		e := skipBalanced(code[k:end])
		if e < 0 {
			return -1
		}
		k += e
	}
	for steps := 0; k < end && steps < 16; steps++ {
		k = skipSpace(code[:end], k)
		if k >= end {
			return -1
		}
		switch c := code[k]; {
		case c == '{':
			return k
		case isIdent(c): // async, sync*, an initializer list's words
			k += len(firstWord(code[k:end]))
		case c == '*':
			k++
		case c == ':': // constructor initializers
			return f.bodyBrace(k+1, "")
		default:
			return -1
		}
	}
	return -1
}
