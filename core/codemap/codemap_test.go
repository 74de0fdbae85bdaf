package codemap

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/tokens"
)

func TestModuleOf(t *testing.T) {
	paths := []string{
		"go.mod", "main.go",
		"packages/web/package.json", "packages/web/src/app/page.tsx",
		"packages/api/Cargo.toml", "packages/api/src/lib.rs",
		"core/host/host.go", "core/stage.go", "src/checkout/components/Button.tsx",
		"core/pipeline/testdata/shop/go.mod", "core/pipeline/testdata/shop/main.go",
		"gems/billing/billing.gemspec", "gems/billing/lib/billing.rb",
	}
	roots := Roots(paths)
	for p, want := range map[string]string{
		"main.go":                            ".",
		"core/stage.go":                      "core",
		"core/host/host.go":                  "core/host",
		"src/checkout/components/Button.tsx": "src/checkout",
		"packages/web/src/app/page.tsx":      "packages/web",
		"packages/api/src/lib.rs":            "packages/api",
		"gems/billing/lib/billing.rb":        "gems/billing",
		// A fixture's manifest makes no package of the project.
		"core/pipeline/testdata/shop/main.go": "core/pipeline",
	} {
		if got := ModuleOf(p, roots); got != want {
			t.Errorf("ModuleOf(%q) = %q, want %q", p, got, want)
		}
	}
}

