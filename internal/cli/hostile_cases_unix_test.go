//go:build unix

package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
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
			root := rubitest.Project(t, rubitest.GoProject)
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
	root := rubitest.Project(t, rubitest.GoProject)
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
	for p, c := range rubitest.GoProject {
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

// sharedProject lays rubitest.GoProject out in a folder any user can reach (a test's
// temporary folders are 0700, and so may be TMPDIR itself: make test's is)
// and copies rubi's programs beside it, for rubi run as another user.
func sharedProject(t *testing.T) (root, bin string) {
	t.Helper()
	dir, err := os.MkdirTemp(reachableTemp(), "rubi-cases-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin = filepath.Join(dir, "bin")
	for _, name := range []string{"rubi", "rubi-full"} {
		data, err := os.ReadFile(filepath.Join(filepath.Dir(rubitest.Binary(t)), name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(bin, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bin, name), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	root = filepath.Join(dir, "project")
	for p, c := range rubitest.GoProject {
		plantFile(t, filepath.Join(root, filepath.FromSlash(p)), c)
	}
	plantFile(t, filepath.Join(dir, "home", ".keep"), "")
	return root, bin
}

// rubiAs runs the rubi program at bin with args, as uid (0: this process's)
// and under shell, a prefix such as "ulimit -f 1;", and returns its exit
// status and output.
// reachableTemp is the temporary folder, or /tmp when another user could
// not reach into it (a folder on its way is not searchable by others).
func reachableTemp() string {
	dir := os.TempDir()
	for d := dir; ; d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err != nil || fi.Mode().Perm()&0o001 == 0 {
			return "/tmp"
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

func rubiAs(t *testing.T, bin string, uid uint32, shell string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	home := filepath.Join(filepath.Dir(bin), "home")
	cmd := exec.Command("/bin/sh", append([]string{"-c", shell + ` exec "$0" "$@"`, filepath.Join(bin, "rubi")}, args...)...)
	cmd.Env = []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + home, "XDG_CONFIG_HOME=" + home, "RUBI_VAULT=" + filepath.Join(home, "vault"), "LANG=C"}
	if uid != 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		t.Fatalf("rubi %s did not end within a minute", strings.Join(args, " "))
	}
	return cmd.ProcessState.ExitCode(), out.String(), errb.String()
}

// chownAll gives every file under dir to uid.
func chownAll(t *testing.T, dir string, uid int) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, uid)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A .rubi/ the user cannot write (mode 0555, rubi run as uid 65534 so the
// mode holds: root ignores it) failed every query, --no-refresh too. A
// query answers from the index as it stands: with one warning line on
// stderr when it needed a refresh, without any under --no-refresh, and the
// index is as it was.
func TestReadOnlyDataDirAnswers(t *testing.T) {
	const nobody = 65534
	root, bin := sharedProject(t)
	chownAll(t, filepath.Dir(bin), nobody)
	if code, _, errOut := rubiAs(t, bin, nobody, "", "index", "--root", root); code != 0 {
		t.Fatalf("rubi index: exit %d: %s", code, errOut)
	}
	// A change, so that the query's refresh has something to write.
	plantFile(t, filepath.Join(root, "store", "cache.go"), "package store\n\n// Cache keeps orders.\nfunc Cache() {}\n")
	chownAll(t, root, nobody)
	err := filepath.WalkDir(filepath.Join(root, ".rubi"), func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		return os.Chmod(p, 0o555)
	})
	if err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, filepath.Join(root, ".rubi"))
	if code, _, _ := rubiAs(t, bin, nobody, "", "index", "--root", root); code == 0 {
		t.Fatal("rubi index wrote in a read-only .rubi/: the test runs as a user the mode does not hold")
	}
	code, out, errOut := rubiAs(t, bin, nobody, "", "context", "open the database", "--root", root)
	if code != 0 || !strings.Contains(out, "store/store.go") {
		t.Errorf("rubi context: exit %d\n%s%s", code, out, errOut)
	}
	if lines := strings.Split(strings.TrimSpace(errOut), "\n"); len(lines) != 1 || !strings.Contains(lines[0], "the index could not be updated") || !strings.Contains(lines[0], "permission denied") {
		t.Errorf("rubi context: want one warning line on stderr, got:\n%s", errOut)
	}
	code, out, errOut = rubiAs(t, bin, nobody, "", "context", "open the database", "--root", root, "--no-refresh")
	if code != 0 || !strings.Contains(out, "store/store.go") || errOut != "" {
		t.Errorf("rubi context --no-refresh: exit %d\n%s%s", code, out, errOut)
	}
	if after := snapshot(t, filepath.Join(root, ".rubi")); !sameFiles(before, after) {
		t.Error("the read-only .rubi/ changed")
	}
}

// A full disk, simulated by a file-size limit (RLIMIT_FSIZE, through the
// shell's ulimit: every write past 512 bytes fails with EFBIG, as a write
// to a full disk fails with ENOSPC, and Go ignores SIGXFSZ), left `rubi
// context` with no answer. It answers from the index as it stands, with
// one warning line, and the index is unharmed.
func TestFullDiskAnswers(t *testing.T) {
	root, bin := sharedProject(t)
	if code, _, errOut := rubiAs(t, bin, 0, "", "index", "--root", root); code != 0 {
		t.Fatalf("rubi index: exit %d: %s", code, errOut)
	}
	plantFile(t, filepath.Join(root, "store", "cache.go"), "package store\n\n// Cache keeps orders.\nfunc Cache() {}\n")
	if code, _, _ := rubiAs(t, bin, 0, "ulimit -f 1;", "index", "--root", root); code == 0 {
		t.Fatal("rubi index wrote past the file-size limit: the limit does not hold")
	}
	code, out, errOut := rubiAs(t, bin, 0, "ulimit -f 1;", "context", "open the database", "--root", root)
	if code != 0 || !strings.Contains(out, "store/store.go") {
		t.Errorf("rubi context: exit %d\n%s%s", code, out, errOut)
	}
	if lines := strings.Split(strings.TrimSpace(errOut), "\n"); len(lines) != 1 || !strings.Contains(lines[0], "the index could not be updated") || !strings.Contains(lines[0], "file too large") {
		t.Errorf("rubi context: want one warning line on stderr, got:\n%s", errOut)
	}
	// Without the limit the index is whole: a refresh brings the change in.
	code, out, errOut = rubiAs(t, bin, 0, "", "context", "order cache", "--root", root)
	if code != 0 || !strings.Contains(out, "store/cache.go") || errOut != "" {
		t.Errorf("rubi context after the disk has room: exit %d\n%s%s", code, out, errOut)
	}
}

// The MCP server's context tool, over a read-only .rubi/ (the server run as
// uid 65534): it answers from the index as it stands, the warning a line
// of the result's text.
func TestReadOnlyDataDirAnswersMCP(t *testing.T) {
	const nobody = 65534
	root, bin := sharedProject(t)
	data, err := os.ReadFile(filepath.Join(filepath.Dir(rubitest.Binary(t)), "rubi-mcp"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "rubi-mcp"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	chownAll(t, filepath.Dir(bin), nobody)
	if code, _, errOut := rubiAs(t, bin, nobody, "", "index", "--root", root); code != 0 {
		t.Fatalf("rubi index: exit %d: %s", code, errOut)
	}
	plantFile(t, filepath.Join(root, "store", "cache.go"), "package store\n\n// Cache keeps orders.\nfunc Cache() {}\n")
	chownAll(t, root, nobody)
	if err := os.Chmod(filepath.Join(root, ".rubi"), 0o555); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(root, ".rubi", "index"), 0o555); err != nil {
		t.Fatal(err)
	}

	home := filepath.Join(filepath.Dir(bin), "home")
	cmd := exec.Command(filepath.Join(bin, "rubi-mcp"), "--root", root)
	cmd.Env = []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + home, "XDG_CONFIG_HOME=" + home, "RUBI_VAULT=" + filepath.Join(home, "vault"), "LANG=C"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	mcp := startMCP(t, cmd)
	defer mcp.close()
	a, ok := mcp.call("context", `{"query":"open the database"}`)
	if !ok || a.isError() || a.text() == "" {
		t.Fatalf("context tool: %s%s\nstderr: %s", a.Result, a.Error, mcp.stderr.String())
	}
	if text := a.text(); !strings.Contains(text, "store/store.go") || !strings.Contains(text, "the index could not be updated") {
		t.Errorf("context tool's text:\n%s", text)
	}
}

// A hook that runs before any index or save (the first prompt of a session
// in a fresh clone) makes .rubi/sessions/state: rubi's lines keep it out
// of `git add -A` too, whatever the committed .rubi/.gitignore says.
func TestCommittedGitignoreKeepsHookStateOut(t *testing.T) {
	root := rubitest.Project(t, map[string]string{"main.go": "package main\n", ".rubi/.gitignore": "!*\n"})
	t.Setenv("CLAUDE_PROJECT_DIR", root)
	runGit(t, root, "init", "-q")
	payload := `{"session_id":"s1","transcript_path":"","cwd":` + strconv.Quote(root) + `,"hook_event_name":"UserPromptSubmit","prompt":"how do the coupon rules apply"}`
	if code, _, errOut := runWithin(t, time.Minute, payload, "hook", "UserPromptSubmit"); code != 0 {
		t.Fatalf("rubi hook: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(root, ".rubi", "sessions", "state")); err != nil {
		t.Fatalf("the hook kept no state: %v", err)
	}
	runGit(t, root, "add", "-A")
	if status := runGit(t, root, "status", "--porcelain"); strings.Contains(status, ".rubi/sessions/") {
		t.Errorf("git stages the hooks' state:\n%s", status)
	}
}

// A folder of the vault's file pages that became a link out of the
// project after rubi wrote its pages (a pull that replaced it): when the
// note naming the file goes, rubi removes no file through the link.
func TestVaultRemovesNoPageThroughALink(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	if code, _, errOut := runRubi(t, "index", "--root", root); code != 0 {
		t.Fatal(errOut)
	}
	if code, _, errOut := runRubi(t, "register", "--root", root, "--type", "gotcha", "--title", "Open needs a DSN",
		"--file", "store/store.go", "--body", "Open fails without one."); code != 0 {
		t.Fatal(errOut)
	}
	pages := filepath.Join(root, ".rubi", "files")
	if _, err := os.Stat(filepath.Join(pages, "store", "store.go.md")); err != nil {
		t.Fatalf("register wrote no page: %v", err)
	}
	outside := t.TempDir()
	victim := filepath.Join(outside, "store", "store.go.md")
	if err := os.MkdirAll(filepath.Dir(victim), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(victim, []byte("not rubi's"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(pages); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, pages); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runRubi(t, "forget", "--root", root, "gotcha-open-needs-a-dsn", "--hard"); code != 0 {
		t.Fatal(errOut)
	}
	if data, err := os.ReadFile(victim); err != nil || string(data) != "not rubi's" {
		t.Errorf("a file outside the project was removed or changed through the link: %q, %v", data, err)
	}
}
