package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// rubi connect codex in a project writes the project's files (--root),
// shows a dry run as a diff, changes nothing when run again, and --list
// reports the agent connected; --undo takes it back out.
func TestConnectCommand(t *testing.T) {
	installHome(t)
	t.Setenv("CODEX_HOME", "")
	root := rubitest.Project(t, map[string]string{"main.go": "package main\n"})
	code, out, errOut := runRubi(t, "--root", root, "connect", "codex", "--dry-run")
	if code != 0 || !strings.Contains(out, "+[mcp_servers.rubi]") || !strings.Contains(out, "dry run: nothing was written") {
		t.Fatalf("dry run: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(root, ".codex")); !os.IsNotExist(err) {
		t.Error("the dry run wrote .codex/")
	}
	if code, out, errOut = runRubi(t, "--root", root, "connect", "codex"); code != 0 || !strings.Contains(out, "[mcp_servers.rubi]: added") {
		t.Fatalf("connect: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, _ = runRubi(t, "--root", root, "connect", "codex"); code != 0 || out != "nothing to change\n" {
		t.Errorf("second connect: exit %d\n%s", code, out)
	}
	code, out, _ = runRubi(t, "--root", root, "--json", "connect", "--list")
	var list []struct {
		Agent     string `json:"agent"`
		Connected bool   `json:"connected"`
	}
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil {
		t.Fatalf("--list --json: exit %d, %v\n%s", code, err, out)
	}
	connected := map[string]bool{}
	for _, a := range list {
		connected[a.Agent] = a.Connected
	}
	if len(list) != 11 || list[0].Agent != "claude-code" || !connected["codex"] || connected["gemini"] || connected["claude-code"] {
		t.Errorf("--list: %+v", list)
	}
	if code, out, _ = runRubi(t, "--root", root, "connect", "--list"); code != 0 || !strings.Contains(out, "codex       Codex CLI: connected") {
		t.Errorf("--list:\n%s", out)
	}
	if code, out, _ = runRubi(t, "--root", root, "connect", "codex", "--undo"); code != 0 || !strings.Contains(out, "[mcp_servers.rubi]: removed") {
		t.Errorf("--undo: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(root, "AGENTS.md")); !os.IsNotExist(err) {
		t.Error("the undo left AGENTS.md, which rubi had created")
	}
	if code, _, errOut = runRubi(t, "--root", root, "connect", "nope"); code == 0 || !strings.Contains(errOut, `unknown agent "nope"`) {
		t.Errorf("an unknown agent: exit %d, %s", code, errOut)
	}
	if code, _, errOut = runRubi(t, "--root", root, "connect", "codex", "--project", "--global"); code == 0 || !strings.Contains(errOut, "choose one") {
		t.Errorf("--project --global: exit %d, %s", code, errOut)
	}
}

// connect --list covers every agent rubi connects, Claude Code included
// (connected by rubi install --hooks or the plugin), in the README's words:
// only agents whose hooks rubi sets up get anything automatically.
func TestConnectListWords(t *testing.T) {
	installHome(t)
	t.Setenv("CODEX_HOME", "")
	root := rubitest.Project(t, map[string]string{"main.go": "package main\n"})
	blocks := func() map[string]string {
		t.Helper()
		code, out, errOut := runRubi(t, "--root", root, "connect", "--list")
		if code != 0 {
			t.Fatalf("--list: exit %d: %s", code, errOut)
		}
		got := map[string]string{}
		for _, b := range strings.Split(out, "\n\n")[1:] {
			got[strings.Fields(b)[0]] = b
		}
		return got
	}
	got := blocks()
	want := map[string]string{
		"claude-code": "automatic (hooks): map, recall, read guard, meter, memory nudge, harvest, pre-compaction record",
		"codex":       "automatic (hooks): with --global (~/.codex/hooks.json): map, recall, read guard on cat, meter, memory nudge (apply_patch), harvest",
		"gemini":      "automatic (hooks): map, recall, read guard (read_file, cat), meter, memory nudge, harvest, pre-compression record",
		"cursor":      "automatic (hooks): none\n",
		"vscode":      "automatic (hooks): none\n",
		"windsurf":    "automatic (hooks): none\n",
		"cline":       "automatic (hooks): none\n",
		"opencode":    "automatic (hooks): none\n            through instructions: AGENTS.md",
		"continue":    "automatic (hooks): none\n",
		"goose":       "automatic (hooks): none\n            through instructions: .goosehints",
		"zed":         "automatic (hooks): none\n",
	}
	if len(got) != len(want) {
		t.Errorf("--list shows %d agents, want %d", len(got), len(want))
	}
	for agent, line := range want {
		if !strings.Contains(got[agent], line) {
			t.Errorf("%s's block should say %q:\n%s", agent, line, got[agent])
		}
	}
	if b := got["claude-code"]; !strings.HasPrefix(b, "claude-code Claude Code: not connected") || !strings.Contains(b, "set up with: rubi's plugin (/plugin install rubi@rubi), or rubi install --hooks") {
		t.Errorf("Claude Code before rubi install:\n%s", b)
	}
	if code, _, errOut := runRubi(t, "install", "--hooks"); code != 0 {
		t.Fatalf("install --hooks: exit %d: %s", code, errOut)
	}
	if b := blocks()["claude-code"]; !strings.HasPrefix(b, "claude-code Claude Code: connected") || strings.Count(b, "✓") != 2 {
		t.Errorf("Claude Code after rubi install --hooks:\n%s", b)
	}
}
