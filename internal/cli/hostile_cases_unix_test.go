//go:build unix

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// runGit runs the real git in dir and returns its output.
func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// A committed .rubi/.gitignore that undoes rubi's lines ("!*") or is a
// link does not let `git add -A` stage the session records: every save and
// every index puts rubi's lines back at its end, keeping the user's.
func TestCommittedGitignoreKeepsSessionsOut(t *testing.T) {
	for name, plant := range map[string]func(t *testing.T, root, outside string){
		"negation": func(t *testing.T, root, _ string) {
			plantFile(t, filepath.Join(root, ".rubi", ".gitignore"), "# mine\n*.tmp\n!*\n!sessions/\n")
		},
		"link": func(t *testing.T, root, outside string) {
			target := filepath.Join(outside, "ignore")
			plantFile(t, target, "!*\n")
			if err := os.Symlink(target, filepath.Join(root, ".rubi", ".gitignore")); err != nil {
				t.Fatal(err)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			root := rubitest.Project(t, goProject)
			outside := t.TempDir()
			if err := os.MkdirAll(filepath.Join(root, ".rubi"), 0o755); err != nil {
				t.Fatal(err)
			}
			plant(t, root, outside)
			before := snapshot(t, outside)
			runGit(t, root, "init", "-q")
			for _, args := range [][]string{
				{"memory", "save", "-", "--root", root},
				{"index", "--root", root},
			} {
				if code, _, errOut := runWithin(t, time.Minute, "my token is hunter2", args...); code != 0 {
					t.Fatalf("rubi %s: exit %d: %s", args[0], code, errOut)
				}
			}
			runGit(t, root, "add", "-A")
			status := runGit(t, root, "status", "--porcelain")
			if strings.Contains(status, ".rubi/sessions/") || strings.Contains(status, ".rubi/index/") {
				t.Errorf("git stages rubi's private files:\n%s", status)
			}
			if !strings.Contains(status, ".rubi/.gitignore") {
				t.Errorf("git status shows no .rubi/.gitignore:\n%s", status)
			}
			data, err := os.ReadFile(filepath.Join(root, ".rubi", ".gitignore"))
			if err != nil {
				t.Fatal(err)
			}
			if name == "negation" && !strings.HasPrefix(string(data), "# mine\n*.tmp\n!*\n!sessions/\n\n") {
				t.Errorf("the user's lines are not kept first:\n%s", data)
			}
			if !strings.HasSuffix(string(data), "sessions/\nhooks.log*\n.lock\n") {
				t.Errorf(".rubi/.gitignore does not end with rubi's lines:\n%s", data)
			}
			if after := snapshot(t, outside); !sameFiles(before, after) {
				t.Errorf("a file outside the project changed: %v -> %v", before, after)
			}
		})
	}
}

func plantFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func sameFiles(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// A .rubi/index/.lock committed as a link (here to a file outside) stopped
// every index run; it is no lock rubi made, so the run replaces it with
// one and indexes, and the link's target is untouched.
func TestCommittedLockLinkIsRepaired(t *testing.T) {
	root := rubitest.Project(t, goProject)
	outside := t.TempDir()
	plantFile(t, filepath.Join(outside, "secret"), "key")
	lock := filepath.Join(root, ".rubi", "index", ".lock")
	if err := os.MkdirAll(filepath.Dir(lock), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret"), lock); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, outside)
	if code, out, errOut := runWithin(t, time.Minute, "", "index", "--root", root); code != 0 || !strings.HasPrefix(out, "indexed 6 files") {
		t.Fatalf("rubi index: exit %d\n%s%s", code, out, errOut)
	}
	if fi, err := os.Lstat(lock); err != nil || !fi.Mode().IsRegular() {
		t.Errorf(".lock is not a regular file now: %v", err)
	}
	if after := snapshot(t, outside); !sameFiles(before, after) {
		t.Errorf("a file outside the project changed: %v -> %v", before, after)
	}
}
