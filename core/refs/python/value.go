package python

import "strings"

// Value kinds.
const (
	vUnknown = iota
	vNone    // the literal None: says nothing about a name's type
	vModule
	vClass    // the class itself
	vInstance // a value of the class
	vFunc
	vSuper // super(): members are looked up past cls
)

// val is what an expression is known to be, and the definition it names
// when it names one (tgt: a function, a class, a module's variable).
type val struct {
	k   int
	mod *module // vModule: the module's file, nil for a namespace package
	pkg string  // vModule: the package's folder, "" for a plain module
	cls *class
	fn  *function
	tgt *target
}

// target is a symbol key: the defining file and the qualified name.
// known caches whether the facts hold it: 0 not asked, 1 yes, 2 no.
type target struct {
	path, name string
	known      int8
}

var unknown = val{}

// found reports whether v says anything: a value known, or a definition
// named (a module's variable of a type rubi cannot tell).
func (v val) found() bool { return v.k != vUnknown || v.tgt != nil }

// maxDepth bounds the chains of lookups one question may start (a
// module re-exporting a module re-exporting...), so that a cycle the
// state flags miss still ends.
const maxDepth = 64

// lookup resolves a name used in scope sc. Class bodies are not seen
// from the functions inside them, as in Python.
func (st *state) lookup(sc *scope, name []byte, depth int) val {
	if depth > maxDepth {
		return unknown
	}
	start := sc
	for s := sc; s != nil; s = s.parent {
		if s.kind == sClass && s != start {
			continue
		}
		if s.globals != nil && s.globals[string(name)] {
			for s.parent != nil {
				s = s.parent
			}
		}
		if b := s.names[string(name)]; b != nil {
			return st.resolve(s, name, b, depth+1)
		}
		if s.kind == sModule {
			for _, spec := range s.stars {
				if m, pkg, ok := st.module(s.mod, spec); ok && name[0] != '_' {
					if v := st.moduleAttr(m, pkg, name, depth+1); v.found() {
						return v
					}
				}
			}
		}
	}
	if string(name) == "super" {
		for s := sc; s != nil; s = s.parent {
			if s.kind == sFunc && s.fn.cls != nil && s.parent == s.fn.cls.body {
				return val{k: vSuper, cls: s.fn.cls}
			}
		}
	}
	return unknown
}

// resolve returns the value a binding's definitions agree on, unknown
// when they disagree; a None among them does not count.
func (st *state) resolve(s *scope, name []byte, b *binding, depth int) val {
	switch b.state {
	case 2:
		return b.v
	case 1:
		return unknown
	}
	b.state = 1
	if fn := b.overloads(); fn != nil {
		// Overloads, a property's setter: one function, defined again.
		b.state, b.v = 2, val{k: vFunc, fn: fn, tgt: &fn.tgt}
		return b.v
	}
	v, set, vars := unknown, false, true
	b.each(func(d def) bool {
		vars = vars && (d.kind == dExpr || d.kind == dAnn)
		w := st.defVal(d, depth)
		if d.kind != dFunc && d.kind != dClass && d.kind != dImport && d.kind != dImportFrom {
			// x = self.endpoint: x holds a value, it does not name the
			// definition the value came from.
			w.tgt = nil
		}
		if w.k == vNone {
			return true
		}
		if set && w != v {
			v = unknown
			return false
		}
		v, set = w, true
		return true
	})
	// A module's or a class's variable is a definition of its own.
	if v.tgt == nil && len(name) > 0 && (s.kind == sModule || s.kind == sClass) && vars {
		key := string(name)
		if s.kind == sClass {
			key = s.cls.name + "." + key
		}
		v.tgt = &target{path: s.mod.path, name: key}
	}
	b.state, b.v = 2, v
	return v
}

// overloads returns the function a name's several defs define when
// that is all they do (typing.overload, @x.setter): the property getter
// if there is one, else the last, the implementation; nil otherwise.
func (b *binding) overloads() *function {
	if len(b.defs) == 0 {
		return nil
	}
	var prop, last *function
	ok := true
	b.each(func(d def) bool {
		if d.kind != dFunc {
			ok = false
			return false
		}
		if d.fn.prop && prop == nil {
			prop = d.fn
		}
		last = d.fn
		return true
	})
	if !ok {
		return nil
	}
	if prop != nil {
		return prop
	}
	return last
}

