package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/core/subprocess"
	_ "github.com/rubi-dev/rubi/plugins/standard"
)

// project writes a small project whose rubi.hcl swaps lang.treesitter in
// for C and Go, the plugin at bin/rubi-lang-treesitter.
func project(t *testing.T) string {
	root := t.TempDir()
	files := map[string]string{
		"rubi.hcl":     "parser \"lang.treesitter\" {\n  plugin    = \"bin/rubi-lang-treesitter\"\n  languages = [\"c\", \"go\"]\n}\n",
		"go.mod":       "module example.com/shop\n\ngo 1.22\n",
		"main.go":      "package main\n\nimport \"example.com/shop/cart\"\n\nfunc main() { cart.New() }\n",
		"cart/cart.go": "package cart\n\n// New makes a cart.\nfunc New(\n\tsize int,\n) *Cart { return &Cart{} }\n\ntype Cart struct{}\n",
		"src/knr.c":    "#include \"knr.h\"\n\nint knr(a, b)\n    int a; int b;\n{\n    return a;\n}\n",
		"src/knr.h":    "int knr();\n",
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func index(t *testing.T, root string) (*pipeline.Engine, *pipeline.IndexStats) {
	// The user trusts the project's plugin as it is, as rubi trust does.
	opts := config.Options{Root: root, UserConfig: "-", TrustFile: root + ".trust.json"}
	if _, err := config.TrustProject(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.Load(opts)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	e := pipeline.New(cfg, pipeline.Options{Launcher: subprocess.Launcher{}})
	t.Cleanup(e.Close)
	stats, err := e.Index(context.Background(), pipeline.IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return e, stats
}

func symbols(t *testing.T, e *pipeline.Engine, path string) []string {
	g, err := e.Graph()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range g.Files {
		if f.Path == path {
			var out []string
			for _, s := range f.Symbols {
				out = append(out, s.Name)
			}
			return out
		}
	}
	return nil
}

// TestSwapIn swaps the plugin in through rubi.hcl: rubi starts it as a
// subprocess, its facts reach the index (the K&R function only a real
// parser finds), and imports resolve the same shared way.
func TestSwapIn(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the plugin")
	}
	root := project(t)
	out, err := exec.Command("go", "build", "-o", filepath.Join(root, "bin", "rubi-lang-treesitter"), ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	e, stats := index(t, root)
	if len(stats.Problems) != 0 {
		t.Fatalf("problems: %q", stats.Problems)
	}
	var sub bool
	for _, o := range e.Opened() {
		if o.Name == Name && o.Subprocess && o.PID > 0 && o.FellBack == "" {
			sub = true
		}
	}
	if !sub {
		t.Fatalf("lang.treesitter did not run as a subprocess: %+v", e.Opened())
	}
	if got := symbols(t, e, "src/knr.c"); !slices.Contains(got, "knr") {
		t.Errorf("src/knr.c symbols = %v, want knr (lang.regex misses it)", got)
	}
	if got := symbols(t, e, "cart/cart.go"); !slices.Equal(got, []string{"New", "Cart"}) {
		t.Errorf("cart/cart.go symbols = %v", got)
	}
	if r := stats.Resolution.Resolved; r["go"] != 1 || r["c"] != 1 {
		t.Errorf("resolved = %v, want main.go's import and knr.h", r)
	}
}

// TestMissingPlugin: a rubi.hcl naming a plugin that is not built says
// which line names it and how to build it, and the regex parser takes
// over.
func TestMissingPlugin(t *testing.T) {
	root := project(t)
	e, stats := index(t, root)
	if len(stats.Problems) != 1 {
		t.Fatalf("problems = %q, want one", stats.Problems)
	}
	p := stats.Problems[0]
	for _, want := range []string{"rubi.hcl:2: plugin lang.treesitter", "failed to start", "make plugins", "using the built-in lang.regex instead"} {
		if !strings.Contains(p, want) {
			t.Errorf("problem %q lacks %q", p, want)
		}
	}
	if got := symbols(t, e, "cart/cart.go"); !slices.Equal(got, []string{"New", "Cart"}) {
		t.Errorf("fallback: cart/cart.go symbols = %v", got)
	}
}
