package regex

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/rubi-dev/rubi/core"
)

func init() {
	register(&language{
		names: []string{core.LangRust},
		syntax: syntax{lineComment: "//", blockComment: true, nestComments: true,
			hook: rustLex, special: "\"'r"},
		extract: extractRust,
	})
}

// rustLex lexes what the common cases get wrong in Rust: strings span
// lines, r#"..."# raw strings end at their own delimiter, and a quote is
// a char literal ('a', '\n', '{') or a lifetime or label ('a, 'static),
// which must not open anything.
func rustLex(l *lexer, i int) int {
	src, n := l.src, len(l.src)
	switch src[i] {
	case '"':
		return l.strBody(i+1, strKind{q: '"', multiline: true})
	case '\'':
		if i+1 >= n {
			return i + 1
		}
		if src[i+1] == '\\' {
			for j := i + 3; j < n && j < i+16 && src[j] != '\n'; j++ {
				if src[j] == '\'' {
					for k := i + 1; k < j; k++ {
						l.code[k] = fill
					}
					return j + 1
				}
			}
			return i + 1
		}
		if src[i+1] == '\n' {
			return i + 1
		}
		_, size := utf8.DecodeRune(src[i+1:])
		if e := i + 1 + size; e < n && src[e] == '\'' {
			for k := i + 1; k < e; k++ {
				l.code[k] = fill
			}
			return e + 1
		}
		return i + 1 // a lifetime or a label
	default: // 'r': r"..." or r#"..."#, also after b or c
		if i+1 >= n || src[i+1] != '"' && src[i+1] != '#' {
			return i
		}
		if i > 0 && isIdent(src[i-1]) && (src[i-1] != 'b' && src[i-1] != 'c' || i > 1 && isIdent(src[i-2])) {
			return i
		}
		j := i + 1
		for j < n && src[j] == '#' && j-i <= 64 {
			j++
		}
		if j >= n || src[j] != '"' {
			return i // r#ident
		}
		term := append([]byte{'"'}, src[i+1:j]...)
		return l.until(j+1, term)
	}
}

var rustDoc = docStyle{line: "///", block: "/**"}

func rustAttr(t []byte) bool { return bytes.HasPrefix(t, []byte("#[")) }

// Rust scope kinds.
const (
	rustImpl  = "impl"
	rustTrait = "trait"
	rustMod   = "mod" // an inline module: its items are not reported
)

func extractRust(f *file) {
	d := decls{f: f}
	var scopes []scope
	usedTo := 0 // end of the last use declaration read
	for i := 0; i < f.lines(); i++ {
		scopes = f.popScopes(scopes, i)
		code := f.codeLine(i)
		lineOff := f.starts[i]
		// use declarations count at any depth (in a function body too).
		if bytes.Contains(code, []byte("use")) {
			eachWord(code, "use", false, func(k int) {
				if lineOff+k >= usedTo && f.rustStmtStart(lineOff+k) {
					usedTo = f.rustUse(lineOff+k+3, scopes)
				}
			})
		}
		if f.inText[i] {
			continue
		}
		t := bytes.TrimLeft(code, " \t")
		off := lineOff + len(code) - len(t)
		var top *scope
		if len(scopes) > 0 {
			top = &scopes[len(scopes)-1]
		}
		switch {
		case top == nil && f.depth[i] == 0:
		case top != nil && f.depth[i] == top.body:
		default:
			continue
		}
		// Attributes on the item's line: #[inline] pub fn f().
		for bytes.HasPrefix(t, []byte("#[")) {
			k := skipBalanced(t[1:])
			if k < 0 {
				break
			}
			r := bytes.TrimLeft(t[1+k:], " \t")
			off += len(t) - len(r)
			t = r
		}
		it, ok := rustItemOf(t, off)
		if !ok {
			continue
		}
		if top != nil && top.kind == rustMod {
			// Items of an inline module are not reported, but modules
			// nested in it are tracked for the paths of their uses.
			if it.kw == "mod" && len(scopes) < maxRustMods {
				if b := f.bodyBrace(it.nameOff, ""); b >= 0 {
					scopes = append(scopes, f.openScope(b, it.name, rustMod, false))
				}
			}
			continue
		}
		f.rustItem(&d, i, it, top, &scopes)
	}
	d.finish()
}

// maxRustMods bounds the nesting of inline modules tracked for the paths
// of their uses.
const maxRustMods = 16

