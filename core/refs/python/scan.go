package python

import "strings"

// Scope kinds.
const (
	sModule = iota
	sClass
	sFunc
)

// scope is a module, a class body or a function: the names bound in it,
// each with every definition the code gives it. Python binds a name for
// the whole of its scope, wherever the assignment sits, so the
// definitions are gathered first (scan) and resolved when a use asks.
type scope struct {
	kind    int
	mod     *module
	parent  *scope
	cls     *class    // sClass: the class; sFunc: the class of a method
	fn      *function // sFunc
	names   map[string]*binding
	globals map[string]bool // global or nonlocal: not bound here
	stars   []string        // module: from m import *
}

// Definition kinds.
const (
	dUnknown = iota
	dFunc
	dClass
	dImport     // import a.b [as x]: spec; alias says whether x names a.b itself
	dImportFrom // from spec import name
	dExpr       // name = expr
	dAnn        // name: annotation
	dWith       // with expr as name
	dExcept     // except E as name
	dParam      // a function's parameter
)

// def is one definition of a name.
type def struct {
	kind  int
	sc    *scope // where the expression or annotation is evaluated
	a, b  int    // its tokens
	spec  string
	name  string
	alias bool
	fn    *function
	cls   *class
	param int
}

// binding is a name's definitions in one scope and, once asked, the
// value they agree on. Most names have one definition, held in one; defs
// holds the others.
type binding struct {
	one   def
	defs  []def
	state int8 // 0 not resolved, 1 resolving, 2 done
	v     val
}

// class is a class definition.
type class struct {
	mod   *module
	name  string
	key   string // the symbol's qualified name
	tgt   target // where it is defined: its file and key
	body  *scope
	outer *scope // where its bases are evaluated
	bases [][2]int
	// attrs are the instance attributes its methods assign (self.x = ...).
	attrs map[string]*binding
	mro   []*class // nil until computed; a nil element: an unknown base
	state int8
}

// function is a def.
type function struct {
	mod    *module
	name   string
	key    string
	tgt    target
	cls    *class // a method's class
	outer  *scope // where annotations and defaults are evaluated
	body   *scope
	params []param
	ret    [2]int // the return annotation's tokens; empty when none
	static bool
	clsm   bool // classmethod: the first parameter is the class
	prop   bool
}

type param struct {
	name string
	ann  [2]int
	star bool
}

func newScope(kind int, m *module, parent *scope) *scope {
	return &scope{kind: kind, mod: m, parent: parent, names: map[string]*binding{}}
}

func (s *scope) bind(name string, d def) {
	if s.globals[name] {
		if s.kind == sFunc {
			// global x: the assignment binds the module's x.
			for s.parent != nil {
				s = s.parent
			}
			d = def{kind: dUnknown}
		}
	}
	b := s.names[name]
	if b == nil {
		s.names[name] = &binding{one: d}
		return
	}
	b.defs = append(b.defs, d)
}

// each calls fn with each definition of b.
func (b *binding) each(fn func(d def) bool) {
	if !fn(b.one) {
		return
	}
	for _, d := range b.defs {
		if !fn(d) {
			return
		}
	}
}

