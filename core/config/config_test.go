package config

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/rubi-dev/rubi/core"
)

// markerRE finds the expected-error marker of a fixture line.
var markerRE = regexp.MustCompile(`# ERROR: (.*)$`)

// expectedErrors reads the `# ERROR: text` markers of a fixture: line → text.
func expectedErrors(t *testing.T, src []byte) map[int]string {
	t.Helper()
	want := map[int]string{}
	for i, line := range strings.Split(string(src), "\n") {
		if m := markerRE.FindStringSubmatch(line); m != nil {
			want[i+1] = strings.TrimSpace(m[1])
		}
	}
	return want
}

// projectWith makes a project root whose rubi.hcl is src.
func projectWith(t testing.TB, src []byte) string {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, FileName), src, 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// CheckDiagnostics asserts that diags are exactly the fixture's markers:
// one error on each marked line whose summary or detail contains the text,
// and no error anywhere else.
func checkDiagnostics(t *testing.T, fixture string, src []byte, diags hcl.Diagnostics) {
	t.Helper()
	want := expectedErrors(t, src)
	got := map[int][]string{}
	for _, d := range diags {
		if d.Subject == nil || !strings.HasSuffix(d.Subject.Filename, FileName) || d.Subject.Filename == DefaultsName {
			t.Errorf("%s: diagnostic without a rubi.hcl location: %s: %s", fixture, d.Summary, d.Detail)
			continue
		}
		got[d.Subject.Start.Line] = append(got[d.Subject.Start.Line], d.Summary+": "+d.Detail)
	}
	for line, text := range want {
		found := false
		for _, g := range got[line] {
			if strings.Contains(g, text) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s:%d: want an error containing %q, got %q", fixture, line, text, got[line])
		}
	}
	var lines []int
	for line := range got {
		lines = append(lines, line)
	}
	sort.Ints(lines)
	for _, line := range lines {
		if _, ok := want[line]; !ok {
			t.Errorf("%s:%d: unexpected error %q", fixture, line, got[line])
		}
	}
}

func TestErrorFixtures(t *testing.T) {
	fixtures, _ := filepath.Glob("testdata/errors/*.hcl")
	if len(fixtures) == 0 {
		t.Fatal("no fixtures")
	}
	for _, fixture := range fixtures {
		t.Run(filepath.Base(fixture), func(t *testing.T) {
			src, err := os.ReadFile(fixture)
			if err != nil {
				t.Fatal(err)
			}
			cfg, diags := Load(Options{Root: projectWith(t, src), UserConfig: "-"})
			if !diags.HasErrors() {
				t.Fatalf("loaded without errors")
			}
			if cfg != nil {
				t.Errorf("a config with errors must not be returned")
			}
			checkDiagnostics(t, fixture, src, diags)
		})
	}
}

