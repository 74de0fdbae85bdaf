package scripts

// Scope kinds.
const (
	sModule = iota
	sClass
	sFunc
)

// scope is a module, a class body or a function (arrows included): the
// names declared in it with each of their definitions. A let or const of
// an inner block is counted as the function's, which can only make a name
// unknown, never resolve it wrongly.
type scope struct {
	kind   int
	mod    *module
	parent *scope
	cls    *class // sClass: the class
	names  map[string]*binding
	stars  []string // export * from
	// this is what `this` is in a function: the instance in a method
	// (the class in a static one), inherited by arrows, unknown in a
	// function of its own.
	this    *class
	static  bool
	hasThis bool
}

// Definition kinds.
const (
	dUnknown    = iota
	dFunc       // function f() {}
	dClass      // class C {}
	dNamespace  // import * as ns from "m"
	dImportFrom // import { name } from "m", import name from "m" (name "default")
	dExpr       // const x = expr
	dAnn        // let x: T, a parameter p: T, a field f: T
	dAlias      // export default x, export { x as y }: the name x of the same scope
	dDecl       // interface, type, enum: a definition with no value rubi follows
)

type def struct {
	kind int
	sc   *scope
	a, b int
	spec string
	name string
	fn   *function
	cls  *class
}

type binding struct {
	defs  []def
	state int8
	v     val
}

type class struct {
	mod   *module
	name  string
	tgt   target
	body  *scope
	outer *scope
	base  [2]int // the extends expression's tokens
	// attrs are the instance attributes its methods assign (this.x = ...)
	// and its constructor's parameter properties.
	attrs map[string]*binding
	mro   []*class
	state int8
}

type function struct {
	mod   *module
	name  string
	tgt   target
	cls   *class
	outer *scope
	ret   [2]int
	get   bool // a getter: read, not called
}

func newScope(kind int, m *module, parent *scope) *scope {
	return &scope{kind: kind, mod: m, parent: parent, names: map[string]*binding{}}
}

func (s *scope) bind(name string, d def) {
	b := s.names[name]
	if b == nil {
		b = &binding{}
		s.names[name] = b
	}
	b.defs = append(b.defs, d)
}

// scanner walks a module's tokens once, declaring names into scopes and
// marking, for the walk that finds the uses, each token's scope and the
// tokens that declare rather than use a name.
type scanner struct {
	m *module
	x *lexed
}

func (m *module) scan() {
	m.top = newScope(sModule, m, nil)
	m.scopeAt = make([]*scope, len(m.x.toks))
	m.skip = make([]bool, len(m.x.toks))
	s := &scanner{m: m, x: m.x}
	s.block(m.top, 0, len(m.x.toks))
}

// setScope records that token i is in scope sc, and mark that it
// declares a name; both ignore an index past the end, where an
// unclosed bracket leaves a scan.
func (s *scanner) setScope(i int, sc *scope) {
	if i >= 0 && i < len(s.m.scopeAt) {
		s.m.scopeAt[i] = sc
	}
}

func (s *scanner) mark(i int) {
	if i >= 0 && i < len(s.m.skip) {
		s.m.skip[i] = true
	}
}

// block scans toks[a:b] in scope sc.
func (s *scanner) block(sc *scope, a, b int) {
	b = min(b, len(s.x.toks))
	for i := a; i < b; {
		s.setScope(i, sc)
		i = s.at(sc, i, b)
	}
}

