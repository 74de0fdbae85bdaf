package scripts

// Value kinds.
const (
	vUnknown = iota
	vModule  // a module namespace: import * as ns
	vClass
	vInstance
	vFunc
	vSuper // super: members are looked up past cls
)

// val is what an expression is known to be, and the definition it names
// when it names one.
type val struct {
	k   int
	mod *module
	cls *class
	fn  *function
	tgt *target
}

// target is a symbol key: the defining file and the qualified name;
// known caches whether the facts hold it (0 not asked, 1 yes, 2 no).
type target struct {
	path, name string
	known      int8
}

var unknown = val{}

func (v val) found() bool { return v.k != vUnknown || v.tgt != nil }

const maxDepth = 64

// lookup resolves a name used in scope sc; class bodies are not seen
// from the functions inside them.
func (st *state) lookup(sc *scope, name []byte, depth int) val {
	if depth > maxDepth {
		return unknown
	}
	start := sc
	for s := sc; s != nil; s = s.parent {
		if s.kind == sClass && s != start {
			continue
		}
		if b := s.names[string(name)]; b != nil {
			return st.resolve(s, name, b, depth+1)
		}
		if s.kind == sModule {
			for _, spec := range s.stars {
				if m := st.module(s.mod, spec); m != nil {
					if v := st.moduleAttr(m, name, depth+1); v.found() {
						return v
					}
				}
			}
		}
	}
	switch string(name) {
	case "this":
		if f := funcScope(sc); f != nil && f.this != nil {
			if f.static {
				return val{k: vClass, cls: f.this}
			}
			return val{k: vInstance, cls: f.this}
		}
	case "super":
		if f := funcScope(sc); f != nil && f.this != nil {
			return val{k: vSuper, cls: f.this}
		}
	}
	return unknown
}

// resolve returns the value a binding's definitions agree on.
func (st *state) resolve(s *scope, name []byte, b *binding, depth int) val {
	switch b.state {
	case 2:
		return b.v
	case 1:
		return unknown
	}
	b.state = 1
	v, set, vars := unknown, false, true
	for _, d := range b.defs {
		vars = vars && (d.kind == dExpr || d.kind == dAnn || d.kind == dUnknown)
		w := st.defVal(d, depth)
		switch d.kind {
		case dFunc, dClass, dImportFrom, dAlias, dDecl:
		default:
			w.tgt = nil
		}
		if set && w != v {
			v = unknown
			break
		}
		v, set = w, true
	}
	// A module's variable, a class's field: definitions of their own.
	if v.tgt == nil && len(name) > 0 && vars && (s.kind == sModule || s.kind == sClass) {
		key := string(name)
		if s.kind == sClass {
			key = s.cls.name + "." + key
		}
		v.tgt = &target{path: s.mod.path, name: key}
	}
	b.state, b.v = 2, v
	return v
}

func (st *state) defVal(d def, depth int) val {
	switch d.kind {
	case dFunc:
		return val{k: vFunc, fn: d.fn, tgt: &d.fn.tgt}
	case dClass:
		return val{k: vClass, cls: d.cls, tgt: &d.cls.tgt}
	case dDecl:
		return val{tgt: &target{path: d.sc.mod.path, name: d.name}}
	case dNamespace:
		if m := st.module(d.sc.mod, d.spec); m != nil {
			return val{k: vModule, mod: m}
		}
	case dImportFrom:
		if m := st.module(d.sc.mod, d.spec); m != nil {
			return st.moduleAttr(m, []byte(d.name), depth+1)
		}
	case dAlias:
		return st.lookup(d.sc, []byte(d.name), depth+1)
	case dExpr:
		return st.exprType(d.sc, d.a, d.b, depth)
	case dAnn:
		return st.annType(d.sc, d.a, d.b, depth)
	}
	return unknown
}

// moduleAttr is what a module binds at its top level under name.
func (st *state) moduleAttr(m *module, name []byte, depth int) val {
	if depth > maxDepth || m.top == nil {
		return unknown
	}
	return st.lookup(m.top, name, depth+1)
}

