// Package java finds the references of a project's Java files: the names
// a file uses that resolve to a class, interface, enum, record or method
// the project defines, through the file's own declarations, its package,
// its imports (single-type, on demand, static) and the types its code
// states.
//
// It reads code as core/refs/python and core/refs/scripts do: comments
// and string contents blanked first (core.CodeMasker, the regex parser's
// lexer), then tokens. A type name resolves as Java scopes it: the member
// types of the types around it (inherited ones too), the file's types,
// single-type imports, the package's types, on-demand imports (two
// offering one name: neither). A method is a reference only where the
// code states the receiver's type: a variable, parameter or field
// declared with a project type (by block; var x = new T() too), this,
// super, Outer.this, a type's name (static members), new T(...), and
// what a project method's declared return type says a call gives; and
// the elements of a JDK container of a project type (List<Item> items:
// for (var i : items), items.get(0), items.forEach(i -> ...),
// items.stream().filter(i -> ...).findFirst().get()). A
// method is looked up in the type, then in the class it extends (one the
// project does not define ends the search: it may declare the method),
// then in its interfaces; a private method is not inherited, a call is
// tied to the overloads its argument count fits, and in an anonymous
// class its own methods and its type's come first. Anything else
// (other lambdas' parameters, other generics, casts, arrays' elements, a
// name declared with two types in one block) is unknown and
// no reference: precision first, so that a same-named method of another
// type is never reported.
//
// Files are resolved on every core; what the index learns lazily (a
// file's scope, its types' headers, a type's member types) is learnt once.
// Import statements are not references: the import graph holds them.
package java

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/refs"
)

// Resolver is the Java refs.Resolver.
type Resolver struct {
	mask core.CodeMasker
}

// New returns a resolver that reads code through mask (the regex
// parser's MaskCode in rubi's programs); without one it resolves nothing.
func New(mask core.CodeMasker) *Resolver { return &Resolver{mask: mask} }

var _ refs.Resolver = (*Resolver)(nil)

// Languages is Java alone.
func (r *Resolver) Languages() []string { return []string{core.LangJava} }

// Version names the resolver's rules.
func (r *Resolver) Version() string { return "1" }

