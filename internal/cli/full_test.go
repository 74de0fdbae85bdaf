package cli

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/internal/rubitest"
)

// fakeProgram puts an executable named name (one of rubi's programs, a
// plugin) in a directory of its own, makes that directory PATH, and
// returns the program's path.
func fakeProgram(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	return path
}

// withPlugins is a project whose rubi.hcl names plugin stages (blocks).
func withPlugins(t *testing.T, blocks string) string {
	t.Helper()
	files := map[string]string{"rubi.hcl": blocks}
	for k, v := range rubitest.GoProject {
		files[k] = v
	}
	root := rubitest.Project(t, files)
	// The user trusts the project's plugins, as rubi trust does, in a
	// configuration folder of the test's own, one for all its projects
	// (rubitest.Project gives each an empty one).
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(filepath.Dir(t.TempDir()), "config"))
	if _, err := config.TrustProject(context.Background(), config.Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	return root
}

// rubi, which starts no plugin (its tests link no Launcher, as the program
// does not), runs rubi-full in its place with every argument when a
// command would open a plugin stage, and only then.
func TestPluginStagesRunInRubiFull(t *testing.T) {
	full := fakeProgram(t, "rubi-full")
	plugin := fakeProgram(t, "rubi-plugin") // any executable: it never starts here
	t.Setenv("PATH", filepath.Dir(full))
	var ran []string
	execProgram = func(argv0 string, argv, env []string) error {
		if argv0 != full || !slices.Equal(env, os.Environ()) {
			t.Errorf("exec %s with env %v", argv0, env)
		}
		ran = argv
		return nil
	}
	t.Cleanup(func() { execProgram = syscallExec })

	ranker := withPlugins(t, "ranker \"rank.mine\" {\n  plugin = \""+plugin+"\"\n}\n")
	parser := withPlugins(t, "parser \"lang.mine\" {\n  plugin = \""+plugin+"\"\n  languages = [\"go\"]\n}\n")
	for _, tt := range []struct {
		args   []string
		handed bool
	}{
		{[]string{"context", "open the database", "--root", ranker}, true},
		{[]string{"--root=" + ranker, "context", "--no-refresh", "open", "--json"}, true},
		{[]string{"index", "--root", ranker}, true},
		{[]string{"map", "--root", ranker}, true},
		{[]string{"graph", "--root", ranker, "--json"}, true},
		{[]string{"plugins", "--root", ranker}, true},
		{[]string{"config", "check", "--root", ranker}, true},
		{[]string{"context", "open the database", "--root", parser}, true},
		// Without a refresh no parser runs, nor any stage for map.
		{[]string{"context", "open the database", "--root", parser, "--no-refresh"}, false},
		{[]string{"map", "--root", ranker, "--no-refresh"}, false},
		// The knowledge commands open no stage.
		{[]string{"nodes", "--root", ranker}, false},
		{[]string{"version"}, false},
	} {
		ran = nil
		code, out, errOut := runRubi(t, tt.args...)
		switch {
		case tt.handed && (code != 0 || !slices.Equal(ran, append([]string{full}, tt.args...)) || out != "" || errOut != ""):
			t.Errorf("rubi %q: exit %d, ran %q, want rubi-full with the same arguments\n%s%s", tt.args, code, ran, out, errOut)
		case !tt.handed && ran != nil:
			t.Errorf("rubi %q ran %q; it opens no plugin stage", tt.args, ran)
		}
	}
}

