package golang

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A reference is an identifier go/types resolves to one of the project's
// declarations, so its name is that declaration's: a function body none
// of whose identifiers is named as a declaration the package can see
// holds no reference, and neither its check nor its references change
// anything outside it (a body declares nothing its package or another
// body sees). Such bodies are stripped before the whole check, as those
// of generated files are: on kubernetes about a third of the functions.
//
// The names come from the syntax of the packages checked: each unit's
// top-level declarations, methods and interface methods (declaredNames),
// registered before its declarations are checked, so before any package
// that imports it starts. A name counts for a unit when a package it
// sees (itself and what it imports, directly or not: unit.sees) declares
// it; an object of any other package cannot reach it through types.
// The selectors of an import the project does not hold (pkg.Name where
// pkg names a package outside it) resolve to nothing and do not count,
// unless the function declares a local of that name too.

// declaredNames lists the names files declare that a reference can
// target: top-level functions, types, variables and constants, methods,
// and the methods of the interfaces declared at top level.
func declaredNames(files []parsed) []string {
	var out []string
	for _, pf := range files {
		if pf.excluded {
			continue
		}
		for _, d := range pf.file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				out = append(out, d.Name.Name)
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						out = append(out, s.Name.Name)
						if it, ok := ast.Unparen(s.Type).(*ast.InterfaceType); ok && it.Methods != nil {
							for _, m := range it.Methods.List {
								for _, n := range m.Names {
									out = append(out, n.Name)
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							out = append(out, n.Name)
						}
					}
				}
			}
		}
	}
	return out
}

// pruner strips the bodies of one unit's files that hold no reference.
type pruner struct {
	// visible says a package the unit sees declares the name.
	visible func(string) bool
	// external are the names a file binds to packages outside the
	// project, and nothing else.
	external map[string]bool
	// defs are the identifiers a body declares (never a use), locals
	// their names, skipped the selectors of external names met.
	defs    map[*ast.Ident]bool
	locals  map[string]bool
	skipped []*ast.SelectorExpr
}

func newPruner(visible func(string) bool) *pruner {
	return &pruner{visible: visible, external: map[string]bool{}, defs: map[*ast.Ident]bool{}, locals: map[string]bool{}}
}

// file strips the bodies of f's functions that hold no reference, given
// the project's packages the file's imports resolve to (byPath; any
// other import is a package outside the project, empty). It returns
// how many it stripped, and the bytes of source they spanned.
func (p *pruner) file(f *ast.File, byPath map[string]*types.Package) (stripped, bytes int) {
	clear(p.external)
	for _, im := range f.Imports {
		spec := importPath(im)
		if spec == "" || spec == "C" {
			continue
		}
		pkg := byPath[spec]
		name := lastElem(spec) // as the importer names an empty package
		switch {
		case im.Name != nil:
			name = im.Name.Name
		case pkg != nil:
			name = pkg.Name()
		}
		if name == "_" || name == "." {
			continue
		}
		if was, ok := p.external[name]; !ok || was {
			p.external[name] = pkg == nil
		}
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && !p.holds(fd) {
			bytes += int(fd.Body.Rbrace - fd.Body.Lbrace)
			stripBody(fd)
			stripped++
		}
	}
	return stripped, bytes
}

// holds says fd's body may hold a reference.
func (p *pruner) holds(fd *ast.FuncDecl) bool {
	clear(p.defs)
	clear(p.locals)
	p.skipped = p.skipped[:0]
	// The receiver and parameters may shadow an import's name.
	for _, fl := range []*ast.FieldList{fd.Recv, fd.Type.TypeParams, fd.Type.Params, fd.Type.Results} {
		if fl != nil {
			for _, fi := range fl.List {
				for _, n := range fi.Names {
					p.locals[n.Name] = true
				}
			}
		}
	}
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.Ident:
			if !p.defs[n] && p.visible(n.Name) {
				found = true
			}
			return false
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && p.external[x.Name] {
				p.skipped = append(p.skipped, n)
				return false
			}
		case *ast.InterfaceType:
			// A local interface's methods are targets too (Iface.Method
			// of a type declared in the body).
			if n.Methods != nil && len(n.Methods.List) > 0 {
				found = true
				return false
			}
		case *ast.BranchStmt:
			return false // a label
		default:
			for _, id := range declaredBy(n) {
				if id != nil {
					p.defs[id] = true
					p.locals[id.Name] = true
				}
			}
		}
		return true
	})
	if found {
		return true
	}
	// A selector taken for an external package's was a local's.
	for _, s := range p.skipped {
		if p.locals[s.X.(*ast.Ident).Name] && p.visible(s.Sel.Name) {
			return true
		}
	}
	return false
}

// declaredBy returns the identifiers n declares: a body's locals, its
// function literals' parameters, its types' fields and labels.
func declaredBy(n ast.Node) []*ast.Ident {
	switch n := n.(type) {
	case *ast.Field:
		return n.Names
	case *ast.ValueSpec:
		return n.Names
	case *ast.TypeSpec:
		return []*ast.Ident{n.Name}
	case *ast.AssignStmt:
		if n.Tok == token.DEFINE {
			out := make([]*ast.Ident, 0, len(n.Lhs))
			for _, e := range n.Lhs {
				if id, ok := e.(*ast.Ident); ok {
					out = append(out, id)
				}
			}
			return out
		}
	case *ast.RangeStmt:
		if n.Tok == token.DEFINE {
			k, _ := n.Key.(*ast.Ident)
			v, _ := n.Value.(*ast.Ident)
			return []*ast.Ident{k, v}
		}
	case *ast.LabeledStmt:
		return []*ast.Ident{n.Label}
	}
	return nil
}

// stripBody replaces fd's body by one that panics: a body is still
// there (no "missing body" error) and ends in a terminating statement
// (no "missing return"), and nothing in it is checked.
func stripBody(fd *ast.FuncDecl) {
	at := fd.Body.Lbrace
	fd.Body = &ast.BlockStmt{Lbrace: at, Rbrace: fd.Body.Rbrace, List: []ast.Stmt{
		&ast.ExprStmt{X: &ast.CallExpr{Fun: &ast.Ident{NamePos: at, Name: "panic"}, Lparen: at, Args: []ast.Expr{&ast.Ident{NamePos: at, Name: "nil"}}, Rparen: at}},
	}}
}
