package memory

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func writeAll(t *testing.T, files map[string]string) {
	t.Helper()
	for p, content := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A chunk's project is the origin repository's name, whatever the folder
// is called: a clone, a worktree, a submodule.
func TestDetectProject(t *testing.T) {
	dir := t.TempDir()
	origin := func(url string) string {
		return "[core]\n\tbare = false\n[remote \"upstream\"]\n\turl = git@example.com:other/fork.git\n[remote \"origin\"]\n\turl = " + url + "\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
	}
	clone := filepath.Join(dir, "checkout-2")
	worktree := filepath.Join(dir, "wt-feature")
	plain := filepath.Join(dir, "scratch")
	local := filepath.Join(dir, "mirror")
	writeAll(t, map[string]string{
		filepath.Join(clone, ".git", "config"):                               origin("git@github.com:acme/shop.git"),
		filepath.Join(worktree, ".git"):                                      "gitdir: " + filepath.Join(clone, ".git", "worktrees", "wt-feature") + "\n",
		filepath.Join(clone, ".git", "worktrees", "wt-feature", "commondir"): "../..\n",
		filepath.Join(plain, ".git", "config"):                               "[core]\n\tbare = false\n",
		filepath.Join(local, ".git", "config"):                               origin("/srv/git/billing/"),
	})
	for root, want := range map[string]string{clone: "shop", worktree: "shop", plain: "scratch", local: "billing", filepath.Join(dir, "nogit"): "nogit"} {
		if got := DetectProject(root); got != want {
			t.Errorf("DetectProject(%s) = %q, want %q", filepath.Base(root), got, want)
		}
	}
	for url, want := range map[string]string{
		"https://github.com/acme/api-server":       "api-server",
		"https://gitlab.com/acme/group/tools.git/": "tools",
		"ssh://git@host:2222/acme/infra.git":       "infra",
	} {
		writeAll(t, map[string]string{filepath.Join(plain, ".git", "config"): origin(url)})
		if got := DetectProject(plain); got != want {
			t.Errorf("origin %s: %q, want %q", url, got, want)
		}
	}
	// Saved chunks record it.
	s := Open(worktree)
	saved, err := s.Save(context.Background(), Input{Content: "worktree notes"})
	if err != nil {
		t.Fatal(err)
	}
	if c, err := s.Get(saved.ID); err != nil || c.Project != "shop" {
		t.Errorf("the chunk's project: %+v %v", c, err)
	}
}
