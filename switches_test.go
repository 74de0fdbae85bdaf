package rubi_test

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// registries are the package-level functions that may store into their
// package's state, by "folder function", and the only calls an init
// function may make, by "folder callee" as written: registries, filled
// once as the program starts, never switched later. Anything else a
// program decides (the plugin launcher, one-shot reads, the comment
// masker, the hook program finder, garbage collection) is an option its
// main or its command hands down.
var registries = map[string]string{
	"core Register":                         "the stage registry: each built-in stage registers its factory under its namespaced name, and the host opens the one rubi.hcl names",
	"plugins/* core.Register":               "a built-in stage registering itself (core.Register)",
	"plugins/lang-regex register":           "the regex parser's table of languages: each language's file adds its syntax and extractor",
	"plugins/lang-regex java.register":      "the regex parser's table of languages, for a class-based language (classlang.go)",
	"plugins/lang-regex kotlin.register":    "the regex parser's table of languages, for a class-based language (classlang.go)",
	"plugins/lang-regex dart.register":      "the regex parser's table of languages, for a class-based language (classlang.go)",
	"plugins/lang-treesitter register":      "the tree-sitter parser's table of languages: each language's file adds its grammar and rules",
	"core/pluginsdk encoding.RegisterCodec": "gRPC's codec registry: the plugin protocol's JSON codec, which the connections go-plugin makes look up by name",
}

// No package of core/, agent/, plugins/, internal/ or cmd/ (tests aside)
// keeps a process-wide switch: no exported Set* or Register* function that
// stores into its package's state, no assignment to another package's
// variable, no init function doing more than registering into one of
// registries (a table computed at start is a variable's initializer), and
// no runtime/debug setting (garbage collection, memory limit) made outside
// a program's main.
// Otherwise what a program does would depend on what it linked and who
// called what first.
func TestNoProcessWideSwitches(t *testing.T) {
	fset, parsed := goFiles(t, "core", "agent", "plugins", "internal", "cmd")
	used := map[string]bool{}
	files := map[string][]*ast.File{} // by folder
	for path, f := range parsed {
		dir := filepath.ToSlash(filepath.Dir(path))
		files[dir] = append(files[dir], f)
	}
	if len(files) < 50 {
		t.Fatalf("found the Go files of %d folders", len(files))
	}
	allowed := func(dir, name string) bool {
		key := dir + " " + name
		if _, ok := registries[key]; !ok && strings.HasPrefix(dir, "plugins/") {
			key = "plugins/* " + name
		}
		if _, ok := registries[key]; ok {
			used[key] = true
			return true
		}
		return false
	}
	for dir, fs := range files {
		state := packageVars(fs)
		for _, f := range fs {
			imports := importNames(f)
			debugName := ""
			for _, imp := range f.Imports {
				if p, _ := strconv.Unquote(imp.Path.Value); p == "runtime/debug" {
					debugName = "debug"
					if imp.Name != nil {
						debugName = imp.Name.Name
					}
				}
			}
			for _, decl := range f.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				// Assignments to another package's variable, and the
				// collector's settings outside a program's main (cmd/) and
				// what mains share (internal/programs).
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					if call, ok := n.(*ast.CallExpr); ok && debugName != "" && !strings.HasPrefix(dir, "cmd/") && dir != "internal/programs" {
						if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
							if x, ok := sel.X.(*ast.Ident); ok && x.Name == debugName && (sel.Sel.Name == "SetGCPercent" || sel.Sel.Name == "SetMemoryLimit") {
								t.Errorf("%s: %s calls debug.%s, a setting of the whole process: only a program's main (cmd/, internal/programs) makes it", fset.Position(call.Pos()), fd.Name.Name, sel.Sel.Name)
							}
						}
					}
					if as, ok := n.(*ast.AssignStmt); ok {
						for _, lhs := range as.Lhs {
							if sel, ok := lhs.(*ast.SelectorExpr); ok {
								if x, ok := sel.X.(*ast.Ident); ok && imports[x.Name] {
									t.Errorf("%s: %s assigns %s.%s, another package's variable: pass it as an option instead", fset.Position(as.Pos()), fd.Name.Name, x.Name, sel.Sel.Name)
								}
							}
						}
					}
					return true
				})
				name := fd.Name.Name
				switch {
				case fd.Recv == nil && name == "init":
					local := localNames(fd)
					for _, stmt := range fd.Body.List {
						if what := initStatement(stmt, local, dir, allowed); what != "" {
							t.Errorf("%s: init %s: register into a registry (registries) or make it a variable's initializer; a program's choices are options its main hands down", fset.Position(stmt.Pos()), what)
						}
					}
				case fd.Recv == nil && ast.IsExported(name) && (strings.HasPrefix(name, "Set") || strings.HasPrefix(name, "Register")):
					if v := storesInto(fd, state); v != "" && !allowed(dir, name) {
						t.Errorf("%s: %s stores into the package's %s: a process-wide switch; pass it as an option from main instead, or add the registry to registries saying why", fset.Position(fd.Pos()), name, v)
					}
				}
			}
		}
	}
	var stale []string
	for key := range registries {
		if !used[key] {
			stale = append(stale, key)
		}
	}
	slices.Sort(stale)
	for _, key := range stale {
		t.Errorf("registries allows %q, which nothing uses now: take it out", key)
	}
}

