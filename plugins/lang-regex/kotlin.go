package regex

import (
	"bytes"
	"regexp"
	"sync"

	"github.com/rubi-dev/rubi/core"
)

func init() { kotlin.register() }

// kotlin is Kotlin for the class extractor (classlang.go).
var kotlin = &classLang{
	language: language{names: []string{core.LangKotlin},
		syntax: syntax{lineComment: "//", blockComment: true, nestComments: true, hook: kotlinLex, special: `"`}},
	doc: docStyle{block: "/**"},
	directives: map[string]func(*classFile, []byte, int){
		"package": func(c *classFile, t []byte, _ int) { c.setPackage(ktRE().pkg, t) },
		"import": func(c *classFile, t []byte, off int) {
			if m := ktRE().importDecl.FindSubmatchIndex(t); m != nil {
				c.addImport(off+m[2], string(pyDotted(t[m[2]:m[3]])), core.ImportStatic)
			}
		},
	},
	attrName: ".:", // @field:Json(name = "x")
	modifier: ktModifier,
	keyword:  ktKeyword,
	typeName: func(h classHead) (string, int) {
		name := ktName(h.rest)
		return ktUnquote(name), h.off + len(name)
	},
	header: ktHeader,
	exported: func(mods modFlag, _ string, top *scope) bool {
		return mods&modHidden == 0 && (top == nil || top.exported)
	},
	member: ktMember,
}

// kotlinLex lexes string templates: "a ${b} c" and """raw ${b}""", whose
// substitutions may hold strings of their own.
func kotlinLex(l *lexer, i int) int {
	src := l.src
	if i+2 < len(src) && src[i+1] == '"' && src[i+2] == '"' {
		return l.strBody(i+3, strKind{q: '"', triple: true, raw: true, multiline: true, interp: '$'})
	}
	return l.strBody(i+1, strKind{q: '"', interp: '$'})
}

const ktIdent = `[\pL_][\pL\pN_]*`

// ktRE returns the Kotlin patterns, compiled once on first use.
var ktRE = sync.OnceValue(func() *ktPatterns {
	return &ktPatterns{
		pkg:        regexp.MustCompile(`^package\s+(` + ktIdent + `(?:\s*\.\s*` + ktIdent + `)*)`),
		importDecl: regexp.MustCompile(`^import\s+(` + ktIdent + `(?:\s*\.\s*(?:` + ktIdent + `|\*))*)`),
	}
})

type ktPatterns struct {
	pkg, importDecl *regexp.Regexp
}

// ktModifiers are Kotlin's modifiers; private and internal decide who is
// exported, enum and companion what a class declares.
var ktModifiers = map[string]modFlag{
	"public": 0, "private": modHidden, "protected": 0, "internal": modHidden, "open": 0, "abstract": 0,
	"final": 0, "sealed": 0, "data": 0, "enum": modEnum, "annotation": 0, "inner": 0,
	"value": 0, "inline": 0, "override": 0, "lateinit": 0, "const": 0, "suspend": 0,
	"tailrec": 0, "operator": 0, "infix": 0, "external": 0, "expect": 0, "actual": 0,
	"companion": modCompanion, "noinline": 0, "crossinline": 0,
}

// ktModifier reads a modifier followed by a name: in val data = 1, data is
// the name.
func ktModifier(t []byte) (modFlag, []byte, bool) {
	m, r, ok := tableModifier(ktModifiers, t)
	return m, r, ok && firstWord(r) != ""
}

// ktKeyword reads class, interface, object and fun interface.
func ktKeyword(t []byte) (string, []byte) {
	kw, r := keywordIn(t, "class", "interface", "object", "fun")
	if kw == "fun" {
		return keywordIn(r, "interface") // fun interface Handler
	}
	return kw, r
}