// at scans what starts at token i and returns the index after it.
func (s *scanner) at(sc *scope, i, b int) int {
	x := s.x
	t := x.toks[i]
	if t.kind == tOp && x.op(i, '(') {
		// (params) => body, (params): T => body.
		cl := x.close(i, b)
		j := cl + 1
		if x.op(j, ':') {
			for j < b && !x.is(j, "=>") && !x.op(j, '{') && !x.op(j, ';') {
				j++
			}
		}
		if x.is(j, "=>") && cl < b {
			return s.arrow(sc, i+1, cl, j, b)
		}
		return i + 1
	}
	if t.kind != tName {
		return i + 1
	}
	if x.is(i+1, "=>") && !x.dot(i-1) {
		return s.arrow(sc, i, i+1, i+1, b)
	}
	if x.dot(i - 1) {
		return i + 1
	}
	switch string(x.name(i)) {
	case "import":
		if sc.kind == sModule && !x.op(i+1, '(') && !x.op(i+1, '.') {
			return s.importStmt(sc, i, b)
		}
	case "export":
		return s.exportStmt(sc, i, b)
	case "function":
		return s.function(sc, i, b)
	case "class":
		return s.class(sc, i, b)
	case "const", "let", "var":
		return s.declare(sc, i+1, b)
	case "interface", "type", "enum", "namespace":
		if x.isName(i+1) && !x.op(i+1, '.') && (i == 0 || !x.op(i-1, '.')) && !x.op(i+1, '=') && !x.op(i+1, ':') && !x.op(i+1, ')') && !x.op(i+1, ',') {
			s.mark(i + 1)
			sc.bind(x.text(i+1), def{kind: dDecl, sc: sc, name: x.text(i + 1)})
			return s.declBody(sc, i+2, b)
		}
	case "catch":
		if x.op(i+1, '(') {
			cl := x.close(i+1, b)
			s.unknownNames(sc, i+2, cl)
			return cl + 1
		}
	case "this":
		// this.x = expr in a method: an attribute of the class.
		if f := funcScope(sc); f != nil && f.this != nil && !f.static && x.op(i+1, '.') && x.isName(i+2) && x.op(i+3, '=') {
			c := f.this
			name := x.text(i + 2)
			bd := c.attrs[name]
			if bd == nil {
				bd = &binding{}
				c.attrs[name] = bd
			}
			bd.defs = append(bd.defs, def{kind: dExpr, sc: sc, a: i + 4, b: exprEnd(x, i+4, b)})
		}
	}
	return i + 1
}

// funcScope is the innermost function scope at sc.
func funcScope(sc *scope) *scope {
	for ; sc != nil; sc = sc.parent {
		if sc.kind == sFunc {
			return sc
		}
	}
	return nil
}

// exprEnd returns where the expression starting at a ends: at a comma
// or semicolon outside brackets, a closing bracket, or a new line
// followed by a token that cannot continue it.
func exprEnd(x *lexed, a, b int) int {
	for i := a; i < b; i++ {
		switch {
		case x.op(i, '(') || x.op(i, '[') || x.op(i, '{'):
			i = x.close(i, b)
		case x.op(i, ',') || x.op(i, ';') || x.op(i, ')') || x.op(i, ']') || x.op(i, '}'):
			return i
		case i > a && x.isName(i) && (x.isName(i-1) || x.op(i-1, ')') || x.op(i-1, ']')) && newline(x, i):
			// No operator between two lines: a new statement.
			return i
		}
	}
	return b
}

// newline reports whether token i starts a line.
func newline(x *lexed, i int) bool {
	l1, _ := x.posOf(int(x.toks[i-1].a))
	l2, _ := x.posOf(int(x.toks[i].a))
	return l2 > l1
}

// declBody skips an interface's, an enum's or a namespace's body, or a
// type's definition, marking its member names as declarations.
func (s *scanner) declBody(sc *scope, i, b int) int {
	x := s.x
	for i < b && !x.op(i, '{') && !x.op(i, '=') && !x.op(i, ';') {
		s.setScope(i, sc)
		i++
	}
	if i >= b {
		return i
	}
	if x.op(i, '{') {
		cl := x.close(i, b)
		for j := i; j < cl; j++ {
			s.setScope(j, sc)
			s.markMember(j)
		}
		return cl
	}
	return i
}

// markMember marks token j as a declared member name when it is one: a
// name followed by : ? ( or = at the start of a member.
func (s *scanner) markMember(j int) {
	x := s.x
	if x.isName(j) && (x.op(j-1, '{') || x.op(j-1, ';') || x.op(j-1, ',') || newline(x, j)) &&
		(x.op(j+1, ':') || x.op(j+1, '?') || x.op(j+1, '(') || x.op(j+1, '=') || x.op(j+1, ',') || x.op(j+1, '}')) {
		s.mark(j)
	}
}

// arrow scans an arrow function whose parameters are toks[pa:pb] and
// whose => is at arrow.
func (s *scanner) arrow(sc *scope, pa, pb, arrow, b int) int {
	x := s.x
	fs := newScope(sFunc, s.m, sc)
	if f := funcScope(sc); f != nil {
		fs.this, fs.static, fs.hasThis = f.this, f.static, f.hasThis
	}
	s.params(sc, fs, pa, pb, nil)
	for i := pb; i <= arrow && i < b; i++ {
		s.setScope(i, sc)
	}
	start := arrow + 1
	end := b
	if x.op(start, '{') {
		end = x.close(start, b) + 1
	} else {
		end = exprEnd(x, start, b)
	}
	s.block(fs, start, min(end, b))
	return end
}

