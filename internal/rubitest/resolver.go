package rubitest

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"slices"

	"github.com/rubi-dev/rubi/core/refs"
)

// GoCalls is a resolver of references (core/refs) for tests: Go calls
// within a package, typed from what the code states (a receiver's or
// parameter's type, x := T{} or &T{}), which is enough to tell Cart.Total
// from Invoice.Total in Callers. Asked, when set, records the files each
// Refs call was given.
type GoCalls struct{ Asked *[][]string }

func (GoCalls) Languages() []string { return []string{"go"} }

// Version names the resolver's rules.
func (GoCalls) Version() string { return "1" }

// Affected is a changed file's package: its folder's Go files.
func (GoCalls) Affected(p refs.Project, changed []string) []string {
	var out []string
	for _, c := range changed {
		for _, f := range p.Files("go") {
			if path.Dir(f) == path.Dir(c) {
				out = append(out, f)
			}
		}
	}
	return out
}

func (g GoCalls) Refs(ctx context.Context, p refs.Project, want []string) (map[string][]refs.Ref, error) {
	if g.Asked != nil {
		*g.Asked = append(*g.Asked, slices.Clone(want))
	}
	out := map[string][]refs.Ref{}
	for _, file := range want {
		// The package's definitions, by qualified name: where each is.
		defined := map[string]string{}
		for _, f := range p.Files("go") {
			if path.Dir(f) != path.Dir(file) {
				continue
			}
			facts, _ := p.Facts(f)
			for _, s := range facts.Symbols {
				name := s.Name
				if s.Parent != "" {
					name = s.Parent + "." + s.Name
				}
				defined[name] = f
			}
		}
		src, err := p.Read(file)
		if err != nil {
			continue
		}
		fset := token.NewFileSet()
		af, _ := parser.ParseFile(fset, file, src, 0)
		if af == nil {
			continue
		}
		for _, decl := range af.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			types := map[string]string{}
			from := fn.Name.Name
			for _, fl := range []*ast.FieldList{fn.Recv, fn.Type.Params} {
				if fl == nil {
					continue
				}
				for _, field := range fl.List {
					for _, n := range field.Names {
						types[n.Name] = typeName(field.Type)
					}
					if fl == fn.Recv {
						from = typeName(field.Type) + "." + fn.Name.Name
					}
				}
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.AssignStmt:
					for i, rhs := range n.Rhs {
						if u, ok := rhs.(*ast.UnaryExpr); ok {
							rhs = u.X
						}
						if lit, ok := rhs.(*ast.CompositeLit); ok && i < len(n.Lhs) {
							if id, ok := n.Lhs[i].(*ast.Ident); ok {
								types[id.Name] = typeName(lit.Type)
							}
						}
					}
				case *ast.CallExpr:
					var name string
					var at token.Pos
					switch fun := n.Fun.(type) {
					case *ast.Ident:
						name, at = fun.Name, fun.Pos()
					case *ast.SelectorExpr:
						if x, ok := fun.X.(*ast.Ident); ok && types[x.Name] != "" {
							name, at = types[x.Name]+"."+fun.Sel.Name, fun.Sel.Pos()
						}
					}
					if def, ok := defined[name]; ok {
						pos := fset.Position(at)
						out[file] = append(out[file], refs.Ref{Line: pos.Line, Col: pos.Column, Path: def, Name: name, From: from, Call: true})
					}
				}
				return true
			})
		}
	}
	return out, ctx.Err()
}

func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return typeName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}
