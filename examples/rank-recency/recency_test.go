package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/core/subprocess"
	_ "github.com/rubi-dev/rubi/plugins/standard"
)

func TestRankFavoursRecentMatches(t *testing.T) {
	day := int64(86400)
	now := time.Unix(1000*day, 0)
	r := New()
	r.now = func() time.Time { return now }
	if err := r.Configure(context.Background(), core.Setup{StateDir: t.TempDir(), Settings: json.RawMessage(`{"half_life_days": 10, "source": "mtime"}`)}); err != nil {
		t.Fatal(err)
	}
	err := r.Index(context.Background(), &core.Corpus{Full: true, Documents: []core.Document{
		{ID: "file:old/parser.go", Kind: core.DocFile, Path: "old/parser.go", ModTime: now.Unix() - 30*day},
		{ID: "file:new/parser.go", Kind: core.DocFile, Path: "new/parser.go", ModTime: now.Unix() - 10*day},
		{ID: "file:new/lexer.go", Kind: core.DocFile, Path: "new/lexer.go", ModTime: now.Unix()},
		{ID: "module:new", Kind: core.DocModule, Path: "new"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	hits, err := r.Rank(context.Background(), core.Query{Text: "parser", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 2 || hits[0].ID != "file:new/parser.go" || hits[1].ID != "file:old/parser.go" {
		t.Fatalf("hits = %+v", hits)
	}
	// One half-life older: half the score; three: an eighth.
	if hits[0].Score != 0.5 || hits[1].Score != 0.125 || hits[0].Reason != "changed 10 days ago" {
		t.Errorf("hits = %+v", hits)
	}
	// A fresh process ranks from the persisted state.
	fresh := New()
	fresh.now = r.now
	fresh.Configure(context.Background(), core.Setup{StateDir: r.stateDir, Settings: json.RawMessage(`{"half_life_days": 10}`)})
	again, err := fresh.Rank(context.Background(), core.Query{Text: "parser", Limit: 1})
	if err != nil || len(again) != 1 || again[0].ID != "file:new/parser.go" {
		t.Errorf("fresh rank = %+v, %v", again, err)
	}
}

// An incremental corpus carries names only for changed files; the others
// keep the words of the previous run.
func TestIncrementalKeepsUnchangedWords(t *testing.T) {
	r := New()
	if err := r.Configure(context.Background(), core.Setup{StateDir: t.TempDir(), Settings: json.RawMessage(`{"source": "mtime"}`)}); err != nil {
		t.Fatal(err)
	}
	now := time.Now().Unix()
	full := &core.Corpus{Full: true, Documents: []core.Document{
		{ID: "file:a.go", Kind: core.DocFile, Path: "a.go", Names: []string{"ParseConfig"}, ModTime: now},
		{ID: "file:b.go", Kind: core.DocFile, Path: "b.go", Names: []string{"Render"}, ModTime: now},
	}}
	if err := r.Index(context.Background(), full); err != nil {
		t.Fatal(err)
	}
	incremental := &core.Corpus{Changed: []string{"file:b.go"}, Documents: []core.Document{
		{ID: "file:a.go", Kind: core.DocFile, Path: "a.go", ModTime: now},
		{ID: "file:b.go", Kind: core.DocFile, Path: "b.go", Names: []string{"RenderConfig"}, ModTime: now},
	}}
	if err := r.Index(context.Background(), incremental); err != nil {
		t.Fatal(err)
	}
	hits, _ := r.Rank(context.Background(), core.Query{Text: "config", Limit: 10})
	if len(hits) != 2 {
		t.Errorf("both files name config (a.go from the first run): %+v", hits)
	}
	// A fresh process without state cannot apply an incremental corpus.
	fresh := New()
	fresh.Configure(context.Background(), core.Setup{StateDir: t.TempDir()})
	if err := fresh.Index(context.Background(), incremental); err != core.ErrFullIndexNeeded {
		t.Errorf("err = %v, want ErrFullIndexNeeded", err)
	}
}

func TestConfigureRejectsBadSettings(t *testing.T) {
	for _, raw := range []string{`{"half_life_days": 0}`, `{"source": "svn"}`} {
		var se *core.SettingError
		err := New().Configure(context.Background(), core.Setup{Settings: json.RawMessage(raw)})
		if se, _ = err.(*core.SettingError); se == nil {
			t.Errorf("%s: err = %v, want a SettingError", raw, err)
		}
	}
}

// The example plugin, built and named by examples/rubi.hcl, runs as a
// subprocess of the pipeline and changes the ranking: of two files that
// match alike, the recently changed one comes first.
func TestSwappedInAsSubprocess(t *testing.T) {
	root := t.TempDir()
	write := func(rel, content string, age time.Duration) {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		mt := time.Now().Add(-age)
		os.Chtimes(p, mt, mt)
	}
	// The old file matches the query a little better on its words.
	write("legacy/parser.go", "package legacy\n\n// Parser parses the legacy parser format.\nfunc Parse() {}\n", 400*24*time.Hour)
	write("modern/parser.go", "package modern\n\n// Parse reads the format.\nfunc Parse() {}\n", time.Hour)

	top := func(extra ...string) (string, *pipeline.Engine) {
		cfg, diags := config.Load(config.Options{Root: root, UserConfig: "-", Extra: extra})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		e := pipeline.New(cfg, pipeline.Options{Launcher: subprocess.Launcher{}})
		t.Cleanup(e.Close)
		if _, err := e.Index(context.Background(), pipeline.IndexOptions{}); err != nil {
			t.Fatal(err)
		}
		res, err := e.Retrieve(context.Background(), answer.Query{Text: "parser", Kinds: []string{"file"}})
		if err != nil || len(res.Items) == 0 {
			t.Fatalf("retrieve: %v %v", res, err)
		}
		return res.Items[0].ID, e
	}
	before, _ := top()
	if before != "file:legacy/parser.go" {
		t.Fatalf("without the plugin the better text match should win, got %s", before)
	}

	// Build the plugin where examples/rubi.hcl expects it, next to a copy
	// of that file.
	confDir := t.TempDir()
	src, err := os.ReadFile("../rubi.hcl")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(confDir, "rubi.hcl"), src, 0o644)
	build := exec.Command("go", "build", "-o", filepath.Join(confDir, "bin", "rubi-rank-recency"), ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	after, e := top(filepath.Join(confDir, "rubi.hcl"))
	if after != "file:modern/parser.go" {
		t.Errorf("with rank.recency the recent file should win, got %s", after)
	}
	var pid int
	for _, o := range e.Opened() {
		if o.Name == "rank.recency" {
			if !o.Subprocess || o.Path != filepath.Join(confDir, "bin", "rubi-rank-recency") || o.FellBack != "" {
				t.Errorf("opened = %+v", o)
			}
			pid = o.PID
		}
	}
	if pid <= 0 || pid == os.Getpid() {
		t.Fatalf("rank.recency did not run as a subprocess (pid %d)", pid)
	}
	if len(e.Problems()) != 0 {
		t.Errorf("problems: %q", e.Problems())
	}
	e.Close()
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("plugin process %d outlived the engine", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
