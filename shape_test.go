package rubi_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxParams is the most parameters a function of core/ takes (its
// receiver aside). Past it, callers pass positional values whose order
// only the signature tells, and what belongs together (a run's state, a
// query's) wants a type of its own.
const maxParams = 6

// maxEngineMethods is the most methods pipeline.Engine has. The engine is
// the pipeline's face: its configuration, host, stages and manifest, and
// the public entry points. The jobs behind them (an index run, a refresh
// of the notes, the maps, the answer) are types of their own; an engine
// that grows past this is doing one of their jobs again.
const maxEngineMethods = 40

// goFiles parses the Go files under each of dirs, tests and testdata
// left out, by slash path: what the repository's shape tests (this file,
// reads_test.go, switches_test.go) read.
func goFiles(t *testing.T, dirs ...string) (*token.FileSet, map[string]*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			files[filepath.ToSlash(path)] = f
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return fset, files
}

// No function, method or function literal of core/ (tests aside) takes
// more than maxParams parameters.
func TestNoFunctionTakesMoreThanSixParameters(t *testing.T) {
	fset, files := goFiles(t, "core")
	if len(files) < 100 {
		t.Fatalf("found %d Go files in core/", len(files))
	}
	var found []string
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			var name string
			var typ *ast.FuncType
			switch fn := n.(type) {
			case *ast.FuncDecl:
				name, typ = fn.Name.Name, fn.Type
			case *ast.FuncLit:
				name, typ = "a function literal", fn.Type
			default:
				return true
			}
			if n := countFields(typ.Params); n > maxParams {
				found = append(found, fmt.Sprintf("%s: %s takes %d parameters", fset.Position(typ.Pos()), name, n))
			}
			return true
		})
	}
	slices.Sort(found)
	for _, f := range found {
		t.Error(f)
	}
	if len(found) > 0 {
		t.Logf("at most %d parameters: group what belongs together in a type (a run, a query), or make the function a method of the value most of them come from", maxParams)
	}
}

// countFields counts the parameters of a list: "a, b int" is two.
func countFields(fl *ast.FieldList) int {
	if fl == nil {
		return 0
	}
	n := 0
	for _, f := range fl.List {
		n += max(1, len(f.Names))
	}
	return n
}

// pipeline.Engine has at most maxEngineMethods methods (on Engine and
// *Engine, in core/pipeline's files, tests aside).
func TestEngineIsAFacade(t *testing.T) {
	fset, files := goFiles(t, "core/pipeline")
	var methods []string
	for _, f := range files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || len(fn.Recv.List) != 1 {
				continue
			}
			typ := fn.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			if id, ok := typ.(*ast.Ident); ok && id.Name == "Engine" {
				methods = append(methods, fmt.Sprintf("%s: %s", filepath.Base(fset.Position(fn.Pos()).Filename), fn.Name.Name))
			}
		}
	}
	if len(methods) < 5 {
		t.Fatalf("found %d methods of pipeline.Engine: %v", len(methods), methods)
	}
	if len(methods) > maxEngineMethods {
		slices.Sort(methods)
		t.Errorf("pipeline.Engine has %d methods, more than %d: its jobs belong to types of their own (indexRun, notesRun, codeMaps, stageSet, indexFolder):\n%s",
			len(methods), maxEngineMethods, strings.Join(methods, "\n"))
	}
}
