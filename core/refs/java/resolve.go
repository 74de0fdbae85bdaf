package java

import (
	"slices"
	"sort"
	"strings"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/refs"
)

// fileRun resolves one file: its tokens, where each line sits (the
// innermost symbol and type, from the parser's facts), its blocks, and
// the variables its code declares.
type fileRun struct {
	ix *index
	fi *fileInfo
	sc *scope
	x  *lexed
	// from and encl are by line (1-based): the innermost symbol's key,
	// the innermost type.
	from []string
	encl []*typeDef
	skip []bool // the tokens of package and import statements
	// opens is, for each closing ), the index of the ( it closes, and
	// closes for each ( the ) that closes it (-1 none or another token).
	opens, closes []int32
	// block is, for each token, the { of the innermost block around it
	// (-1 none); outer is, for each {, the block around it, and body
	// says which are a type's body (fields).
	block, outer []int32
	body         map[int32]bool
	// anon holds, for an anonymous class's body, the token its type
	// starts at (new T(...) {); anonMethods the methods such a body
	// declares, by name.
	anon        map[int32]int
	anonMethods map[int32]map[string]bool
	// vars are the variables each block declares, by the index of its
	// {: a nil type is one the resolver does not follow (a library's, an
	// array, two at once), and still hides a field or a type of that
	// name.
	vars map[int32]map[string]variable
	decl map[int]bool // tokens that name what they declare
	// lambdaVars are the lambdas' parameters by name, each name's in the
	// order of their ->; they hide variables and fields of their names
	// within the lambda.
	lambdaVars map[string][]lambdaScope
	// values are the types of the values calls give, by the index of the
	// call's opening bracket: new T(...), a method whose declaration says
	// what it returns.
	values map[int]*typeDef
	out    []refs.Ref
}

// Bounds that keep a file of any shape linear: the names of a dotted
// chain read, the tokens of a generic's brackets.
const (
	maxDotted  = 32
	maxGeneric = 256
	maxHead    = 512 // tokens of a type's declaration head
	// maxHierarchy bounds the supertypes a type's member types are
	// gathered from.
	maxHierarchy = 256
	// maxLambdas bounds the lambdas of one parameter name a lookup looks
	// at, back from the use.
	maxLambdas = 64
	// maxArgs bounds the tokens of a call's arguments counted: past it
	// the count is unknown (any overload).
	maxArgs = 4096
	// maxSignature bounds the bytes of a signature read (a minified
	// file's line holds them all).
	maxSignature = 1024
)

// variable is what a declaration says of a variable: its type (nil: one
// the resolver does not follow), and for a container of the JDK (List,
// Set, Optional, Stream...) of one project type, that type: its
// elements'.
type variable struct {
	t, elem *typeDef
}

// containers are the JDK's generic types of one type argument whose
// elements the calls below hand out: a variable declared as one of them
// of a project type knows its elements' type.
var containers = words("Collection List ArrayList LinkedList CopyOnWriteArrayList Set HashSet LinkedHashSet TreeSet SortedSet " +
	"NavigableSet Iterable Iterator ListIterator Queue Deque ArrayDeque PriorityQueue BlockingQueue LinkedBlockingQueue " +
	"ArrayBlockingQueue Stream Optional")

// keepElements are the calls whose result holds the elements of their
// receiver (a stream of them, an Optional of one); giveElement those
// that return one; takeElement those whose one-parameter lambda is given
// one.
var (
	keepElements = words("stream parallelStream filter sorted distinct limit skip sequential parallel unordered takeWhile dropWhile findFirst findAny iterator listIterator")
	giveElement  = words("get orElse orElseThrow orElseGet next previous poll pop element getFirst getLast first last pollFirst pollLast take")
	takeElement  = words("forEach forEachOrdered forEachRemaining removeIf ifPresent ifPresentOrElse filter anyMatch allMatch noneMatch map mapToInt mapToLong mapToDouble mapToObj flatMap takeWhile dropWhile")
)

// modifiers may stand before a method's name in its declaration.
var modifiers = map[string]bool{"public": true, "private": true, "protected": true, "static": true, "final": true, "abstract": true,
	"synchronized": true, "native": true, "default": true, "strictfp": true, "void": true, "boolean": true, "byte": true, "char": true,
	"short": true, "int": true, "long": true, "float": true, "double": true}