// params declares the parameters toks[a:b] in fs (their annotations and
// defaults are read in outer); fn, when set, gets the parameter
// properties of a constructor.
func (s *scanner) params(outer, fs *scope, a, b int, ctor *class) {
	x := s.x
	for _, r := range split(x, a, b) {
		i := r[0]
		for i < r[1] && s.modifier(i) {
			s.setScope(i, outer)
			i++
		}
		if x.is(i, "...") {
			s.setScope(i, outer)
			i++
		}
		for j := r[0]; j < r[1]; j++ {
			s.setScope(j, outer)
		}
		if !x.isName(i) {
			// A destructured parameter: every name in it is unknown.
			s.unknownNamesIn(fs, i, r[1])
			continue
		}
		s.mark(i)
		name := x.text(i)
		j := i + 1
		if x.op(j, '?') {
			j++
		}
		d := def{kind: dUnknown}
		if x.op(j, ':') {
			e := j + 1
			for e < r[1] && !x.op(e, '=') {
				e++
			}
			e = min(e, r[1])
			d = def{kind: dAnn, sc: outer, a: j + 1, b: e}
			s.block(outer, j+1, e)
			if e < r[1] {
				s.block(outer, e+1, r[1])
			}
		} else if x.op(j, '=') {
			s.block(outer, j+1, r[1])
		}
		fs.bind(name, d)
		if ctor != nil && i > r[0] {
			// constructor(private svc: Service): a property too.
			ctor.attrs[name] = &binding{defs: []def{d}}
		}
	}
}

// modifier reports whether token i is a TypeScript modifier.
func (s *scanner) modifier(i int) bool {
	switch string(s.x.name(i)) {
	case "public", "private", "protected", "readonly", "override", "static", "abstract", "declare", "async", "accessor":
		return s.x.isName(i) && s.x.isName(i+1)
	}
	return false
}

// split returns the ranges of toks[a:b] separated by commas outside
// brackets.
func split(x *lexed, a, b int) [][2]int {
	var out [][2]int
	from := a
	for i := a; i < b; i++ {
		switch {
		case x.op(i, '(') || x.op(i, '[') || x.op(i, '{'):
			i = x.close(i, b)
		case x.op(i, '<'):
			// Type arguments: a comma inside is not a separator.
			depth := 1
			for j := i + 1; j < b && depth > 0; j++ {
				if x.op(j, '<') {
					depth++
				} else if x.op(j, '>') {
					depth--
				} else if x.op(j, ';') || x.op(j, '{') {
					break
				}
				if depth == 0 {
					i = j
				}
			}
		case x.op(i, ','):
			out = append(out, [2]int{from, i})
			from = i + 1
		}
	}
	if from < b {
		out = append(out, [2]int{from, b})
	}
	return out
}

// unknownNames declares every name of toks[a:b] unknown in sc.
func (s *scanner) unknownNames(sc *scope, a, b int) {
	for i := a; i < b; i++ {
		s.setScope(i, sc)
	}
	s.unknownNamesIn(sc, a, b)
}

// unknownNamesIn declares the names a destructuring pattern binds
// unknown (a default's expression aside) and marks them declared.
func (s *scanner) unknownNamesIn(sc *scope, a, b int) {
	x := s.x
	for i := a; i < b; i++ {
		if x.op(i, '=') {
			// A default: skip its expression.
			i = exprEnd(x, i+1, b) - 1
			continue
		}
		if x.isName(i) && !x.op(i+1, ':') && !x.dot(i-1) {
			s.mark(i)
			sc.bind(x.text(i), def{kind: dUnknown})
		} else if x.isName(i) && x.op(i+1, ':') {
			s.mark(i) // { key: name }: the key
		}
	}
}

