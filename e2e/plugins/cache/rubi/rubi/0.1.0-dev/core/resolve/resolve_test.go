package resolve

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rubi-dev/rubi/core"
)

// project builds a Project over an in-memory tree. Every key is a file of
// the project; values are contents, which only configuration files need.
func project(t *testing.T, tree map[string]string) *Project {
	t.Helper()
	fsys := fstest.MapFS{}
	var files []string
	for name, content := range tree {
		fsys[name] = &fstest.MapFile{Data: []byte(content)}
		files = append(files, name)
	}
	slices.Sort(files)
	p := NewProjectFS(fsys, files)
	for _, w := range p.Warnings() {
		t.Logf("warning: %s", w)
	}
	return p
}

type resolveCase struct {
	name, from, lang, spec string
	want                   []string // nil: external or not found
}

func runCases(t *testing.T, p *Project, cases []resolveCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := p.Resolve(c.from, c.lang, core.Import{Spec: c.spec, Line: 1, Kind: core.ImportStatic})
			if ok != (c.want != nil) || !slices.Equal(got, c.want) {
				t.Errorf("Resolve(%s, %s, %q) = %q, %v; want %q", c.from, c.lang, c.spec, got, ok, c.want)
			}
		})
	}
}

func TestGo(t *testing.T) {
	p := project(t, map[string]string{
		"go.mod":                                 "module example.com/app\n\ngo 1.22\n\nrequire github.com/pkg/errors v0.9.1\n",
		"main.go":                                "",
		"cmd/tool/main.go":                       "",
		"internal/db/db.go":                      "",
		"internal/db/conn.go":                    "",
		"internal/db/db_test.go":                 "",
		"internal/db/README.md":                  "",
		"pkg/util/util.go":                       "",
		"tools/go.mod":                           "module example.com/app/tools\n",
		"tools/gen/gen.go":                       "",
		"sub/go.mod":                             "module example.com/other\n",
		"sub/lib/lib.go":                         "",
		"vendor/github.com/pkg/errors/errors.go": "",
	})
	const g = core.LangGo
	runCases(t, p, []resolveCase{
		{"package files sorted, no tests", "main.go", g, "example.com/app/internal/db", []string{"internal/db/conn.go", "internal/db/db.go"}},
		{"quoted spec", "main.go", g, `"example.com/app/pkg/util"`, []string{"pkg/util/util.go"}},
		{"module root package", "cmd/tool/main.go", g, "example.com/app", []string{"main.go"}},
		{"stdlib", "main.go", g, "fmt", nil},
		{"stdlib nested", "main.go", g, "net/http", nil},
		{"other module", "main.go", g, "github.com/spf13/cobra", nil},
		{"module path boundary", "main.go", g, "example.com/application/x", nil},
		{"missing package", "main.go", g, "example.com/app/nope", nil},
		{"directory without go files", "main.go", g, "example.com/app/internal", nil},
		{"nested module by its path", "main.go", g, "example.com/app/tools/gen", []string{"tools/gen/gen.go"}},
		{"nested module imports parent", "tools/gen/gen.go", g, "example.com/app/pkg/util", []string{"pkg/util/util.go"}},
		{"nested module with unrelated path", "main.go", g, "example.com/other/lib", []string{"sub/lib/lib.go"}},
		{"directory owned by nested module", "main.go", g, "example.com/app/sub/lib", nil},
		{"vendored module", "main.go", g, "github.com/pkg/errors", []string{"vendor/github.com/pkg/errors/errors.go"}},
		{"own package drops self", "internal/db/db.go", g, "example.com/app/internal/db", []string{"internal/db/conn.go"}},
	})
}