// initStatement says what is wrong with a statement of an init function:
// "" for a call to a registry allowed in dir, or a declaration or
// assignment of the function's own variables.
func initStatement(stmt ast.Stmt, local map[string]bool, dir string, allowed func(dir, name string) bool) string {
	switch s := stmt.(type) {
	case *ast.ExprStmt:
		call, ok := s.X.(*ast.CallExpr)
		if !ok {
			return "has an expression that is not a call"
		}
		callee := exprString(call.Fun)
		if !allowed(dir, callee) {
			return "calls " + callee + ", which is no registry"
		}
		return ""
	case *ast.DeclStmt:
		return ""
	case *ast.AssignStmt:
		for _, lhs := range s.Lhs {
			if root := rootIdent(lhs); root == nil || !local[root.Name] {
				return "assigns " + exprString(lhs) + ", which is not its own"
			}
		}
		return ""
	}
	return "does more than register (a " + stmtKind(stmt) + ")"
}

// storesInto returns the package-level variable fd assigns, changes
// (IncDec, delete) or calls a method of, "" for none.
func storesInto(fd *ast.FuncDecl, state map[string]bool) string {
	local := localNames(fd)
	pkgVar := func(e ast.Expr) string {
		if root := rootIdent(e); root != nil && state[root.Name] && !local[root.Name] {
			return root.Name
		}
		return ""
	}
	// What it assigns names the switch better than the mutex it locks
	// to: the first assignment, else the first method called.
	assigned, called := "", ""
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			for _, lhs := range s.Lhs {
				if v := pkgVar(lhs); v != "" && assigned == "" {
					assigned = v
				}
			}
		case *ast.IncDecStmt:
			if v := pkgVar(s.X); v != "" && assigned == "" {
				assigned = v
			}
		case *ast.CallExpr:
			if id, ok := s.Fun.(*ast.Ident); ok && id.Name == "delete" && len(s.Args) > 0 {
				if v := pkgVar(s.Args[0]); v != "" && assigned == "" {
					assigned = v
				}
			} else if sel, ok := s.Fun.(*ast.SelectorExpr); ok {
				if v := pkgVar(sel.X); v != "" && called == "" {
					called = v
				}
			}
		}
		return true
	})
	if assigned != "" {
		return assigned
	}
	return called
}

// packageVars are the names of the package-level variables declared in
// files.
func packageVars(files []*ast.File) map[string]bool {
	vars := map[string]bool{}
	for _, f := range files {
		for _, decl := range f.Decls {
			if gd, ok := decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				for _, spec := range gd.Specs {
					for _, n := range spec.(*ast.ValueSpec).Names {
						vars[n.Name] = true
					}
				}
			}
		}
	}
	return vars
}

// localNames are the names fd declares: its receiver, parameters and
// results, and the variables of its body.
func localNames(fd *ast.FuncDecl) map[string]bool {
	local := map[string]bool{}
	for _, fl := range []*ast.FieldList{fd.Recv, fd.Type.Params, fd.Type.Results} {
		if fl == nil {
			continue
		}
		for _, field := range fl.List {
			for _, n := range field.Names {
				local[n.Name] = true
			}
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			if s.Tok == token.DEFINE {
				for _, lhs := range s.Lhs {
					if id, ok := lhs.(*ast.Ident); ok {
						local[id.Name] = true
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range s.Names {
				local[id.Name] = true
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{s.Key, s.Value} {
				if id, ok := e.(*ast.Ident); ok && s.Tok == token.DEFINE {
					local[id.Name] = true
				}
			}
		case *ast.FuncLit:
			for _, field := range s.Type.Params.List {
				for _, n := range field.Names {
					local[n.Name] = true
				}
			}
		}
		return true
	})
	return local
}

// importNames are the names f refers to its imports by.
func importNames(f *ast.File) map[string]bool {
	names := map[string]bool{}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		name := p[strings.LastIndex(p, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if name != "_" && name != "." {
			names[name] = true
		}
	}
	return names
}

// rootIdent is the variable at the root of e (x in x.a[i].b), nil when
// there is none.
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// exprString writes a callee or a variable as the source does (x.f, f),
// "an expression" for anything else.
func exprString(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return exprString(x.X) + "." + x.Sel.Name
	case *ast.IndexExpr:
		return exprString(x.X) + "[…]"
	case *ast.StarExpr:
		return "*" + exprString(x.X)
	}
	return "an expression"
}

func stmtKind(s ast.Stmt) string {
	switch s.(type) {
	case *ast.RangeStmt, *ast.ForStmt:
		return "loop"
	case *ast.IfStmt:
		return "condition"
	case *ast.GoStmt:
		return "goroutine"
	}
	return "statement"
}

// TestEveryProgramHandsTheSameEngineParts holds what pipeline.Options
// says every program must do: hand its engines the regex parser's comment
// masker and the standard resolvers of references. A program that left
// the resolvers out would index without references, and its index runs
// would delete the table the others write; one with another list would
// have them rebuild it whole, run after run.
func TestEveryProgramHandsTheSameEngineParts(t *testing.T) {
	fset, files := goFiles(t, "cmd", "internal", "agent", "bench")
	seen := 0
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			sel, ok := lit.Type.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Options" {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); !ok || id.Name != "pipeline" {
				return true
			}
			seen++
			set := map[string]string{}
			for _, el := range lit.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if k, ok := kv.Key.(*ast.Ident); ok {
						set[k.Name] = types.ExprString(kv.Value)
					}
				}
			}
			if set["MaskComments"] != "regex.MaskComments" || set["Resolvers"] != "standard.Resolvers()" && set["Resolvers"] != "g.resolvers" {
				t.Errorf("%s: pipeline.Options must set MaskComments: regex.MaskComments and Resolvers: standard.Resolvers(); it sets %v", fset.Position(lit.Pos()), set)
			}
			return true
		})
	}
	if seen < 8 {
		t.Errorf("found %d pipeline.Options literals in the programs, want the programs' and benchmarks' (8 or more)", seen)
	}
}