// declare scans the declarators of a const, let or var from token i.
func (s *scanner) declare(sc *scope, i, b int) int {
	x := s.x
	for i < b {
		s.setScope(i, sc)
		if x.op(i, '{') || x.op(i, '[') {
			cl := x.close(i, b)
			s.unknownNames(sc, i, cl+1)
			i = cl + 1
		} else if x.isName(i) {
			s.mark(i)
			name := x.text(i)
			j := i + 1
			if x.op(j, '!') {
				j++
			}
			var d def
			switch {
			case x.op(j, ':'):
				e := j + 1
				for e < b && !x.op(e, '=') && !x.op(e, ',') && !x.op(e, ';') && !(e > j+1 && newline(x, e) && !x.op(e, '|')) {
					if x.op(e, '{') || x.op(e, '(') || x.op(e, '[') {
						e = x.close(e, b)
					}
					e++
				}
				e = min(e, b)
				d = def{kind: dAnn, sc: sc, a: j + 1, b: e}
				s.block(sc, j, e)
				j = e
				if x.op(j, '=') {
					end := exprEnd(x, j+1, b)
					s.block(sc, j, end)
					j = end
				}
			case x.op(j, '='):
				end := exprEnd(x, j+1, b)
				d = def{kind: dExpr, sc: sc, a: j + 1, b: end}
				s.setScope(j, sc)
				s.block(sc, j+1, end)
				j = end
			default:
				d = def{kind: dUnknown} // for (const x of ...), let x;
			}
			sc.bind(name, d)
			i = j
		} else {
			return i
		}
		if !x.op(i, ',') {
			return i
		}
		s.setScope(i, sc)
		i++
	}
	return i
}

// function scans `function [name](params) [: T] {body}` from token i.
func (s *scanner) function(sc *scope, i, b int) int {
	x := s.x
	s.setScope(i, sc)
	j := i + 1
	if x.op(j, '*') {
		j++
	}
	fn := &function{mod: s.m, outer: sc}
	if x.isName(j) {
		s.mark(j)
		fn.name = x.text(j)
		fn.tgt = target{path: s.m.path, name: fn.name}
		s.setScope(j, sc)
		sc.bind(fn.name, def{kind: dFunc, fn: fn})
		j++
	}
	return s.funcRest(sc, fn, j, b, nil)
}

// funcRest scans a function's type parameters, parameters, return
// annotation and body from token j.
func (s *scanner) funcRest(sc *scope, fn *function, j, b int, ctor *class) int {
	x := s.x
	fs := newScope(sFunc, s.m, sc)
	if fn.cls != nil {
		fs.this, fs.hasThis = fn.cls, true
	} else {
		fs.hasThis = true // a function's own this: unknown
	}
	if x.op(j, '<') {
		for j < b && !x.op(j, '(') {
			s.setScope(j, sc)
			if x.isName(j) {
				s.mark(j)
			}
			j++
		}
	}
	if !x.op(j, '(') {
		return j
	}
	s.setScope(j, sc)
	cl := x.close(j, b)
	s.params(sc, fs, j+1, cl, ctor)
	k := cl + 1
	if x.op(k, ':') {
		e := k + 1
		for e < b && !x.op(e, '{') && !x.op(e, ';') && !x.is(e, "=>") {
			if x.op(e, '(') || x.op(e, '[') {
				e = x.close(e, b)
			}
			e++
		}
		e = min(e, b)
		fn.ret = [2]int{k + 1, e}
		s.block(sc, k, e)
		k = e
	}
	if !x.op(k, '{') {
		return k
	}
	end := x.close(k, b)
	s.block(fs, k, min(end+1, b))
	return end + 1
}

// class scans `class [Name] [extends E] [implements ...] {body}`.
func (s *scanner) class(sc *scope, i, b int) int {
	x := s.x
	s.setScope(i, sc)
	c := &class{mod: s.m, outer: sc, attrs: map[string]*binding{}}
	j := i + 1
	if x.isName(j) && !x.is(j, "extends") && !x.is(j, "implements") {
		s.mark(j)
		c.name = x.text(j)
		s.setScope(j, sc)
		sc.bind(c.name, def{kind: dClass, cls: c})
		j++
	}
	c.tgt = target{path: s.m.path, name: c.name}
	c.body = newScope(sClass, s.m, sc)
	c.body.cls = c
	for j < b && !x.op(j, '{') {
		s.setScope(j, sc)
		if x.op(j, '<') && j == i+2 {
			for j < b && !x.op(j, '>') {
				if x.isName(j) {
					s.mark(j)
				}
				s.setScope(j, sc)
				j++
			}
		}
		if x.is(j, "extends") && c.base == [2]int{} {
			e := j + 1
			for e < b && !x.op(e, '{') && !x.is(e, "implements") && !x.op(e, '<') {
				s.setScope(e, sc)
				e++
			}
			e = min(e, b)
			c.base = [2]int{j + 1, e}
		}
		j++
	}
	if j >= b {
		return j
	}
	end := x.close(j, b)
	s.setScope(j, sc)
	s.classBody(c, j+1, end)
	return end + 1
}