func TestDefaultsOnly(t *testing.T) {
	cfg, diags := Load(Options{Root: t.TempDir(), UserConfig: "-"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if cfg.Budgets.Context != 1500 || cfg.Budgets.Recall != 700 || cfg.Budgets.Map != 500 {
		t.Errorf("budgets = %+v", cfg.Budgets)
	}
	if !cfg.Index.DefaultExcludes || cfg.Index.MaxFileSize != 1<<20 {
		t.Errorf("index = %+v", cfg.Index)
	}
	if cfg.Hooks.CompactWindow != 150000 || cfg.Hooks.WarnPercent != 80 {
		t.Errorf("hooks = %+v", cfg.Hooks)
	}
	var names []string
	for _, st := range cfg.Stages {
		names = append(names, string(st.Kind)+" "+st.Name)
	}
	want := "parser lang.regex,parser lang.go,ranker rank.bm25,ranker rank.names,ranker query.paths,ranker query.callers,ranker rank.ppr,ranker rank.neighbours,ranker notes.files,ranker query.time,fuser fuse.rrf," +
		"reranker rerank.roles,reranker rerank.notes,reranker rerank.units,reranker rerank.floor"
	if strings.Join(names, ",") != want {
		t.Errorf("stages = %v, want %s", names, want)
	}
}

func TestLayering(t *testing.T) {
	src, err := os.ReadFile("testdata/valid/override.hcl")
	if err != nil {
		t.Fatal(err)
	}
	root := projectWith(t, src)
	home := t.TempDir()
	user := filepath.Join(home, "config.hcl")
	os.WriteFile(user, []byte("budgets {\n  context = 900\n  recall = 300\n}\nvault = \"/tmp/my-vault\"\n"), 0o644)
	extra := filepath.Join(home, "extra.hcl")
	os.WriteFile(extra, []byte("budgets {\n  recall = 100\n}\n"), 0o644)

	opts := Options{Root: root, UserConfig: user, Extra: []string{extra}, TrustFile: filepath.Join(home, "trust.json")}
	// The project's rubi.hcl names a plugin: it runs once the user
	// trusts the project.
	if _, err := TrustProject(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	cfg, diags := Load(opts)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	// Each layer overrides only what it sets.
	if cfg.Budgets.Context != 3000 || cfg.Budgets.Recall != 100 || cfg.Budgets.Map != 500 {
		t.Errorf("budgets = %+v, want project context, extra recall, default map", cfg.Budgets)
	}
	if cfg.Vault != "/tmp/my-vault" {
		t.Errorf("vault = %q", cfg.Vault)
	}
	if cfg.Index.MaxFileSize != 2048 || !cfg.Index.DefaultExcludes || len(cfg.Index.Exclude) != 1 {
		t.Errorf("index = %+v", cfg.Index)
	}
	if len(cfg.Layers) != 4 {
		t.Errorf("layers = %v", cfg.Layers)
	}
	bm25 := cfg.Stage(core.KindRanker, "rank.bm25")
	if bm25 == nil || bm25.Weight != 2 {
		t.Fatalf("bm25 = %+v", bm25)
	}
	// The project's k1 replaced the default; b stays from the defaults.
	if a := bm25.Attrs["k1"]; a == nil || !strings.HasSuffix(a.Range.Filename, FileName) || a.Range.Filename == cfg.Layers[0] {
		t.Errorf("k1 should come from the project layer, got %v", a)
	}
	if a := bm25.Attrs["b"]; a == nil || a.Range.Filename != cfg.Layers[0] {
		t.Errorf("b should come from the defaults, got %v", a)
	}
	if cfg.Stage(core.KindRanker, "rank.ppr") != nil {
		t.Errorf("rank.ppr was disabled by the project layer")
	}
	rec := cfg.Stage(core.KindRanker, "rank.recency")
	if rec == nil || rec.Plugin != filepath.Join(root, "bin/rubi-rank-recency") || rec.Timeout != 2*time.Second {
		t.Errorf("recency = %+v", rec)
	}
	if got := len(cfg.Enabled(core.KindRanker)); got != 8 {
		t.Errorf("enabled rankers = %d, want 8 (bm25, names, query.paths, query.callers, rank.neighbours, notes.files, query.time, recency)", got)
	}
}

func TestStageSettings(t *testing.T) {
	src := []byte(`ranker "rank.test" {
  k1    = 2
  mode  = 5
  names = ["a", "b"]
}
`)
	schema := core.Schema{{Name: "k1", Type: "number"}, {Name: "mode", Type: "string"}, {Name: "names", Type: "list(string)"}, {Name: "b", Type: "number"}}
	cfg, diags := Load(Options{Root: projectWith(t, src), UserConfig: "-"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	raw, diags := cfg.Stage(core.KindRanker, "rank.test").Settings(schema)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	// Numbers convert to strings where the schema says so, as HCL does.
	if string(raw) != `{"k1":2,"mode":"5","names":["a","b"]}` {
		t.Errorf("settings = %s", raw)
	}

	bad := []byte(`ranker "rank.test" {
  k1   = "fast"   # ERROR: k1 expects number
  mdoe = "x"      # ERROR: Did you mean "mode"?
}
ranker "rank.other" { # ERROR: Missing required argument
}
`)
	cfg, diags = Load(Options{Root: projectWith(t, bad), UserConfig: "-"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	_, d1 := cfg.Stage(core.KindRanker, "rank.test").Settings(schema)
	_, d2 := cfg.Stage(core.KindRanker, "rank.other").Settings(core.Schema{{Name: "path", Type: "string", Required: true}})
	checkDiagnostics(t, "settings", bad, append(d1, d2...))
}

func TestSettingDiagnosticPointsAtTheAttribute(t *testing.T) {
	src := []byte("ranker \"rank.bm25\" {\n  b = 7\n}\n")
	root := projectWith(t, src)
	t.Chdir(root) // file names in diagnostics are relative to the working directory
	cfg, diags := Load(Options{Root: root, UserConfig: "-"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	d := cfg.Stage(core.KindRanker, "rank.bm25").SettingDiagnostic(&core.SettingError{Setting: "b", Message: "must be between 0 and 1"})
	var buf bytes.Buffer
	WriteDiagnostics(&buf, cfg.Files, hcl.Diagnostics{d})
	out := buf.String()
	if !strings.HasPrefix(out, "rubi.hcl:2:7: error: Invalid b for ranker \"rank.bm25\"\n") || !strings.Contains(out, "must be between 0 and 1.") || !strings.Contains(out, "2 |   b = 7") {
		t.Errorf("diagnostic text:\n%s", out)
	}
}

// A program with no terminal for diagnostics (a hook, the server, a
// background index) gets one error that names each problem's file and
// line, and a configuration with warnings alone loads.
func TestLoadChecked(t *testing.T) {
	root := t.TempDir()
	write := func(src string) {
		if err := os.WriteFile(filepath.Join(root, FileName), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("budgets {\n  context = 1200\n}\n\nhooks {\n  compact_windw = 90000\n}\n")
	cfg, err := LoadChecked(Options{Root: root, UserConfig: "-"})
	var le *LoadError
	if cfg != nil || !errors.As(err, &le) || !strings.Contains(err.Error(), FileName+":6:") {
		t.Fatalf("LoadChecked = %v, %v; want a *LoadError naming %s:6", cfg, err, FileName)
	}
	write("budgets {\n  context = 1200\n}\n")
	if cfg, err = LoadChecked(Options{Root: root, UserConfig: "-"}); err != nil || cfg.Budgets.Context != 1200 {
		t.Fatalf("LoadChecked = %+v, %v", cfg, err)
	}
}

// An old retrieve block still works: each attribute is read as the
// setting of the stage that took it over, with a warning at its line
// naming that stage.
func TestRetrieveBlockIsReadAsStages(t *testing.T) {
	src := []byte("retrieve {\n  test_weight = 0.8\n  role_priors = false\n  named_paths = false\n  report_graph_weight = 1\n  units = false\n  lift_notes = false\n  note_files = false\n  dated_questions = false\n}\n")
	cfg, diags := Load(Options{Root: projectWith(t, src), UserConfig: "-"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	warned := map[int]string{}
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning && d.Subject != nil && strings.HasSuffix(d.Subject.Filename, FileName) {
			warned[d.Subject.Start.Line] = d.Summary + " " + d.Detail
		}
	}
	for line, want := range map[int]string{
		2: `reranker "rerank.roles" { test_weight = 0.8 }`, 3: `reranker "rerank.roles" { role_priors = false }`,
		4: `ranker "query.paths" { enabled = false }`, 5: `ranker "rank.ppr" { report_weight = 1 }`,
		6: `reranker "rerank.units" { enabled = false }`, 7: `reranker "rerank.notes" { enabled = false }`,
		8: `ranker "notes.files" { enabled = false }`, 9: `ranker "query.time" { enabled = false }`,
	} {
		if !strings.Contains(warned[line], want) {
			t.Errorf("line %d: warning %q, want the new form %s", line, warned[line], want)
		}
	}
	for _, off := range []struct {
		kind core.Kind
		name string
	}{{core.KindRanker, "query.paths"}, {core.KindReranker, "rerank.units"}, {core.KindReranker, "rerank.notes"}, {core.KindRanker, "notes.files"}, {core.KindRanker, "query.time"}} {
		if cfg.Stage(off.kind, off.name) != nil {
			t.Errorf("%s %s is still enabled", off.kind, off.name)
		}
	}
	if ppr := cfg.Stage(core.KindRanker, "rank.ppr"); ppr == nil || ppr.ReportWeight != 1 {
		t.Errorf("rank.ppr = %+v, want report_weight 1", ppr)
	}
	roles := cfg.Stage(core.KindReranker, "rerank.roles")
	raw, diags := roles.Settings(core.Schema{{Name: "test_weight", Type: "number"}, {Name: "role_priors", Type: "bool"}, {Name: "docs_weight", Type: "number"}, {Name: "config_weight", Type: "number"}})
	if diags.HasErrors() || !strings.Contains(string(raw), `"test_weight":0.8`) || !strings.Contains(string(raw), `"role_priors":false`) {
		t.Errorf("rerank.roles settings = %s %v", raw, diags)
	}
}

// A plugin that takes a built-in's name over (plugin = in the user's
// layer) gets the built-in defaults' settings it takes and no others: the
// defaults' k1, k3, … are the built-in's, and no error blames their lines.
// A value of the defaults the plugin rejects is the block's to fix.
func TestPluginOverBuiltinLeavesDefaultsOut(t *testing.T) {
	user := filepath.Join(t.TempDir(), "config.hcl")
	if err := os.WriteFile(user, []byte("ranker \"rank.bm25\" {\n  plugin = \"my-bm25\"\n  mine   = 2\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := Load(Options{Root: t.TempDir(), UserConfig: user, TrustFile: "-"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	st := cfg.Stage(core.KindRanker, "rank.bm25")
	raw, diags := st.Settings(core.Schema{{Name: "mine", Type: "number"}, {Name: "b", Type: "number"}, {Name: "k1", Type: "bool"}})
	if diags.HasErrors() || string(raw) != `{"b":0.75,"mine":2}` {
		t.Errorf("settings = %s, %v; want the plugin's own and the defaults' b, nothing blamed", raw, diags)
	}
	d := st.SettingDiagnostic(&core.SettingError{Setting: "b", Message: "must be 1"})
	if d.Subject.Filename == DefaultsName || d.Subject.Start.Line != 1 ||
		d.Detail != "b: must be 1 (rubi's built-in default was rejected; set b in this block)." {
		t.Errorf("diagnostic at %s:%d: %s", d.Subject.Filename, d.Subject.Start.Line, d.Detail)
	}
}