// primitives are the keywords a variable's type may be (var too).
var primitives = map[string]bool{"boolean": true, "byte": true, "char": true, "short": true, "int": true, "long": true, "float": true, "double": true, "var": true}

func (ix *index) resolveFile(fi *fileInfo, x *lexed) []refs.Ref {
	r := &fileRun{ix: ix, fi: fi, sc: ix.scope(fi), x: x, vars: map[int32]map[string]variable{}, body: map[int32]bool{}, anon: map[int32]int{}, anonMethods: map[int32]map[string]bool{}, decl: map[int]bool{}, lambdaVars: map[string][]lambdaScope{}, values: map[int]*typeDef{}}
	r.lines()
	r.statements()
	r.brackets()
	r.declarations()
	for i := range x.toks {
		r.token(i)
	}
	return r.out
}

// lines finds, for each line, the innermost symbol and the innermost
// type around it: one sweep down the lines with the symbols open there
// on a stack (a file nesting thousands of types costs its lines plus its
// symbols, not their product).
func (r *fileRun) lines() {
	n := len(r.x.starts) + 1
	r.from, r.encl = make([]string, n), make([]*typeDef, n)
	types := map[string]*typeDef{}
	for _, t := range r.fi.types {
		types[t.key] = t
	}
	syms := r.fi.syms
	order := make([]int, len(syms))
	for k := range order {
		order[k] = k
	}
	end := func(s core.Symbol) int { return max(s.EndLine, s.Line) }
	// By first line, the outer (longer) first on a shared line.
	slices.SortStableFunc(order, func(a, b int) int {
		if syms[a].Line != syms[b].Line {
			return syms[a].Line - syms[b].Line
		}
		return end(syms[b]) - end(syms[a])
	})
	type open struct {
		end  int
		key  string
		encl *typeDef
	}
	var stack []open
	k := 0
	for l := 1; l < n; l++ {
		for len(stack) > 0 && stack[len(stack)-1].end < l {
			stack = stack[:len(stack)-1]
		}
		for ; k < len(order) && syms[order[k]].Line <= l; k++ {
			s := syms[order[k]]
			if end(s) < l {
				continue
			}
			o := open{end: end(s), key: key(s)}
			if len(stack) > 0 {
				o.encl = stack[len(stack)-1].encl
			}
			if t := types[o.key]; t != nil && isType(s.Kind) {
				o.encl = t
			}
			stack = append(stack, o)
		}
		if len(stack) > 0 {
			top := stack[len(stack)-1]
			r.from[l], r.encl[l] = top.key, top.encl
		}
	}
}

// brackets pairs each ) with its (.
func (r *fileRun) brackets() {
	x := r.x
	r.opens, r.closes = make([]int32, len(x.toks)), make([]int32, len(x.toks))
	r.block, r.outer = make([]int32, len(x.toks)), make([]int32, len(x.toks))
	var stack []int32
	blocks := []int32{-1}
	for i := range x.toks {
		r.opens[i], r.closes[i], r.outer[i] = -1, -1, -1
		r.block[i] = blocks[len(blocks)-1]
		switch {
		case x.is(i, "{"):
			r.outer[i] = blocks[len(blocks)-1]
			blocks = append(blocks, int32(i))
			r.body[int32(i)] = r.typeBody(i)
		case x.is(i, "}") && len(blocks) > 1:
			blocks = blocks[:len(blocks)-1]
		}
		switch {
		case x.is(i, "("):
			stack = append(stack, int32(i))
		case x.is(i, ")") && len(stack) > 0:
			o := stack[len(stack)-1]
			r.opens[i], r.closes[o] = o, int32(i)
			stack = stack[:len(stack)-1]
		}
	}
}

// typeBody reports whether the { at token i opens a type's body: a
// class, interface, enum or record declaration's, or an anonymous
// class's (new T(...) {).
func (r *fileRun) typeBody(i int) bool {
	x := r.x
	if !x.is(i-1, ")") {
		return r.declHead(i - 1)
	}
	o := int(r.opens[i-1])
	if o < 0 {
		return false
	}
	for j, n := o-1, 0; j >= 0 && n < maxGeneric; j, n = j-1, n+1 {
		switch {
		case x.is(j, "new"):
			r.anon[int32(i)] = j + 1
			return true
		case x.isName(j) || x.is(j, ".") || x.is(j, "<") || x.is(j, ">") || x.is(j, ",") || x.is(j, "?"):
		default:
			return r.declHead(o - 1)
		}
	}
	return false
}

