package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/examples/rank-embed/embedtest"
)

// Without -embed-endpoint nothing changes; with it, the self part
// measures a system "full + rank.embed" beside the lexical pipeline, its
// documents embedded when the index is built and each question embedded
// when asked. The endpoint is the loopback fake: this checks the wiring,
// not what semantic search is worth (no real model runs here).
func TestEmbedSystem(t *testing.T) {
	o, err := parseFlags([]string{"-self"}, &bytes.Buffer{})
	if err != nil || o.embed.Endpoint != "" {
		t.Fatalf("no flag: %+v, %v", o.embed, err)
	}
	if testing.Short() {
		t.Skip("indexes rubi's own tree twice over")
	}
	f := embedtest.New("fake-embed", nil)
	defer f.Close()
	out := filepath.Join(t.TempDir(), "quality.md")
	var stderr bytes.Buffer
	args := []string{"-self", "-ablation=false", "-embed-endpoint", f.URL, "-embed-model", "fake-embed", "-embed-query-prefix", "search_query: ", "-out", out}
	if err := run(context.Background(), args, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	data, err := os.ReadFile(strings.TrimSuffix(out, ".md") + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var rep report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range rep.Self.Systems {
		names = append(names, s.Role+" / "+s.Kinds)
	}
	want := []string{"reference / file", "full / default", "full / file", "full + rank.embed / default", "full + rank.embed / file"}
	if !slices.Equal(names, want) {
		t.Errorf("systems = %q, want %q", names, want)
	}
	if rep.Embed == nil || rep.Embed.Endpoint != f.URL || rep.Embed.Model != "fake-embed" {
		t.Errorf("report's embed = %+v", rep.Embed)
	}
	// Documents were embedded once, at index time; every question was
	// embedded for each kind of the embed system (plus the first one,
	// asked twice), and no question for the lexical systems.
	var docs, questions int
	for _, in := range f.Inputs() {
		if strings.HasPrefix(in, "search_query: ") {
			questions++
		} else {
			docs++
		}
	}
	if docs < rep.Self.Files {
		t.Errorf("%d documents embedded for %d files indexed", docs, rep.Self.Files)
	}
	if wantQ := 2 * (len(rep.Self.Questions) + 1); questions != wantQ {
		t.Errorf("%d questions embedded, want %d", questions, wantQ)
	}
	md, _ := os.ReadFile(out)
	if !strings.Contains(string(md), "| rank.bm25 + rank.names + rank.ppr + rank.neighbours + rank.embed | full + rank.embed | default |") || !strings.Contains(string(md), "vectors made by model `fake-embed` at `"+f.URL+"`") {
		t.Errorf("the report does not show the embed system:\n%s", md)
	}
}
