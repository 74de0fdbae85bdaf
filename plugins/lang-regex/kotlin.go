package regex

import (
	"bytes"
	"regexp"
	"sync"

	"github.com/rubi-dev/rubi/core"
)

func init() {
	register(&language{
		names: []string{core.LangKotlin},
		syntax: syntax{lineComment: "//", blockComment: true, nestComments: true,
			hook: kotlinLex, special: `"`},
		extract: extractKotlin,
	})
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

var ktModifiers = map[string]bool{
	"public": true, "private": true, "protected": true, "internal": true, "open": true, "abstract": true,
	"final": true, "sealed": true, "data": true, "enum": true, "annotation": true, "inner": true,
	"value": true, "inline": true, "override": true, "lateinit": true, "const": true, "suspend": true,
	"tailrec": true, "operator": true, "infix": true, "external": true, "expect": true, "actual": true,
	"companion": true, "noinline": true, "crossinline": true,
}

var ktDoc = docStyle{block: "/**"}

func ktAttr(t []byte) bool { return len(t) > 1 && t[0] == '@' && isIdent(t[1]) }

func extractKotlin(f *file) {
	d := decls{f: f}
	var scopes []scope
	for i := 0; i < f.lines() && !f.full(); i++ {
		t, off, top, ok := f.braceLine(&scopes, i)
		if !ok {
			continue
		}
		switch {
		case top == nil && f.depth[i] == 0:
			switch firstWord(t) {
			case "package":
				if m := ktRE().pkg.FindSubmatch(t); m != nil && f.facts.Package == "" {
					f.facts.Package = string(pyDotted(m[1]))
				}
				continue
			case "import":
				if m := ktRE().importDecl.FindSubmatchIndex(t); m != nil {
					f.addImport(off+m[2], string(pyDotted(t[m[2]:m[3]])), core.ImportStatic)
				}
				continue
			}
		case top != nil && f.depth[i] == top.body:
		default:
			continue
		}
		f.ktDecl(&d, i, t, off, top, &scopes)
	}
	d.finish()
}

// ktDecl reads a declaration: annotations, modifiers, keyword, name.
func (f *file) ktDecl(d *decls, i int, t []byte, off int, top *scope, scopes *[]scope) {
	adv := func(r []byte) {
		r = bytes.TrimLeft(r, " \t")
		off += len(t) - len(r)
		t = r
	}
	mods := map[string]bool{}
	kw := ""
	for range 32 {
		if ktAttr(t) { // @Annotation, @field:Json(name = "x")
			k := 1
			for k < len(t) && (isIdent(t[k]) || t[k] == '.' || t[k] == ':') {
				k++
			}
			r := t[k:]
			if len(r) > 0 && r[0] == '(' {
				e := skipBalanced(r)
				if e < 0 {
					return
				}
				r = r[e:]
			}
			adv(r)
			continue
		}
		w, r := word(t)
		if ktModifiers[w] && len(r) < len(t)-len(w) && firstWord(r) != "" {
			mods[w] = true
			adv(r)
			continue
		}
		switch w {
		case "class", "interface", "object", "fun", "val", "var", "typealias":
			kw = w
			adv(r)
		}
		break
	}
	if kw == "" {
		return
	}
	exp := !mods["private"] && !mods["internal"]
	parent := ""
	if top != nil {
		exp = exp && top.exported
		parent = top.name
	}
	doc := func() string { return f.docAboveAttrs(i, ktDoc, ktAttr) }
	if kw == "fun" && firstWord(t) == "interface" {
		kw = "interface" // fun interface Handler
		adv(t[len("interface"):])
	}
	switch kw {
	case "class", "interface", "object":
		name := ktName(t)
		if name == "" {
			if kw != "object" || !mods["companion"] || top == nil {
				return
			}
			// An unnamed companion: its members belong to the class.
			if b := f.ktBody(off); b >= 0 {
				*scopes = append(*scopes, f.openScope(b, top.name, "object", top.exported))
			}
			return
		}
		brace := f.ktBody(off + len(name))
		if mods["companion"] && top != nil {
			if brace >= 0 {
				*scopes = append(*scopes, f.openScope(brace, top.name, "object", top.exported))
			}
			return
		}
		kind := core.SymbolClass
		switch {
		case kw == "interface":
			kind = core.SymbolInterface
		case mods["enum"]:
			kind = core.SymbolEnum
		}
		d.add(i, core.Symbol{Name: ktUnquote(name), Kind: kind, Exported: exp, Parent: parent, Doc: doc()}, brace)
		if brace >= 0 {
			*scopes = append(*scopes, f.openScope(brace, ktUnquote(name), kw, exp))
		}
	case "fun":
		name, k := ktCallable(t)
		if name == "" {
			return
		}
		kind := core.SymbolFunction
		if top != nil {
			kind = core.SymbolMethod
		}
		s := core.Symbol{Name: name, Kind: kind, Exported: exp, Parent: parent, Doc: doc()}
		if b := f.ktBody(off + k); b >= 0 || !f.ktOneLine(i) {
			d.add(i, s, b)
		} else {
			d.addLine(i, s)
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
		if kw == "val" {
			kind = core.SymbolConst
		}
		s := core.Symbol{Name: name, Kind: kind, Exported: exp, Doc: doc()}
		if f.ktOneLine(i) {
			d.addLine(i, s)
		} else {
			d.add(i, s, -1)
		}
	case "typealias":
		if name := ktName(t); name != "" {
			d.add(i, core.Symbol{Name: ktUnquote(name), Kind: core.SymbolType, Exported: exp, Parent: parent, Doc: doc()}, -1)
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

// ktBody finds the brace opening the body of the declaration whose header
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