// declHead reports whether the tokens back from j, to the statement's
// start, hold a type's declaration head (class, interface, enum,
// record).
func (r *fileRun) declHead(j int) bool {
	x := r.x
	for n := 0; j >= 0 && n < maxHead; j, n = j-1, n+1 {
		switch {
		case x.is(j, ";") || x.is(j, "{") || x.is(j, "}"):
			return false
		case x.is(j, "class") && !x.is(j-1, ".") || x.is(j, "interface") || x.is(j, "enum") || x.is(j, "record") && x.isName(j+1):
			return true
		}
	}
	return false
}

// statements marks the package and import statements' tokens.
func (r *fileRun) statements() {
	x := r.x
	r.skip = make([]bool, len(x.toks))
	for i := 0; i < len(x.toks); i++ {
		if !(x.is(i, "package") || x.is(i, "import")) || !(i == 0 || x.is(i-1, ";") || x.is(i-1, "}")) {
			continue
		}
		for ; i < len(x.toks) && !x.is(i, ";"); i++ {
			r.skip[i] = true
		}
	}
}

// typeExpr reads a type as a declaration writes it at token i: a name,
// qualified or not, its generic arguments, its array brackets. It
// returns the token after it, the dotted name, and whether it is an
// array; ok is false when no type starts at i.
func (r *fileRun) typeExpr(i int) (next int, dotted string, array, ok bool) {
	x := r.x
	if !x.isName(i) || x.is(i-1, ".") || x.is(i-1, "::") || keywords[x.text(i)] && !primitives[x.text(i)] {
		return 0, "", false, false
	}
	dotted = x.text(i)
	j := i + 1
	for n := 0; x.is(j, ".") && x.isName(j+1) && !keywords[x.text(j+1)] && n < maxDotted; n++ {
		dotted += "." + x.text(j+1)
		j += 2
	}
	if x.is(j, "<") {
		depth, limit := 0, j+maxGeneric
		for ; j < len(x.toks); j++ {
			switch {
			case j == limit:
				return 0, "", false, false
			case x.is(j, "<"):
				depth++
			case x.is(j, ">"):
				depth--
			case x.is(j, ";") || x.is(j, "{") || x.is(j, "(") || x.is(j, "=") || x.is(j, "&&") || x.is(j, "||"):
				return 0, "", false, false // a comparison, not a generic
			}
			if depth == 0 {
				break
			}
		}
		j++
	}
	for x.is(j, "[") && x.is(j+1, "]") {
		array = true
		j += 2
	}
	if x.is(j, "...") {
		array = true
		j++
	}
	return j, dotted, array, true
}

// declarations finds every variable, parameter and field the file
// declares with the type it states (T v =, T v;, (T v, U w), for (T v :,
// catch (T v), instanceof T v, var v = new T(...)).
func (r *fileRun) declarations() {
	x := r.x
	for i := range x.toks {
		if r.skip[i] || x.is(i-1, "new") {
			continue
		}
		j, dotted, array, ok := r.typeExpr(i)
		if !ok || !x.isName(j) || keywords[x.text(j)] {
			continue
		}
		if !(x.is(j+1, "=") || x.is(j+1, ";") || x.is(j+1, ",") || x.is(j+1, ")") || x.is(j+1, ":") ||
			x.is(j+1, "&&") || x.is(j+1, "||") || x.is(j+1, "[")) {
			continue
		}
		line := x.line(j)
		var t, elem *typeDef
		switch {
		case array || x.is(j+1, "["):
		case dotted == "var":
			if x.is(j+1, "=") && x.is(j+2, "new") {
				if _, d, arr, ok := r.typeExpr(j + 3); ok && !arr {
					t = r.resolveDotted(d, line)
				}
			}
			if x.is(j+1, ":") && x.isName(j+2) && x.is(j+3, ")") { // for (var v : items)
				t = r.elements(j+2, 0)
			}
		case !primitives[dotted]:
			t = r.resolveDotted(dotted, line)
			if t == nil {
				elem = r.containerOf(i, dotted, line)
			}
		}
		r.declare(j, x.text(j), t, elem)
		r.decl[j] = true
	}
	r.lambdas()
	// The methods anonymous classes declare, wherever their calls are.
	for i := range x.toks {
		if b := r.block[i]; b >= 0 && r.anon[b] > 0 && x.isName(i) && x.is(i+1, "(") && !x.is(i-1, ".") && r.declares(i) {
			if r.anonMethods[b] == nil {
				r.anonMethods[b] = map[string]bool{}
			}
			r.anonMethods[b][x.text(i)] = true
		}
	}
}

