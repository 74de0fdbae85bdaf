package rubitest

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Project writes files (slash paths to contents) into a new directory and
// returns it. The user's personal configuration and vault are kept out of
// the test ($XDG_CONFIG_HOME and $RUBI_VAULT point at empty directories).
func Project(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		path := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("RUBI_VAULT", t.TempDir())
	return root
}

// ClaudeSample and CodexSample are real session logs captured from Claude
// Code and Codex (core/transcript/testdata), as absolute paths.
var ClaudeSample, CodexSample = sample("claude-code-2.1.328.jsonl"), sample("codex-0.169.0.jsonl")

func sample(name string) string {
	return filepath.Join(repo, "core", "transcript", "testdata", name)
}

// AgentHomes lays the two sample logs out where Claude Code and Codex
// keep theirs, modified at mod, and points $CLAUDE_CONFIG_DIR,
// $CODEX_HOME and $HOME there.
func AgentHomes(t testing.TB, mod time.Time) {
	t.Helper()
	home := t.TempDir()
	for src, dst := range map[string]string{
		ClaudeSample: "claude/projects/-home-dev-project/fb8b07ed-43f1-4f11-8556-ee3bf452f7db.jsonl",
		CodexSample:  "codex/sessions/2026/11/29/rollout-2026-11-29T14-05-13-01a2279f-ca04-7bc3-baff-8285562be50b.jsonl",
	} {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dst = filepath.Join(home, dst)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(dst, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, "claude"))
	t.Setenv("CODEX_HOME", filepath.Join(home, "codex"))
	t.Setenv("HOME", home)
}
