package config

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/trust"
)

// evilProject is the case: a cloned repository's rubi.hcl names
// a ranker run by an executable committed beside it.
func evilProject(t *testing.T) (root string, opts Options) {
	t.Helper()
	root = projectWith(t, []byte("ranker \"rank.evil\" {\n  plugin = \"bin/x\"\n}\n"))
	os.MkdirAll(filepath.Join(root, "bin"), 0o755)
	if err := os.WriteFile(filepath.Join(root, "bin", "x"), []byte("#!/bin/sh\ntouch /tmp/pwned\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root, Options{Root: root, UserConfig: "-", TrustFile: filepath.Join(t.TempDir(), "trust.json")}
}

func load(t *testing.T, opts Options) *Config {
	t.Helper()
	cfg, diags := Load(opts)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return cfg
}

// Untrusted, the project's plugin is left out and said; trusted, it is in
// the pipeline; a change to the executable or to rubi.hcl takes it out
// again until the user trusts the project anew.
func TestUntrustedPluginLeftOut(t *testing.T) {
	root, opts := evilProject(t)
	ctx := context.Background()
	cfg := load(t, opts)
	if cfg.Trusted || cfg.Stage(core.KindRanker, "rank.evil") != nil {
		t.Fatalf("untrusted project: trusted %v, rank.evil %+v", cfg.Trusted, cfg.Stage(core.KindRanker, "rank.evil"))
	}
	if len(cfg.Trust.LeftOut) != 1 || cfg.Trust.LeftOut[0].Where != filepath.Join(root, "rubi.hcl")+":2" && !strings.HasSuffix(cfg.Trust.LeftOut[0].Where, "rubi.hcl:2") {
		t.Fatalf("left out: %+v", cfg.Trust.LeftOut)
	}
	line := cfg.LeftOutLine(messages.English)
	if !strings.Contains(line, "ranker rank.evil (") || !strings.Contains(line, "rubi trust "+root) || strings.Contains(line, "\n") {
		t.Errorf("line: %q", line)
	}
	for _, st := range cfg.Stages {
		if st.Enabled && st.Plugin != "" {
			t.Errorf("%s still runs %s", st.Name, st.Plugin)
		}
	}

	entry, err := TrustProject(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(entry.Configs) != 1 || len(entry.Plugins) != 1 || entry.Plugins[0].Path != filepath.Join(trust.Root(root), "bin", "x") {
		t.Fatalf("entry: %+v", entry)
	}
	cfg = load(t, opts)
	if st := cfg.Stage(core.KindRanker, "rank.evil"); !cfg.Trusted || st == nil || st.Plugin != filepath.Join(root, "bin", "x") || len(cfg.Trust.LeftOut) != 0 {
		t.Fatalf("trusted: %v, rank.evil %+v, left out %+v", cfg.Trusted, st, cfg.Trust.LeftOut)
	}

	// The executable changes: no longer trusted.
	os.WriteFile(filepath.Join(root, "bin", "x"), []byte("#!/bin/sh\ntouch /tmp/pwned2\n"), 0o755)
	cfg = load(t, opts)
	if cfg.Trusted || !cfg.Trust.Stale || cfg.Stage(core.KindRanker, "rank.evil") != nil || !strings.Contains(cfg.LeftOutLine(messages.English), "changed since you trusted") {
		t.Fatalf("after bin/x changed: trusted %v stale %v", cfg.Trusted, cfg.Trust.Stale)
	}
	if _, err := TrustProject(ctx, opts); err != nil {
		t.Fatal(err)
	}
	if cfg = load(t, opts); !cfg.Trusted {
		t.Fatal("trusted again: not trusted")
	}
	// rubi.hcl changes: no longer trusted.
	os.WriteFile(filepath.Join(root, FileName), []byte("ranker \"rank.evil\" {\n  plugin = \"bin/x\"\n  weight = 2\n}\n"), 0o644)
	if cfg = load(t, opts); cfg.Trusted || cfg.Stage(core.KindRanker, "rank.evil") != nil {
		t.Fatal("after rubi.hcl changed: still trusted")
	}
	// Another record, or none: nothing trusted.
	opts.TrustFile = "-"
	if cfg = load(t, opts); cfg.Trusted || cfg.Stage(core.KindRanker, "rank.evil") != nil {
		t.Fatal("no record: trusted")
	}
}

// A plugin in the place of a built-in leaves the built-in running, with
// the settings it knows; a fuser plugin in place of the only fuser brings
// fuse.rrf back.
func TestUntrustedPluginBuiltinStays(t *testing.T) {
	root := projectWith(t, []byte(`ranker "rank.trusttest" {
  plugin = "bin/x"
  k1     = 3
  model  = "evil"
}
fuser "fuse.rrf" {
  enabled = false
}
fuser "fuse.evil" {
  plugin = "bin/x"
}
`))
	cfg := load(t, Options{Root: root, UserConfig: "-", TrustFile: filepath.Join(t.TempDir(), "trust.json")})
	st := cfg.Stage(core.KindRanker, "rank.trusttest")
	if st == nil || st.Plugin != "" || st.Attrs["k1"] == nil || st.Attrs["model"] != nil {
		t.Fatalf("rank.trusttest = %+v", st)
	}
	if f := cfg.Enabled(core.KindFuser); len(f) != 1 || f[0].Name != "fuse.rrf" || f[0].Plugin != "" {
		t.Fatalf("fusers = %+v", f)
	}
	if len(cfg.Trust.LeftOut) != 2 || cfg.Trust.LeftOut[0].Instead != "rank.trusttest" || cfg.Trust.LeftOut[1].Instead != "fuse.rrf" {
		t.Fatalf("left out: %+v", cfg.Trust.LeftOut)
	}
}

func init() {
	core.Register("rank.trusttest", core.KindRanker, func() core.Stage { return testStage{} })
}

type testStage struct{}

func (testStage) Info() core.Info {
	return core.Info{Name: "rank.trusttest", Kind: core.KindRanker, Schema: core.Schema{{Name: "k1", Type: "number"}}}
}
func (testStage) Configure(context.Context, core.Setup) error { return nil }

// A plugin the user's own config sets up is the user's program; the
// project's settings for it still need the trust. A --config file inside
// the project is the project's.
func TestUserPluginProjectSettings(t *testing.T) {
	home := t.TempDir()
	user := filepath.Join(home, "config.hcl")
	os.WriteFile(user, []byte("ranker \"rank.mine\" {\n  plugin = \"rubi-rank-mine\"\n}\n"), 0o644)
	record := filepath.Join(home, "trust.json")

	plain := projectWith(t, []byte("budgets {\n  context = 900\n}\n"))
	cfg := load(t, Options{Root: plain, UserConfig: user, TrustFile: record})
	if st := cfg.Stage(core.KindRanker, "rank.mine"); st == nil || st.Plugin != "rubi-rank-mine" || len(cfg.Trust.LeftOut) != 0 {
		t.Fatalf("the user's plugin: %+v, left out %+v", st, cfg.Trust.LeftOut)
	}

	tuned := projectWith(t, []byte("ranker \"rank.mine\" {\n  endpoint = \"http://evil.example\"\n}\n"))
	cfg = load(t, Options{Root: tuned, UserConfig: user, TrustFile: record})
	if st := cfg.Stage(core.KindRanker, "rank.mine"); st != nil || len(cfg.Trust.LeftOut) != 1 || !strings.HasSuffix(cfg.Trust.LeftOut[0].Where, "rubi.hcl:2") {
		t.Fatalf("the project's settings: %+v, left out %+v", st, cfg.Trust.LeftOut)
	}

	extra := filepath.Join(plain, "more.hcl")
	os.WriteFile(extra, []byte("ranker \"rank.other\" {\n  plugin = \"/usr/bin/true\"\n}\n"), 0o644)
	cfg = load(t, Options{Root: plain, UserConfig: "-", Extra: []string{extra}, TrustFile: record})
	if cfg.Stage(core.KindRanker, "rank.other") != nil || len(cfg.Trust.LeftOut) != 1 {
		t.Fatalf("a --config inside the project: left out %+v", cfg.Trust.LeftOut)
	}
	outside := filepath.Join(home, "more.hcl")
	os.WriteFile(outside, []byte("ranker \"rank.other\" {\n  plugin = \"/usr/bin/true\"\n}\n"), 0o644)
	cfg = load(t, Options{Root: plain, UserConfig: "-", Extra: []string{outside}, TrustFile: record})
	if cfg.Stage(core.KindRanker, "rank.other") == nil {
		t.Fatalf("a --config of the user's: left out %+v", cfg.Trust.LeftOut)
	}
}

// A damaged record is a warning naming it, and trusts nothing.
func TestCorruptRecordTrustsNothing(t *testing.T) {
	_, opts := evilProject(t)
	if _, err := TrustProject(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(opts.TrustFile, []byte("{not json"), 0o600)
	cfg, diags := Load(opts)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if cfg.Trusted || cfg.Stage(core.KindRanker, "rank.evil") != nil || len(diags) != 1 || !strings.Contains(diags[0].Detail, opts.TrustFile) {
		t.Fatalf("trusted %v, diags %v", cfg.Trusted, diags)
	}
	if _, err := TrustProject(context.Background(), opts); err == nil || !strings.Contains(err.Error(), opts.TrustFile) {
		t.Fatalf("trust over a damaged record: %v", err)
	}
}

// The personal config is the user's own even inside the project (a
// project at the home folder holds ~/.config): its plugins need no trust.
func TestUserConfigInsideTheProject(t *testing.T) {
	home := projectWith(t, []byte("budgets {\n  context = 900\n}\n"))
	user := filepath.Join(home, ".config", "rubi", "config.hcl")
	os.MkdirAll(filepath.Dir(user), 0o755)
	os.WriteFile(user, []byte("ranker \"rank.mine\" {\n  plugin = \"rubi-rank-mine\"\n  level = 2\n}\n"), 0o644)
	cfg := load(t, Options{Root: home, UserConfig: user, TrustFile: filepath.Join(t.TempDir(), "trust.json")})
	if cfg.Stage(core.KindRanker, "rank.mine") == nil || len(cfg.Trust.LeftOut) != 0 {
		t.Fatalf("the user's own plugin was left out: %+v", cfg.Trust.LeftOut)
	}
}
