package regex

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/rubi-dev/rubi/core"
)

// The class languages, Java, Kotlin and Dart, are read by one extractor.
// Their files open with directives (package, import), then declare types
// whose bodies hold members, and every declaration starts alike:
// annotations, modifiers, then either a keyword that declares a type
// (class, interface, enum...) or the words of a member. The extractor
// reads the directives, the annotations, the modifiers and the types, and
// tracks their bodies; the hooks of a language's classLang say what its
// words are and who is exported, and read its members.

// classLang is a class language: what register needs, and the hooks of
// the extractor. Each of java.go, kotlin.go and dart.go fills one.
type classLang struct {
	language
	// doc is the style of a declaration's doc comment.
	doc docStyle
	// directives read a line at file scope by its first word (package,
	// import...).
	directives map[string]func(c *classFile, t []byte, off int)
	// attrName are the bytes an annotation's name may hold besides an
	// identifier's: "." for @a.b.C, ".:" for Kotlin's @field:Json.
	attrName string
	// attrSpaced says that blanks may separate an annotation's name from
	// its arguments (Java).
	attrSpaced bool
	// leadingAttrs says that annotations come before every modifier
	// (Dart's metadata): one after a modifier ends the declaration's
	// head.
	leadingAttrs bool
	// modifier reads the modifier t starts with: its flags and what
	// follows it; ok is false when t starts with none.
	modifier func(t []byte) (m modFlag, rest []byte, ok bool)
	// keyword reads the keyword of a type that t starts with: the kind of
	// the type's scope ("class", "interface"...; keywordIn returns it
	// without allocating) and what follows the keyword, or "" when t
	// starts with none.
	keyword func(t []byte) (kw string, rest []byte)
	// typeName reads the name of the type h declares: the name reported
	// and the offset where it ends in the source; "" for a type without
	// a name.
	typeName func(h classHead) (name string, end int)
	// header says what ends a type's header before its body brace.
	header header
	// exported reports whether name, declared with the modifiers mods in
	// top (nil at file scope), is visible outside its file or package.
	exported func(mods modFlag, name string, top *scope) bool
	// memberStmt says that a line in a type's body is a declaration only
	// if it starts a statement (Java): one that goes on with an
	// expression is not read.
	memberStmt bool
	// member reads a declaration that declares no type: a method, a
	// constructor, a function, a variable.
	member func(c *classFile, i int, h classHead, top *scope)
}

// modFlag marks the modifiers that decide something: who is exported,
// what kind of type a declaration makes.
type modFlag uint8

const (
	modPublic    modFlag = 1 << iota // Java's public
	modHidden                        // private, and Kotlin's internal
	modEnum                          // Kotlin's enum class
	modCompanion                     // Kotlin's companion object, whose members are its class's
)

// classHead is the start of a declaration, as head reads it.
type classHead struct {
	mods modFlag
	kw   string // the keyword that declares a type; "" for a member
	// rest follows the keyword, or the modifiers of a member; off is its
	// offset in the source.
	rest []byte
	off  int
	// start is where the modifiers begin, past the annotations before
	// them, at offset startOff: Dart's members read their own modifiers
	// from there.
	start    []byte
	startOff int
}

// classFile is the class extractor's state in one file.
type classFile struct {
	*file
	lang   *classLang
	d      decls
	scopes []scope
}

// register registers l, its files read by the class extractor.
func (l *classLang) register() {
	l.extract = l.extractClasses
	register(&l.language)
}

// extractClasses is the extractor of every class language: it reads the
// directives at file scope and the declarations at file scope and in the
// bodies of types, and nothing deeper.
func (l *classLang) extractClasses(f *file) {
	c := &classFile{file: f, lang: l, d: decls{f: f}}
	for i := 0; i < f.lines() && !f.full(); i++ {
		t, off, top, ok := f.braceLine(&c.scopes, i)
		if !ok || len(t) == 0 { // in a string, or blank: no declaration
			continue
		}
		switch {
		case top == nil && f.depth[i] == 0:
			if dir := l.directives[string(t[:identLen(t)])]; dir != nil {
				dir(c, t, off)
				continue
			}
		case top != nil && f.depth[i] == top.body:
			if l.memberStmt && !c.startsStmt(i) {
				continue
			}
		default:
			continue
		}
		h, ok := l.head(t, off)
		switch {
		case !ok:
		case h.kw != "":
			c.typeDecl(i, h, top)
		default:
			l.member(c, i, h, top)
		}
	}
	c.d.finish()
}