// rustItem is an item's head: visibility, keyword, name.
type rustItem struct {
	pub     bool
	kw      string // fn, struct, enum, union, trait, type, const, static, mod, macro_rules, impl, crate (extern crate)
	name    string
	nameOff int // offset of the name (of what follows impl)
}

var rustQualifiers = map[string]bool{"default": true, "async": true, "unsafe": true, "safe": true, "auto": true}

// rustItemOf reads visibility, qualifiers and keyword from t, a line's
// code at offset off.
func rustItemOf(t []byte, off int) (it rustItem, ok bool) {
	adv := func(r []byte) {
		off += len(t) - len(r)
		t = r
	}
	if w, r := word(t); w == "pub" {
		it.pub = true
		adv(r)
		if len(t) > 0 && t[0] == '(' { // pub(crate), pub(in path)
			k := skipBalanced(t)
			if k < 0 {
				return it, false
			}
			adv(bytes.TrimLeft(t[k:], " \t"))
		}
	}
	for range 8 {
		w, r := word(t)
		switch {
		case w == "":
			return it, false
		case rustQualifiers[w] && len(r) < len(t)-len(w):
			adv(r)
			continue
		case w == "extern":
			adv(r)
			if len(t) > 0 && t[0] == '"' { // extern "C" fn
				k := 1
				for k < len(t) && t[k] == fill {
					k++
				}
				adv(bytes.TrimLeft(t[min(k+1, len(t)):], " \t"))
			}
			if firstWord(t) == "crate" {
				w, r = word(t)
				it.kw = w
				adv(r)
				it.name, it.nameOff = firstWord(t), off
				return it, it.name != "" && it.name != "self"
			}
			continue
		case w == "const":
			if n := firstWord(r); n == "fn" || n == "unsafe" || n == "async" || n == "extern" {
				adv(r)
				continue
			}
		case w == "static" && firstWord(r) == "mut":
			adv(r) // static mut X: mut is skipped with the keyword
			_, r = word(t)
			w = "static"
		case w == "macro_rules" && len(r) > 0 && r[0] == '!':
			r = bytes.TrimLeft(r[1:], " \t")
		}
		switch w {
		case "fn", "struct", "enum", "union", "trait", "type", "const", "static", "mod", "macro_rules":
		case "impl":
			it.kw = w
			adv(r)
			it.nameOff = off
			return it, true
		default:
			return it, false
		}
		adv(r)
		if bytes.HasPrefix(t, []byte("r#")) { // a raw identifier: fn r#type()
			adv(t[2:])
		}
		name := firstWord(t)
		if name == "" || name == "_" {
			return it, false
		}
		it.kw, it.name, it.nameOff = w, name, off
		return it, true
	}
	return it, false
}

func (f *file) rustItem(d *decls, i int, it rustItem, top *scope, scopes *[]scope) {
	doc := func() string { return f.docAboveAttrs(i, rustDoc, rustAttr) }
	restOff := it.nameOff + len(it.name)
	if top != nil { // inside impl or trait
		switch it.kw {
		case "fn", "const":
		default:
			return
		}
		kind := core.SymbolMethod
		if it.kw == "const" {
			kind = core.SymbolConst
		}
		exp := it.pub
		if top.kind == rustTrait {
			exp = top.exported
		} else if top.flag { // trait impl: reachable through the trait
			exp = true
		}
		brace := -1
		if it.kw == "fn" {
			brace = f.bodyBrace(restOff, "")
		}
		d.add(i, core.Symbol{Name: it.name, Kind: kind, Exported: exp, Parent: top.name, Doc: doc()}, brace)
		return
	}
	var kind string
	switch it.kw {
	case "crate":
		f.addImport(it.nameOff, it.name, core.ImportStatic)
		return
	case "impl":
		brace := f.bodyBrace(it.nameOff, "")
		if brace < 0 {
			return
		}
		name, trait := rustImplType(f.code[it.nameOff:brace])
		s := f.openScope(brace, name, rustImpl, false)
		s.flag = trait
		*scopes = append(*scopes, s)
		return
	case "fn", "macro_rules":
		kind = core.SymbolFunction
	case "struct", "union", "type":
		kind = core.SymbolType
	case "enum":
		kind = core.SymbolEnum
	case "trait":
		kind = core.SymbolInterface
	case "const":
		kind = core.SymbolConst
	case "static":
		kind = core.SymbolVar
	case "mod":
		kind = core.SymbolModule
	}
	brace := -1
	switch it.kw {
	case "fn", "struct", "enum", "union", "trait", "mod", "macro_rules":
		brace = f.bodyBrace(restOff, "")
	}
	exp := it.pub
	if it.kw == "macro_rules" {
		exp = f.rustMacroExport(i)
	}
	d.add(i, core.Symbol{Name: it.name, Kind: kind, Exported: exp, Doc: doc()}, brace)
	switch it.kw {
	case "mod":
		if brace < 0 {
			f.addImport(it.nameOff, it.name, core.ImportModule)
		} else if len(*scopes) < maxRustMods {
			*scopes = append(*scopes, f.openScope(brace, it.name, rustMod, it.pub))
		}
	case "trait":
		if brace >= 0 {
			*scopes = append(*scopes, f.openScope(brace, it.name, rustTrait, it.pub))
		}
	}
}

