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
	if len(list) != 10 || !connected["codex"] || connected["gemini"] {
		t.Errorf("--list: %+v", list)
	}
	if code, out, _ = runRubi(t, "--root", root, "connect", "--list"); code != 0 || !strings.Contains(out, "codex     Codex CLI: connected") {
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