// classBody scans the members of a class.
func (s *scanner) classBody(c *class, a, b int) {
	x := s.x
	body := c.body
	for i := a; i < b; {
		s.setScope(i, body)
		if x.op(i, ';') || x.op(i, ',') {
			i++
			continue
		}
		if x.op(i, '@') {
			// A decorator: its expression is code.
			e := i + 1
			for e < b && (x.isName(e) || x.dot(e)) {
				s.setScope(e, body)
				e++
			}
			e = min(e, b)
			if x.op(e, '(') {
				cl := x.close(e, b)
				s.block(body, e, cl+1)
				e = cl + 1
			}
			i = e
			continue
		}
		static, get := false, false
		for i < b && (s.modifier(i) || (x.is(i, "get") || x.is(i, "set")) && x.isName(i+1)) {
			static = static || x.is(i, "static")
			get = get || x.is(i, "get")
			s.setScope(i, body)
			i++
		}
		if x.op(i, '*') {
			i++
		}
		if i >= b {
			break
		}
		if !x.isName(i) && x.toks[i].kind != tStr {
			i++
			continue
		}
		name := x.text(i)
		s.mark(i)
		s.setScope(i, body)
		j := i + 1
		if x.op(j, '?') || x.op(j, '!') {
			j++
		}
		if x.op(j, '(') || x.op(j, '<') {
			fn := &function{mod: s.m, name: name, cls: c, outer: body, get: get}
			fn.tgt = target{path: s.m.path, name: c.name + "." + name}
			var ctor *class
			if name == "constructor" {
				ctor = c
			} else if !(get && body.names[name] != nil) {
				body.bind(name, def{kind: dFunc, fn: fn})
			}
			end := s.funcRest(body, fn, j, b, ctor)
			if static {
				// A static method's this is the class.
				for k := j; k < end; k++ {
					if k >= len(s.m.scopeAt) {
						break
					}
					if sc := s.m.scopeAt[k]; sc != nil && sc.kind == sFunc && sc.this == c {
						sc.static = true
					}
				}
			}
			i = end
			continue
		}
		// A field: name [: T] [= expr].
		var d def
		k := j
		if x.op(k, ':') {
			e := k + 1
			for e < b && !x.op(e, '=') && !x.op(e, ';') && !(newline(x, e) && !x.op(e, '|')) {
				if x.op(e, '{') || x.op(e, '(') || x.op(e, '[') {
					e = x.close(e, b)
				}
				e++
			}
			e = min(e, b)
			d = def{kind: dAnn, sc: body, a: k + 1, b: e}
			s.block(body, k, e)
			k = e
		}
		if x.op(k, '=') {
			end := exprEnd(x, k+1, b)
			if d.kind != dAnn {
				d = def{kind: dExpr, sc: body, a: k + 1, b: end}
			}
			// Initializers run with this the instance.
			fs := newScope(sFunc, s.m, body)
			fs.this, fs.static, fs.hasThis = c, static, true
			s.setScope(k, body)
			s.block(fs, k+1, end)
			k = end
		}
		body.bind(name, d)
		if k == i {
			k++
		}
		i = k
	}
}

// importStmt scans an import declaration.
func (s *scanner) importStmt(sc *scope, i, b int) int {
	x := s.x
	end := i + 1
	for end < b && x.toks[end].kind != tStr {
		end++
	}
	end = min(end, b)
	spec := ""
	if end < b {
		spec = s.m.str(end)
	}
	for k := i; k <= end && k < b; k++ {
		s.setScope(k, sc)
		s.mark(k)
	}
	j := i + 1
	if x.is(j, "type") && !x.is(j+1, "from") && !x.op(j+1, ',') {
		j++
	}
	for j < end {
		switch {
		case x.op(j, '*') && x.is(j+1, "as") && x.isName(j+2):
			sc.bind(x.text(j+2), def{kind: dNamespace, sc: sc, spec: spec})
			j += 3
		case x.op(j, '{'):
			cl := x.close(j, end)
			for _, r := range split(x, j+1, cl) {
				k := r[0]
				if x.is(k, "type") && x.isName(k+1) {
					k++
				}
				if !x.isName(k) {
					continue
				}
				name, as := x.text(k), x.text(k)
				if x.is(k+1, "as") && x.isName(k+2) {
					as = x.text(k + 2)
				}
				sc.bind(as, def{kind: dImportFrom, sc: sc, spec: spec, name: name})
			}
			j = cl + 1
		case x.isName(j) && !x.is(j, "from"):
			sc.bind(x.text(j), def{kind: dImportFrom, sc: sc, spec: spec, name: "default"})
			j++
		default:
			j++
		}
	}
	return end + 1
}