// member looks an attribute up along a class and the classes it
// extends, instance attributes last; unknown past a base the project
// does not define.
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
			if v.k == vFunc && v.fn.get {
				w := st.callVal(v.fn, c, depth+1)
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

// mro is the class and the classes it extends; a nil marks a base the
// project does not define.
func (st *state) mro(c *class, depth int) []*class {
	if c.state == 2 {
		return c.mro
	}
	if c.state == 1 || depth > maxDepth {
		return []*class{c, nil}
	}
	c.state = 1
	out := []*class{c}
	if c.base[1] > c.base[0] {
		v := st.exprType(c.outer, c.base[0], c.base[1], depth+1)
		if v.k == vClass {
			out = append(out, st.mro(v.cls, depth+1)...)
		} else {
			out = append(out, nil)
		}
	}
	c.mro, c.state = out, 2
	return out
}

func (st *state) attr(v val, name []byte, depth int) val {
	switch v.k {
	case vModule:
		return st.moduleAttr(v.mod, name, depth+1)
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

// call is the value of calling v: a class constructs (with or without
// new), a function returns what its annotation says.
func (st *state) call(v val, depth int) val {
	switch v.k {
	case vClass:
		return val{k: vInstance, cls: v.cls}
	case vFunc:
		return st.callVal(v.fn, v.fn.cls, depth)
	}
	return unknown
}

func (st *state) callVal(fn *function, self *class, depth int) val {
	if fn.ret[1] <= fn.ret[0] {
		return unknown
	}
	x := fn.mod.x
	if fn.ret[1] == fn.ret[0]+1 && x.is(fn.ret[0], "this") && self != nil {
		return val{k: vInstance, cls: self}
	}
	return st.annType(fn.outer, fn.ret[0], fn.ret[1], depth+1)
}

// chain evaluates the member expression that starts with the name at
// toks[i]: names, members (. and ?.), calls, indexing, non-null !.
func (st *state) chain(sc *scope, i, b int, depth int, emit func(i int, v val)) (val, int) {
	x := sc.mod.x
	v := st.lookup(sc, x.name(i), depth+1)
	if emit != nil {
		emit(i, v)
	}
	i++
	for i < b {
		switch {
		case x.dot(i) && i+1 < b && x.isName(i+1):
			v = st.attr(v, x.name(i+1), depth+1)
			if emit != nil {
				emit(i+1, v)
			}
			i += 2
		case x.op(i, '!') && !x.op(i+1, '='):
			i++
		case x.op(i, '('):
			v = st.call(v, depth+1)
			i = x.close(i, b) + 1
		case x.is(i, "?.") && x.op(i+1, '('):
			v = st.call(v, depth+1)
			i = x.close(i+1, b) + 1
		case x.op(i, '<') && v.k == vClass:
			// new Box<T>(): type arguments.
			e := i + 1
			for e < b && !x.op(e, '>') && !x.op(e, ';') {
				e++
			}
			if !x.op(e+1, '(') {
				return v, i
			}
			i = e + 1
		case x.op(i, '['):
			v = unknown
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

// exprType is the value of toks[a:b] when it is one member expression,
// optionally after new or await, or cast with as.
func (st *state) exprType(sc *scope, a, b int, depth int) val {
	x := sc.mod.x
	if x.is(a, "await") || x.is(a, "new") {
		a++
	}
	if a >= b || !x.isName(a) || keywords[string(x.name(a))] && !x.is(a, "this") {
		return unknown
	}
	v, e := st.chain(sc, a, b, depth+1, nil)
	if e < b && x.is(e, "as") {
		return st.annType(sc, e+1, b, depth+1)
	}
	if e != b {
		return unknown
	}
	return v
}

// annType is the class a type annotation states: Cls, ns.Cls, Cls<T>,
// Cls | null | undefined; unknown for anything else.
func (st *state) annType(sc *scope, a, b int, depth int) val {
	x := sc.mod.x
	if a >= b || depth > maxDepth {
		return unknown
	}
	var out val
	n := 0
	from := a
	for i := a; i <= b; i++ {
		if i < b && !x.op(i, '|') {
			if x.op(i, '(') || x.op(i, '[') || x.op(i, '{') {
				i = x.close(i, b)
			}
			continue
		}
		if i == from {
			from = i + 1
			continue
		}
		if i == from+1 && (x.is(from, "null") || x.is(from, "undefined")) {
			from = i + 1
			continue
		}
		n++
		e := i
		for k := from; k < i; k++ {
			if x.op(k, '<') {
				e = k
				break
			}
		}
		v := unknown
		if x.isName(from) && !keywords[string(x.name(from))] {
			w, end := st.chain(sc, from, e, depth+1, nil)
			if end == e && w.k == vClass {
				v = val{k: vInstance, cls: w.cls}
			}
		}
		out = v
		from = i + 1
	}
	if n != 1 {
		return unknown
	}
	return out
}