// scan gathers the scopes of a module and the definitions of each name.
func (m *module) scan() {
	x := m.x
	m.top = newScope(sModule, m, nil)
	m.stmtScope = make([]*scope, len(x.stmts))
	type frame struct {
		indent int
		sc     *scope
	}
	stack := []frame{{-1, m.top}}
	var decos []string
	for k, s := range x.stmts {
		for len(stack) > 1 && stack[len(stack)-1].indent >= s.indent {
			stack = stack[:len(stack)-1]
		}
		sc := stack[len(stack)-1].sc
		m.stmtScope[k] = sc
		a := s.a
		if x.is(a, "async") {
			a++
		}
		switch {
		case x.op(a, '@'):
			if j := s.b - 1; x.isName(j) {
				decos = append(decos, x.text(j))
			} else if i := s.a + 1; x.isName(i) {
				// @name(args) or @a.b(args): the last name before the call.
				for i+2 < s.b && x.op(i+1, '.') && x.isName(i+2) {
					i += 2
				}
				decos = append(decos, x.text(i))
			}
			continue
		case x.is(a, "def") && x.isName(a+1):
			fn := m.scanDef(sc, s, a, decos)
			stack = append(stack, frame{s.indent, fn.body})
		case x.is(a, "class") && x.isName(a+1):
			c := m.scanClass(sc, s, a)
			stack = append(stack, frame{s.indent, c.body})
		case x.is(a, "import"):
			m.scanImport(sc, a+1, s.b)
		case x.is(a, "from"):
			m.scanFrom(sc, a+1, s.b)
		case x.is(a, "global") || x.is(a, "nonlocal"):
			if sc.globals == nil {
				sc.globals = map[string]bool{}
			}
			for i := a + 1; i < s.b; i++ {
				if x.isName(i) {
					sc.globals[x.text(i)] = true
				}
			}
		case x.is(a, "for"):
			for i := a + 1; i < s.b && !x.is(i, "in"); i++ {
				if x.isName(i) {
					sc.bind(x.text(i), def{kind: dUnknown})
				}
			}
		case x.is(a, "with"):
			m.scanWith(sc, a+1, s.b)
		case x.is(a, "except"):
			m.scanExcept(sc, a+1, s.b)
		default:
			m.scanAssign(sc, s)
		}
		decos = decos[:0]
		if s.walrus {
			m.scanWalrus(sc, s.a, s.b)
		}
	}
}

// scanDef records a def and its parameters.
func (m *module) scanDef(sc *scope, s stmt, a int, decos []string) *function {
	x := m.x
	fn := &function{mod: m, name: x.text(a + 1), outer: sc}
	fn.key = fn.name
	if sc.kind == sClass {
		fn.cls = sc.cls
		fn.key = sc.cls.name + "." + fn.name
	}
	for _, d := range decos {
		switch d {
		case "staticmethod":
			fn.static = true
		case "classmethod":
			fn.clsm = true
		case "property", "cached_property":
			fn.prop = true
		}
	}
	fn.tgt = target{path: m.path, name: fn.key}
	fn.body = newScope(sFunc, m, sc)
	fn.body.fn = fn
	fn.body.cls = fn.cls
	open := a + 2
	if x.op(open, '[') { // def f[T](...): type parameters
		open = x.close(open, s.b) + 1
	}
	if x.op(open, '(') {
		cl := x.close(open, s.b)
		for _, r := range x.split(open+1, cl, ',') {
			i := r[0]
			star := false
			for i < r[1] && (x.op(i, '*') || x.is(i, "**")) {
				i, star = i+1, true
			}
			if !x.isName(i) {
				continue
			}
			p := param{name: x.text(i), star: star}
			if x.op(i+1, ':') {
				e := r[1]
				for j := i + 2; j < r[1]; j++ {
					if x.op(j, '=') {
						e = j
						break
					}
				}
				p.ann = [2]int{i + 2, e}
			}
			fn.body.bind(p.name, def{kind: dParam, fn: fn, param: len(fn.params)})
			fn.params = append(fn.params, p)
		}
		for j := cl + 1; j < s.b; j++ {
			if x.is(j, "->") {
				fn.ret = [2]int{j + 1, s.b - 1}
				break
			}
		}
	}
	sc.bind(fn.name, def{kind: dFunc, fn: fn})
	return fn
}

// scanClass records a class and its bases.
func (m *module) scanClass(sc *scope, s stmt, a int) *class {
	x := m.x
	c := &class{mod: m, name: x.text(a + 1), outer: sc, attrs: map[string]*binding{}}
	c.key = c.name
	if sc.kind == sClass {
		c.key = sc.cls.name + "." + c.name
	}
	c.tgt = target{path: m.path, name: c.key}
	c.body = newScope(sClass, m, sc)
	c.body.cls = c
	open := a + 2
	if x.op(open, '[') {
		open = x.close(open, s.b) + 1
	}
	if x.op(open, '(') {
		cl := x.close(open, s.b)
		for _, r := range x.split(open+1, cl, ',') {
			if r[0] < r[1] && !(x.isName(r[0]) && x.op(r[0]+1, '=')) && !x.op(r[0], '*') && !x.is(r[0], "**") {
				c.bases = append(c.bases, r)
			}
		}
	}
	sc.bind(c.name, def{kind: dClass, cls: c})
	return c
}

