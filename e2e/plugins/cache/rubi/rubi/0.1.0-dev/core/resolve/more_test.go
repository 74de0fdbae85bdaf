package resolve

import (
	"slices"
	"testing"

	"github.com/rubi-dev/rubi/core"
)

func TestJavaScriptConventions(t *testing.T) {
	p := project(t, map[string]string{
		// A Vue CLI app: no tsconfig, "@/" is src/.
		"vue/package.json":              `{"name": "vue-app"}`,
		"vue/src/App.vue":               "",
		"vue/src/main.js":               "",
		"vue/src/components/Button.vue": "",
		"vue/src/components/Card.vue":   "",
		"vue/src/store/index.js":        "",
		// A Nuxt-style app without src/: "@/" is the app directory.
		"nuxt/package.json":       `{"name": "nuxt-app"}`,
		"nuxt/pages/index.vue":    "",
		"nuxt/components/Nav.vue": "",
		// Svelte.
		"kit/package.json":           `{"name": "kit"}`,
		"kit/src/routes/page.svelte": "",
		"kit/src/lib/Header.svelte":  "",
		// A tsconfig whose paths do not map "@/".
		"mapped/tsconfig.json": `{"compilerOptions": {"paths": {"#/*": ["./src/*"]}}}`,
		"mapped/src/a.ts":      "",
		"mapped/src/b.ts":      "",
		// Workspaces.
		"package.json":               `{"private": true, "workspaces": ["packages/*", "apps/*"]}`,
		"packages/ui/package.json":   `{"name": "@acme/ui", "main": "src/index.ts"}`,
		"packages/ui/src/index.ts":   "",
		"packages/ui/src/button.tsx": "",
		"apps/web/package.json":      `{"name": "web", "dependencies": {"@acme/ui": "workspace:*"}}`,
		"apps/web/src/main.ts":       "",
		// Nested relative extends.
		"tsconfig.base.json":        `{"extends": "./configs/paths.json"}`,
		"configs/paths.json":        `{"compilerOptions": {"baseUrl": "..", "paths": {"~/*": ["apps/site/src/*"]}}}`,
		"apps/site/tsconfig.json":   `{"extends": "../../tsconfig.base.json"}`,
		"apps/site/src/index.ts":    "",
		"apps/site/src/lib/util.ts": "",
	})
	noWarnings(t, p)
	const js, ts, vue, svelte = core.LangJavaScript, core.LangTypeScript, core.LangVue, core.LangSvelte
	runKindCases(t, p, nil, []kindCase{
		{"@ is src", "vue/src/main.js", js, "", "@/store", []string{"vue/src/store/index.js"}, 0},
		{"@ with vue extension", "vue/src/App.vue", vue, "", "@/components/Button.vue", []string{"vue/src/components/Button.vue"}, 0},
		{"vue by stem", "vue/src/components/Card.vue", vue, "", "./Button", []string{"vue/src/components/Button.vue"}, 0},
		{"@ missing", "vue/src/main.js", js, "", "@/nope", nil, unresolved},
		{"@ is the app dir without src", "nuxt/pages/index.vue", vue, "", "@/components/Nav.vue", []string{"nuxt/components/Nav.vue"}, 0},
		{"@ where a tsconfig does not map it", "mapped/src/a.ts", ts, "", "@/b", []string{"mapped/src/b.ts"}, 0},
		{"paths still apply", "mapped/src/a.ts", ts, "", "#/b", []string{"mapped/src/b.ts"}, 0},
		{"paths miss is internal", "mapped/src/a.ts", ts, "", "#/nope", nil, unresolved},
		{"svelte by stem", "kit/src/routes/page.svelte", svelte, "", "../lib/Header", []string{"kit/src/lib/Header.svelte"}, 0},
		{"svelte with extension", "kit/src/routes/page.svelte", svelte, "", "../lib/Header.svelte", []string{"kit/src/lib/Header.svelte"}, 0},
		{"scoped external is not @/", "vue/src/main.js", js, "", "@vue/runtime-core", nil, external},
		{"workspace package", "apps/web/src/main.ts", ts, "", "@acme/ui", []string{"packages/ui/src/index.ts"}, 0},
		{"workspace package file", "apps/web/src/main.ts", ts, "", "@acme/ui/button", []string{"packages/ui/src/button.tsx"}, 0},
		{"workspace package missing file", "apps/web/src/main.ts", ts, "", "@acme/ui/nope", nil, unresolved},
		{"nested relative extends", "apps/site/src/index.ts", ts, "", "~/lib/util", []string{"apps/site/src/lib/util.ts"}, 0},
		{"relative missing", "apps/site/src/index.ts", ts, "", "./nope", nil, unresolved},
		{"bare external", "apps/site/src/index.ts", ts, "", "react", nil, external},
	})
}