// defVal is the value one definition gives its name.
func (st *state) defVal(d def, depth int) val {
	switch d.kind {
	case dFunc:
		return val{k: vFunc, fn: d.fn, tgt: &d.fn.tgt}
	case dClass:
		return val{k: vClass, cls: d.cls, tgt: &d.cls.tgt}
	case dImport:
		return st.importVal(d, depth)
	case dImportFrom:
		return st.importFromVal(d, depth)
	case dExpr:
		return st.exprType(d.sc, d.a, d.b, depth)
	case dAnn:
		return st.annType(d.sc, d.a, d.b, depth)
	case dWith:
		v := st.exprType(d.sc, d.a, d.b, depth)
		if v.k == vInstance {
			// with Cls() as x: what __enter__ returns, when it says.
			if e := st.member(v.cls, []byte("__enter__"), true, depth); e.k == vFunc && e.fn.ret[1] > e.fn.ret[0] {
				return st.callVal(e, v.cls, depth)
			}
			v.tgt = nil
			return v
		}
		return unknown
	case dExcept:
		if v := st.exprType(d.sc, d.a, d.b, depth); v.k == vClass {
			return val{k: vInstance, cls: v.cls}
		}
		return unknown
	case dParam:
		return st.paramVal(d.fn, d.param, depth)
	}
	return unknown
}

// paramVal is what a parameter is known to be: a method's first the
// instance (the class for a classmethod), the others their annotation.
func (st *state) paramVal(fn *function, i int, depth int) val {
	p := fn.params[i]
	if i == 0 && fn.cls != nil && !fn.static && !p.star {
		if fn.clsm || fn.name == "__new__" || fn.name == "__init_subclass__" || fn.name == "__class_getitem__" {
			return val{k: vClass, cls: fn.cls}
		}
		return val{k: vInstance, cls: fn.cls}
	}
	if p.star || p.ann[1] <= p.ann[0] {
		return unknown
	}
	return st.annType(fn.outer, p.ann[0], p.ann[1], depth)
}

// importVal is the value of `import spec [as x]`: the module itself with
// an alias, else its top-level package.
func (st *state) importVal(d def, depth int) val {
	m, pkg, ok := st.module(d.sc.mod, d.spec)
	if !ok {
		return unknown
	}
	if d.alias {
		return modVal(m, pkg)
	}
	// import a.b.c binds a: the package at the root a.b.c was found
	// under.
	n := strings.Count(d.spec, ".")
	dir := pkg
	if dir == "" && m != nil {
		dir = strings.TrimSuffix(strings.TrimSuffix(m.path, ".pyi"), ".py")
	}
	for range n {
		dir = dirOf(dir)
	}
	return st.packageVal(dir)
}

// importFromVal is the value of `from spec import name`: the name as the
// module binds it, else the submodule of that name.
func (st *state) importFromVal(d def, depth int) val {
	from := d.sc.mod
	if m, pkg, ok := st.module(from, d.spec); ok {
		if v := st.moduleAttr(m, pkg, []byte(d.name), depth); v.found() {
			return v
		}
	}
	sub := d.spec + "." + d.name
	if strings.Trim(d.spec, ".") == "" {
		sub = d.spec + d.name
	}
	if m, pkg, ok := st.module(from, sub); ok {
		return modVal(m, pkg)
	}
	return unknown
}

func modVal(m *module, pkg string) val { return val{k: vModule, mod: m, pkg: pkg} }

// packageVal is the package in folder dir: its __init__ if it has one.
func (st *state) packageVal(dir string) val {
	for _, f := range []string{dir + "/__init__.py", dir + "/__init__.pyi"} {
		if st.files[f] {
			return modVal(st.load(f), dir)
		}
	}
	if st.dirs[dir] {
		return modVal(nil, dir)
	}
	return unknown
}

// moduleAttr is name as an attribute of a module: what the module binds
// at its top level, else its submodule.
func (st *state) moduleAttr(m *module, pkg string, name []byte, depth int) val {
	if depth > maxDepth {
		return unknown
	}
	if m != nil {
		v := st.lookupTop(m, name, depth+1)
		if v.found() {
			return v
		}
	}
	if pkg != "" {
		dir := pkg + "/" + string(name)
		for _, f := range []string{dir + ".py", dir + ".pyi"} {
			if st.files[f] {
				return modVal(st.load(f), "")
			}
		}
		return st.packageVal(dir)
	}
	return unknown
}

// lookupTop looks name up in a module's top-level scope and star imports.
func (st *state) lookupTop(m *module, name []byte, depth int) val {
	if m.top == nil {
		return unknown
	}
	return st.lookup(m.top, name, depth)
}

// member looks a class's attribute up along its bases, instance
// attributes last; unknown as soon as a base the project does not
// define is reached before it is found.
func (st *state) member(c *class, name []byte, instance bool, depth int) val {
	if depth > maxDepth {
		return unknown
	}
	mro := st.mro(c, depth)
	for _, k := range mro {
		if k == nil {
			return unknown
		}
		if b := k.body.names[string(name)]; b != nil {
			v := st.resolve(k.body, name, b, depth+1)
			if instance && v.k == vFunc && !v.fn.prop && assigned(mro, name) {
				// self.send = wrapper in a method: on an instance the
				// attribute hides the method (a property, a data
				// descriptor, it would not), so which is called is not
				// known.
				return unknown
			}
			if v.k == vFunc && v.fn.prop && instance {
				// A property is read, not called: its value is what it
				// returns.
				w := st.callVal(v, c, depth+1)
				w.tgt = v.tgt
				return w
			}
			return v
		}
	}
	if instance {
		for _, k := range mro {
			if k == nil {
				return unknown
			}
			if b := k.attrs[string(name)]; b != nil {
				v := st.resolve(k.body, nil, b, depth+1)
				v.tgt = nil
				return v
			}
		}
	}
	return unknown
}

