package regex

import (
	"bytes"
	"regexp"
	"sync"

	"github.com/rubi-dev/rubi/core"
)

func init() {
	register(&language{
		names:   []string{core.LangJava},
		syntax:  syntax{lineComment: "//", blockComment: true, triple: true}, // """ text blocks
		extract: extractJava,
	})
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

var javaModifiers = map[string]bool{
	"public": true, "protected": true, "private": true, "static": true, "final": true, "abstract": true,
	"sealed": true, "strictfp": true, "default": true, "synchronized": true, "native": true,
	"transient": true, "volatile": true,
}

// javaNotType are words that cannot start a member's type.
var javaNotType = map[string]bool{
	"return": true, "new": true, "throw": true, "if": true, "else": true, "for": true, "while": true,
	"do": true, "switch": true, "case": true, "try": true, "catch": true, "finally": true, "break": true,
	"continue": true, "assert": true, "yield": true, "this": true, "super": true, "var": true,
}

var javaDoc = docStyle{block: "/**"}

// javaAttr reports an annotation line (not an @interface declaration).
func javaAttr(t []byte) bool {
	return len(t) > 1 && t[0] == '@' && isIdent(t[1]) && !bytes.HasPrefix(t, []byte("@interface"))
}

func extractJava(f *file) {
	d := decls{f: f}
	var scopes []scope
	classify := func(j int) int {
		if javaAttr(bytes.TrimSpace(f.codeLine(j))) {
			return stmtSkip
		}
		return stmtNo
	}
	for i := 0; i < f.lines() && !f.full(); i++ {
		t, off, top, ok := f.braceLine(&scopes, i)
		if !ok {
			continue
		}
		switch {
		case top == nil && f.depth[i] == 0:
			switch firstWord(t) {
			case "package":
				if m := javaRE().pkg.FindSubmatch(t); m != nil && f.facts.Package == "" {
					f.facts.Package = string(pyDotted(m[1]))
				}
				continue
			case "import":
				// A statement may span lines, and a line hold several.
				w := f.code[off:min(len(f.code), off+1024)]
				for {
					m := javaRE().importDecl.FindSubmatchIndex(w)
					if m == nil {
						break
					}
					f.addImport(off+m[4], string(pyDotted(w[m[4]:m[5]])), core.ImportStatic)
					r := bytes.TrimLeft(w[m[1]:], " \t")
					off += len(w) - len(r)
					w = r
				}
				continue
			}
		case top != nil && f.depth[i] == top.body:
			if !f.stmtStart(i, classify) {
				continue
			}
		default:
			continue
		}
		h := javaHeadOf(t, off)
		if h.kw != "" {
			f.javaType(&d, i, h, top, &scopes)
		} else if top != nil {
			f.javaMethod(&d, i, h, top)
		}
	}
	d.finish()
}

// javaHead is a declaration's start past annotations and modifiers.
type javaHead struct {
	public, private bool
	kw              string // class, interface, enum, record, @interface; "" for a member
	rest            []byte // what follows the keyword (or the modifiers)
	off             int    // offset of rest
}

func javaHeadOf(t []byte, off int) (h javaHead) {
	adv := func(r []byte) {
		r = bytes.TrimLeft(r, " \t")
		off += len(t) - len(r)
		t = r
	}
	for range 32 {
		if bytes.HasPrefix(t, []byte("@interface")) {
			h.kw = "@interface"
			adv(t[len(h.kw):])
			break
		}
		if len(t) > 1 && t[0] == '@' { // @Override, @SuppressWarnings("x")
			k := 1
			for k < len(t) && (isIdent(t[k]) || t[k] == '.') {
				k++
			}
			r := bytes.TrimLeft(t[k:], " \t")
			if len(r) > 0 && r[0] == '(' {
				e := skipBalanced(r)
				if e < 0 {
					h.rest = nil
					return h
				}
				r = r[e:]
			}
			adv(r)
			continue
		}
		w, r := word(t)
		if w == "non" && bytes.HasPrefix(t, []byte("non-sealed")) {
			adv(t[len("non-sealed"):])
			continue
		}
		if javaModifiers[w] && len(r) < len(t)-len(w) {
			h.public = h.public || w == "public"
			h.private = h.private || w == "private"
			adv(r)
			continue
		}
		switch w {
		case "class", "interface", "enum":
			h.kw = w
			adv(r)
		case "record":
			if n := firstWord(r); n != "" {
				if a := bytes.TrimLeft(r[len(n):], " \t"); len(a) > 0 && (a[0] == '(' || a[0] == '<') {
					h.kw = w
					adv(r)
				}
			}
		}
		break
	}
	h.rest, h.off = t, off
	return h
}

func (f *file) javaType(d *decls, i int, h javaHead, top *scope, scopes *[]scope) {
	name := firstWord(h.rest)
	if name == "" {
		return
	}
	kind := core.SymbolClass
	switch h.kw {
	case "interface", "@interface":
		kind = core.SymbolInterface
	case "enum":
		kind = core.SymbolEnum
	}
	exp := h.public
	s := core.Symbol{Name: name, Kind: kind, Doc: f.docAboveAttrs(i, javaDoc, javaAttr)}
	if top != nil {
		s.Parent = top.name
		exp = top.exported && (h.public || top.kind == "interface" && !h.private)
	}
	s.Exported = exp
	brace := f.bodyBrace(h.off+len(name), "")
	d.add(i, s, brace)
	if brace >= 0 {
		k := h.kw
		if k == "@interface" {
			k = "interface"
		}
		*scopes = append(*scopes, f.openScope(brace, name, k, exp))
	}
}

// javaMethod reads a method or constructor: [<T>] Type name( or Name(.
func (f *file) javaMethod(d *decls, i int, h javaHead, top *scope) {
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
	exp := top.exported && (h.public || top.kind == "interface" && !h.private)
	off := h.off + len(h.rest) - len(after)
	d.add(i, core.Symbol{Name: name, Kind: core.SymbolMethod, Parent: top.name, Exported: exp,
		Doc: f.docAboveAttrs(i, javaDoc, javaAttr)}, f.bodyBrace(off, ""))
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