// index.module_roots names module directories by glob, beside the
// manifests; index.module_depth is how many directories name the module
// of a file no root holds.
func TestModuleRules(t *testing.T) {
	paths := []string{
		"services/billing/handler.go", "services/billing/store/db.go",
		"services/search/index.go", "libs/auth/src/token.go", "libs/auth/README.md",
		"tools/gen/main.go", "packages/web/package.json", "packages/web/src/app.ts",
		"deep/a/b/c/file.go",
	}
	roots := Roots(paths, "services/*", "libs/**/src")
	for p, want := range map[string]string{
		"services/billing/store/db.go": "services/billing",
		"services/search/index.go":     "services/search",
		"libs/auth/src/token.go":       "libs/auth/src",
		"libs/auth/README.md":          "libs/auth",
		"packages/web/src/app.ts":      "packages/web", // the manifest still counts
		"tools/gen/main.go":            "tools/gen",
	} {
		if got := ModuleOf(p, roots); got != want {
			t.Errorf("ModuleOf(%q) with module_roots = %q, want %q", p, got, want)
		}
	}
	for depth, want := range map[int]string{0: "deep/a", 1: "deep", 2: "deep/a", 3: "deep/a/b", 8: "deep/a/b/c"} {
		if got := ModuleOf("deep/a/b/c/file.go", nil, depth); got != want {
			t.Errorf("ModuleOf at depth %d = %q, want %q", depth, got, want)
		}
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{".": "root", "core/host": "core-host", "packages/@scope/web": "packages--scope-web", "src/my_mod": "src-my_mod"} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

// app and cli both use lib; lib is the central module, and each module
// knows its neighbours.
func example() *Map {
	files := []*File{
		{Path: "lib/db.go", Language: "go", Module: "lib", Rank: 0.4, Doc: "Package lib talks to the database.", Exported: []string{"Open", "Query"}},
		{Path: "lib/db_test.go", Language: "go", Module: "lib", Rank: 0.1},
		{Path: "app/server.go", Language: "go", Module: "app", Rank: 0.2, Exported: []string{"Serve"}},
		{Path: "app/routes.go", Language: "go", Module: "app", Rank: 0.2},
		{Path: "cli/main.go", Language: "go", Module: "cli", Rank: 0.1},
	}
	edges := []core.Edge{
		{From: "file:app/server.go", To: "file:lib/db.go", Kind: core.EdgeImports, Weight: 1},
		{From: "file:app/server.go", To: "file:app/routes.go", Kind: core.EdgeImports, Weight: 1},
		{From: "file:cli/main.go", To: "file:lib/db.go", Kind: core.EdgeImports, Weight: 1},
		{From: "file:lib/db_test.go", To: "file:lib/db.go", Kind: core.EdgeImports, Weight: 1},
	}
	return Build(files, edges)
}

func TestBuild(t *testing.T) {
	m := example()
	if m.Modules[0].Name != "lib" {
		t.Errorf("most central module = %s", m.Modules[0].Name)
	}
	lib, _ := m.Module("lib")
	if strings.Join(lib.UsedBy, ",") != "app,cli" || len(lib.DependsOn) != 0 || lib.Files[0].Path != "lib/db.go" {
		t.Errorf("lib = %+v", lib)
	}
	if f := m.Files["lib/db.go"]; strings.Join(f.ImportedBy, ",") != "app/server.go,cli/main.go,lib/db_test.go" {
		t.Errorf("imported by = %v", f.ImportedBy)
	}
}

func TestLevel0(t *testing.T) {
	m := example()
	out := m.Level0("shop", 500, "A shop backend.")
	for _, want := range []string{"# Map of shop", "A shop backend.", "5 files in 3 modules. Languages: go 5.", "Central files: `lib/db.go`, `app/routes.go`, `app/server.go`, `cli/main.go`.", "- `lib` (2) db.go · used by app, cli"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	// A small budget keeps the map within it and says what was left out.
	small := m.Level0("shop", 100, "")
	if tokens.Estimate(small) > 100 || !strings.Contains(small, "- `lib`") || !strings.Contains(small, "1 module more.") {
		t.Errorf("budget 100 (%d tokens):\n%s", tokens.Estimate(small), small)
	}
}

func TestLevel1(t *testing.T) {
	m := example()
	app, _ := m.Module("app")
	out := m.Level1(app, "Serves the HTTP API.")
	for _, want := range []string{"# Module app", "Serves the HTTP API.", "2 files · depends on lib", "- `app/server.go`", "exports: Serve", "imports: routes.go, lib/db.go", "imported by: server.go"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	lib, _ := m.Module("lib")
	if out := m.Level1(lib, ""); !strings.Contains(out, "Tests: `db_test.go`") || strings.Contains(out, "- `lib/db_test.go`") {
		t.Errorf("tests are listed apart:\n%s", out)
	}
}

// Python projects come out as their packages: a src layout's top package
// and its subpackages, a package at the root of the tree, a large
// subpackage split into its own, a vendored one whole (and left out of
// the map by Build), a test fixture's package and plain folders as before.
func TestPythonModules(t *testing.T) {
	var paths []string
	add := func(dir string, n int) {
		for i := range n {
			paths = append(paths, fmt.Sprintf("%s/m%d.py", dir, i))
		}
	}
	paths = append(paths, "pyproject.toml", "README.md",
		"src/shop/__init__.py", "src/shop/cli.py",
		"src/shop/orders/__init__.py", "src/shop/orders/models.py",
		"src/shop/orders/sql/schema.sql", // a folder without __init__.py
		"src/shop/payments/__init__.py",
		"src/shop/payments/stripe/__init__.py",
		"src/shop/payments/paypal/__init__.py",
		"src/shop/_vendor/__init__.py", "src/shop/_vendor/six/__init__.py",
		"tests/__init__.py", "tests/unit/__init__.py", "tests/unit/test_orders.py",
		"tests/fixtures/pkg/__init__.py", "tests/fixtures/pkg/mod.py",
		"scripts/tools/release.py",
	)
	add("src/shop/payments/stripe", splitAbove) // payments: more than splitAbove files
	add("src/shop/_vendor/six", splitAbove)
	add("src/shop/orders", 3)
	roots := Roots(paths)
	for p, want := range map[string]string{
		"src/shop/cli.py":                      "src/shop",
		"src/shop/orders/models.py":            "src/shop/orders",
		"src/shop/orders/sql/schema.sql":       "src/shop/orders",
		"src/shop/orders/m2.py":                "src/shop/orders",
		"src/shop/payments/__init__.py":        "src/shop/payments",
		"src/shop/payments/stripe/m0.py":       "src/shop/payments/stripe",
		"src/shop/payments/paypal/__init__.py": "src/shop/payments/paypal",
		"src/shop/_vendor/six/m3.py":           "src/shop/_vendor",
		"tests/unit/test_orders.py":            "tests/unit",
		"tests/fixtures/pkg/mod.py":            "tests", // a fixture is no package: the tests package holds it
		"scripts/tools/release.py":             "scripts/tools",
		"pyproject.toml":                       ".",
	} {
		if got := ModuleOf(p, roots); got != want {
			t.Errorf("ModuleOf(%q) = %q, want %q", p, got, want)
		}
	}

	// A tree whose root is the package (Debian's dist-packages/pip run
	// as a project): its subpackages are the modules, its files ".".
	paths = []string{"__init__.py", "__main__.py", "_internal/__init__.py", "_internal/cli/__init__.py", "_internal/cli/main.py"}
	add("_internal/cli", splitAbove)
	roots = Roots(paths)
	for p, want := range map[string]string{"__main__.py": ".", "_internal/__init__.py": "_internal", "_internal/cli/main.py": "_internal/cli"} {
		if got := ModuleOf(p, roots); got != want {
			t.Errorf("root package: ModuleOf(%q) = %q, want %q", p, got, want)
		}
	}
}

// A module whose files are all hidden (vendored, generated) is not one of
// the map's; a module with one visible file is, hidden files and all.
func TestBuildLeavesOutHiddenModules(t *testing.T) {
	m := Build([]*File{
		{Path: "pip/_vendor/six.py", Module: "pip/_vendor", Hidden: true},
		{Path: "pip/_internal/main.py", Module: "pip/_internal"},
		{Path: "pip/_internal/gen_pb2.py", Module: "pip/_internal", Hidden: true},
	}, []core.Edge{{From: "file:pip/_internal/main.py", To: "file:pip/_vendor/six.py", Weight: 1}})
	if len(m.Modules) != 1 || m.Modules[0].Name != "pip/_internal" || len(m.Modules[0].Files) != 2 {
		t.Fatalf("modules = %+v", m.Modules)
	}
	if _, ok := m.Files["pip/_vendor/six.py"]; ok || len(m.Modules[0].DependsOn) != 0 {
		t.Errorf("the vendored file is still on the map: %v, depends on %v", m.Files, m.Modules[0].DependsOn)
	}
}
