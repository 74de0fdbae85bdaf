package golang

import (
	"go/token"
	"go/types"

	"github.com/rubi-dev/rubi/core/refs"
)

// method is a method declared in a file asked for, where its name is:
// the line tables are gone by the time implementations are looked for.
type method struct {
	u         *unit
	fn        *types.Func
	path      string
	line, col int
	from      string // Type.Method
}

// methodsOf lists the methods declared on pkg's named types, as they
// are positioned in fset (whose line tables are still there).
func methodsOf(u *unit, pkg *types.Package, fset *token.FileSet) []method {
	if pkg == nil {
		return nil
	}
	var out []method
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		n, ok := tn.Type().(*types.Named)
		if !ok || n.TypeParams().Len() > 0 {
			continue
		}
		if _, iface := n.Underlying().(*types.Interface); iface {
			continue
		}
		for i := range n.NumMethods() {
			fn := n.Method(i)
			p := fset.PositionFor(fn.Pos(), false)
			if p.Line == 0 {
				continue
			}
			out = append(out, method{u: u, fn: fn, path: p.Filename, line: p.Line, col: p.Column, from: tn.Name() + "." + fn.Name()})
		}
	}
	return out
}

// checked is a package checked in a run, with its unit.
type checked struct {
	u   *unit
	pkg *types.Package
}

// implementations returns, by file, at the declaration of each method of
// methods, a reference (Impl) to each interface method it implements: of each
// interface its type (or a pointer to it) implements, declared in its
// own package or, exported, in a package its package imports directly or
// not. Those are the interfaces a run that resolves the method's package
// alone also checks, so resolving a few packages again gives their files
// the references a full run gives them (an interface declared by a
// package that imports the type's, the consumer's side of Go's implicit
// interfaces, is not paired). Interfaces are found by their first
// method's name among the type's methods, so a type is checked against
// the few interfaces it may implement, not all.
func (r *run) implementations(pkgs []checked, methods []method) map[string][]refs.Ref {
	type iface struct {
		u *unit
		n *types.Named
	}
	byFirst := map[string][]iface{}
	for _, cp := range pkgs {
		scope := cp.pkg.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			n, ok := tn.Type().(*types.Named)
			if !ok || n.TypeParams().Len() > 0 {
				continue
			}
			it, ok := n.Underlying().(*types.Interface)
			if !ok || it.NumMethods() == 0 || !it.IsMethodSet() {
				continue
			}
			first := it.Method(0).Name()
			byFirst[first] = append(byFirst[first], iface{cp.u, n})
		}
	}
	c := newCollector(r.fset)
	impl := map[string][]refs.Ref{}
	// Methods come grouped by type (methodsOf lists a type's together),
	// and by unit (record): the closure of one unit at a time.
	var (
		last *unit
		sees []uint64
	)
	for i := 0; i < len(methods); {
		recv := methods[i].fn.Signature().Recv().Type()
		if p, ok := recv.(*types.Pointer); ok {
			recv = p.Elem()
		}
		j := i
		own := map[*types.Func]*method{}
		for ; j < len(methods) && types.Identical(recvBase(methods[j].fn), recv); j++ {
			own[methods[j].fn] = &methods[j]
		}
		ptr := types.NewPointer(recv)
		mset := types.NewMethodSet(ptr)
		u := methods[i].u
		if u != last {
			last, sees = u, r.g.closure(u)
		}
		tried := map[*types.Named]bool{}
		for k := range mset.Len() {
			for _, in := range byFirst[mset.At(k).Obj().Name()] {
				n := in.n
				if tried[n] || !seen(sees, in.u) || in.u != u && !n.Obj().Exported() {
					continue
				}
				tried[n] = true
				it := n.Underlying().(*types.Interface)
				if !types.Implements(ptr, it) {
					continue
				}
				for m := range it.NumMethods() {
					im := it.Method(m)
					sel := mset.Lookup(im.Pkg(), im.Name())
					if sel == nil {
						continue
					}
					decl := own[sel.Obj().(*types.Func)]
					t := c.key(im)
					if decl == nil || t == nil {
						continue
					}
					impl[decl.path] = append(impl[decl.path], refs.Ref{Line: decl.line, Col: decl.col, Path: t.path, Name: t.name, From: decl.from, Impl: true})
				}
			}
		}
		i = j
	}
	return impl
}

// recvBase is the type a method is declared on, without the pointer.
func recvBase(fn *types.Func) types.Type {
	t := fn.Signature().Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
