//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The hostile repository, with its agents' files committed as links out
// of the project (AGENTS.md -> ~/.bashrc, GEMINI.md -> ~/.ssh/id_ed25519,
// .gemini -> ~/.gemini, CLAUDE.md -> /dev/zero) and its map linked to
// /dev/zero: rubi connect refuses, naming the link, and the commands that
// read those files end as documented; nothing outside the project
// changes, and no copy of the key is left in the repository.
func TestAHostileRepositoryLinksItsAgentFiles(t *testing.T) {
	root, outside := hostileRepo(t, "")
	home := installHome(t) // a rubi on PATH for the agents to start
	t.Setenv("RUBI_VAULT", filepath.Join(home, "vault"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	t.Setenv("RUBI_TEST_AS_RUBI", "1")
	os.MkdirAll(filepath.Join(outside, "ssh"), 0o700)
	os.WriteFile(filepath.Join(outside, "ssh", "id_ed25519"), []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nTHEKEY\n"), 0o600)
	os.MkdirAll(filepath.Join(outside, "gemini"), 0o755)
	os.WriteFile(filepath.Join(outside, "gemini", "settings.json"), []byte(`{"theme": "dark"}`+"\n"), 0o644)
	for link, target := range map[string]string{
		"AGENTS.md":    filepath.Join(outside, "bashrc"),
		"GEMINI.md":    filepath.Join(outside, "ssh", "id_ed25519"),
		".gemini":      filepath.Join(outside, "gemini"),
		"CLAUDE.md":    "/dev/zero",
		".rubi/map.md": "/dev/zero",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	before := snapshot(t, outside)
	for _, agent := range []string{"codex", "gemini"} {
		for _, undo := range []bool{false, true} {
			args := []string{"connect", agent, "--root", root}
			if undo {
				args = append(args, "--undo")
			}
			code, _, stderr := runWithin(t, 60*time.Second, "", args...)
			if code != 1 || !strings.Contains(stderr, "symbolic link") || !strings.Contains(stderr, outside) {
				t.Errorf("rubi %s: exit %d, want 1 naming the link and where it leads\n%s", strings.Join(args, " "), code, stderr)
			}
		}
	}
	for _, args := range [][]string{{"index"}, {"map"}, {"context", "open the order database"}, {"audit"}} {
		args = append(args, "--root", root)
		if code, _, stderr := runWithin(t, 60*time.Second, "", args...); code != 0 {
			t.Errorf("rubi %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
		}
	}
	after := snapshot(t, outside)
	for p, h := range before {
		if after[p] != h {
			t.Errorf("outside the project, %s changed", p)
		}
	}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".bak-rubi") {
			t.Errorf("a backup left in the repository: %s", p)
		}
		return nil
	})
}
