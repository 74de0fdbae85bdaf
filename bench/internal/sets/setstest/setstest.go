// Package setstest makes what the tests of the benchmarks' sets need: a
// git repository with two commits to follow, and a tree read back.
package setstest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// GitFixture is a repository with two commits: the second adds a file,
// changes two (one keeping its size), deletes one, turns a file into a
// directory and adds one whose blob is then removed. It returns the
// repository's git directory and the two commits.
func GitFixture(t testing.TB) (string, [2]string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("the tree tests need git:", err)
	}
	dir := t.TempDir()
	home := t.TempDir()
	date := "2024-01-01T00:00:00Z"
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
			"GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(files map[string]string) {
		for p, c := range files {
			name := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(name, []byte(c), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	git("init", "-q", "-b", "main")
	write(map[string]string{
		"pkg/alpha.py": "def alpha():\n    return 'aardvark'\n",
		"pkg/beta.py":  "def beta():\n    return 'bbbbbbbb'\n",
		"gone.txt":     "soon deleted\n",
		"thing":        "a file that becomes a directory\n",
		".rubi/x":      "never written into the project's own state\n",
	})
	if err := os.Symlink("pkg/alpha.py", filepath.Join(dir, "link.py")); err != nil {
		t.Fatal(err)
	}
	git("add", "-A")
	git("commit", "-q", "-m", "one")
	c1 := git("rev-parse", "HEAD")
	date = "2024-02-01T00:00:00Z"
	if err := os.Remove(filepath.Join(dir, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "thing")); err != nil {
		t.Fatal(err)
	}
	write(map[string]string{
		"pkg/alpha.py":     "def alpha():\n    return 'aardvark'\n\ndef extra():\n    return 'porcupine'\n",
		"pkg/beta.py":      "def beta():\n    return 'zeppelin'\n", // same size as before
		"pkg/new.py":       "class Fresh:\n    pass\n",
		"thing/inside.txt": "now a directory\n",
	})
	write(map[string]string{"lost.dat": "a blob the snapshot lacks\n"})
	git("add", "-A")
	git("commit", "-q", "-m", "two")
	// Take lost.dat's blob out, as the mirrors' snapshots lack the largest.
	blob := git("rev-parse", "HEAD:lost.dat")
	if err := os.Remove(filepath.Join(dir, ".git", "objects", blob[:2], blob[2:])); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, ".git"), [2]string{c1, git("rev-parse", "HEAD")}
}

// ReadTree reads the files under dir, path to content, without .rubi/.
func ReadTree(t testing.TB, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			if rel == ".rubi" {
				return filepath.SkipDir
			}
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		got[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// Mirrors is a mirrors' folder in which the repository at git is the
// mirror of name (OWNER/NAME), as the benchmarks find mirrors.
func Mirrors(t testing.TB, git, name string) string {
	t.Helper()
	dir := t.TempDir()
	folder := filepath.Join(dir, strings.ReplaceAll(name, "/", "+"))
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(git, filepath.Join(folder, "repo")); err != nil {
		t.Fatal(err)
	}
	return dir
}