func TestGoMalformedModFile(t *testing.T) {
	p := project(t, map[string]string{
		"go.mod":   "module example.com/x\n\nrequire (\n  broken\n",
		"a/a.go":   "",
		"b/go.mod": "go 1.22\n",
		"b/b.go":   "",
		"main.go":  "",
	})
	// The module line survives a broken require block.
	if got, ok := p.Resolve("main.go", core.LangGo, core.Import{Spec: "example.com/x/a"}); !ok || got[0] != "a/a.go" {
		t.Errorf("resolve with malformed go.mod = %v %v", got, ok)
	}
	w := p.Warnings()
	if len(w) != 2 || w[0].File != "b/go.mod" || w[1].File != "go.mod" {
		t.Errorf("warnings = %v, want one for b/go.mod and one for go.mod", w)
	}
}

func TestPython(t *testing.T) {
	p := project(t, map[string]string{
		"app/__init__.py":            "",
		"app/models.py":              "",
		"app/views/__init__.py":      "",
		"app/views/home.py":          "",
		"src/mylib/__init__.py":      "",
		"src/mylib/core.py":          "",
		"src/mylib/sub/__init__.py":  "",
		"src/mylib/sub/x.py":         "",
		"tests/test_core.py":         "",
		"scripts/run.py":             "",
		"scripts/helpers.py":         "",
		"services/a/svc/__init__.py": "",
		"services/a/svc/api.py":      "",
		"services/b/svc/__init__.py": "",
		"services/b/svc/api.py":      "",
		"services/b/main.py":         "",
		"typed/__init__.py":          "",
		"typed/mod.pyi":              "",
		"ns/pkg/mod.py":              "",
		"src/nsonly/tool.py":         "",
	})
	const py = core.LangPython
	home := "app/views/home.py"
	runCases(t, p, []resolveCase{
		{"parent package", home, py, "..", []string{"app/__init__.py"}},
		{"sibling of parent", home, py, "..models", []string{"app/models.py"}},
		{"own package", home, py, ".", []string{"app/views/__init__.py"}},
		{"from __init__", "app/views/__init__.py", py, ".home", []string{"app/views/home.py"}},
		{"from . import name", home, py, ".helper_name", []string{"app/views/__init__.py"}},
		{"from .. import module", home, py, "..models", []string{"app/models.py"}},
		{"above a package-less root", home, py, "...", nil},
		{"above the project", home, py, "....x", nil},
		{"absolute module", "tests/test_core.py", py, "app.models", []string{"app/models.py"}},
		{"absolute package", "tests/test_core.py", py, "app.views", []string{"app/views/__init__.py"}},
		{"from module import name", "tests/test_core.py", py, "app.models.User", []string{"app/models.py"}},
		{"from package import module", "tests/test_core.py", py, "app.views.home", []string{"app/views/home.py"}},
		{"src layout package", "tests/test_core.py", py, "mylib", []string{"src/mylib/__init__.py"}},
		{"src layout module", "tests/test_core.py", py, "mylib.core", []string{"src/mylib/core.py"}},
		{"src layout inside", "src/mylib/core.py", py, "mylib.sub.x", []string{"src/mylib/sub/x.py"}},
		{"script directory", "scripts/run.py", py, "helpers", []string{"scripts/helpers.py"}},
		{"nearest root wins", "services/b/main.py", py, "svc.api", []string{"services/b/svc/api.py"}},
		{"nearest root from inside", "services/a/svc/api.py", py, "svc", []string{"services/a/svc/__init__.py"}},
		{"stub file", "tests/test_core.py", py, "typed.mod", []string{"typed/mod.pyi"}},
		{"namespace package", "tests/test_core.py", py, "ns.pkg.mod", []string{"ns/pkg/mod.py"}},
		{"namespace package in src", "tests/test_core.py", py, "nsonly.tool", []string{"src/nsonly/tool.py"}},
		{"stdlib", home, py, "os.path", nil},
		{"third party", home, py, "numpy", nil},
		{"not an identifier", home, py, "a/b", nil},
	})
}