// declare records the variable name declared at token j with type t, in
// the block it is visible in: the innermost around it, or for a
// parameter (of a method, a catch, a for's header, a lambda) the block
// its parentheses open.
func (r *fileRun) declare(j int, name string, t, elem *typeDef) {
	x := r.x
	b := r.block[j]
	depth := 0
	for k, n := j, 0; k >= 0 && n < maxHead; k, n = k-1, n+1 {
		if x.is(k, ")") {
			depth++
		} else if x.is(k, "(") {
			if depth == 0 {
				c := int(r.closes[k])
				for c >= 0 && c+1 < len(x.toks) && !x.is(c+1, "{") && !x.is(c+1, ";") && !x.is(c+1, "=") && n < maxHead {
					c++ // ) throws E {, ) -> {
					n++
				}
				if c >= 0 && x.is(c+1, "{") {
					b = int32(c + 1)
				}
				break
			}
			depth--
		} else if x.is(k, ";") || x.is(k, "{") || x.is(k, "}") {
			break
		}
	}
	m := r.vars[b]
	if m == nil {
		m = map[string]variable{}
		r.vars[b] = m
	}
	v := variable{t, elem}
	if old, seen := m[name]; seen && old != v {
		v = variable{} // two declarations that disagree
	}
	m[name] = v
}

// lambdas records lambdas' parameters (x -> ..., (a, b) -> ...), each
// of no known type unless the lambda is handed the elements of a
// container of a project type (lambdaElement).
func (r *fileRun) lambdas() {
	x := r.x
	for i := range x.toks {
		if !x.is(i, "->") {
			continue
		}
		switch {
		case x.isName(i - 1):
			r.lambdaParam(i-1, i, r.lambdaElement(i-1))
		case x.is(i-1, ")"):
			o := int(r.opens[i-1])
			if o >= 0 && o+2 == i-1 && x.isName(o+1) { // (x) ->
				r.lambdaParam(o+1, i, r.lambdaElement(o))
				continue
			}
			for k := o + 1; o >= 0 && k < i-1; k++ {
				if x.isName(k) && (x.is(k+1, ",") || x.is(k+1, ")")) {
					r.lambdaParam(k, i, nil)
				}
			}
		}
	}
}

// lambdaScope is a lambda's parameter, visible from its -> to the end of
// the lambda: the ) of the call it is an argument of, else the ; or the
// , that ends its statement or argument.
type lambdaScope struct {
	from, to int
	t        *typeDef
}

// lambdaParam records the parameter at token k of the lambda whose -> is
// token arrow, of type t (nil unknown: it still hides fields and
// variables of its name).
func (r *fileRun) lambdaParam(k, arrow int, t *typeDef) {
	x := r.x
	r.decl[k] = true
	end, depth := len(x.toks)-1, 0
	for j, n := arrow+1, 0; j < len(x.toks) && n < maxArgs; j, n = j+1, n+1 {
		switch {
		case x.is(j, "(") || x.is(j, "{") || x.is(j, "["):
			depth++
		case x.is(j, ")") || x.is(j, "}") || x.is(j, "]"):
			if depth--; depth < 0 {
				end = j
			}
		case depth == 0 && (x.is(j, ";") || x.is(j, ",")):
			end = j
		}
		if end != len(x.toks)-1 {
			break
		}
	}
	name := x.text(k)
	r.lambdaVars[name] = append(r.lambdaVars[name], lambdaScope{from: arrow, to: end, t: t})
}