// Refs resolves the references of the Java files of want, on every
// core: the index of the project's types is made first, from the facts;
// what it learns lazily (a file's scope, its types' headers) is learnt
// once per file.
func (r *Resolver) Refs(ctx context.Context, p refs.Project, want []string) (map[string][]refs.Ref, error) {
	out := map[string][]refs.Ref{}
	if r.mask == nil {
		return out, nil
	}
	ix := newIndex(p, r.mask)
	var files []*fileInfo
	for _, f := range want {
		if fi, ok := ix.files[f]; ok {
			files = append(files, fi)
		}
	}
	found := make([][]refs.Ref, len(files))
	resolved := make([]bool, len(files))
	next := atomic.Int64{}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Go(func() {
			for {
				k := int(next.Add(1)) - 1
				if k >= len(files) || ctx.Err() != nil {
					return
				}
				fi := files[k]
				if x := ix.lex(fi); x != nil {
					fi.headsOnce.Do(func() { ix.readHeads(fi, x) })
					found[k], resolved[k] = ix.resolveFile(fi, x), true
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for k, fi := range files {
		if resolved[k] {
			out[fi.path] = found[k]
		}
	}
	return out, nil
}

// Affected is the changed files, the files importing them and the files
// of their packages, which see a package's types without an import; and
// through a file that declares a subtype (extends, implements), the
// files importing it too, since a method it inherits from a changed type
// is looked up there.
func (r *Resolver) Affected(p refs.Project, changed []string) []string {
	out := refs.WithImporters(p, changed, func(f string) bool { return subtypes(p, f) })
	pkgs := map[string]bool{}
	for _, f := range changed {
		if ff, ok := p.Facts(f); ok && ff.Language == core.LangJava {
			pkgs[ff.Package] = true
		}
	}
	if len(pkgs) == 0 {
		return out
	}
	seen := map[string]bool{}
	for _, f := range out {
		seen[f] = true
	}
	for _, f := range p.Files(core.LangJava) {
		if ff, ok := p.Facts(f); ok && pkgs[ff.Package] && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out
}

// isPrivate reports whether a declaration's line says private before
// the name it declares.
func isPrivate(sig, name string) bool {
	x := lex([]byte(sig[:min(len(sig), maxSignature)]))
	for i := range x.toks {
		if x.is(i, name) {
			return privateBefore(x, i)
		}
	}
	return false
}

// privateBefore reports whether one of the tokens before token i is the
// modifier private.
func privateBefore(x *lexed, i int) bool {
	for k := range i {
		if x.is(k, "private") {
			return true
		}
	}
	return false
}

// subtypes reports whether file f declares a type that extends or
// implements another.
func subtypes(p refs.Project, f string) bool {
	ff, ok := p.Facts(f)
	if !ok || ff.Language != core.LangJava {
		return false
	}
	for _, s := range ff.Symbols {
		if isType(s.Kind) && (strings.Contains(s.Signature, "extends") || strings.Contains(s.Signature, "implements")) {
			return true
		}
	}
	return false
}

// typeDef is a type the project defines: its file, its key (the symbol's
// qualified name: Parent.Name for a nested type), its simple name, and
// the supertypes its declaration names (simple names, as written).
type typeDef struct {
	path, key, name string
	// supers are the simple names its declaration extends and implements,
	// as written: from its header in the code (ix.supers), which may span
	// lines, else its signature's line.
	supers []string
	// base is the class a class extends ("" for the others, or none
	// written); kind its symbol's kind.
	base, kind string
	// private: a nested type its enclosing type's subtypes do not
	// inherit.
	private bool
	// members are its methods by name, each declaration of the name
	// (overloads) with what it takes and returns.
	members map[string][]overload
	// nested are the types declared inside it, by simple name.
	nested map[string]*typeDef
	// outer is the type it is declared in, nil at a file's top level.
	outer *typeDef
	// memberOnce makes inheritedTypes: its member types, the inherited
	// ones (ix.memberTypes).
	memberOnce     sync.Once
	inheritedTypes map[string]*typeDef
	file           *fileInfo
}

// fileInfo is what the index keeps of one Java file.
type fileInfo struct {
	path, pkg string
	types     []*typeDef          // every type the file declares
	byName    map[string]*typeDef // by simple name; nil value: two share it
	syms      []core.Symbol
	// headsOnce reads its types' headers (ix.supers), scopeOnce makes
	// sc, its scope (ix.scope): each once, whichever goroutine asks.
	headsOnce, scopeOnce sync.Once
	sc                   *scope
}

// index is the project's Java types, built from the parser's facts.
type index struct {
	p     refs.Project
	files map[string]*fileInfo
	// pkgs are the top-level types of each package by simple name (more
	// than one where modules or source sets repeat a package).
	pkgs map[string]map[string][]*typeDef
	mask core.CodeMasker
}

func isType(kind string) bool {
	switch kind {
	case core.SymbolClass, core.SymbolInterface, core.SymbolEnum, core.SymbolType:
		return true
	}
	return false
}

func key(s core.Symbol) string {
	if s.Parent != "" {
		return s.Parent + "." + s.Name
	}
	return s.Name
}

func newIndex(p refs.Project, mask core.CodeMasker) *index {
	ix := &index{p: p, mask: mask, files: map[string]*fileInfo{}, pkgs: map[string]map[string][]*typeDef{}}
	for _, f := range p.Files(core.LangJava) {
		ff, ok := p.Facts(f)
		if !ok {
			continue
		}
		fi := &fileInfo{path: f, pkg: ff.Package, byName: map[string]*typeDef{}, syms: ff.Symbols}
		ix.files[f] = fi
		for _, s := range ff.Symbols {
			if !isType(s.Kind) {
				continue
			}
			sup, base := supertypes(s.Signature, s.Kind)
			t := &typeDef{path: f, key: key(s), name: s.Name, kind: s.Kind, supers: sup, base: base, private: isPrivate(s.Signature, s.Name), members: map[string][]overload{}, nested: map[string]*typeDef{}, file: fi}
			fi.types = append(fi.types, t)
			if _, dup := fi.byName[s.Name]; dup {
				fi.byName[s.Name] = nil
			} else {
				fi.byName[s.Name] = t
			}
		}
		for _, t := range fi.types {
			if dot := strings.LastIndexByte(t.key, '.'); dot >= 0 {
				// A nested type's key is its enclosing type's simple name
				// and its own.
				if o := fi.byName[t.key[:dot]]; o != nil && o != t {
					t.outer = o
					o.nested[t.name] = t
				}
				continue
			}
			m := ix.pkgs[fi.pkg]
			if m == nil {
				m = map[string][]*typeDef{}
				ix.pkgs[fi.pkg] = m
			}
			m[t.name] = append(m[t.name], t)
		}
		// Methods name their class by its simple name (Parent).
		for _, s := range ff.Symbols {
			if s.Kind != core.SymbolMethod || s.Parent == "" {
				continue
			}
			if t := fi.byName[s.Parent]; t != nil {
				t.members[s.Name] = append(t.members[s.Name], signature(s.Signature, s.Name))
			}
		}
	}
	return ix
}

// lex reads, masks and lexes a file's code; nil when it cannot be read
// or masked. Nothing is kept: a project's tokens would outgrow the rest
// of an index run.
func (ix *index) lex(fi *fileInfo) *lexed {
	src, err := ix.p.Read(fi.path)
	if err != nil {
		return nil
	}
	code, ok := ix.mask(core.LangJava, src)
	if !ok || len(code) != len(src) {
		return nil
	}
	return lex(code)
}

// supers returns what t extends and implements, read from the headers
// of its file's types the first time one is asked for: a header may span
// lines (class A<K, V>\n    extends B<K, V> {), and the parser's
// signature holds only its first.
func (ix *index) supers(t *typeDef) []string {
	fi := t.file
	fi.headsOnce.Do(func() {
		if x := ix.lex(fi); x != nil {
			ix.readHeads(fi, x)
		}
	})
	return t.supers
}

// readHeads reads the headers of the types file fi declares from its
// code x.
func (ix *index) readHeads(fi *fileInfo, x *lexed) {
	byKey := map[string]*typeDef{}
	for _, td := range fi.types {
		byKey[td.key] = td
	}
	lines := map[int]*typeDef{}
	for _, s := range fi.syms {
		if td := byKey[key(s)]; td != nil && isType(s.Kind) {
			lines[s.Line] = td
		}
	}
	for i := range x.toks {
		if !(x.is(i, "class") || x.is(i, "interface") || x.is(i, "enum") || x.is(i, "record")) || !x.isName(i+1) || x.is(i-1, ".") {
			continue
		}
		if td := lines[x.line(i+1)]; td != nil && td.name == x.text(i+1) {
			td.supers, td.base = headSupers(x, i+2, td.kind)
		}
	}
}

// supertypes reads the simple names a type's declaration line extends
// and implements (class A extends B<T> implements C, D {), and the class
// a class extends.
func supertypes(sig, kind string) (names []string, base string) {
	x := lex([]byte(sig[:min(len(sig), maxSignature)]))
	for i := range x.toks {
		if (x.is(i, "class") || x.is(i, "interface") || x.is(i, "enum") || x.is(i, "record")) && x.isName(i+1) {
			return headSupers(x, i+2, kind)
		}
	}
	return nil, ""
}

// headSupers reads a type's header from token j, after its name, to its
// body's {: the names after extends and implements, outside generics'
// brackets and qualifiers, and for a class the one it extends.
func headSupers(x *lexed, j int, kind string) (names []string, base string) {
	in, extends, depth := false, false, 0
	for n := 0; j < len(x.toks) && n < maxHead; j, n = j+1, n+1 {
		switch {
		case depth == 0 && (x.is(j, "{") || x.is(j, ";")):
			return names, base
		case x.is(j, "extends") || x.is(j, "implements"):
			if depth == 0 {
				in, extends = true, x.is(j, "extends")
			}
		case x.is(j, "permits"):
			if depth == 0 {
				in = false
			}
		case x.is(j, "<") || x.is(j, "("):
			depth++
		case x.is(j, ">") || x.is(j, ")"):
			depth--
		case in && depth == 0 && x.isName(j) && !x.is(j+1, "."):
			names = append(names, x.text(j))
			if extends && kind == core.SymbolClass && base == "" {
				base = x.text(j)
			}
		}
	}
	return names, base
}

// overload is one declaration of a method: the simple name of the type
// it returns ("" when that is not a plain type: void, an array, a type
// variable the resolver cannot tell apart, or unread), and how many
// parameters it takes (-1 when its signature's line does not close the
// list), varargs when the last is T... .
type overload struct {
	ret     string
	params  int
	varargs bool
	// private: not inherited, so a subtype's call is not to it.
	private bool
}

// takes reports whether a call with args arguments (-1 unknown: a method
// reference) may be to o.
func (o overload) takes(args int) bool {
	return args < 0 || o.params < 0 || o.params == args || o.varargs && args >= o.params-1
}

// signature reads a method's declaration line: public static Cart
// empty() returns Cart and takes none; List<Item> items(int a, Map<K, V>
// b) returns List and takes two; Calendar.Date date() returns a type
// the resolver does not follow.
func signature(sig, name string) overload {
	o := overload{params: -1}
	x := lex([]byte(sig[:min(len(sig), maxSignature)]))
	for i := range x.toks {
		if !x.is(i, name) || !x.is(i+1, "(") {
			continue
		}
		j := i - 1
		if x.is(j, ">") { // List<Item> items(): the generic's name
			for depth := 0; j >= 0; j-- {
				if x.is(j, ">") {
					depth++
				} else if x.is(j, "<") {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			j--
		}
		o.private = privateBefore(x, i)
		if x.isName(j) && !keywords[x.text(j)] && !x.is(j-1, ".") {
			o.ret = x.text(j) // a qualified type (Outer.Inner) is not followed
		}
		depth, n, empty := 0, 0, true
		for k := i + 1; k < len(x.toks); k++ {
			switch {
			case x.is(k, "(") || x.is(k, "<"):
				depth++
			case x.is(k, ")") || x.is(k, ">"):
				depth--
				if depth == 0 {
					if !empty {
						n++
					}
					o.params = n
					return o
				}
			case depth == 1 && x.is(k, ","):
				n++
			case depth == 1 && x.is(k, "..."):
				o.varargs = true
			}
			if k > i+1 && depth > 0 {
				empty = false
			}
		}
		return o
	}
	return o
}

// member finds the method m on t, or along its supertypes in the
// project, that a call with args arguments may be to (-1: any): the
// type that declares it and the type it returns ("" if its overloads
// that may be called disagree, or none is followed). ok is false when no
// such method is found in the project: it may be a library supertype's.
func (ix *index) member(t *typeDef, m string, args int, seen map[*typeDef]bool) (owner *typeDef, ret string, ok bool) {
	if t == nil || seen[t] {
		return nil, "", false
	}
	inherited := len(seen) > 0
	seen[t] = true
	found := false
	for _, o := range t.members[m] {
		if !o.takes(args) || inherited && o.private {
			continue
		}
		if !found {
			ret, found = o.ret, true
		} else if o.ret != ret {
			ret = ""
		}
	}
	if found {
		return t, ret, true
	}
	supers := ix.supers(t)
	if t.base != "" {
		// The class it extends comes first; one the project does not
		// define may declare the method: no reference then.
		bt := ix.lexical(t, t.base)
		if bt == nil {
			return nil, "", false
		}
		if o, r, ok := ix.member(bt, m, args, seen); ok {
			return o, r, true
		}
	}
	for _, s := range supers {
		if s == t.base {
			continue
		}
		st := ix.lexical(t, s)
		if st == nil {
			continue
		}
		if o, r, ok := ix.member(st, m, args, seen); ok {
			return o, r, true
		}
	}
	return nil, "", false
}

// visibleFrom resolves a simple type name as written in file fi.
func (ix *index) visibleFrom(fi *fileInfo, name string) *typeDef {
	if t := fi.byName[name]; t != nil {
		return t
	}
	return ix.scope(fi).types[name]
}