// `from m import a, b` names what it imports: names that are submodules
// resolve to their files, the others to the module that defines them.
func TestPythonImportedNames(t *testing.T) {
	p := project(t, map[string]string{
		"pkg/__init__.py":   "",
		"pkg/models.py":     "",
		"pkg/views.py":      "",
		"pkg/sub/home.py":   "",
		"scripts/report.py": "",
	})
	cases := []struct {
		from, spec string
		names      []string
		want       []string
	}{
		{"scripts/report.py", "pkg", []string{"models", "views"}, []string{"pkg/models.py", "pkg/views.py"}},
		{"scripts/report.py", "pkg", []string{"models", "VERSION"}, []string{"pkg/models.py", "pkg/__init__.py"}},
		{"pkg/sub/home.py", "..", []string{"views"}, []string{"pkg/views.py"}},
		{"pkg/views.py", ".", []string{"models"}, []string{"pkg/models.py"}},
		{"pkg/views.py", ".models", []string{"Order"}, []string{"pkg/models.py"}},
		{"scripts/report.py", "numpy", []string{"array"}, nil},
	}
	for _, c := range cases {
		got, _ := p.Resolve(c.from, core.LangPython, core.Import{Spec: c.spec, Names: c.names})
		if !slices.Equal(got, c.want) {
			t.Errorf("from %s import %v (in %s) = %q, want %q", c.spec, c.names, c.from, got, c.want)
		}
	}
}

const rootTSConfig = `{
  // comments and trailing commas are allowed in tsconfig
  "compilerOptions": {
    "baseUrl": ".", /* resolution root */
    "paths": {
      "@/*": ["src/*"],
      "~lib": ["src/lib/index.ts"],
      "@/special/*": ["src/lib/*"],
    },
  },
}`

func jsProject(t *testing.T) *Project {
	return project(t, map[string]string{
		"tsconfig.json":                  rootTSConfig,
		"package.json":                   `{"name": "acme-app", "private": true}`,
		"src/index.ts":                   "",
		"src/app.tsx":                    "",
		"src/utils/format.ts":            "",
		"src/utils/index.ts":             "",
		"src/components/Button.tsx":      "",
		"src/components/index.ts":        "",
		"src/legacy.js":                  "",
		"src/dual.js":                    "",
		"src/dual.ts":                    "",
		"src/data.json":                  "",
		"src/styles.css":                 "",
		"src/icon.svg":                   "",
		"src/types.d.ts":                 "",
		"src/esm.mts":                    "",
		"src/lib/index.ts":               "",
		"src/lib/deep.ts":                "",
		"web/jsconfig.json":              `{"compilerOptions": {"paths": {"#/*": ["./src/*"]}}}`,
		"web/src/main.js":                "",
		"web/src/helper.js":              "",
		"web/src/util.jsx":               "",
		"web/src/App.vue":                "",
		"packages/shared/package.json":   `{"name": "@acme/shared", "main": "dist/index.js", "exports": {".": {"types": "./dist/index.d.ts", "import": "./dist/index.js"}, "./utils": "./dist/utils.js", "./icons/*": "./dist/icons/*.js"}}`,
		"packages/shared/src/index.ts":   "",
		"packages/shared/src/utils.ts":   "",
		"packages/shared/src/icons/a.ts": "",
		"packages/ui/package.json":       `{"name": "ui-kit"}`,
		"packages/ui/index.js":           "",
		"packages/ui/button.js":          "",
	})
}