// rustMacroExport reports whether #[macro_export] is among the attributes
// right above line i.
func (f *file) rustMacroExport(i int) bool {
	for j := i - 1; j >= 0 && i-j <= 8; j-- {
		t := bytes.TrimSpace(f.codeLine(j))
		if !rustAttr(t) {
			return false
		}
		if bytes.Contains(t, []byte("macro_export")) {
			return true
		}
	}
	return false
}

// rustImplType reads the self type of an impl header (what follows impl,
// up to the body brace) and whether it implements a trait.
func rustImplType(h []byte) (name string, trait bool) {
	h = bytes.TrimSpace(h)
	if len(h) > 0 && h[0] == '<' { // impl<T: Clone>
		k := skipBalanced(h)
		if k < 0 {
			return "", false
		}
		h = h[k:]
	}
	// Cut the where clause, then split on " for " at angle depth 0.
	depth := 0
	for k := 0; k < len(h); k++ {
		switch c := h[k]; {
		case c == '<':
			depth++
		case c == '>' && (k == 0 || h[k-1] != '-'):
			depth--
		case depth == 0 && isIdent(c) && (k == 0 || !isIdent(h[k-1])):
			w := firstWord(h[k:])
			switch w {
			case "where":
				h = h[:k]
			case "for":
				h, trait = h[k+3:], true
				k = -1
				continue
			}
			k += len(w) - 1
		}
	}
	h = bytes.TrimSpace(h)
	for {
		h = bytes.TrimLeft(h, "&! \t\n\r")
		w := firstWord(h)
		if w == "mut" || w == "dyn" {
			h = h[len(w):]
			continue
		}
		if len(h) > 0 && h[0] == '\'' { // &'a T
			h = h[1:]
			h = h[len(firstWord(h)):]
			continue
		}
		break
	}
	end := 0
	for end < len(h) && (isIdent(h[end]) || h[end] == ':') {
		end++
	}
	return lastSegment(string(h[:end]), "::"), trait
}

// rustStmtStart reports whether the keyword at off starts a statement or
// an item: it follows the start of the file, ';', a brace, an attribute,
// or a visibility (pub, pub(crate)) that does.
func (f *file) rustStmtStart(off int) bool {
	code := f.code
	for range 4 {
		k := off - 1
		for stop := max(0, off-256); k >= stop && isSpace(code[k]); k-- {
		}
		if k < 0 {
			return true
		}
		switch c := code[k]; {
		case c == ';' || c == '{' || c == '}' || c == ']':
			return true
		case c == ')': // pub(crate)
			depth := 0
			for ; k >= 0 && off-k < 256; k-- {
				if code[k] == ')' {
					depth++
				} else if code[k] == '(' {
					if depth--; depth == 0 {
						break
					}
				}
			}
			if k < 0 || depth != 0 {
				return false
			}
			for k--; k >= 0 && isSpace(code[k]); k-- {
			}
			fallthrough
		case isIdent(c):
			e := k + 1
			for k >= 0 && isIdent(code[k]) && e-k <= 3 {
				k--
			}
			if string(code[k+1:e]) != "pub" || k >= 0 && isIdent(code[k]) {
				return false
			}
			off = k + 1
		default:
			return false
		}
	}
	return false
}

