package regex

import (
	"bytes"
	"regexp"
	"sync"

	"github.com/rubi-dev/rubi/core"
)

func init() { java.register() }

// java is Java for the class extractor (classlang.go).
var java = &classLang{
	language: language{names: []string{core.LangJava},
		syntax: syntax{lineComment: "//", blockComment: true, triple: true}}, // """ text blocks
	doc: docStyle{block: "/**"},
	directives: map[string]func(*classFile, []byte, int){
		"package": func(c *classFile, t []byte, _ int) { c.setPackage(javaRE().pkg, t) },
		"import":  (*classFile).javaImports,
	},
	attrName:   ".", // @a.b.C
	attrSpaced: true,
	modifier:   javaModifier,
	keyword:    javaKeyword,
	typeName: func(h classHead) (string, int) {
		name := firstWord(h.rest)
		return name, h.off + len(name)
	},
	exported:   javaExported,
	memberStmt: true, // a line that goes on with an expression declares nothing
	member:     javaMember,
}

const javaIdent = `[\pL_$][\pL\pN_$]*`

// javaRE returns the Java patterns, compiled once on first use.
var javaRE = sync.OnceValue(func() *javaPatterns {
	return &javaPatterns{
		pkg:        regexp.MustCompile(`^package\s+(` + javaIdent + `(?:\s*\.\s*` + javaIdent + `)*)`),
		importDecl: regexp.MustCompile(`^import\s+(?:(static)\s+)?(` + javaIdent + `(?:\s*\.\s*(?:` + javaIdent + `|\*))*)\s*;?`),
	}
})

type javaPatterns struct {
	pkg, importDecl *regexp.Regexp
}

// javaModifiers are Java's modifiers; public and private decide who is
// exported.
var javaModifiers = map[string]modFlag{
	"public": modPublic, "protected": 0, "private": modHidden, "static": 0, "final": 0, "abstract": 0,
	"sealed": 0, "strictfp": 0, "default": 0, "synchronized": 0, "native": 0,
	"transient": 0, "volatile": 0,
}

// javaNotType are words that cannot start a member's type.
var javaNotType = map[string]bool{
	"return": true, "new": true, "throw": true, "if": true, "else": true, "for": true, "while": true,
	"do": true, "switch": true, "case": true, "try": true, "catch": true, "finally": true, "break": true,
	"continue": true, "assert": true, "yield": true, "this": true, "super": true, "var": true,
}

// javaModifier reads a modifier of javaModifiers, or non-sealed.
func javaModifier(t []byte) (modFlag, []byte, bool) {
	if bytes.HasPrefix(t, []byte("non-sealed")) {
		return 0, t[len("non-sealed"):], true
	}
	return tableModifier(javaModifiers, t)
}

// javaKeyword reads class, interface, enum, @interface, and record when a
// name and its components follow: record Point(int x, int y).
func javaKeyword(t []byte) (string, []byte) {
	if bytes.HasPrefix(t, []byte("@interface")) {
		return "interface", t[len("@interface"):]
	}
	kw, r := keywordIn(t, "class", "interface", "enum", "record")
	if kw == "record" {
		n := firstWord(r)
		if a := bytes.TrimLeft(r[len(n):], " \t"); n == "" || len(a) == 0 || a[0] != '(' && a[0] != '<' {
			return "", nil
		}
	}
	return kw, r
}

// javaExported: a public declaration at file scope; in an exported type,
// a public one, or one in an interface that is not private.
func javaExported(mods modFlag, _ string, top *scope) bool {
	if top == nil {
		return mods&modPublic != 0
	}
	return top.exported && (mods&modPublic != 0 || top.kind == "interface" && mods&modHidden == 0)
}

// javaImports reads the import declarations at t, offset off: a statement
// may span lines, and a line hold several.
func (c *classFile) javaImports(_ []byte, off int) {
	w := c.code[off:min(len(c.code), off+1024)]
	for {
		m := javaRE().importDecl.FindSubmatchIndex(w)
		if m == nil {
			break
		}
		c.addImport(off+m[4], string(pyDotted(w[m[4]:m[5]])), core.ImportStatic)
		r := bytes.TrimLeft(w[m[1]:], " \t")
		off += len(w) - len(r)
		w = r
	}
}

// javaMember reads a method or a constructor: [<T>] Type name( or Name(.
func javaMember(c *classFile, i int, h classHead, top *scope) {
	if top == nil {
		return
	}
	t := h.rest
	if len(t) > 0 && t[0] == '<' { // generic method
		k := skipBalanced(t)
		if k < 0 {
			return
		}
		t = bytes.TrimLeft(t[k:], " \t")
	}
	var name string
	var after []byte
	if w := firstWord(t); w == top.name {
		r := bytes.TrimLeft(t[len(w):], " \t")
		if len(r) > 0 && (r[0] == '(' || r[0] == '{' && top.kind == "record") {
			name, after = w, r // constructor, compact or not
		}
	}
	if name == "" {
		k := javaTypeLen(t)
		if k <= 0 {
			return
		}
		r := bytes.TrimLeft(t[k:], " \t")
		name = firstWord(r)
		if name == "" || javaNotType[name] {
			return
		}
		after = bytes.TrimLeft(r[len(name):], " \t")
		if len(after) == 0 || after[0] != '(' {
			return // a field
		}
	}
	off := h.off + len(h.rest) - len(after)
	c.d.add(i, core.Symbol{Name: name, Kind: core.SymbolMethod, Parent: top.name, Exported: javaExported(h.mods, name, top),
		Doc: c.doc(i)}, c.bodyBrace(off, ""))
}

// javaTypeLen returns the length of the type t starts with:
// a.b.Name<Args>[], or 0.
func javaTypeLen(t []byte) int {
	k := 0
	for {
		w := firstWord(t[k:])
		if w == "" || javaNotType[w] {
			return 0
		}
		k += len(w)
		if k < len(t) && t[k] == '<' {
			e := skipBalanced(t[k:])
			if e < 0 {
				return 0
			}
			k += e
		}
		if k+1 < len(t) && t[k] == '.' && isIdent(t[k+1]) {
			k++
			continue
		}
		break
	}
	for bytes.HasPrefix(t[k:], []byte("[]")) {
		k += 2
	}
	return k
}
