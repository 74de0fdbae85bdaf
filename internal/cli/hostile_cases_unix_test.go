//go:build unix

package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rubi-dev/rubi/core"
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

// A file whose name is not UTF-8 (byte 0xff) broke `rubi graph` for good
// (its symbols line came back with U+FFFD and matched no record), while
// `rubi status` said ok. Its path is escaped reversibly where output must be
// UTF-8, and a symbols file that does not match is damaged for status and
// repaired by the next index run.
func TestNonUTF8FileName(t *testing.T) {
	files := map[string]string{"bad\xff.go": "package main\n\n// Foo does.\nfunc Foo() {}\n"}
	for p, c := range goProject {
		files[p] = c
	}
	root := rubitest.Project(t, files)
	if code, _, errOut := runWithin(t, time.Minute, "", "index", "--root", root); code != 0 {
		t.Fatalf("rubi index: exit %d: %s", code, errOut)
	}
	graphHas := func() {
		t.Helper()
		code, out, errOut := runWithin(t, time.Minute, "", "graph", "--root", root, "--json")
		if code != 0 || !utf8.ValidString(out) {
			t.Fatalf("rubi graph --json: exit %d, UTF-8 %v: %s", code, utf8.ValidString(out), errOut)
		}
		var g struct {
			Files []struct {
				Path    string `json:"path"`
				Symbols []struct {
					Name string `json:"name"`
				} `json:"symbols"`
			} `json:"files"`
		}
		if err := json.Unmarshal([]byte(out), &g); err != nil {
			t.Fatal(err)
		}
		for _, f := range g.Files {
			if f.Path != `bad\xff.go` {
				continue
			}
			p, ok := core.UnescapePath(f.Path)
			if _, err := os.Stat(filepath.Join(root, p)); !ok || err != nil {
				t.Fatalf("the escaped path %q names no file: %v", f.Path, err)
			}
			if len(f.Symbols) != 1 || f.Symbols[0].Name != "Foo" {
				t.Fatalf("symbols of %s: %+v", f.Path, f.Symbols)
			}
			return
		}
		t.Fatalf("no file bad\\xff.go in the graph:\n%s", out)
	}
	graphHas()

	// A symbols line that is another file's: status says so, and the
	// next index run repairs it.
	syms, _ := filepath.Glob(filepath.Join(root, ".rubi", "index", "symbols-*.jsonl"))
	if len(syms) != 1 {
		t.Fatalf("symbols files: %v", syms)
	}
	data, err := os.ReadFile(syms[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(syms[0], bytes.Replace(data, []byte(`"bad\\xff.go"`), []byte(`"bad\\xfe.go"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runWithin(t, time.Minute, "", "status", "--root", root); code != 0 || strings.Contains(out, "index: ok") || !strings.Contains(out, "index: damaged") {
		t.Errorf("rubi status with a broken symbols file: exit %d\n%s", code, out)
	}
	if code, _, errOut := runWithin(t, time.Minute, "", "index", "--root", root); code != 0 {
		t.Fatalf("rubi index: exit %d: %s", code, errOut)
	}
	graphHas()
}