// lambdaElement is the type of a one-parameter lambda's parameter, the
// lambda starting at token s, when it is the argument of a call that
// hands it an element of a container of a project type
// (items.forEach(i -> ...), items.stream().filter(i -> ...)).
func (r *fileRun) lambdaElement(s int) *typeDef {
	x := r.x
	o := s - 1
	if !x.is(o, "(") || !x.isName(o-1) || !x.is(o-2, ".") || !takeElement[x.text(o-1)] {
		return nil
	}
	return r.elements(o-3, 0)
}

// containerOf is the element type of a declared type at token i (dotted,
// at line) that is a container of the JDK of one project type:
// List<Item>, Optional<? extends Item>.
func (r *fileRun) containerOf(i int, dotted string, line int) *typeDef {
	x := r.x
	last := dotted[strings.LastIndexByte(dotted, '.')+1:]
	if !containers[last] {
		return nil
	}
	j := i + 2*strings.Count(dotted, ".") + 1
	if !x.is(j, "<") {
		return nil
	}
	j++
	if x.is(j, "?") && x.is(j+1, "extends") {
		j += 2
	}
	k, arg, array, ok := r.typeExpr(j)
	if !ok || array || !x.is(k, ">") {
		return nil
	}
	return r.resolveDotted(arg, line)
}

// elements is the type of the elements of the expression ending at token
// j, when it is a variable declared as a container of a project type, or
// a call that keeps its receiver's elements (stream, filter,
// findFirst...).
func (r *fileRun) elements(j, depth int) *typeDef {
	x := r.x
	if depth > maxDotted {
		return nil
	}
	switch {
	case x.isName(j) && !x.is(j-1, ".") && !keywords[x.text(j)]:
		return r.variableOf(x.text(j), j).elem
	case x.isName(j) && x.is(j-1, ".") && x.is(j-2, "this") && !x.is(j-3, "."):
		if b := r.typeBlock(j); b >= 0 {
			return r.vars[b][x.text(j)].elem
		}
	case x.is(j, ")"):
		o := int(r.opens[j])
		if c := x.text(o - 1); o >= 2 && x.isName(o-1) && x.is(o-2, ".") && (keepElements[c] || c == "peek" && j != o+1) {
			return r.elements(o-3, depth+1)
		}
	}
	return nil
}

// resolveDotted resolves a type as written at line: its first name in
// scope, then nested types; or a fully qualified name.
func (r *fileRun) resolveDotted(dotted string, line int) *typeDef {
	first, rest, qualified := cut(dotted)
	t := r.resolveType(first, line)
	if t == nil && qualified {
		if q, left := r.ix.qualified(r.fi, dotted, nil); q != nil && len(left) == 0 {
			return q
		}
		return nil
	}
	for t != nil && qualified {
		var next string
		next, rest, qualified = cut(rest)
		t = t.nested[next]
	}
	return t
}

func cut(dotted string) (first, rest string, more bool) {
	for k := 0; k < len(dotted); k++ {
		if dotted[k] == '.' {
			return dotted[:k], dotted[k+1:], true
		}
	}
	return dotted, "", false
}

// resolveType resolves a simple type name as written at line: the
// enclosing types and their nested types, the file's types, then its
// scope.
func (r *fileRun) resolveType(name string, line int) *typeDef {
	for t := r.encl[line]; t != nil; t = t.outer {
		if n, ok := r.ix.memberTypes(t)[name]; ok {
			return n
		}
		if t.name == name {
			return t
		}
	}
	if t := r.fi.byName[name]; t != nil {
		return t
	}
	return r.sc.types[name]
}

// typeIn resolves a type name as written in the declaration of a member
// of owner (a method's return type): the member types of owner and of
// the types around it, inherited ones too, then the file's scope.
func (ix *index) typeIn(owner *typeDef, name string) *typeDef {
	for t := owner; t != nil; t = t.outer {
		if n, ok := ix.memberTypes(t)[name]; ok {
			return n
		}
		if t.name == name {
			return t
		}
	}
	return ix.visibleFrom(owner.file, name)
}

// lexical resolves a type name as written in owner's header (what it
// extends and implements): as typeIn, but without the member types owner
// inherits, which are what the header's names lead to.
func (ix *index) lexical(owner *typeDef, name string) *typeDef {
	for t := owner; t != nil; t = t.outer {
		if n := t.nested[name]; n != nil {
			return n
		}
		if t.name == name {
			return t
		}
	}
	return ix.visibleFrom(owner.file, name)
}

