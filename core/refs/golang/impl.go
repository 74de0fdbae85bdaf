package golang

import (
	"cmp"
	"go/token"
	"go/types"
	"slices"

	"github.com/rubi-dev/rubi/core/refs"
)

// method is a method declared in a file asked for, where its name is.
type method struct {
	fn        *types.Func
	path      string
	line, col int
	from      string // Type.Method
}

// methodsOf lists the methods declared on pkg's named types, as they
// are positioned in fset (whose line tables are still there).
func methodsOf(pkg *types.Package, fset *token.FileSet) []method {
	if pkg == nil {
		return nil
	}
	var out []method
	for _, n := range namedTypes(pkg) {
		if _, iface := n.Underlying().(*types.Interface); iface {
			continue
		}
		for i := range n.NumMethods() {
			fn := n.Method(i)
			p := fset.PositionFor(fn.Pos(), false)
			if p.Line == 0 {
				continue
			}
			out = append(out, method{fn: fn, path: p.Filename, line: p.Line, col: p.Column, from: n.Obj().Name() + "." + fn.Name()})
		}
	}
	return out
}

// namedTypes are the named types pkg declares at top level, in name
// order: no alias, no generic type (what methods pair with).
func namedTypes(pkg *types.Package) []*types.Named {
	var out []*types.Named
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if n, ok := tn.Type().(*types.Named); ok && n.TypeParams().Len() == 0 {
			out = append(out, n)
		}
	}
	return out
}

// iface is an interface a unit declares, indexed for pairing by its
// first method's name (run.ifaces).
type iface struct {
	u *unit
	n *types.Named
}

// index adds the interfaces pkg, u's declarations, declares at top level
// to those the run pairs methods with, by their first method's name: a
// type is checked against the few interfaces it may implement, not all.
func (r *run) index(u *unit, pkg *types.Package) {
	if pkg == nil {
		return
	}
	named := namedTypes(pkg)
	r.ifacesMu.Lock()
	defer r.ifacesMu.Unlock()
	for _, n := range named {
		it, ok := n.Underlying().(*types.Interface)
		if !ok || it.NumMethods() == 0 || !it.IsMethodSet() {
			continue
		}
		first := it.Method(0).Name()
		r.ifaces[first] = append(r.ifaces[first], iface{u, n})
		if !slices.Contains(u.ifaces, first) {
			u.ifaces = append(u.ifaces, first)
		}
	}
}

// unindex takes u's interfaces out of those the run pairs with: no unit
// left can see them.
func (r *run) unindex(u *unit) {
	r.ifacesMu.Lock()
	defer r.ifacesMu.Unlock()
	for _, first := range u.ifaces {
		l := slices.DeleteFunc(r.ifaces[first], func(in iface) bool { return in.u == u })
		if len(l) == 0 {
			delete(r.ifaces, first)
		} else {
			r.ifaces[first] = l
		}
	}
	u.ifaces = nil
}

// pair returns, by file, at the declaration of each method of methods
// (u's, declared in its files), a reference (Impl) to each interface
// method it implements: of each interface its type (or a pointer to it)
// implements, declared in its own package or, exported, in a package its
// package imports directly or not (sees, u's closure). Those are the
// interfaces a run that resolves the method's package alone also
// checks, so resolving a few packages again gives their files the
// references a full run gives them (an interface declared by a package
// that imports the type's, the consumer's side of Go's implicit
// interfaces, is not paired). Those packages are all declared before u
// is checked, so each unit is paired as it is checked, and no
// declaration is kept for a pairing at the end of the run.
func (r *run) pair(u *unit, methods []method, sees []uint64) map[string][]refs.Ref {
	if len(methods) == 0 {
		return nil
	}
	c := newCollector(r.fset)
	impl := map[string][]refs.Ref{}
	r.ifacesMu.RLock()
	defer r.ifacesMu.RUnlock()
	// Methods come grouped by type (methodsOf lists a type's together).
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
		tried := map[*types.Named]bool{}
		for k := range mset.Len() {
			for _, in := range r.ifaces[mset.At(k).Obj().Name()] {
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

// withImpl adds the Impl references of impl to the references found, by
// file, in the order of a file's references (line, column, then the
// target), without duplicates.
func withImpl(found, impl map[string][]refs.Ref) map[string][]refs.Ref {
	if len(impl) == 0 {
		return found
	}
	if found == nil {
		found = map[string][]refs.Ref{}
	}
	for f, rs := range impl {
		rs = append(found[f], rs...)
		slices.SortFunc(rs, func(a, b refs.Ref) int {
			return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col), cmp.Compare(a.Path, b.Path), cmp.Compare(a.Name, b.Name), cmp.Compare(a.From, b.From), boolCmp(a.Impl, b.Impl))
		})
		found[f] = slices.CompactFunc(rs, func(a, b refs.Ref) bool { return a == b })
	}
	return found
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
