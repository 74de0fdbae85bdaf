package knowledge

import (
	"os"
	"path/filepath"
	"testing"
)

// A linked worktree's .git is a file naming its folder in the main
// repository, whose commondir leads back to the refs: the note's commit
// is the worktree's HEAD, found as git finds it.
func TestHeadCommitOfALinkedWorktree(t *testing.T) {
	dir := t.TempDir()
	const hash = "0123456789abcdef0123456789abcdef01234567"
	files := map[string]string{
		"main/.git/HEAD":                   "ref: refs/heads/main\n",
		"main/.git/refs/heads/feature":     hash + "\n",
		"main/.git/worktrees/wt/HEAD":      "ref: refs/heads/feature\n",
		"main/.git/worktrees/wt/commondir": "../..\n",
		"wt/.git":                          "gitdir: ../main/.git/worktrees/wt\n",
	}
	for p, c := range files {
		p = filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sub := filepath.Join(dir, "wt", "pkg")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	work, gitDir, common, ok := GitDirs(sub)
	if !ok || work != filepath.Join(dir, "wt") || gitDir != filepath.Join(dir, "main/.git/worktrees/wt") || filepath.Clean(common) != filepath.Join(dir, "main/.git") {
		t.Errorf("GitDirs = %q, %q, %q, %v", work, gitDir, common, ok)
	}
	if got := headCommit(sub); got != hash[:7] {
		t.Errorf("headCommit = %q, want %q", got, hash[:7])
	}
}