func TestGoWorkAndReplace(t *testing.T) {
	p := project(t, map[string]string{
		"go.work":              "go 1.22\n\nuse (\n\t./svc\n\t./lib\n)\n\nreplace example.com/ext => ./forks/ext\n",
		"svc/go.mod":           "module example.com/svc\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/old => ../forks/old\n",
		"svc/main.go":          "",
		"lib/go.mod":           "module example.com/lib\n",
		"lib/x/x.go":           "",
		"forks/old/go.mod":     "module example.com/old-fork\n",
		"forks/old/pkg/pkg.go": "",
		"forks/ext/go.mod":     "module example.com/ext\n",
		"forks/ext/ext.go":     "",
		"bad/go.work":          "use (\n",
		"bad/go.mod":           "module example.com/bad\n",
		"bad/b.go":             "",
	})
	if w := p.Warnings(); len(w) != 1 || w[0].File != "bad/go.work" {
		t.Errorf("warnings = %v, want one for bad/go.work", w)
	}
	const g = core.LangGo
	runKindCases(t, p, nil, []kindCase{
		{"workspace module", "svc/main.go", g, "", "example.com/lib/x", []string{"lib/x/x.go"}, 0},
		{"go.mod local replace", "svc/main.go", g, "", "example.com/old/pkg", []string{"forks/old/pkg/pkg.go"}, 0},
		{"replaced module under its own path", "svc/main.go", g, "", "example.com/old-fork/pkg", []string{"forks/old/pkg/pkg.go"}, 0},
		{"go.work replace", "svc/main.go", g, "", "example.com/ext", []string{"forks/ext/ext.go"}, 0},
		{"missing package of a project module", "svc/main.go", g, "", "example.com/lib/nope", nil, unresolved},
		{"stdlib", "svc/main.go", g, "", "net/http", nil, external},
		{"third party", "svc/main.go", g, "", "github.com/spf13/cobra", nil, external},
	})
}

func TestPythonPyProject(t *testing.T) {
	p := project(t, map[string]string{
		"pyproject.toml":                    "[tool.setuptools]\npackage-dir = {\"\" = \"source\", \"mylib\" = \"lib/py\"}\n",
		"source/pkg/mod.py":                 "",
		"lib/py/__init__.py":                "",
		"lib/py/x.py":                       "",
		"services/api/pyproject.toml":       "[tool.poetry]\nname = \"api\"\npackages = [{include = \"api\", from = \"code\"}]\n",
		"services/api/code/api/routes.py":   "",
		"services/api/tests/test_routes.py": "",
		"tools/pyproject.toml":              "[tool.setuptools.packages.find]\nwhere = [\"py\"]\n",
		"tools/py/tooling/run.py":           "",
		"broken/pyproject.toml":             "[tool\n",
		"broken/x.py":                       "",
	})
	if w := p.Warnings(); len(w) != 1 || w[0].File != "broken/pyproject.toml" {
		t.Errorf("warnings = %v", w)
	}
	const py = core.LangPython
	runKindCases(t, p, nil, []kindCase{
		{"package-dir root", "broken/x.py", py, "", "pkg.mod", []string{"source/pkg/mod.py"}, 0},
		{"package-dir alias", "broken/x.py", py, "", "mylib", []string{"lib/py/__init__.py"}, 0},
		{"package-dir alias module", "broken/x.py", py, "", "mylib.x", []string{"lib/py/x.py"}, 0},
		{"poetry from", "services/api/tests/test_routes.py", py, "", "api.routes", []string{"services/api/code/api/routes.py"}, 0},
		{"setuptools find where", "broken/x.py", py, "", "tooling.run", []string{"tools/py/tooling/run.py"}, 0},
		{"missing module of a project package", "broken/x.py", py, "", "pkg.nope", nil, unresolved},
		{"missing relative", "source/pkg/mod.py", py, "", ".nope", nil, unresolved},
		{"third party", "broken/x.py", py, "", "numpy", nil, external},
		{"stdlib", "broken/x.py", py, "", "os.path", nil, external},
	})
}