// rustUse reads the use tree that starts at off, up to its ';', and
// records one import per leaf: use a::{b, c::D as E, self} gives a::b,
// a::c::D and a. Paths relative to an inline module (self::, super::) are
// rewritten relative to the file's module.
//
// It returns the offset after the declaration, beyond which the next one
// is looked for: a declaration's words are never read twice.
func (f *file) rustUse(off int, scopes []scope) int {
	end := min(len(f.code), off+declWindow)
	if k := bytes.IndexByte(f.code[off:end], ';'); k >= 0 {
		end = off + k
	}
	n := 0
	var mods []string
	for _, s := range scopes {
		if s.kind == rustMod {
			mods = append(mods, s.name)
		}
	}
	p := useParser{code: f.code[:end], pos: off, sep: "::", global: true}
	p.emit = func(spec string, at int) {
		if n++; spec == "" || spec == "self" || n > maxUseLeaves {
			return
		}
		f.addImport(at, rustRelative(spec, mods), core.ImportStatic)
	}
	p.tree("", 0)
	return max(p.pos, off)
}

// maxUseLeaves bounds the imports of one use declaration.
const maxUseLeaves = 1024

// rustRelative rewrites a path written inside the inline modules mods
// (outermost first) relative to the file's own module.
func rustRelative(spec string, mods []string) string {
	if len(mods) == 0 {
		return spec
	}
	segs := strings.Split(spec, "::")
	switch segs[0] {
	case "self":
		return strings.Join(append(append([]string{"self"}, mods...), segs[1:]...), "::")
	case "super":
		up := 0
		for up < len(segs) && segs[up] == "super" {
			up++
		}
		if up > len(mods) {
			return strings.Join(segs[len(mods):], "::")
		}
		out := append([]string{"self"}, mods[:len(mods)-up]...)
		return strings.Join(append(out, segs[up:]...), "::")
	}
	return spec
}

// useParser reads a tree of paths with groups: Rust's a::{b, c::{d, e}}
// (sep "::") and PHP's A\B\{C, D as E} (sep "\").
type useParser struct {
	code []byte
	pos  int
	sep  string
	emit func(spec string, at int)
	// words, when set, are skipped before a path inside a group (PHP's
	// function and const).
	words map[string]bool
	// global keeps a leading separator in the spec: Rust's ::std::io
	// names an extern crate, while PHP's \App\Model in a use is App\Model.
	global bool
}

func (p *useParser) ws() {
	for p.pos < len(p.code) && (isSpace(p.code[p.pos]) || p.code[p.pos] == fill) {
		p.pos++
	}
}

func (p *useParser) at(s string) bool { return bytes.HasPrefix(p.code[p.pos:], []byte(s)) }

// tree reads one tree, whose path continues prefix, and returns after it
// (at the ',' or '}' that follows in a group); depth bounds the nesting.
func (p *useParser) tree(prefix string, depth int) {
	if depth > 16 {
		return
	}
	path := prefix
	p.ws()
	if prefix == "" && p.at(p.sep) {
		p.pos += len(p.sep) // a global path: ::std::io, \App\Model
		if p.global {
			path = p.sep
		}
	}
	for {
		p.ws()
		if p.pos >= len(p.code) {
			return
		}
		switch p.code[p.pos] {
		case '{':
			p.group(path, depth)
			return
		case '*':
			p.pos++
			p.emit(join(path, "*", p.sep), p.pos-1)
			return
		}
		w := firstWord(p.code[p.pos:])
		if w == "" {
			return
		}
		at := p.pos
		p.pos += len(w)
		if w != "self" || path == "" {
			path = join(path, w, p.sep)
		} // else a::{self}: the module itself
		p.ws()
		if p.at(p.sep) {
			p.pos += len(p.sep)
			continue
		}
		if firstWord(p.code[p.pos:]) == "as" {
			p.pos += 2
			p.ws()
			p.pos += len(firstWord(p.code[p.pos:]))
		}
		p.emit(path, at)
		return
	}
}

// group reads { tree, tree, ... } after prefix.
func (p *useParser) group(prefix string, depth int) {
	p.pos++
	for p.pos < len(p.code) {
		p.ws()
		if p.pos >= len(p.code) {
			return
		}
		switch p.code[p.pos] {
		case '}':
			p.pos++
			return
		case ',':
			p.pos++
			continue
		}
		before := p.pos
		if w := firstWord(p.code[p.pos:]); p.words[w] {
			p.pos += len(w)
		}
		p.tree(prefix, depth+1)
		if p.pos == before {
			return // malformed: no progress
		}
	}
}

func join(a, b, sep string) string {
	switch {
	case a == "":
		return b
	case a == sep || strings.HasSuffix(a, sep):
		return a + b
	}
	return a + sep + b
}