// assigned reports whether a method of one of the classes assigns the
// instance attribute name.
func assigned(mro []*class, name []byte) bool {
	for _, k := range mro {
		if k != nil && k.attrs[string(name)] != nil {
			return true
		}
	}
	return false
}

// mro is the class and its bases, depth first, each once; a nil marks a
// base the project does not define, past which nothing is known.
func (st *state) mro(c *class, depth int) []*class {
	if c.state == 2 {
		return c.mro
	}
	if c.state == 1 || depth > maxDepth {
		return []*class{c, nil}
	}
	c.state = 1
	out := []*class{c}
	for _, r := range c.bases {
		v := st.exprType(c.outer, r[0], r[1], depth+1)
		if v.k != vClass {
			if isObject(c.mod, r[0], r[1]) {
				continue
			}
			out = append(out, nil)
			break
		}
		base := st.mro(v.cls, depth+1)
		for _, k := range base {
			if k == nil || !contains(out, k) {
				out = append(out, k)
			}
		}
		if out[len(out)-1] == nil {
			break
		}
	}
	c.mro, c.state = out, 2
	return out
}

// isObject reports whether a base is `object`, which adds nothing a
// project method could be confused with.
func isObject(m *module, a, b int) bool { return b == a+1 && m.x.is(a, "object") }

func contains(cs []*class, c *class) bool {
	for _, k := range cs {
		if k == c {
			return true
		}
	}
	return false
}

// attr is the attribute name of v.
func (st *state) attr(v val, name []byte, depth int) val {
	switch v.k {
	case vModule:
		return st.moduleAttr(v.mod, v.pkg, name, depth+1)
	case vClass:
		return st.member(v.cls, name, false, depth+1)
	case vInstance:
		return st.member(v.cls, name, true, depth+1)
	case vSuper:
		mro := st.mro(v.cls, depth+1)
		if len(mro) < 2 || mro[1] == nil {
			return unknown
		}
		return st.member(mro[1], name, true, depth+1)
	}
	return unknown
}

// call is the value of calling v: a class's instance, what a function's
// annotation says it returns.
func (st *state) call(v val, depth int) val {
	switch v.k {
	case vClass:
		return val{k: vInstance, cls: v.cls}
	case vFunc:
		return st.callVal(v, v.fn.cls, depth)
	case vSuper:
		return v
	}
	return unknown
}

// callVal is what calling fn returns by its annotation; self is the
// class Self and the class's own name stand for.
func (st *state) callVal(v val, self *class, depth int) val {
	fn := v.fn
	if fn.ret[1] <= fn.ret[0] {
		return unknown
	}
	x := fn.mod.x
	if fn.ret[1] == fn.ret[0]+1 && x.is(fn.ret[0], "Self") && self != nil {
		return val{k: vInstance, cls: self}
	}
	w := st.annType(fn.outer, fn.ret[0], fn.ret[1], depth+1)
	return w
}

// chain evaluates the primary expression that starts with the name at
// toks[i] and runs no further than b: names, attributes, calls,
// subscripts. emit, when set, sees each name and what it resolved to.
// It returns the value and the index after the expression.
func (st *state) chain(sc *scope, i, b int, depth int, emit func(i int, v val)) (val, int) {
	x := sc.mod.x
	v := st.lookup(sc, x.name(i), depth+1)
	if emit != nil {
		emit(i, v)
	}
	i++
	for i < b {
		switch {
		case x.op(i, '.') && i+1 < b && x.isName(i+1):
			v = st.attr(v, x.name(i+1), depth+1)
			if emit != nil {
				emit(i+1, v)
			}
			i += 2
		case x.op(i, '('):
			v = st.call(v, depth+1)
			i = x.close(i, b) + 1
		case x.op(i, '['):
			// Cls[T] is still the class (generics); anything else
			// indexed is unknown.
			if v.k != vClass {
				v = unknown
			}
			v.tgt = nil
			i = x.close(i, b) + 1
		default:
			return v, i
		}
		if v.k == vUnknown && emit == nil {
			return v, b
		}
	}
	return v, i
}

