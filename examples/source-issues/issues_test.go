package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/core/subprocess"
	"github.com/rubi-dev/rubi/internal/rubitest"
	_ "github.com/rubi-dev/rubi/plugins/standard"
)

const export = `[
  {"number": 7, "title": "Retry storms after a timeout", "state": "OPEN",
   "body": "When the upstream times out, client/retry.go retries at once, with no backoff.\nSee also ./client/retry.go.",
   "labels": [{"name": "bug"}], "updatedAt": "2026-11-30T10:00:00Z", "url": "https://github.com/o/r/issues/7"},
  {"number": 8, "title": "Document the config file", "state": "CLOSED",
   "body": "The README says nothing of settings.", "labels": [], "updatedAt": "2026-10-01T10:00:00Z", "url": "https://github.com/o/r/issues/8"}
]`

func configured(t *testing.T, settings string) *Source {
	t.Helper()
	s := New()
	if err := s.Configure(context.Background(), core.Setup{Root: t.TempDir(), Settings: json.RawMessage(settings)}); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestScanAndRead(t *testing.T) {
	s := configured(t, `{}`)
	if err := os.WriteFile(filepath.Join(s.root, "issues.json"), []byte(export), 0o644); err != nil {
		t.Fatal(err)
	}
	items, err := s.Scan(context.Background())
	if err != nil || len(items) != 2 || items[0].Key != "7" || items[1].Key != "8" || items[0].Stamp == items[1].Stamp {
		t.Fatalf("items = %+v, %v", items, err)
	}
	docs, err := s.Read(context.Background(), []string{"7", "99"})
	if err != nil || len(docs) != 1 {
		t.Fatalf("docs = %+v, %v", docs, err)
	}
	d := docs[0]
	if d.Title != "#7 Retry storms after a timeout" || d.Location != "https://github.com/o/r/issues/7" || !slices.Equal(d.Names, []string{"open", "bug"}) {
		t.Errorf("doc = %+v", d)
	}
	if !slices.Equal(d.Files, []string{"client/retry.go"}) {
		t.Errorf("files = %q", d.Files)
	}
	if d.Time != time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC).Unix() {
		t.Errorf("time = %d", d.Time)
	}

	// An edit of one issue changes its stamp alone.
	edited := strings.Replace(export, "no backoff", "no backoff at all", 1)
	os.WriteFile(filepath.Join(s.root, "issues.json"), []byte(edited), 0o644)
	again, err := s.Scan(context.Background())
	if err != nil || again[0].Stamp == items[0].Stamp || again[1].Stamp != items[1].Stamp {
		t.Errorf("after an edit: %+v, %v", again, err)
	}

	// Closed issues can be left out; a missing export holds nothing.
	open := configured(t, `{"closed": false}`)
	os.WriteFile(filepath.Join(open.root, "issues.json"), []byte(export), 0o644)
	if items, err := open.Scan(context.Background()); err != nil || len(items) != 1 || items[0].Key != "7" {
		t.Errorf("open only: %+v, %v", items, err)
	}
	if items, err := configured(t, `{}`).Scan(context.Background()); err != nil || len(items) != 0 {
		t.Errorf("no export: %+v, %v", items, err)
	}
}

func TestBadExportNamesItsLine(t *testing.T) {
	s := configured(t, `{}`)
	os.WriteFile(filepath.Join(s.root, "issues.json"), []byte("[\n  {\"number\": 1},\n  {\"number\": \"two\"}\n]"), 0o644)
	_, err := s.Scan(context.Background())
	if err == nil || !strings.Contains(err.Error(), "issues.json: line 3") {
		t.Errorf("err = %v", err)
	}
}

func TestConfigureRefusesAnExportOutsideTheProject(t *testing.T) {
	for _, p := range []string{`"/etc/passwd"`, `"../issues.json"`, `""`} {
		err := New().Configure(context.Background(), core.Setup{Root: t.TempDir(), Settings: json.RawMessage(`{"export": ` + p + `}`)})
		var se *core.SettingError
		if !errors.As(err, &se) || se.Setting != "export" {
			t.Errorf("export %s: %v", p, err)
		}
	}
}

// The plugin, built and named in a project's rubi.hcl, runs as a subprocess
// of the index: a question in a bug report's words finds the issue, and the
// index follows the export as it changes.
func TestIndexedAsSubprocess(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "rubi-source-issues")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	root := rubitest.Project(t, map[string]string{
		"client/retry.go": "package client\n\n// Retry calls fn until it succeeds.\nfunc Retry(fn func() error) error { return fn() }\n",
		"server/serve.go": "package server\n\n// Serve answers requests.\nfunc Serve() {}\n",
		"issues.json":     export,
		"rubi.hcl":        "source \"source.issues\" {\n  plugin = \"" + bin + "\"\n}\n",
	})

	// The user trusts the project's plugin, as rubi trust does (in the
	// empty configuration folder rubitest.Project gives the test).
	if _, err := config.TrustProject(context.Background(), config.Options{Root: root, UserConfig: "-"}); err != nil {
		t.Fatal(err)
	}
	run := func() (*pipeline.Engine, *pipeline.IndexStats) {
		cfg, diags := config.Load(config.Options{Root: root, UserConfig: "-"})
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
	e, stats := run()
	if stats.Sourced != 2 || len(stats.Warnings) != 0 {
		t.Errorf("sourced %d, warnings %q", stats.Sourced, stats.Warnings)
	}
	res, err := e.Retrieve(context.Background(), answer.Query{Text: "requests storm the upstream after a timeout", Kinds: []string{"issue", "file"}})
	if err != nil || len(res.Items) == 0 || res.Items[0].ID != "issue:7" {
		t.Fatalf("items: %v, %v", res, err)
	}
	if !strings.Contains(res.Items[0].Text, "issue: #7 Retry storms after a timeout") {
		t.Errorf("text = %s", res.Items[0].Text)
	}
	var pid int
	for _, o := range e.Opened() {
		if o.Name == "source.issues" {
			if !o.Subprocess || o.FellBack != "" {
				t.Errorf("opened = %+v", o)
			}
			pid = o.PID
		}
	}
	if pid <= 0 || pid == os.Getpid() {
		t.Fatalf("source.issues did not run as a subprocess (pid %d)", pid)
	}
	e.Close()
	for deadline := time.Now().Add(5 * time.Second); syscall.Kill(pid, 0) == nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("plugin process %d outlived the engine", pid)
		}
	}

	// The export changes: issue 8 is gone, issue 7 reworded.
	changed := `[{"number": 7, "title": "Retry storms after a timeout", "state": "OPEN", "body": "Retries hammer the gateway with no jitter."}]`
	if err := os.WriteFile(filepath.Join(root, "issues.json"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	e, stats = run()
	if stats.Sourced != 1 {
		t.Errorf("sourced = %d", stats.Sourced)
	}
	res, err = e.Retrieve(context.Background(), answer.Query{Text: "gateway jitter", Kinds: []string{"issue"}})
	if err != nil || len(res.Items) != 1 || res.Items[0].ID != "issue:7" {
		t.Errorf("after the change: %v, %v", res, err)
	}
	res, err = e.Retrieve(context.Background(), answer.Query{Text: "document the config file settings", Kinds: []string{"issue"}})
	if err != nil || len(res.Items) != 0 {
		t.Errorf("a removed issue is still found: %v, %v", res, err)
	}
}