// head reads the annotations and modifiers a declaration starts with at
// t (offset off), then the keyword of a type if one follows. ok is false
// when an annotation's arguments do not close on the line.
func (l *classLang) head(t []byte, off int) (h classHead, ok bool) {
	adv := func(r []byte) {
		r = bytes.TrimLeft(r, " \t")
		off += len(t) - len(r)
		t = r
	}
	h.start, h.startOff = t, off
	modified := false
	for range 32 {
		if kw, r := l.keyword(t); kw != "" {
			h.kw = kw
			adv(r)
			break
		}
		if n := l.annotation(t); n != 0 {
			if n < 0 {
				return h, false
			}
			if modified && l.leadingAttrs {
				break
			}
			adv(t[n:])
			if !modified {
				h.start, h.startOff = t, off
			}
			continue
		}
		m, r, ok := l.modifier(t)
		if !ok {
			break
		}
		h.mods |= m
		modified = true
		adv(r)
	}
	h.rest, h.off = t, off
	return h, true
}

// annotation returns the length of the annotation t starts with, its
// arguments in parentheses included: 0 when t starts with none, -1 when
// the arguments do not close on the line.
func (l *classLang) annotation(t []byte) int {
	if !l.isAttr(t) {
		return 0
	}
	k := 1
	for k < len(t) && (isIdent(t[k]) || strings.IndexByte(l.attrName, t[k]) >= 0) {
		k++
	}
	a := k
	for l.attrSpaced && a < len(t) && (t[a] == ' ' || t[a] == '\t') {
		a++
	}
	if a == len(t) || t[a] != '(' {
		return k
	}
	if e := skipBalanced(t[a:]); e >= 0 {
		return a + e
	}
	return -1
}

// isAttr reports whether t starts with an annotation: '@' and a name,
// unless the language reads a keyword there (Java's @interface).
func (l *classLang) isAttr(t []byte) bool {
	if len(t) < 2 || t[0] != '@' || !isIdent(t[1]) {
		return false
	}
	kw, _ := l.keyword(t)
	return kw == ""
}

// typeDecl records the type that h, on line i, declares in top (nil at
// file scope), and opens the scope of its body.
func (c *classFile) typeDecl(i int, h classHead, top *scope) {
	l := c.lang
	name, end := l.typeName(h)
	if h.mods&modCompanion != 0 && top != nil {
		// Named or not, a companion object reports no symbol: its
		// members are its class's.
		if b := c.headerBrace(end, l.header); b >= 0 {
			c.scopes = append(c.scopes, c.openScope(b, top.name, h.kw, top.exported))
		}
		return
	}
	if name == "" {
		return
	}
	kind := core.SymbolClass
	switch {
	case h.kw == "interface":
		kind = core.SymbolInterface
	case h.kw == "enum" || h.mods&modEnum != 0:
		kind = core.SymbolEnum
	}
	exp := l.exported(h.mods, name, top)
	s := core.Symbol{Name: name, Kind: kind, Exported: exp, Doc: c.doc(i)}
	if top != nil {
		s.Parent = top.name
	}
	brace := c.headerBrace(end, l.header)
	c.d.add(i, s, brace)
	if brace >= 0 {
		c.scopes = append(c.scopes, c.openScope(brace, name, h.kw, exp))
	}
}

// startsStmt reports whether line i starts a statement, looking past the
// annotation lines above it.
func (c *classFile) startsStmt(i int) bool {
	return c.stmtStart(i, func(j int) int {
		if c.lang.isAttr(bytes.TrimSpace(c.codeLine(j))) {
			return stmtSkip
		}
		return stmtNo
	})
}

// doc returns the doc comment of the declaration on line i, above its
// annotations.
func (c *classFile) doc(i int) string { return c.docAboveAttrs(i, c.lang.doc, c.lang.isAttr) }

// setPackage sets the file's package, unless set already, from the first
// group of re in t: a dotted name, written without blanks.
func (c *classFile) setPackage(re *regexp.Regexp, t []byte) {
	if m := re.FindSubmatch(t); m != nil && c.facts.Package == "" {
		c.facts.Package = string(pyDotted(m[1]))
	}
}

// tableModifier reads a modifier of table followed by a blank.
func tableModifier(table map[string]modFlag, t []byte) (modFlag, []byte, bool) {
	n := identLen(t)
	m, ok := table[string(t[:n])]
	if !ok {
		return 0, nil, false
	}
	r := bytes.TrimLeft(t[n:], " \t")
	return m, r, len(r) < len(t)-n
}

// keywordIn returns the word of kws that t starts with and what follows
// it, or "" and nil. The word returned is one of kws, not a copy of the
// source: a line that holds no keyword costs no allocation.
func keywordIn(t []byte, kws ...string) (string, []byte) {
	n := identLen(t)
	for _, k := range kws {
		if string(t[:n]) == k {
			return k, bytes.TrimLeft(t[n:], " \t")
		}
	}
	return "", nil
}