// exprType is the value of the expression toks[a:b] when it is one
// primary expression (optionally awaited), unknown otherwise.
func (st *state) exprType(sc *scope, a, b int, depth int) val {
	x := sc.mod.x
	if x.is(a, "await") {
		a++
	}
	if a >= b {
		return unknown
	}
	if b == a+1 && x.is(a, "None") {
		return val{k: vNone}
	}
	if !x.isName(a) || x.keyword(a) {
		return unknown
	}
	v, e := st.chain(sc, a, b, depth+1, nil)
	if e != b {
		return unknown
	}
	return v
}

// annType is the type an annotation toks[a:b] states: a project class,
// also written "Cls", Optional[Cls], Cls | None, Union[Cls, None] or
// type[Cls] (the class itself); unknown for anything else.
func (st *state) annType(sc *scope, a, b int, depth int) val {
	x := sc.mod.x
	if a >= b || depth > maxDepth {
		return unknown
	}
	if b == a+1 && x.toks[a].kind == tStr {
		return st.quotedType(sc, a, depth)
	}
	// X | None, None | X.
	if parts := x.split(a, b, '|'); len(parts) > 1 {
		return st.oneOf(sc, parts, depth)
	}
	// Optional[X], Union[X, None], type[X], typing.Optional[X].
	open := -1
	for i := a; i < b; i++ {
		if x.op(i, '[') {
			open = i
			break
		}
	}
	if open > a && x.close(open, b) == b-1 {
		head := x.text(open - 1)
		switch head {
		case "Optional":
			return st.annType(sc, open+1, b-1, depth+1)
		case "Union":
			return st.oneOf(sc, x.split(open+1, b-1, ','), depth)
		case "type", "Type":
			if v := st.annType(sc, open+1, b-1, depth+1); v.k == vInstance {
				return val{k: vClass, cls: v.cls}
			}
		case "Annotated":
			if parts := x.split(open+1, b-1, ','); len(parts) > 0 {
				return st.annType(sc, parts[0][0], parts[0][1], depth+1)
			}
		}
		// A project's generic class: Box[int] is a Box.
		if v := st.exprType(sc, a, open, depth+1); v.k == vClass {
			return val{k: vInstance, cls: v.cls}
		}
		return unknown
	}
	v := st.exprType(sc, a, b, depth+1)
	if v.k == vClass {
		return val{k: vInstance, cls: v.cls}
	}
	return unknown
}

// oneOf is the one class among alternatives, None left out.
func (st *state) oneOf(sc *scope, parts [][2]int, depth int) val {
	x := sc.mod.x
	var out val
	n := 0
	for _, p := range parts {
		if p[1] == p[0]+1 && x.is(p[0], "None") {
			continue
		}
		out = st.annType(sc, p[0], p[1], depth+1)
		n++
	}
	if n != 1 {
		return unknown
	}
	return out
}

// quotedType reads a forward reference, "Cls", "mod.Cls" or
// "Cls | None": a type written in a string, whose contents the masked
// code hides.
func (st *state) quotedType(sc *scope, i int, depth int) val {
	var out val
	n := 0
	for _, q := range quoted(sc.mod, i) {
		if q.none {
			continue
		}
		n++
		v := st.lookup(sc, []byte(q.parts[0]), depth+1)
		for _, p := range q.parts[1:] {
			v = st.attr(v, []byte(p), depth+1)
		}
		if v.k != vClass {
			return unknown
		}
		out = val{k: vInstance, cls: v.cls}
	}
	if n != 1 {
		return unknown
	}
	return out
}

// quotedName is one alternative of a type written in a string: a dotted
// name, its parts' offsets in the file.
type quotedName struct {
	parts []string
	offs  []int
	none  bool
}

// quoted reads the string token i as a type: dotted names separated by
// |; nil when it is anything else.
func quoted(m *module, i int) []quotedName {
	t := m.x.toks[i]
	a, b := int(t.a), int(t.end())
	for a < b && m.src[a] != '"' && m.src[a] != '\'' {
		if m.src[a] != 'r' && m.src[a] != 'R' {
			return nil // b"", f"": not a type
		}
		a++
	}
	if b-a < 2 || m.src[a] != m.src[b-1] || b-a >= 200 {
		return nil
	}
	var out []quotedName
	start := a + 1
	for _, alt := range strings.Split(string(m.src[a+1:b-1]), "|") {
		off := start
		start += len(alt) + 1
		lead := len(alt) - len(strings.TrimLeft(alt, " "))
		alt = strings.TrimSpace(alt)
		off += lead
		if alt == "None" {
			out = append(out, quotedName{none: true})
			continue
		}
		var q quotedName
		for _, p := range strings.Split(alt, ".") {
			if !validName(p) {
				return nil
			}
			q.parts = append(q.parts, p)
			q.offs = append(q.offs, off)
			off += len(p) + 1
		}
		out = append(out, q)
	}
	return out
}

func validName(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdent(s[i]) {
			return false
		}
	}
	return true
}