// memberTypes are t's member types by simple name: its own nested types,
// then those its supertypes in the project declare, at any depth (nil:
// two of them offer the name). Made once per type.
func (ix *index) memberTypes(t *typeDef) map[string]*typeDef {
	t.memberOnce.Do(func() {
		m := map[string]*typeDef{}
		inherited := map[string]*typeDef{}
		seen := map[*typeDef]bool{t: true}
		queue := []*typeDef{t}
		for len(queue) > 0 && len(seen) < maxHierarchy {
			c := queue[0]
			queue = queue[1:]
			for _, s := range ix.supers(c) {
				st := ix.lexical(c, s)
				if st == nil || seen[st] {
					continue
				}
				seen[st] = true
				queue = append(queue, st)
				for n, nt := range st.nested {
					if nt.private {
						continue // not inherited
					}
					if old, dup := inherited[n]; dup && old != nt {
						nt = nil
					}
					inherited[n] = nt
				}
			}
		}
		for n, nt := range inherited {
			m[n] = nt
		}
		for n, nt := range t.nested {
			m[n] = nt
		}
		t.inheritedTypes = m
	})
	return t.inheritedTypes
}

// variable looks a name up among the variables visible at token i: the
// blocks around it, innermost first, up to the type's fields. found says
// a declaration hides any type of the name, whether or not its type is
// known.
func (r *fileRun) variable(name string, i int) (t *typeDef, found bool) {
	v, found := r.lookup(name, i)
	return v.t, found
}

// variableOf is what the declaration of the variable visible at token i
// says, the zero variable when none is.
func (r *fileRun) variableOf(name string, i int) variable {
	v, _ := r.lookup(name, i)
	return v
}

func (r *fileRun) lookup(name string, i int) (variable, bool) {
	// A lambda's parameters first, the innermost lambda's (the latest to
	// start before i) winning; a few of them looked at, back from i.
	ls := r.lambdaVars[name]
	k := sort.Search(len(ls), func(k int) bool { return ls[k].from >= i }) - 1
	for n := 0; k >= 0 && n < maxLambdas; k, n = k-1, n+1 {
		if i <= ls[k].to {
			return variable{t: ls[k].t}, true
		}
	}
	for b, n := r.block[i], 0; b >= 0 && n < maxHead; b, n = r.outer[b], n+1 {
		if v, ok := r.vars[b][name]; ok {
			return v, true
		}
	}
	return variable{}, false
}

// anonType is the project type the anonymous class whose body opens at
// b extends or implements (new T(...) {), nil for a library's.
func (r *fileRun) anonType(b int32) *typeDef {
	if _, d, _, ok := r.typeExpr(r.anon[b]); ok {
		return r.resolveDotted(d, r.x.line(r.anon[b]))
	}
	return nil
}

// typeBlock is the { of the innermost type body around token i, -1
// none.
func (r *fileRun) typeBlock(i int) int32 {
	for b, n := r.block[i], 0; b >= 0 && n < maxHead; b, n = r.outer[b], n+1 {
		if r.body[b] {
			return b
		}
	}
	return -1
}

// field looks a name up among the fields of the type whose body is
// around token i (this.name).
func (r *fileRun) field(name string, i int) *typeDef {
	if b := r.typeBlock(i); b >= 0 {
		return r.vars[b][name].t
	}
	return nil
}

