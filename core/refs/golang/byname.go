package golang

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/rubi-dev/rubi/core/refs"
)

// declarations are a package's top-level declarations as its importers
// see them (pkg, checked without the functions dropFuncs dropped), and
// those functions from its whole check (all).
type declarations struct {
	pkg, all *types.Package
	dropped  map[string]bool
}

// lookup is the package's declaration of name, nil when none.
func (d declarations) lookup(name string) types.Object {
	p := d.pkg
	if d.dropped[name] {
		p = d.all
	}
	if p == nil {
		return nil
	}
	return p.Scope().Lookup(name)
}

// byName returns the references of a file the build leaves out (another
// system's variant, a //go:build ignore program), which go/types cannot
// check with its package: those its names tell without types. pkg.Name
// where pkg is an import of a project package checked, and a bare name
// that is no local declaration of its function: the file's own top-level
// declaration of that name first, else its package's (pkg, checked
// without this file). A method or a field (x.Name) needs the type of x
// and is left out, as is a key in a composite literal (a field's name,
// mostly).
func (c *collector) byName(f *ast.File, pkg declarations, byPath map[string]*types.Package) []refs.Ref {
	tf := c.fset.File(f.FileStart)
	if tf == nil {
		return nil
	}
	clear(c.calls)
	// own: the file's top-level names, each with the way a use of it
	// calls (callee: a function; built: a type).
	type decl struct {
		t    *target
		kind uint8
	}
	own := map[string]decl{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name != nil {
				own[d.Name.Name] = decl{&target{path: tf.Name(), name: d.Name.Name}, callee}
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					own[s.Name.Name] = decl{&target{path: tf.Name(), name: s.Name.Name}, built}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						own[n.Name] = decl{&target{path: tf.Name(), name: n.Name}, 0}
					}
				}
			}
		}
	}
	imports := map[string]*types.Package{}
	for _, im := range f.Imports {
		ip := byPath[importPath(im)]
		switch {
		case ip == nil:
		case im.Name == nil:
			imports[ip.Name()] = ip
		case im.Name.Name != "_" && im.Name.Name != ".":
			imports[im.Name.Name] = ip
		}
	}
	lookup := func(name string) (*target, uint8) {
		if d, ok := own[name]; ok {
			return d.t, d.kind
		}
		obj := pkg.lookup(name)
		if obj == nil {
			return nil, 0
		}
		return c.key(obj), kindOf(obj)
	}
	var out []refs.Ref
	add := func(id *ast.Ident, t *target, from string, call bool) {
		p := tf.PositionFor(id.NamePos, false)
		out = append(out, refs.Ref{Line: p.Line, Col: p.Column, Path: t.path, Name: t.name, From: from, Call: call})
	}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			continue
		}
		from := ""
		if fd, ok := d.(*ast.FuncDecl); ok {
			from = funcName(fd)
		}
		locals, declaring := declared(d)
		var walk func(n ast.Node) bool
		walk = func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.TypeSpec:
				if fd, ok := d.(*ast.GenDecl); ok && fd.Tok == token.TYPE {
					from = n.Name.Name
				}
			case *ast.CallExpr:
				if id := terminal(n.Fun); id != nil {
					c.calls[id] = callee
				}
			case *ast.CompositeLit:
				if id := terminal(n.Type); id != nil {
					c.calls[id] = built
				}
				if n.Type != nil {
					ast.Inspect(n.Type, walk)
				}
				for _, e := range n.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						if _, key := kv.Key.(*ast.Ident); !key {
							ast.Inspect(kv.Key, walk)
						}
						ast.Inspect(kv.Value, walk)
						continue
					}
					ast.Inspect(e, walk)
				}
				return false
			case *ast.SelectorExpr:
				x, ok := n.X.(*ast.Ident)
				if !ok {
					ast.Inspect(n.X, walk)
					return false
				}
				if ip := imports[x.Name]; ip != nil && !locals[x.Name] {
					if obj := ip.Scope().Lookup(n.Sel.Name); obj != nil {
						if t := c.key(obj); t != nil {
							add(n.Sel, t, from, c.calls[n.Sel] != 0 && c.calls[n.Sel] == kindOf(obj))
						}
					}
					return false
				}
				ast.Inspect(x, walk)
				return false
			case *ast.Ident:
				if declaring[n] || locals[n.Name] {
					return false
				}
				if t, kind := lookup(n.Name); t != nil {
					add(n, t, from, c.calls[n] != 0 && c.calls[n] == kind)
				}
				return false
			}
			return true
		}
		ast.Inspect(d, walk)
	}
	clear(c.calls)
	return out
}

// declared lists the names a top-level declaration declares inside it
// (parameters, results, receivers, local variables, constants, types and
// labels: any use of such a name in it is taken for the local one) and
// the identifiers that declare something, its own name included.
func declared(d ast.Decl) (map[string]bool, map[*ast.Ident]bool) {
	locals := map[string]bool{}
	decl := map[*ast.Ident]bool{}
	top := true
	ast.Inspect(d, func(n ast.Node) bool {
		local := func(ids ...*ast.Ident) {
			for _, id := range ids {
				if id != nil {
					decl[id] = true
					if !top {
						locals[id.Name] = true
					}
				}
			}
		}
		switch n := n.(type) {
		case *ast.FuncDecl:
			local(n.Name)
			top = false
		case *ast.BlockStmt:
			top = false
		case *ast.Field:
			// A parameter, a result, a receiver, or a field, whose
			// name is no use of a top-level one either.
			for _, id := range n.Names {
				decl[id] = true
				locals[id.Name] = true
			}
		case *ast.TypeSpec:
			local(n.Name)
			if n.TypeParams != nil {
				for _, f := range n.TypeParams.List {
					for _, id := range f.Names {
						locals[id.Name] = true
					}
				}
			}
		case *ast.ValueSpec:
			local(n.Names...)
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, e := range n.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						local(id)
					}
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok {
						local(id)
					}
				}
			}
		case *ast.LabeledStmt:
			local(n.Label)
		case *ast.BranchStmt:
			local(n.Label)
		}
		return true
	})
	return locals, decl
}

// kindOf is the way a use calls obj: callee for a function, built for a
// type (a composite literal of it), 0 for what cannot be called.
func kindOf(obj types.Object) uint8 {
	switch obj.(type) {
	case *types.Func:
		return callee
	case *types.TypeName:
		return built
	}
	return 0
}