func TestAnalyzeStats(t *testing.T) {
	p := project(t, map[string]string{
		"go.mod":                                 "module m\n",
		"main.go":                                "",
		"a/a1.go":                                "",
		"a/a2.go":                                "",
		"Cargo.toml":                             "[package]\nname = \"r\"\n",
		"src/lib.rs":                             "",
		"src/a.rs":                               "",
		"java/src/main/java/com/acme/App.java":   "",
		"java/src/main/java/com/acme/Util.java":  "",
		"java/src/main/java/com/acme/Other.java": "",
		"java/src/main/kotlin/Ext.kt":            "",
		"c/main.c":                               "",
		"c/util.h":                               "",
		"README.md":                              "",
	})
	facts := []core.FileFacts{
		{Path: "main.go", Language: core.LangGo, Imports: []core.Import{{Spec: "m/a"}, {Spec: "fmt"}, {Spec: "m/nope"}}},
		{Path: "src/lib.rs", Language: core.LangRust, Imports: []core.Import{
			{Spec: "a", Kind: core.ImportModule}, {Spec: "b", Kind: core.ImportModule}, {Spec: "std::fmt"}, {Spec: "crate::a::X"}}},
		{Path: "src/a.rs", Language: core.LangRust, Imports: []core.Import{{Spec: "super::*"}}},
		{Path: "java/src/main/java/com/acme/App.java", Language: core.LangJava, Package: "com.acme", Imports: []core.Import{
			{Spec: "com.acme.ext.*"}, {Spec: "com.acme.Util"}, {Spec: "java.util.List"}, {Spec: "com.acme.Missing"}}},
		{Path: "java/src/main/kotlin/Ext.kt", Language: core.LangKotlin, Package: "com.acme.ext"},
		{Path: "c/main.c", Language: core.LangC, Imports: []core.Import{{Spec: "util.h"}, {Spec: "stdio.h", Kind: core.ImportSystem}, {Spec: "gen.h"}}},
		{Path: "README.md", Language: core.LangMarkdown, Imports: []core.Import{{Spec: "x"}}},
	}
	edges, stats := Analyze(p, facts)
	want := []core.Edge{
		{From: "file:c/main.c", To: "file:c/util.h", Kind: core.EdgeImports, Weight: 1},
		{From: "file:java/src/main/java/com/acme/App.java", To: "file:java/src/main/java/com/acme/Util.java", Kind: core.EdgeImports, Weight: 1},
		{From: "file:java/src/main/java/com/acme/App.java", To: "file:java/src/main/kotlin/Ext.kt", Kind: core.EdgeImports, Weight: 1},
		{From: "file:main.go", To: "file:a/a1.go", Kind: core.EdgeImports, Weight: 0.5},
		{From: "file:main.go", To: "file:a/a2.go", Kind: core.EdgeImports, Weight: 0.5},
		{From: "file:src/lib.rs", To: "file:src/a.rs", Kind: core.EdgeImports, Weight: 1},
	}
	if !slices.Equal(edges, want) {
		t.Errorf("edges =\n%v\nwant\n%v", edges, want)
	}
	check := func(name string, got, want map[string]int) {
		t.Helper()
		if len(got) != len(want) {
			t.Errorf("%s = %v, want %v", name, got, want)
			return
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s = %v, want %v", name, got, want)
				return
			}
		}
	}
	check("Resolved", stats.Resolved, map[string]int{"go": 1, "rust": 3, "java": 2, "c": 1})
	check("Unresolved", stats.Unresolved, map[string]int{"go": 1, "rust": 1, "java": 1, "c": 1})
	check("External", stats.External, map[string]int{"go": 1, "rust": 1, "java": 1, "c": 1})
	if e := Edges(p, facts); !slices.Equal(e, edges) {
		t.Errorf("Edges differs from Analyze")
	}
	if _, s := Analyze(p, nil); s.Resolved == nil || len(s.Resolved)+len(s.Unresolved)+len(s.External) != 0 {
		t.Errorf("no facts: %+v", s)
	}
}
