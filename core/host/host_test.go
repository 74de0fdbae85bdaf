package host

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/config"
	_ "github.com/rubi-dev/rubi/plugins/fuse-rrf"
)

// The subprocess path, with a real Launcher, is tested in core/subprocess;
// this package's tests link none, as rubi and rubi-hook do (options_test.go
// hands a host a fake one).

func load(t *testing.T, src string) *config.Config {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, config.FileName), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// The project names a plugin: the user trusts it, as rubi trust does.
	opts := config.Options{Root: root, UserConfig: "-", TrustFile: root + ".trust.json"}
	if _, err := config.TrustProject(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.Load(opts)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return cfg
}

// executable writes a program a plugin attribute can name.
func executable(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rubi-fuse-mine")
	if err := os.WriteFile(path, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// A host given no Launcher says so once and runs the built-in, as for any
// plugin that cannot start; StartsPlugins tells its program beforehand.
func TestNoLauncher(t *testing.T) {
	plain := load(t, "")
	if StartsPlugins(plain) {
		t.Error("the built-in pipeline starts no plugin")
	}
	path := executable(t)
	cfg := load(t, "fuser \"fuse.rrf\" {\n  plugin = \""+path+"\"\n}\n")
	if !StartsPlugins(cfg) || StartsPlugins(cfg, core.KindRanker) || !StartsPlugins(cfg, core.KindRanker, core.KindFuser) {
		t.Error("a configuration naming a fuser plugin starts it, when fusers open")
	}
	h := New(cfg, Options{})
	defer h.Close()
	stage, diags := h.Open(context.Background(), cfg.Stage(core.KindFuser, "fuse.rrf"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if _, ok := stage.(core.Fuser); !ok {
		t.Fatalf("stage = %T, want the built-in fuser", stage)
	}
	want := "plugin fuse.rrf (" + path + ") failed to start: " + ErrNoLauncher.Error() + "; using the built-in fuse.rrf instead"
	if p := h.Problems(); len(p) != 1 || p[0] != want {
		t.Errorf("problems = %q\nwant      %q", p, want)
	}
	if o := h.Opened(); len(o) != 1 || o[0].Subprocess || o[0].Name != "fuse.rrf" {
		t.Errorf("opened = %+v", o)
	}

	disabled := load(t, "ranker \"rank.mine\" {\n  plugin = \""+path+"\"\n  enabled = false\n}\n")
	if StartsPlugins(disabled) {
		t.Error("a disabled plugin is not started")
	}
}

func TestUnknownBuiltin(t *testing.T) {
	cfg := load(t, "ranker \"rank.nope\" {\n}\n")
	h := New(cfg, Options{})
	defer h.Close()
	_, diags := h.Open(context.Background(), cfg.Stage(core.KindRanker, "rank.nope"))
	if !diags.HasErrors() || !strings.Contains(diags[0].Detail, `add plugin = "path/to/binary"`) || diags[0].Subject.Start.Line != 1 {
		t.Fatalf("diags = %v", diags)
	}
}