// Without rubi-full, rubi says what is missing and runs the built-ins:
// each plugin that cannot start gets its line, as a broken plugin does.
func TestPluginStagesWithoutRubiFull(t *testing.T) {
	plugin := fakeProgram(t, "rubi-plugin")
	t.Setenv("PATH", t.TempDir())
	root := withPlugins(t, "ranker \"rank.mine\" {\n  plugin = \""+plugin+"\"\n}\n")
	code, out, errOut := runRubi(t, "plugins", "--root", root)
	if code != 0 || !strings.Contains(errOut, "rubi: rubi.hcl names a plugin; rubi runs plugins through the rubi-full program, which is not beside rubi nor on PATH (go install ./cmd/... installs it)\n") {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	if !strings.Contains(out, "problem: plugin rank.mine ("+plugin+") failed to start: this program does not start subprocess plugins; continuing without rank.mine") {
		t.Errorf("stdout:\n%s", out)
	}
}

// The real programs: rubi hands a project whose rubi.hcl names the
// example ranker plugin to rubi-full, which runs it as a subprocess; so
// does rubi-hook's background index.
func TestRubiFullRunsThePlugins(t *testing.T) {
	bin := rubitest.Binary(t)
	plugin := filepath.Join(t.TempDir(), "rubi-rank-recency")
	if out, err := exec.Command("go", "build", "-o", plugin, "github.com/rubi-dev/rubi/examples/rank-recency").CombinedOutput(); err != nil {
		t.Fatalf("building the example plugin: %v\n%s", err, out)
	}
	t.Setenv("PATH", t.TempDir()) // rubi-full only beside rubi
	root := withPlugins(t, "ranker \"rank.recency\" {\n  plugin = \""+plugin+"\"\n  weight = 3.0\n}\n")

	out, err := exec.Command(bin, "plugins", "--root", root, "--json").Output()
	if err != nil {
		t.Fatalf("rubi plugins: %v\n%s", err, out)
	}
	var rows []pluginRow
	if err := json.Unmarshal(out, &rows); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(rows, func(r pluginRow) bool { return r.Name == "rank.recency" })
	if i < 0 || rows[i].Path != plugin || !rows[i].InPipeline || rows[i].Problem != "" {
		t.Fatalf("rubi plugins --json: %s", out)
	}

	cmd := exec.Command(bin, "context", "open the order database", "--root", root, "--json", "--explain")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err = cmd.Output()
	if err != nil || stderr.Len() > 0 || !strings.Contains(string(out), `"rank.recency"`) {
		t.Fatalf("rubi context: %v; the plugin's scores should be among the components:\n%s%s", err, out, stderr.String())
	}

	hookRoot := withPlugins(t, "ranker \"rank.recency\" {\n  plugin = \""+plugin+"\"\n}\n")
	if out, err := exec.Command(filepath.Join(filepath.Dir(bin), "rubi-hook"), "index", hookRoot).CombinedOutput(); err != nil {
		t.Fatalf("rubi-hook index: %v\n%s", err, out)
	}
	// The host makes a stage's state directory when the stage starts.
	if _, err := os.Stat(filepath.Join(hookRoot, ".rubi", "index", "rank.recency")); err != nil {
		t.Errorf("rubi-hook index did not run the plugin: %v", err)
	}
}

// A configured plugin that cannot start: config check says the pipeline
// has problems and exits 1, and rubi plugins lists the plugin as not
// started.
func TestAMissingPluginIsReported(t *testing.T) {
	bin := rubitest.Binary(t)
	t.Setenv("PATH", t.TempDir()) // rubi-full only beside rubi
	missing := filepath.Join(t.TempDir(), "rubi-rank-nowhere")
	root := withPlugins(t, "ranker \"rank.nowhere\" {\n  plugin = \""+missing+"\"\n}\n")

	out, err := exec.Command(bin, "config", "check", "--root", root).Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), "configuration has problems") || !strings.Contains(string(out), "rank.nowhere") {
		t.Errorf("config check with a missing plugin: %v\n%s", err, out)
	}
	out, err = exec.Command(bin, "plugins", "--root", root, "--json").Output()
	if err != nil {
		t.Fatalf("rubi plugins: %v\n%s", err, out)
	}
	var rows []pluginRow
	if err := json.Unmarshal(out, &rows); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(rows, func(r pluginRow) bool { return r.Name == "rank.nowhere" })
	if i < 0 || rows[i].InPipeline || rows[i].Path != missing || rows[i].Problem == "" {
		t.Errorf("rubi plugins --json leaves out or misreports the missing plugin: %s", out)
	}
}
