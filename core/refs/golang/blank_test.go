package golang

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

const blankSource = `package p

type Reader interface {
	Read(p []byte) (n int, err error)
}

type Handler func(w Reader, code int)

type Stack[T any] struct{ items []T }

func (s *Stack[T]) Push(x, y T) (ok bool) { s.items = append(s.items, x, y); return true }

func Pair(a, b int, rest ...string) (sum int, err error) { return a + b, nil }

var visit = func(n int, more ...int) int { return n }
`

// The declarations a run keeps are checked with their parameters blanked
// (blankParams): every signature keeps its parameters' number and types,
// and the syntax is given back as it was for the check of the bodies.
func TestBlankParams(t *testing.T) {
	check := func(blank bool) (*types.Package, string) {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "p.go", blankSource, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files := []*ast.File{f}
		restore := func() {}
		if blank {
			restore = blankParams(files)
		}
		conf := types.Config{IgnoreFuncBodies: true, Error: func(err error) { t.Errorf("check: %v", err) }}
		pkg, _ := conf.Check("p", fset, files, nil)
		restore()
		var src bytes.Buffer
		if err := format.Node(&src, fset, f); err != nil {
			t.Fatal(err)
		}
		return pkg, src.String()
	}
	want, wantSrc := check(false)
	got, gotSrc := check(true)
	if gotSrc != wantSrc {
		t.Errorf("the syntax after blankParams' restore:\n%s\nwant\n%s", gotSrc, wantSrc)
	}
	// Signatures as importers see them: the types of the parameters and
	// results, in order, without their names.
	shape := func(sig *types.Signature) string {
		var b bytes.Buffer
		for _, tup := range []*types.Tuple{sig.Params(), sig.Results()} {
			for i := range tup.Len() {
				b.WriteString(tup.At(i).Type().String() + ";")
			}
			b.WriteString("|")
		}
		if sig.Variadic() {
			b.WriteString("...")
		}
		return b.String()
	}
	sigs := func(pkg *types.Package) map[string]string {
		out := map[string]string{}
		for _, name := range pkg.Scope().Names() {
			obj := pkg.Scope().Lookup(name)
			switch u := obj.Type().Underlying().(type) {
			case *types.Signature:
				out[name] = shape(u)
			case *types.Interface:
				for i := range u.NumMethods() {
					out[name+"."+u.Method(i).Name()] = shape(u.Method(i).Signature())
				}
			}
			if n, ok := obj.Type().(*types.Named); ok {
				for i := range n.NumMethods() {
					out[name+"."+n.Method(i).Name()] = shape(n.Method(i).Signature())
				}
			}
		}
		return out
	}
	w, g := sigs(want), sigs(got)
	if len(w) != 5 {
		t.Fatalf("the plain check found %d signatures, want 5: %v", len(w), w)
	}
	for name, s := range w {
		if g[name] != s {
			t.Errorf("%s: %q with its parameters blanked, %q without", name, g[name], s)
		}
	}
	if p := got.Scope().Lookup("Pair").Type().(*types.Signature).Params(); p.At(0).Name() != "_" {
		t.Errorf("Pair's first parameter is named %q in the declarations kept, want _", p.At(0).Name())
	}
}
