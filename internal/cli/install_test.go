package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// installHome points HOME, Claude Code's and rubi's configuration at a
// fresh directory, puts a rubi on PATH (as after go install), and returns
// the home.
func installHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("XDG_CONFIG_HOME", "")
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "rubi"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return home
}

// Without a terminal on stdin and without flags, install asks nothing and
// takes the defaults; a second run changes nothing.
func TestInstallDefaultsWithoutATerminal(t *testing.T) {
	home := installHome(t)
	code, out, errOut := runRubi(t, "install")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if errOut != "" {
		t.Errorf("install asked or warned without a terminal: %q", errOut)
	}
	for _, want := range []string{
		"~/.claude/settings.json (created)\n  env.CLAUDE_CODE_AUTO_COMPACT_WINDOW = \"150000\"\n",
		"~/.config/rubi/config.hcl (created)\n  vault = \"~/rubi-vault\"\n",
		"~/rubi-vault (the vault): created\n",
		"Undo with: rubi install --undo",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	settings, _ := os.ReadFile(filepath.Join(home, ".claude", "settings.json"))
	if string(settings) != "{\n  \"env\": {\n    \"CLAUDE_CODE_AUTO_COMPACT_WINDOW\": \"150000\"\n  }\n}\n" {
		t.Errorf("settings.json:\n%s", settings)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude.json")); !os.IsNotExist(err) {
		t.Error("without --hooks, .claude.json was written")
	}
	code, out, _ = runRubi(t, "install")
	if code != 0 || out != "nothing to change\n" {
		t.Errorf("second run: exit %d:\n%s", code, out)
	}
}

// A re-run without flags keeps the window and vault chosen before, and
// XDG_CONFIG_HOME moves rubi's configuration as it does for every command.
func TestInstallKeepsEarlierChoices(t *testing.T) {
	home := installHome(t)
	xdg := filepath.Join(home, "xdg")
	t.Setenv("XDG_CONFIG_HOME", xdg)
	if code, _, errOut := runRubi(t, "install", "--window", "200k", "--vault", "~/notes"); code != 0 {
		t.Fatal(errOut)
	}
	if code, out, _ := runRubi(t, "install", "--yes"); code != 0 || out != "nothing to change\n" {
		t.Errorf("re-run: %d\n%s", code, out)
	}
	cfg, err := os.ReadFile(filepath.Join(xdg, "rubi", "config.hcl"))
	if err != nil || !strings.Contains(string(cfg), `vault = "~/notes"`) {
		t.Errorf("config.hcl: %v\n%s", err, cfg)
	}
	if _, err := os.Stat(filepath.Join(home, "notes")); err != nil {
		t.Error("the vault was not created")
	}
	// rubi itself now reads that vault.
	code, out, _ := runRubi(t, "config", "check", "--root", t.TempDir(), "--json")
	var rc struct {
		Vault string `json:"vault"`
	}
	if json.Unmarshal([]byte(out), &rc); code != 0 || rc.Vault != "~/notes" {
		t.Errorf("config check: %d %q\n%s", code, rc.Vault, out)
	}
}

// --hooks, --json and --undo through the command line.
func TestInstallHooksJSONAndUndo(t *testing.T) {
	home := installHome(t)
	code, out, errOut := runRubi(t, "install", "--hooks", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Files []struct {
			Path    string   `json:"path"`
			Created bool     `json:"created"`
			Changes []string `json:"changes"`
		} `json:"files"`
		VaultCreated string `json:"vault_created"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rep.Files) != 3 || rep.Files[1].Path != filepath.Join(home, ".claude.json") || len(rep.Files[0].Changes) != 8 || rep.VaultCreated != filepath.Join(home, "rubi-vault") {
		t.Errorf("report: %+v", rep)
	}
	// rubi is on PATH: the hooks run it by name.
	settings, _ := os.ReadFile(filepath.Join(home, ".claude", "settings.json"))
	if !strings.Contains(string(settings), `"command": "rubi hook SessionStart"`) {
		t.Errorf("settings.json:\n%s", settings)
	}
	code, out, _ = runRubi(t, "install", "--undo")
	if code != 0 || !strings.Contains(out, "~/.claude.json (removed: rubi had created it)") || !strings.Contains(out, "note: backups kept") {
		t.Errorf("undo: %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude", "settings.json")); !os.IsNotExist(err) {
		t.Error("settings.json rubi created is still there after the undo")
	}
	code, out, _ = runRubi(t, "install", "--undo")
	if code != 0 || out != "nothing to change\n" {
		t.Errorf("second undo: %d\n%s", code, out)
	}
}

// With rubi-hook installed beside rubi, the hooks run rubi-hook, and an
// undo still knows them for rubi's.
func TestInstallHooksRunRubiHook(t *testing.T) {
	home := installHome(t)
	rubiPath, err := exec.LookPath("rubi")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(filepath.Dir(rubiPath), "rubi-hook"), []byte("#!/bin/sh\n"), 0o755)
	if code, _, errOut := runRubi(t, "install", "--hooks", "--yes"); code != 0 {
		t.Fatalf("install: %s", errOut)
	}
	settings, _ := os.ReadFile(filepath.Join(home, ".claude", "settings.json"))
	if !strings.Contains(string(settings), `"command": "rubi-hook SessionStart"`) || strings.Contains(string(settings), "rubi hook") {
		t.Errorf("settings.json:\n%s", settings)
	}
	if code, _, _ := runRubi(t, "install", "--undo"); code != 0 {
		t.Fatal("undo failed")
	}
	if data, err := os.ReadFile(filepath.Join(home, ".claude", "settings.json")); err == nil && strings.Contains(string(data), "rubi-hook") {
		t.Errorf("the undo left rubi-hook's hooks:\n%s", data)
	}
}

// A settings.json that is not JSON: exit 1, the file, line and column on
// stderr, and nothing written.
func TestInstallBrokenSettings(t *testing.T) {
	home := installHome(t)
	path := filepath.Join(home, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	broken := "{\n  \"model\": \"opus\"\n  \"env\": {}\n}\n"
	os.WriteFile(path, []byte(broken), 0o644)
	code, out, errOut := runRubi(t, "install", "--hooks")
	if code != 1 || out != "" || !strings.Contains(errOut, "rubi: "+path+":3:3: invalid character '\"' after object key:value pair\nnothing was changed") {
		t.Errorf("exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	if data, _ := os.ReadFile(path); string(data) != broken {
		t.Error("the broken file was changed")
	}
	if entries, _ := os.ReadDir(home); len(entries) != 1 {
		t.Errorf("something else was written: %v", entries)
	}
}

// --dry-run prints diffs and writes nothing.
func TestInstallDryRun(t *testing.T) {
	home := installHome(t)
	code, out, _ := runRubi(t, "install", "--dry-run", "--window", "120000")
	if code != 0 || !strings.Contains(out, "--- /dev/null\n+++ ~/.claude/settings.json\n") || !strings.Contains(out, `+    "CLAUDE_CODE_AUTO_COMPACT_WINDOW": "120000"`) || !strings.HasSuffix(out, "dry run: nothing was written\n") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	if entries, _ := os.ReadDir(home); len(entries) != 0 {
		t.Errorf("the dry run wrote %v", entries)
	}
}

func TestInstallBadFlags(t *testing.T) {
	installHome(t)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"install", "--undo", "--window", "100000"}, "--undo takes no --vault or --window"},
		{[]string{"install", "--window", "5000"}, "--window: a window of 5000 tokens is too small"},
		{[]string{"install", "--window", "lots"}, `--window: "lots" is not a number of tokens`},
		{[]string{"install", "--vault", "~bob/notes"}, "--vault: vault ~bob/notes: only ~/ (your home) is expanded"},
	} {
		code, _, errOut := runRubi(t, tt.args...)
		if code != 1 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d: %s", tt.args, code, errOut)
		}
	}
}