// receiver is the type of the value before the member access at token k
// (a . or ::), and nil when the code does not state it.
func (r *fileRun) receiver(k int) *typeDef {
	x := r.x
	j := k - 1
	if x.is(j, ")") {
		o := int(r.opens[j])
		if o < 0 {
			return nil
		}
		if v := r.values[o]; v != nil {
			return v
		}
		// items.get(0), queue.peek(), stream.findFirst().get(): an
		// element of a container of a project type.
		if o >= 2 && x.isName(o-1) && x.is(o-2, ".") {
			if c := x.text(o - 1); giveElement[c] || c == "peek" && j == o+1 {
				return r.elements(o-3, 0)
			}
		}
		return nil
	}
	if !x.isName(j) {
		return nil
	}
	name, line := x.text(j), x.line(j)
	switch name {
	case "this":
		if x.is(j-1, ".") { // Outer.this
			if x.isName(j-2) && !x.is(j-3, ".") {
				return r.resolveType(x.text(j-2), line)
			}
			return nil
		}
		if b := r.typeBlock(j); b >= 0 && r.anon[b] > 0 {
			return r.anonType(b) // this in an anonymous class
		}
		return r.encl[line]
	case "super":
		if x.is(j-1, ".") {
			return nil
		}
		return r.super(r.encl[line])
	}
	if keywords[name] {
		return nil
	}
	if x.is(j-1, ".") {
		// this.field, or a qualified type: Outer.Inner, a.b.C.
		if x.is(j-2, "this") && !x.is(j-3, ".") {
			return r.field(name, j)
		}
		if r.static(j - 2) {
			if outer := r.resolveType(x.text(j-2), x.line(j-2)); outer != nil {
				return outer.nested[name]
			}
		}
		dotted := name
		for o, n := j-1, 0; x.is(o, ".") && x.isName(o-1) && n < maxDotted; o, n = o-2, n+1 {
			dotted = x.text(o-1) + "." + dotted
			if !x.is(o-2, ".") {
				if t, left := r.ix.qualified(r.fi, dotted, nil); t != nil && len(left) == 0 {
					return t
				}
			}
		}
		return nil
	}
	if t, found := r.variable(name, j); found {
		return t
	}
	return r.resolveType(name, line)
}

// static reports whether the name at token j stands for a type (its
// receiver a type's name, not a variable's).
func (r *fileRun) static(j int) bool {
	x := r.x
	if !x.isName(j) || x.is(j-1, ".") {
		return false
	}
	_, isVar := r.variable(x.text(j), j)
	return !isVar && r.resolveType(x.text(j), x.line(j)) != nil
}

// super is the class t extends, when the project defines it.
func (r *fileRun) super(t *typeDef) *typeDef {
	if t == nil {
		return nil
	}
	r.ix.supers(t)
	if t.base == "" {
		return nil
	}
	return r.ix.lexical(t, t.base)
}

// token resolves the name at token i, if it is a use of something the
// project defines.
func (r *fileRun) token(i int) {
	x := r.x
	if r.skip[i] || r.decl[i] || !x.isName(i) || keywords[x.text(i)] {
		return
	}
	name, line := x.text(i), x.line(i)
	call := x.is(i+1, "(")
	if x.is(i-1, ".") || x.is(i-1, "::") {
		recv := r.receiver(i - 1)
		if recv == nil {
			if t, start := r.qualifiedAt(i); t != nil {
				r.typeUse(i, t, x.is(start-1, "new"))
			}
			return
		}
		if call || x.is(i-1, "::") {
			if b := r.typeBlock(i); x.is(i-2, "this") && !x.is(i-3, ".") && b >= 0 && r.anonMethods[b][name] {
				return // this.m() of an anonymous class's own m
			}
			r.method(i, recv, name)
			return
		}
		if n := recv.nested[name]; n != nil && r.static(i-2) {
			r.emit(i, n.path, n.key, false)
		}
		return
	}
	if call && !x.is(i-1, "new") {
		if r.declares(i) {
			return
		}
		// In an anonymous class, its own methods and its type's come
		// before the enclosing types'.
		if b := r.typeBlock(i); b >= 0 && r.anon[b] > 0 {
			if r.anonMethods[b][name] {
				return
			}
			if t := r.anonType(b); t != nil && r.method(i, t, name) {
				return
			}
		}
		for t := r.encl[line]; t != nil; t = t.outer {
			if r.method(i, t, name) {
				return
			}
		}
		if t := r.sc.statics[name]; t != nil {
			r.method(i, t, name)
		}
		return
	}
	if _, isVar := r.variable(name, i); isVar {
		return
	}
	if x.is(i-1, "class") || x.is(i-1, "interface") || x.is(i-1, "enum") || x.is(i-1, "record") {
		return // the type's own declaration
	}
	t := r.resolveType(name, line)
	if t == nil {
		return
	}
	r.typeUse(i, t, x.is(i-1, "new"))
}