// ktMember reads a function, a property at file scope or a type alias.
func ktMember(c *classFile, i int, h classHead, top *scope) {
	w, t := keywordIn(h.rest, "fun", "val", "var", "typealias")
	off := h.off + len(h.rest) - len(t)
	parent := ""
	if top != nil {
		parent = top.name
	}
	exp := c.lang.exported(h.mods, "", top)
	switch w {
	case "fun":
		name, k := ktCallable(t)
		if name == "" {
			return
		}
		kind := core.SymbolFunction
		if top != nil {
			kind = core.SymbolMethod
		}
		s := core.Symbol{Name: name, Kind: kind, Exported: exp, Parent: parent, Doc: c.doc(i)}
		if b := c.ktBody(off + k); b >= 0 || !c.ktOneLine(i) {
			c.d.add(i, s, b)
		} else {
			c.d.addLine(i, s)
		}
	case "val", "var":
		if top != nil {
			return // properties are not reported
		}
		name, _ := ktCallable(t)
		if name == "" {
			return
		}
		kind := core.SymbolVar
		if w == "val" {
			kind = core.SymbolConst
		}
		s := core.Symbol{Name: name, Kind: kind, Exported: exp, Doc: c.doc(i)}
		if c.ktOneLine(i) {
			c.d.addLine(i, s)
		} else {
			c.d.add(i, s, -1)
		}
	case "typealias":
		if name := ktName(t); name != "" {
			c.d.add(i, core.Symbol{Name: ktUnquote(name), Kind: core.SymbolType, Exported: exp, Parent: parent, Doc: c.doc(i)}, -1)
		}
	}
}

// ktName reads an identifier, backquoted or not.
func ktName(t []byte) string {
	if len(t) > 0 && t[0] == '`' {
		if k := bytes.IndexByte(t[1:], '`'); k > 0 {
			return string(t[:k+2])
		}
		return ""
	}
	return firstWord(t)
}

func ktUnquote(name string) string {
	if len(name) > 1 && name[0] == '`' {
		return name[1 : len(name)-1]
	}
	return name
}

// ktCallable reads the name of a function or property, past its type
// parameters and receiver: fun <T> List<T>.second(): the name is second.
// It returns the name and the length of t read.
func ktCallable(t []byte) (string, int) {
	k := 0
	if len(t) > 0 && t[0] == '<' {
		e := skipBalanced(t)
		if e < 0 {
			return "", 0
		}
		k = e
	}
	name := ""
	for range 16 {
		for k < len(t) && (t[k] == ' ' || t[k] == '\t') {
			k++
		}
		n := ktName(t[k:])
		if n == "" {
			break
		}
		name = n
		k += len(n)
		if k < len(t) && t[k] == '<' {
			e := skipBalanced(t[k:])
			if e < 0 {
				break
			}
			k += e
		}
		if k < len(t) && t[k] == '?' {
			k++
		}
		if k < len(t) && t[k] == '.' {
			k++
			continue
		}
		break
	}
	return ktUnquote(name), k
}

// ktHeader ends a Kotlin declaration's header at an '=' (an expression
// body follows) and at the end of a line: the header may go on to the
// next line only when that line opens with ':', '{', ',' or where, or
// when this one ends with ',' or ':'.
var ktHeader = header{assign: true, lineEnd: ktHeaderEnds}

// ktBody finds the brace opening the body of the function whose header
// continues at off.
func (f *file) ktBody(off int) int { return f.headerBrace(off, ktHeader) }

// ktHeaderEnds reports whether the line break at k ends a header.
func ktHeaderEnds(x *lexed, k int) bool {
	last := bytes.TrimRight(x.code[x.starts[x.lineOf(k)]:k], " \t\r")
	if len(last) > 0 && (last[len(last)-1] == ',' || last[len(last)-1] == ':') {
		return false
	}
	j := skipSpace(x.code, k+1)
	if j >= len(x.code) {
		return true
	}
	c := x.code[j]
	return c != ':' && c != '{' && c != ',' && firstWord(x.code[j:]) != "where"
}

// ktOneLine reports whether the declaration on line i ends there: its
// brackets close and neither its end nor the next line's start carries
// the expression on (a '?' ending a nullable type does not).
func (f *file) ktOneLine(i int) bool {
	if f.depthEnd(i) > f.depth[i] || i+1 < f.lines() && f.inText[i+1] {
		return false
	}
	t := bytes.TrimSpace(f.codeLine(i))
	if len(t) > 0 && bytes.IndexByte([]byte("=,.(:+-*/&|"), t[len(t)-1]) >= 0 {
		return false
	}
	for j := i + 1; j < f.lines() && j <= i+lookLines; j++ {
		if n := bytes.TrimSpace(f.codeLine(j)); len(n) > 0 {
			return !bytes.HasPrefix(n, []byte(".")) && !bytes.HasPrefix(n, []byte("?.")) &&
				!bytes.HasPrefix(n, []byte("?:")) && !bytes.HasPrefix(n, []byte("=")) && !bytes.HasPrefix(n, []byte("+"))
		}
	}
	return true
}
