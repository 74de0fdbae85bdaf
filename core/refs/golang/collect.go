package golang

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/rubi-dev/rubi/core/refs"
)

// target is a symbol key: the defining file and the qualified name.
type target struct {
	path, name string
}

// collector turns the uses go/types recorded into references, one unit
// at a time.
type collector struct {
	fset *token.FileSet
	// keys caches each object's key (nil: not a symbol of the project), so
	// that the strings of a target are made once per unit.
	keys map[types.Object]*target
	// calls marks the identifiers the walk met as the callee of a call
	// (callee) or the type of a composite literal (built).
	calls map[*ast.Ident]uint8
}

const (
	callee = 1 + iota
	built
)

func newCollector(fset *token.FileSet) *collector {
	return &collector{fset: fset, keys: map[types.Object]*target{}, calls: map[*ast.Ident]uint8{}}
}

// key returns the symbol key of obj, or nil when obj is not one of the
// project's top-level declarations or methods.
func (c *collector) key(obj types.Object) *target {
	if t, ok := c.keys[obj]; ok {
		return t
	}
	t := c.keyOf(obj)
	c.keys[obj] = t
	return t
}

func (c *collector) keyOf(obj types.Object) *target {
	pkg := obj.Pkg()
	if pkg == nil {
		return nil // the universe: int, len, error
	}
	name := ""
	switch o := obj.(type) {
	case *types.Func:
		o = o.Origin()
		obj = o
		name = o.Name()
		if recv := o.Signature().Recv(); recv != nil {
			base := recvType(recv.Type())
			if base == "" {
				return nil
			}
			name = base + "." + name
		}
	case *types.TypeName, *types.Const:
		if obj.Parent() != pkg.Scope() {
			return nil // local, or a type parameter
		}
		name = obj.Name()
	case *types.Var:
		if o.IsField() || o.Parent() != pkg.Scope() {
			return nil
		}
		name = o.Name()
	default:
		return nil
	}
	if name == "_" || !obj.Pos().IsValid() {
		return nil
	}
	tf := c.fset.File(obj.Pos())
	if tf == nil {
		return nil
	}
	return &target{path: tf.Name(), name: name}
}

// local says obj is a local variable, a parameter or a field, or no
// declaration at all (a package name, a builtin, a label): most of the
// identifiers a body uses, told apart without a map lookup.
func local(obj types.Object) bool {
	switch o := obj.(type) {
	case *types.Var:
		return o.Pkg() == nil || o.Parent() != o.Pkg().Scope()
	case *types.PkgName, *types.Builtin, *types.Nil, *types.Label:
		return true
	}
	return false
}

// recvType is the name of a method's receiver's base type, as lang.go
// names a method's parent: T for T, *T and T[K]; an interface's methods
// have their named interface.
func recvType(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj().Name()
	}
	return ""
}

// file returns the references of a type-checked file, in source order.
func (c *collector) file(f *ast.File, info *types.Info) []refs.Ref {
	tf := c.fset.File(f.FileStart)
	if tf == nil {
		return nil
	}
	clear(c.calls)
	var out []refs.Ref
	from := ""
	visit := func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if id := terminal(n.Fun); id != nil {
				c.calls[id] = callee
			}
		case *ast.CompositeLit:
			if id := terminal(n.Type); id != nil {
				c.calls[id] = built
			}
		case *ast.Ident:
			obj := info.Uses[n]
			if obj == nil || local(obj) {
				return false
			}
			t := c.key(obj)
			if t == nil {
				return false
			}
			call := false
			switch c.calls[n] {
			case callee:
				_, call = obj.(*types.Func)
			case built:
				_, call = obj.(*types.TypeName)
			}
			p := tf.PositionFor(n.NamePos, false)
			out = append(out, refs.Ref{Line: p.Line, Col: p.Column, Path: t.path, Name: t.name, From: from, Call: call})
			return false
		}
		return true
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			from = funcName(d)
			ast.Inspect(d, visit)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				from = ""
				if ts, ok := s.(*ast.TypeSpec); ok && ts.Name != nil {
					from = ts.Name.Name
				}
				ast.Inspect(s, visit)
			}
		}
	}
	return out
}

// terminal is the identifier an expression names a function or a type
// by: f, pkg.F, x.M, f[T], (T).
func terminal(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			return x.Sel
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// funcName is a function's qualified name: Name, or Recv.Name for a
// method.
func funcName(d *ast.FuncDecl) string {
	if d.Name == nil {
		return ""
	}
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	if r := ReceiverName(d.Recv.List[0].Type); r != "" {
		return r + "." + d.Name.Name
	}
	return d.Name.Name
}

// ReceiverName is the base type name of a method's receiver type: Stack
// for *Stack[T], as go/types names the type the method belongs to; ""
// for a receiver go/parser could not read. The parser lang.go names
// methods by it too, so that a method's symbol (Parent.Name) and the
// references to it use one key.
func ReceiverName(t ast.Expr) string {
	for {
		switch e := t.(type) {
		case *ast.StarExpr:
			t = e.X
		case *ast.ParenExpr:
			t = e.X
		case *ast.IndexExpr:
			t = e.X
		case *ast.IndexListExpr:
			t = e.X
		case *ast.Ident:
			if e.Name == "_" {
				return ""
			}
			return e.Name
		default:
			return ""
		}
	}
}
