package connect

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// claudeCLIDir holds the real Claude Code CLI, pinned in its
// package-lock.json and installed by `npm ci` (make test does it).
const claudeCLIDir = "testdata/claude"

// noNodeEnv opts out of the tests that run npm-installed programs, on a
// machine without Node.js (the repository's convention).
const noNodeEnv = "RUBI_TEST_NO_NODE"

// The real Claude Code reads what `rubi install --hooks` writes: `claude
// mcp list` finds rubi's server in the user scope and starts it (rubi is
// on PATH, as install assumed), `claude doctor` finds nothing invalid in
// settings.json, and Claude Code's own rewrite of its state file keeps
// rubi's entry, so a second install changes nothing. Run with the default
// home and with CLAUDE_CONFIG_DIR, where both files move.
func TestClaudeCodeReadsTheInstall(t *testing.T) {
	if os.Getenv(noNodeEnv) == "1" {
		t.Skipf("%s=1: the real Claude Code CLI is not run", noNodeEnv)
	}
	claude, err := filepath.Abs(filepath.Join(claudeCLIDir, "node_modules", ".bin", "claude"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(claude); err != nil {
		t.Fatalf("Claude Code is not installed: run `(cd agent/connect/testdata/claude && npm ci)` (make test does), or set %s=1 to leave this test out", noNodeEnv)
	}
	bin := filepath.Dir(rubitest.Binary(t))
	for _, tt := range []struct {
		name      string
		configDir string // CLAUDE_CONFIG_DIR under the home, or none
		settings  string // where settings.json and .claude.json must be
		state     string
	}{
		{"home", "", ".claude/settings.json", ".claude.json"},
		{"CLAUDE_CONFIG_DIR", "claude-work", "claude-work/settings.json", "claude-work/.claude.json"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			project := t.TempDir()
			os.WriteFile(filepath.Join(project, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
			// TMPDIR: Claude Code and Node keep caches in the temporary
			// folder (claude-<uid>, node-compile-cache); the test's own goes.
			env := []string{"HOME=" + home, "TMPDIR=" + t.TempDir(), "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
				// Claude Code must not reach for the network in a test.
				"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1"}
			if tt.configDir != "" {
				env = append(env, "CLAUDE_CONFIG_DIR="+filepath.Join(home, tt.configDir))
			}
			run := func(name string, args ...string) string {
				t.Helper()
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				cmd := exec.CommandContext(ctx, name, args...)
				cmd.Dir = project
				cmd.Env = append(cleanEnv(), env...)
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
				}
				return string(out)
			}
			run(filepath.Join(bin, "rubi"), "install", "--hooks", "--yes")
			for _, p := range []string{tt.settings, tt.state} {
				if _, err := os.Stat(filepath.Join(home, p)); err != nil {
					t.Fatalf("rubi install did not write %s: %v", p, err)
				}
			}
			if out := run(claude, "mcp", "list"); !strings.Contains(out, "rubi: rubi mcp - ✔ Connected") {
				t.Errorf("claude mcp list does not show rubi connected:\n%s", out)
			}
			if out := run(claude, "mcp", "get", "rubi"); !strings.Contains(out, "Scope: User config") || !strings.Contains(out, "Command: rubi") {
				t.Errorf("claude mcp get rubi:\n%s", out)
			}
			if out := run(claude, "doctor"); !strings.Contains(out, "Claude Code doctor") || strings.Contains(out, "Invalid settings") {
				t.Errorf("claude doctor:\n%s", out)
			}
			if out := run(filepath.Join(bin, "rubi"), "install", "--hooks", "--yes"); !strings.HasPrefix(out, "nothing to change") {
				t.Errorf("a second install after Claude Code ran:\n%s", out)
			}
		})
	}
}

// cleanEnv is the test's environment without what would point Claude
// Code or rubi at the real user's files.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "HOME", "PATH", "CLAUDE_CONFIG_DIR", "XDG_CONFIG_HOME", "RUBI_VAULT", "ANTHROPIC_API_KEY":
			continue
		}
		env = append(env, kv)
	}
	return env
}

func TestMain(m *testing.M) {
	os.Exit(rubitest.Main(m))
}
