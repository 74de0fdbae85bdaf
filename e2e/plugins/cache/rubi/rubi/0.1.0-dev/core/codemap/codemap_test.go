package codemap

import (
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