// scanImport records `import a.b.c [as x], ...`.
func (m *module) scanImport(sc *scope, a, b int) {
	x := m.x
	for _, r := range x.split(a, b, ',') {
		spec, i := m.dotted(r[0], r[1])
		if spec == "" {
			continue
		}
		if x.is(i, "as") && x.isName(i+1) {
			sc.bind(x.text(i+1), def{kind: dImport, sc: sc, spec: spec, alias: true})
		} else {
			first, _, _ := strings.Cut(spec, ".")
			sc.bind(first, def{kind: dImport, sc: sc, spec: spec})
		}
	}
}

// scanFrom records `from spec import a [as b], ...` and star imports.
func (m *module) scanFrom(sc *scope, a, b int) {
	x := m.x
	dots := ""
	for a < b && (x.op(a, '.') || x.is(a, "...")) {
		dots += x.text(a)
		a++
	}
	spec, i := "", a
	if !x.is(a, "import") {
		spec, i = m.dotted(a, b)
	}
	spec = dots + spec
	if spec == "" || !x.is(i, "import") {
		return
	}
	i++
	if x.op(i, '(') {
		b = x.close(i, b)
		i++
	}
	if x.op(i, '*') {
		sc.stars = append(sc.stars, spec)
		return
	}
	for _, r := range x.split(i, b, ',') {
		if !x.isName(r[0]) {
			continue
		}
		name, as := x.text(r[0]), x.text(r[0])
		if x.is(r[0]+1, "as") && x.isName(r[0]+2) {
			as = x.text(r[0] + 2)
		}
		sc.bind(as, def{kind: dImportFrom, sc: sc, spec: spec, name: name})
	}
}

// dotted reads a dotted name from toks[a:b]; it returns it and the index
// after it.
func (m *module) dotted(a, b int) (string, int) {
	x := m.x
	var sb strings.Builder
	i := a
	for i < b && x.isName(i) {
		sb.WriteString(x.text(i))
		if i+2 < b && x.op(i+1, '.') && x.isName(i+2) {
			sb.WriteByte('.')
			i += 2
			continue
		}
		i++
		break
	}
	return sb.String(), i
}

// scanWith records `with expr as name, ...`.
func (m *module) scanWith(sc *scope, a, b int) {
	x := m.x
	if x.op(b-1, ':') {
		b--
	}
	if x.op(a, '(') && x.close(a, b) == b-1 {
		a, b = a+1, b-1
	}
	for _, r := range x.split(a, b, ',') {
		for i := r[0]; i < r[1]; i++ {
			if x.is(i, "as") {
				if x.isName(i+1) && i+2 == r[1] {
					sc.bind(x.text(i+1), def{kind: dWith, sc: sc, a: r[0], b: i})
				} else {
					m.bindNames(sc, i+1, r[1])
				}
				break
			}
		}
	}
}

// scanExcept records `except E as name`.
func (m *module) scanExcept(sc *scope, a, b int) {
	x := m.x
	for i := a; i < b; i++ {
		if x.is(i, "as") && x.isName(i+1) {
			sc.bind(x.text(i+1), def{kind: dExcept, sc: sc, a: a, b: i})
			return
		}
	}
}