// exportStmt scans an export declaration: export default, export
// { a as b } [from "m"], export * from "m", or export before a
// declaration.
func (s *scanner) exportStmt(sc *scope, i, b int) int {
	x := s.x
	s.setScope(i, sc)
	j := i + 1
	if x.is(j, "type") && x.op(j+1, '{') {
		j++
	}
	switch {
	case x.is(j, "default"):
		s.setScope(j, sc)
		if x.isName(j+1) && (x.op(j+2, ';') || j+2 >= b || newline(x, j+2)) {
			sc.bind("default", def{kind: dAlias, sc: sc, name: x.text(j + 1)})
			return j + 1
		}
		if x.is(j+1, "class") || x.is(j+1, "function") || x.is(j+1, "async") && x.is(j+2, "function") {
			k := j + 1
			if x.is(k, "async") {
				k++
			}
			before := len(sc.names)
			var end int
			if x.is(k, "class") {
				end = s.class(sc, k, b)
			} else {
				end = s.function(sc, k, b)
			}
			if len(sc.names) > before || x.isName(k+1) {
				name := x.text(k + 1)
				if x.op(k+1, '*') {
					name = x.text(k + 2)
				}
				if bd := sc.names[name]; bd != nil {
					sc.bind("default", bd.defs[len(bd.defs)-1])
				}
			}
			return end
		}
		return j + 1
	case x.op(j, '*') || x.op(j, '{'):
		end := j
		for end < b && !x.op(end, ';') && !(end > j && newline(x, end) && !x.is(end, "from") && x.toks[end].kind != tStr) {
			if x.op(end, '{') {
				end = x.close(end, b)
			}
			end++
		}
		end = min(end, b)
		spec := ""
		for k := j; k < end; k++ {
			s.setScope(k, sc)
			s.mark(k)
			if x.toks[k].kind == tStr && x.is(k-1, "from") {
				spec = s.m.str(k)
			}
		}
		if x.op(j, '*') {
			if spec != "" {
				if x.is(j+1, "as") && x.isName(j+2) {
					sc.bind(x.text(j+2), def{kind: dNamespace, sc: sc, spec: spec})
				} else {
					sc.stars = append(sc.stars, spec)
				}
			}
			return end
		}
		cl := x.close(j, end)
		for _, r := range split(x, j+1, cl) {
			k := r[0]
			if x.is(k, "type") && x.isName(k+1) {
				k++
			}
			if !x.isName(k) {
				continue
			}
			name, as := x.text(k), x.text(k)
			if x.is(k+1, "as") && x.isName(k+2) {
				as = x.text(k + 2)
			}
			if spec != "" {
				sc.bind(as, def{kind: dImportFrom, sc: sc, spec: spec, name: name})
			} else if as != name {
				sc.bind(as, def{kind: dAlias, sc: sc, name: name})
			}
		}
		return end
	}
	return j
}

// str returns the contents of string token i, read from the source.
func (m *module) str(i int) string {
	t := m.x.toks[i]
	s := string(m.src[t.a:t.end()])
	if len(s) >= 2 {
		s = s[1 : len(s)-1]
	}
	return s
}

// keywords are JavaScript's and TypeScript's reserved and contextual
// words that never name a definition of the project.
var keywords = map[string]bool{
	"break": true, "case": true, "catch": true, "class": true, "const": true, "continue": true, "debugger": true,
	"default": true, "delete": true, "do": true, "else": true, "export": true, "extends": true, "finally": true,
	"for": true, "function": true, "if": true, "import": true, "in": true, "instanceof": true, "new": true,
	"return": true, "super": true, "switch": true, "this": true, "throw": true, "try": true, "typeof": true,
	"var": true, "void": true, "while": true, "with": true, "yield": true, "let": true, "static": true,
	"await": true, "async": true, "of": true, "as": true, "from": true, "get": true, "set": true, "null": true,
	"undefined": true, "true": true, "false": true, "implements": true, "interface": true, "type": true,
	"enum": true, "namespace": true, "declare": true, "readonly": true, "public": true, "private": true,
	"protected": true, "abstract": true, "keyof": true, "infer": true, "is": true, "satisfies": true,
	"unique": true, "override": true, "module": true, "global": true, "asserts": true, "accessor": true,
	"any": true, "unknown": true, "never": true, "string": true, "number": true, "boolean": true,
	"symbol": true, "object": true, "bigint": true,
}