// typeUse reports the use of type t at token i (the last name of a
// qualified one), constructed when isNew, and what new T(...) gives.
func (r *fileRun) typeUse(i int, t *typeDef, isNew bool) {
	x := r.x
	r.emit(i, t.path, t.key, isNew)
	if !isNew {
		return
	}
	j := i + 1
	if x.is(j, "<") { // new T<>(...), new T<A, B>(...)
		for depth, limit := 0, j+maxGeneric; j < len(x.toks) && j < limit; j++ {
			if x.is(j, "<") {
				depth++
			} else if x.is(j, ">") {
				depth--
				if depth == 0 {
					j++
					break
				}
			}
		}
	}
	if x.is(j, "(") {
		r.values[j] = t
	}
}

// qualifiedAt resolves the dotted name that ends at token i as a fully
// qualified type (com.acme.shop.Cart), and gives the token it starts at.
func (r *fileRun) qualifiedAt(i int) (*typeDef, int) {
	x := r.x
	dotted, start := x.text(i), i
	for n := 0; start >= 2 && x.is(start-1, ".") && x.isName(start-2); n++ {
		if n == maxDotted {
			return nil, 0
		}
		start -= 2
		dotted = x.text(start) + "." + dotted
	}
	if start == i || x.is(start-1, ".") || x.is(start-1, "::") {
		return nil, 0
	}
	if _, isVar := r.variable(x.text(start), start); isVar {
		return nil, 0
	}
	if t, left := r.ix.qualified(r.fi, dotted, nil); t != nil && len(left) == 0 {
		return t, start
	}
	return nil, 0
}

// method reports the use at token i of method name on type t (or a
// supertype), a call when a ( follows, with as many arguments as it
// gives; and the type the call gives when the declaration says. It
// reports whether the project declares such a method.
func (r *fileRun) method(i int, t *typeDef, name string) bool {
	args, call := -1, r.x.is(i+1, "(")
	if call {
		args = r.arguments(i + 1)
	}
	owner, ret, ok := r.ix.member(t, name, args, map[*typeDef]bool{})
	if !ok {
		return false
	}
	r.emit(i, owner.path, owner.name+"."+name, call)
	if call && ret != "" {
		if v := r.ix.typeIn(owner, ret); v != nil {
			r.values[i+1] = v
		}
	}
	return true
}

// arguments counts the arguments of the call whose ( is token o (-1 when
// it does not close).
func (r *fileRun) arguments(o int) int {
	x := r.x
	c := int(r.closes[o])
	if c < 0 {
		return -1
	}
	if c == o+1 {
		return 0
	}
	if c-o > maxArgs {
		return -1
	}
	n, depth := 1, 0
	for k := o + 1; k < c; k++ {
		if x.is(k, "<") && (x.is(k-2, "new") || x.is(k-1, ".")) {
			// new T<A, B>(...), Collections.<A, B>of(): a generic's
			// commas are not the call's.
			for d, limit := 0, k+maxGeneric; k < c && k < limit; k++ {
				if x.is(k, "<") {
					d++
				} else if x.is(k, ">") {
					if d--; d == 0 {
						break
					}
				}
			}
			continue
		}
		switch {
		case x.is(k, "(") || x.is(k, "[") || x.is(k, "{"):
			depth++
		case x.is(k, ")") || x.is(k, "]") || x.is(k, "}"):
			depth--
		case depth == 0 && x.is(k, ","):
			n++
		}
	}
	return n
}

// declares reports whether the name at token i, before its (, is a
// method or constructor being declared rather than called: a call is
// never preceded by a type, a modifier or a type's >, and a constructor
// is named as its class.
func (r *fileRun) declares(i int) bool {
	x := r.x
	if e := r.encl[x.line(i)]; e != nil && e.name == x.text(i) {
		return true
	}
	switch {
	case x.is(i-1, ">") || x.is(i-1, "]"):
		return true
	case x.isName(i - 1):
		p := x.text(i - 1)
		return !keywords[p] || modifiers[p]
	}
	return false
}

func (r *fileRun) emit(i int, path, name string, call bool) {
	line, col := r.x.pos(i)
	r.out = append(r.out, refs.Ref{Line: line, Col: col, Path: path, Name: name, From: r.from[line], Call: call})
}
