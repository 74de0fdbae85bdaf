package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/core/subprocess"
	_ "github.com/rubi-dev/rubi/plugins/standard"
)

// The plugin, built and named by this directory's rubi.hcl, runs as a
// subprocess of the pipeline: a question that shares no word with the
// file it is about finds it through the embeddings; with the endpoint
// gone, the question is still answered by the other rankers and one line
// says why rank.embed is missing.
func TestSwappedInAsSubprocess(t *testing.T) {
	root := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("fleet/garage.go", "package fleet\n\n// Service keeps an automobile running: oil, tyres, brakes.\nfunc Service() {}\n")
	write("shop/checkout.go", "package shop\n\n// Total adds up the cart and charges the card.\nfunc Total() {}\n")
	write("shop/stock.go", "package shop\n\n// Count says what the warehouse holds.\nfunc Count() {}\n")

	// Build the plugin where rubi.hcl expects it, next to a copy of that
	// file; a second layer points it at the fake.
	f := newFake(t)
	confDir := t.TempDir()
	src, err := os.ReadFile("rubi.hcl")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(confDir, "rubi.hcl"), src, 0o644)
	build := exec.Command("go", "build", "-o", filepath.Join(confDir, "bin", "rubi-rank-embed"), ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	layer := filepath.Join(confDir, "fake.hcl")
	os.WriteFile(layer, fmt.Appendf(nil, "ranker \"rank.embed\" {\n  endpoint = %q\n  model = %q\n  query_prefix = \"\"\n  document_prefix = \"\"\n}\n", f.URL, f.Model), 0o644)

	engine := func() *pipeline.Engine {
		cfg, diags := config.Load(config.Options{Root: root, UserConfig: "-", Extra: []string{filepath.Join(confDir, "rubi.hcl"), layer}})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		e := pipeline.New(cfg, pipeline.Options{Launcher: subprocess.Launcher{}})
		t.Cleanup(e.Close)
		return e
	}
	ask := func(e *pipeline.Engine, text string) []string {
		res, err := e.Retrieve(context.Background(), answer.Query{Text: text, Kinds: []string{"file"}})
		if err != nil {
			t.Fatalf("retrieve %q: %v", text, err)
		}
		var paths []string
		for _, it := range res.Items {
			paths = append(paths, it.Path)
		}
		return paths
	}

	e := engine()
	stats, err := e.Index(context.Background(), pipeline.IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Rankers["rank.embed"] != "full" {
		t.Errorf("rank.embed indexed: %q", stats.Rankers["rank.embed"])
	}
	if got := ask(e, "car"); len(got) == 0 || got[0] != "fleet/garage.go" {
		t.Errorf("car → %v, want fleet/garage.go first", got)
	}
	if len(e.Problems()) != 0 {
		t.Errorf("problems: %q", e.Problems())
	}
	if _, err := os.Stat(filepath.Join(root, ".rubi", "index", "rank.embed", vectorFile)); err != nil {
		t.Errorf("vectors not under .rubi/index: %v", err)
	}
	e.Close()

	// One changed file: one request with its text only.
	f.Reset()
	write("shop/stock.go", "package shop\n\n// Count says how many trolleys the warehouse holds.\nfunc Count() {}\n")
	e = engine()
	if _, err := e.Index(context.Background(), pipeline.IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	if in := f.Inputs(); len(in) != 1 || !strings.Contains(in[0], "trolleys") {
		t.Errorf("refresh embedded %q, want stock.go alone", in)
	}
	e.Close()

	// The endpoint is gone: the question is answered all the same, and
	// one line names the missing ranker.
	f.Close()
	e = engine()
	if got := ask(e, "warehouse"); len(got) == 0 || got[0] != "shop/stock.go" {
		t.Errorf("warehouse without the endpoint → %v", got)
	}
	ask(e, "cart")
	probs := e.Problems()
	if len(probs) != 1 || !strings.Contains(probs[0], "rank.embed") || !strings.Contains(probs[0], "embeddings endpoint "+f.URL+"/embeddings unavailable") || !strings.Contains(probs[0], "continuing without rank.embed") {
		t.Errorf("problems = %q, want one line naming rank.embed and its endpoint", probs)
	}
}