// bindNames binds every name a target list toks[a:b] assigns (not those
// reached through an attribute or an index) to an unknown value.
func (m *module) bindNames(sc *scope, a, b int) {
	x := m.x
	for i := a; i < b; i++ {
		// What a call or a subscript holds is read, not assigned.
		if (x.op(i, '(') || x.op(i, '[')) && i > a && (x.isName(i-1) || x.op(i-1, ')') || x.op(i-1, ']')) {
			i = x.close(i, b)
			continue
		}
		if x.isName(i) && !x.op(i-1, '.') && !x.op(i+1, '.') && !x.op(i+1, '(') && !x.op(i+1, '[') && !x.keyword(i) {
			sc.bind(x.text(i), def{kind: dUnknown})
		}
	}
}

// scanAssign records the names a statement assigns: `a = b = expr`,
// `a: T = expr`, `a, b = ...`, `a += 1`, and `self.x = expr` in a
// method, an attribute of the method's class.
func (m *module) scanAssign(sc *scope, s stmt) {
	x := m.x
	a, b := s.a, s.b
	if !s.eq {
		// x: T, or x += 1.
		if x.isName(a) && x.op(a+1, ':') {
			m.bindTarget(sc, a, a+1, def{kind: dAnn, sc: sc, a: a + 2, b: b})
		} else if x.isName(a) && a+1 < b && x.toks[a+1].kind == tOp && x.code[x.toks[a+1].end()-1] == '=' && x.toks[a+1].n >= 2 && !x.is(a+1, "==") && !x.is(a+1, "!=") && !x.is(a+1, "<=") && !x.is(a+1, ">=") {
			sc.bind(x.text(a), def{kind: dUnknown})
		} else if x.op(a+1, '.') && x.isName(a+2) && x.op(a+3, ':') {
			m.bindTarget(sc, a, a+3, def{kind: dAnn, sc: sc, a: a + 4, b: b})
		}
		return
	}
	x.buf = x.splitInto(x.buf[:0], a, b, '=')
	parts := x.buf
	val := parts[len(parts)-1]
	for _, t := range parts[:len(parts)-1] {
		d := def{kind: dExpr, sc: sc, a: val[0], b: val[1]}
		e := t[1]
		// x: T = v: the annotation states the type.
		for i := t[0]; i < t[1]; i++ {
			if x.op(i, ':') {
				d = def{kind: dAnn, sc: sc, a: i + 1, b: t[1]}
				e = i
				break
			}
		}
		m.bindTarget(sc, t[0], e, d)
	}
}

// bindTarget binds the target toks[a:b] of an assignment to d: a name,
// self.attr in a method, or a list of names, each then unknown.
func (m *module) bindTarget(sc *scope, a, b int, d def) {
	x := m.x
	switch {
	case b == a+1 && x.isName(a):
		sc.bind(x.text(a), d)
	case b == a+3 && x.isName(a) && x.op(a+1, '.') && x.isName(a+2):
		if fn := sc.fn; fn != nil && fn.cls != nil && !fn.static && !fn.clsm && len(fn.params) > 0 && fn.params[0].name == string(x.name(a)) {
			c := fn.cls
			name := x.text(a + 2)
			if bd := c.attrs[name]; bd == nil {
				c.attrs[name] = &binding{one: d}
			} else {
				bd.defs = append(bd.defs, d)
			}
		}
	default:
		m.bindNames(sc, a, b)
	}
}

// scanWalrus binds the targets of `name := expr` in a statement.
func (m *module) scanWalrus(sc *scope, a, b int) {
	x := m.x
	for i := a + 1; i < b; i++ {
		if x.is(i, ":=") && x.isName(i-1) {
			// In a comprehension it binds in the enclosing function:
			// here, unknown either way.
			sc.bind(x.text(i-1), def{kind: dUnknown})
		}
	}
}

// keywords are Python's reserved words and soft keywords that never name
// a definition.
var keywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true, "async": true, "await": true,
	"break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true, "else": true, "except": true,
	"finally": true, "for": true, "from": true, "global": true, "if": true, "import": true, "in": true, "is": true,
	"lambda": true, "nonlocal": true, "not": true, "or": true, "pass": true, "raise": true, "return": true, "try": true,
	"while": true, "with": true, "yield": true,
}