func TestJavaScript(t *testing.T) {
	p := jsProject(t)
	const ts, js = core.LangTypeScript, core.LangJavaScript
	app := "src/app.tsx"
	runCases(t, p, []resolveCase{
		{"relative without extension", app, ts, "./utils/format", []string{"src/utils/format.ts"}},
		{"directory index", app, ts, "./utils", []string{"src/utils/index.ts"}},
		{"directory index with slash", app, ts, "./components/", []string{"src/components/index.ts"}},
		{"tsx", app, ts, "./components/Button", []string{"src/components/Button.tsx"}},
		{".js specifier maps to .ts", app, ts, "./utils/format.js", []string{"src/utils/format.ts"}},
		{".mjs specifier maps to .mts", app, ts, "./esm.mjs", []string{"src/esm.mts"}},
		{"js file without ts source", app, ts, "./legacy.js", []string{"src/legacy.js"}},
		{"js file by stem", app, ts, "./legacy", []string{"src/legacy.js"}},
		{"ts importer prefers .ts", app, ts, "./dual.js", []string{"src/dual.ts"}},
		{"js importer prefers .js", "src/legacy.js", js, "./dual.js", []string{"src/dual.js"}},
		{"js importer stem prefers .js", "src/legacy.js", js, "./dual", []string{"src/dual.js"}},
		{"json by stem", app, ts, "./data", []string{"src/data.json"}},
		{"asset with extension", app, ts, "./styles.css", []string{"src/styles.css"}},
		{"asset with query", app, ts, "./icon.svg?raw", []string{"src/icon.svg"}},
		{"declaration file", app, ts, "./types", []string{"src/types.d.ts"}},
		{"parent directory", "src/utils/format.ts", ts, "../index", []string{"src/index.ts"}},
		{"current directory index", "src/utils/format.ts", ts, ".", []string{"src/utils/index.ts"}},
		{"root relative", app, ts, "/src/index", []string{"src/index.ts"}},
		{"missing relative", app, ts, "./missing", nil},
		{"outside the project", app, ts, "../../x", nil},
		{"paths wildcard alias", app, ts, "@/components/Button", []string{"src/components/Button.tsx"}},
		{"longest alias prefix wins", app, ts, "@/special/deep", []string{"src/lib/deep.ts"}},
		{"paths exact alias", app, ts, "~lib", []string{"src/lib/index.ts"}},
		{"baseUrl", app, ts, "src/utils/format", []string{"src/utils/format.ts"}},
		{"bare package", app, ts, "react", nil},
		{"bare package subpath", app, ts, "lodash/fp", nil},
		{"scoped external package", app, ts, "@tanstack/react-query", nil},
		{"node builtin", app, ts, "node:fs", nil},
		{"url", app, ts, "https://esm.sh/preact", nil},
		{"jsconfig without baseUrl", "web/src/main.js", js, "#/helper", []string{"web/src/helper.js"}},
		{"jsx by stem", "web/src/main.js", js, "./util", []string{"web/src/util.jsx"}},
		{"vue importer", "web/src/App.vue", core.LangVue, "./helper", []string{"web/src/helper.js"}},
		{"nearest config shadows root", "web/src/main.js", js, "@/components/Button", nil},
		{"workspace package, dist mapped to src", app, ts, "@acme/shared", []string{"packages/shared/src/index.ts"}},
		{"workspace package export subpath", app, ts, "@acme/shared/utils", []string{"packages/shared/src/utils.ts"}},
		{"workspace package export pattern", app, ts, "@acme/shared/icons/a", []string{"packages/shared/src/icons/a.ts"}},
		{"workspace package index", app, ts, "ui-kit", []string{"packages/ui/index.js"}},
		{"workspace package file", app, ts, "ui-kit/button", []string{"packages/ui/button.js"}},
		{"workspace package missing file", app, ts, "ui-kit/nope", nil},
	})
}

func TestCAndJVM(t *testing.T) {
	p := project(t, map[string]string{
		"src/main.c":                               "",
		"src/util.h":                               "",
		"include/proj/api.h":                       "",
		"vendor/other/proj/api.h":                  "",
		"vendor/other/impl.c":                      "",
		"src/main/java/com/acme/App.java":          "",
		"src/main/java/com/acme/util/Strings.java": "",
		"src/main/kotlin/com/acme/util/Ext.kt":     "",
		"src/test/java/com/acme/AppTest.java":      "",
	})
	runCases(t, p, []resolveCase{
		{"include next to file", "src/main.c", core.LangC, "util.h", []string{"src/util.h"}},
		{"include by suffix", "src/main.c", core.LangC, "proj/api.h", []string{"include/proj/api.h"}},
		{"include nearest suffix", "vendor/other/impl.c", core.LangCPP, "proj/api.h", []string{"vendor/other/proj/api.h"}},
		{"system header", "src/main.c", core.LangC, "<stdio.h>", nil},
		{"java class", "src/test/java/com/acme/AppTest.java", core.LangJava, "com.acme.App", []string{"src/main/java/com/acme/App.java"}},
		{"java nested class", "src/main/java/com/acme/App.java", core.LangJava, "com.acme.util.Strings.Builder", []string{"src/main/java/com/acme/util/Strings.java"}},
		{"static import", "src/main/java/com/acme/App.java", core.LangJava, "static com.acme.util.Strings.join", []string{"src/main/java/com/acme/util/Strings.java"}},
		{"kotlin from java source root", "src/main/java/com/acme/App.java", core.LangKotlin, "com.acme.util.Ext", []string{"src/main/kotlin/com/acme/util/Ext.kt"}},
		{"wildcard", "src/main/java/com/acme/App.java", core.LangJava, "com.acme.util.*", []string{"src/main/java/com/acme/util/Strings.java", "src/main/kotlin/com/acme/util/Ext.kt"}},
		{"jdk", "src/main/java/com/acme/App.java", core.LangJava, "java.util.List", nil},
		{"unsupported language", "src/main.c", core.LangCSharp, "System.Text", nil},
	})
}

func TestEdges(t *testing.T) {
	p := project(t, map[string]string{
		"go.mod":       "module m\n",
		"main.go":      "",
		"a/a1.go":      "",
		"a/a2.go":      "",
		"b/b.go":       "",
		"web/index.ts": "",
		"web/util.ts":  "",
	})
	facts := []core.FileFacts{
		{Path: "main.go", Language: core.LangGo, Imports: []core.Import{{Spec: "m/b"}, {Spec: "m/a"}, {Spec: "fmt"}, {Spec: "m/b"}}},
		{Path: "b/b.go", Language: core.LangGo, Imports: []core.Import{{Spec: "m/b"}}}, // self
		{Path: "web/index.ts", Language: core.LangTypeScript, Imports: []core.Import{{Spec: "./util"}, {Spec: "./util.js"}, {Spec: "./index"}, {Spec: "react"}}},
	}
	got := Edges(p, facts)
	want := []core.Edge{
		{From: "file:main.go", To: "file:a/a1.go", Kind: core.EdgeImports, Weight: 0.5},
		{From: "file:main.go", To: "file:a/a2.go", Kind: core.EdgeImports, Weight: 0.5},
		{From: "file:main.go", To: "file:b/b.go", Kind: core.EdgeImports, Weight: 1},
		{From: "file:web/index.ts", To: "file:web/util.ts", Kind: core.EdgeImports, Weight: 1},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Edges =\n%v\nwant\n%v", got, want)
	}
	if e := Edges(p, nil); len(e) != 0 {
		t.Errorf("no facts: %v", e)
	}
}

// TestNewProjectDisk covers reading configuration from disk, including
// files the file list does not mention, extends chains and malformed
// files.
func TestNewProjectDisk(t *testing.T) {
	root := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		full := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/disk\n\ngo 1.26\n")
	write("svc/go.mod", "module example.com/svc\n")
	write("configs/tsconfig.base.json", `{"compilerOptions": {"baseUrl": "../web", "paths": {"@app/*": ["app/*"]}}}`)
	write("web/tsconfig.json", `{"extends": "../configs/tsconfig.base", "compilerOptions": {/* keeps base paths */}}`)
	write("web/package.json", `{"name": broken`)
	write("broken/tsconfig.json", `{"compilerOptions": `)
	files := []string{
		"main.go", "pkg/p.go", "svc/api/api.go",
		"web/app/page.ts", "web/app/lib.ts",
		"broken/x.ts", "broken/y.ts",
	}
	for _, f := range files {
		write(f, "")
	}
	p, err := NewProject(root, files) // config files deliberately not listed
	if err != nil {
		t.Fatal(err)
	}
	runCases(t, p, []resolveCase{
		{"root module", "main.go", core.LangGo, "example.com/disk/pkg", []string{"pkg/p.go"}},
		{"nested module", "main.go", core.LangGo, "example.com/svc/api", []string{"svc/api/api.go"}},
		{"paths from extended config", "web/app/page.ts", core.LangTypeScript, "@app/lib", []string{"web/app/lib.ts"}},
		{"baseUrl relative to the extended config", "web/app/page.ts", core.LangTypeScript, "app/lib", []string{"web/app/lib.ts"}},
		{"malformed config is ignored", "broken/x.ts", core.LangTypeScript, "./y", []string{"broken/y.ts"}},
	})
	var got []string
	for _, w := range p.Warnings() {
		got = append(got, w.File)
		if !strings.Contains(w.String(), w.File+": ") || w.Message == "" {
			t.Errorf("warning %q does not name its file", w)
		}
	}
	if want := []string{"broken/tsconfig.json", "web/package.json"}; !slices.Equal(got, want) {
		t.Errorf("warnings for %v, want %v", got, want)
	}

	if _, err := NewProject(filepath.Join(root, "nope"), nil); err == nil {
		t.Error("missing root: no error")
	}
	if _, err := NewProject(filepath.Join(root, "main.go"), nil); err == nil {
		t.Error("file as root: no error")
	}
}

func TestBadPaths(t *testing.T) {
	p := NewProjectFS(fstest.MapFS{}, []string{"/abs.go", "../up.go", "ok.go", "./ok.go", ""})
	if !p.Has("ok.go") || p.Has("/abs.go") || p.Has("../up.go") {
		t.Error("file set wrong")
	}
	if len(p.Warnings()) != 3 {
		t.Errorf("warnings = %v, want 3", p.Warnings())
	}
	if _, ok := p.Resolve("ok.go", core.LangGo, core.Import{Spec: ""}); ok {
		t.Error("empty spec resolved")
	}
}

func TestStripJSONC(t *testing.T) {
	in := `{"a": "x // not a comment", /* c */ "b": [1, 2,], // tail
"c": "q\"/*", }`
	got := string(stripJSONC([]byte(in)))
	for _, want := range []string{`"x // not a comment"`, `"q\"/*"`} {
		if !strings.Contains(got, want) {
			t.Errorf("string %s damaged: %s", want, got)
		}
	}
	if strings.Contains(got, "/* c */") || strings.Contains(got, "tail") || strings.Contains(got, "2,]") {
		t.Errorf("not stripped: %s", got)
	}
}

// Replacements pointing at directories the project lacks (a trimmed copy
// of a monorepo) make one warning per go.mod, not one per directive.
func TestGoMissingReplacementsWarnOnce(t *testing.T) {
	p := project(t, map[string]string{
		"go.mod": "module example.com/x\n\nreplace (\n  example.com/a => ./staging/a\n  example.com/b => ./staging/b\n  example.com/c => ./staging/c\n)\n",
		"x.go":   "",
	})
	w := p.Warnings()
	if len(w) != 1 || w[0].File != "go.mod" || !strings.Contains(w[0].Message, "3 replace directives") || !strings.Contains(w[0].Message, "example.com/a => staging/a") {
		t.Errorf("warnings = %v, want one for go.mod counting 3 directives", w)
	}
	one := project(t, map[string]string{"go.mod": "module example.com/x\n\nreplace example.com/a => ./staging/a\n", "x.go": ""})
	if w := one.Warnings(); len(w) != 1 || !strings.Contains(w[0].Message, "replace example.com/a => staging/a: no go.mod there") {
		t.Errorf("warnings = %v", w)
	}
}
