//go:build linux

package cli

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// The secret a link in the repository points at: no output may hold it.
const linkedSecret = "aws_secret_access_key = LINKEDSECRET0123456789"

// memoryCeiling is what one command may take at its peak, far above what
// any takes on this project (some tens of MB) and far below what reading
// /dev/zero whole takes before the process dies (GBs).
const memoryCeiling = 512 << 20

// ranLinked is one run of a built program.
type ranLinked struct {
	code           int
	stdout, stderr string
	peak           int64 // bytes, the process's peak resident set
}

// runBuilt runs one of rubi's built programs in root with a 4 GB address
// space (so that a read without end fails fast, as it would past the
// machine's memory), and fails the test if it does not end in a minute.
func runBuilt(t *testing.T, root, stdin string, args ...string) ranLinked {
	t.Helper()
	bin := rubitest.Binary(t) // built before the clock starts
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", append([]string{"-c", `ulimit -v 4000000; exec "$0" "$@"`, bin}, args...)...)
	cmd.Dir = root
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("rubi %s did not end within a minute", strings.Join(args, " "))
	}
	r := ranLinked{code: cmd.ProcessState.ExitCode(), stdout: out.String(), stderr: errb.String()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.peak = ru.Maxrss << 10
	}
	if err != nil && r.code < 0 {
		r.code = 2 // killed by a signal
	}
	return r
}

// linkedEnv keeps the user's files out of the runs.
func linkedEnv(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("RUBI_VAULT", filepath.Join(home, "vault"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	t.Setenv("RUBI_TEST_AS_RUBI", "1")
}

// linkedProject is rubitest.GoProject as a user has it after some work: indexed,
// with a critical note, a handoff, a chunk of memory and instruction
// files for the agents.
func linkedProject(t *testing.T) string {
	t.Helper()
	root := rubitest.Project(t, rubitest.GoProject)
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	os.WriteFile(filepath.Join(root, "package.json"), []byte(`{"name": "shop"}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(root, "CLAUDE.md"), []byte("# Conventions\n\nRun go test.\n"), 0o644)
	os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("# Conventions\n\nRun go test.\n"), 0o644)
	for _, c := range []struct {
		stdin string
		args  []string
	}{
		{"", []string{"index"}},
		{"", []string{"register", "--type", "gotcha", "--importance", "critical", "--title", "Coupon applied twice", "--body", "The discount runs in two places."}},
		{"", []string{"handoff", "save", "--goal", "finish the coupon fix"}},
		{"the coupon runs twice", []string{"memory", "save", "-"}},
		{"", []string{"index"}},
	} {
		if r := runBuilt(t, root, c.stdin, append(c.args, "--root", root)...); r.code != 0 {
			t.Fatalf("rubi %s: exit %d\n%s", strings.Join(c.args, " "), r.code, r.stderr)
		}
	}
	return root
}

// one returns the one file of dir whose name ends in suffix.
func one(t *testing.T, dir, suffix string) string {
	t.Helper()
	des, _ := os.ReadDir(dir)
	for _, de := range des {
		if strings.HasSuffix(de.Name(), suffix) && de.Type().IsRegular() {
			return filepath.Join(dir, de.Name())
		}
	}
	t.Fatalf("no %s file in %s", suffix, dir)
	return ""
}

// A committed link to /dev/zero or to a secret at a file rubi reads whole
// (the map, a module's page, the critical notes, go.mod, package.json, a
// note, a handoff, a chunk, CLAUDE.md, AGENTS.md): every command, hook and
// the MCP server ends with its documented exit (0; a hook always 0),
// within bounded memory, and the secret is in no output nor any file of
// the project.
func TestLinksAtFilesRubiReadsWhole(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "credentials")
	os.WriteFile(secret, []byte("[default]\n"+linkedSecret+"\n"), 0o600)
	places := map[string]func(root string) string{
		"map.md":        func(root string) string { return filepath.Join(root, ".rubi", "map.md") },
		"modules/x.md":  func(root string) string { return one(t, filepath.Join(root, ".rubi", "modules"), ".md") },
		"critical.json": func(root string) string { return filepath.Join(root, ".rubi", "index", "critical.json") },
		"go.mod":        func(root string) string { return filepath.Join(root, "go.mod") },
		"package.json":  func(root string) string { return filepath.Join(root, "package.json") },
		"a note":        func(root string) string { return one(t, filepath.Join(root, ".rubi", "knowledge"), ".md") },
		"a handoff":     func(root string) string { return one(t, filepath.Join(root, ".rubi", "handoffs"), ".md") },
		"a chunk":       func(root string) string { return one(t, filepath.Join(root, ".rubi", "sessions"), ".md") },
		"CLAUDE.md":     func(root string) string { return filepath.Join(root, "CLAUDE.md") },
		"AGENTS.md":     func(root string) string { return filepath.Join(root, "AGENTS.md") },
	}
	linkedEnv(t)
	template := linkedProject(t)
	module := strings.TrimSuffix(filepath.Base(one(t, filepath.Join(template, ".rubi", "modules"), ".md")), ".md")
	for name, place := range places {
		for _, target := range []string{"/dev/zero", secret} {
			t.Run(name+" -> "+filepath.Base(target), func(t *testing.T) {
				root := t.TempDir()
				if err := os.CopyFS(root, os.DirFS(template)); err != nil {
					t.Fatal(err)
				}
				path := place(root)
				if err := os.Remove(path); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(target, path); err != nil {
					t.Fatal(err)
				}
				check := func(what string, r ranLinked) {
					t.Helper()
					if r.code != 0 {
						t.Errorf("%s: exit %d\nstderr %.600q", what, r.code, r.stderr)
					}
					if r.peak > memoryCeiling {
						t.Errorf("%s: peak memory %d MB", what, r.peak>>20)
					}
					if strings.Contains(r.stdout+r.stderr, "LINKEDSECRET") {
						t.Errorf("%s printed the secret the link points at:\n%s%s", what, r.stdout, r.stderr)
					}
				}
				// Queries first, on the index as the link left it; then
				// the hooks and the server; the index run last.
				check("rubi context --no-refresh", runBuilt(t, root, "", "context", "--no-refresh", "coupon applied twice", "--root", root))
				check("rubi context", runBuilt(t, root, "", "context", "coupon applied twice", "--root", root))
				check("rubi map", runBuilt(t, root, "", "map", "--root", root))
				check("rubi map "+module, runBuilt(t, root, "", "map", module, "--root", root))
				for _, event := range []string{"SessionStart", "UserPromptSubmit"} {
					payload := fmt.Sprintf(`{"hook_event_name":%q,"session_id":"s1","cwd":%q,"source":"compact","prompt":"why is the coupon applied twice"}`, event, root)
					r := runBuilt(t, root, payload, "hook", event)
					check("hook "+event, r)
					if r.stdout != "" && !strings.HasPrefix(strings.TrimSpace(r.stdout), "{") {
						t.Errorf("hook %s printed what is not JSON: %q", event, r.stdout)
					}
				}
				check("rubi mcp", runMCP(t, root))
				check("rubi audit", runBuilt(t, root, "", "audit", "--root", root))
				check("rubi index", runBuilt(t, root, "", "index", "--root", root))
				// The index's own files are written again, the link
				// replaced, not followed.
				if rel, _ := filepath.Rel(root, path); strings.HasPrefix(rel, ".rubi"+string(filepath.Separator)+"map") || strings.HasPrefix(rel, filepath.Join(".rubi", "modules")) || strings.HasPrefix(rel, filepath.Join(".rubi", "index")) {
					if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
						t.Errorf("rubi index left %s as it was: %v", rel, err)
					}
				}
				// Nothing of the secret's was copied into the project.
				filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
					if err == nil && d.Type().IsRegular() {
						if data, _ := os.ReadFile(p); bytes.Contains(data, []byte("LINKEDSECRET")) {
							t.Errorf("%s holds the secret", p)
						}
					}
					return nil
				})
			})
		}
	}
}

// runMCP runs the MCP server over stdio, calls the tools that read the
// linked files, and closes its input once every call is answered.
func runMCP(t *testing.T, root string) ranLinked {
	t.Helper()
	bin := rubitest.Binary(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", `ulimit -v 4000000; exec "$0" "$@"`, bin, "mcp", "--root", root)
	cmd.Dir = root
	mcp := startMCP(t, cmd)
	mcp.call("context", `{"query":"coupon applied twice"}`)
	mcp.call("read", `{"target":"map"}`)
	mcp.call("memory", `{"action":"last"}`)
	mcp.call("memory", `{"action":"list"}`)
	err := mcp.close()
	if ctx.Err() != nil {
		t.Fatalf("rubi mcp did not end within a minute\n%s", mcp.stderr.String())
	}
	r := ranLinked{code: cmd.ProcessState.ExitCode(), stdout: mcp.stdout.String(), stderr: mcp.stderr.String()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.peak = ru.Maxrss << 10
	}
	if err != nil && r.code < 0 {
		r.code = 2
	}
	return r
}

// A committed map.md larger than rubi reads of it (20 MB) is written again
// by the refresh before rubi map prints it: it was printed, and injected,
// whole.
func TestAHugeCommittedMapIsRewritten(t *testing.T) {
	linkedEnv(t)
	root := rubitest.Project(t, rubitest.GoProject)
	if r := runBuilt(t, root, "", "index", "--root", root); r.code != 0 {
		t.Fatal(r.stderr)
	}
	mapFile := filepath.Join(root, ".rubi", "map.md")
	os.WriteFile(mapFile, bytes.Repeat([]byte("# a map a stranger committed\n"), 20<<20/29), 0o644)
	r := runBuilt(t, root, "", "map", "--root", root)
	if r.code != 0 || len(r.stdout) > 1<<20 || strings.Contains(r.stdout, "a stranger committed") {
		t.Errorf("rubi map: exit %d, %d bytes printed\n%.300s", r.code, len(r.stdout), r.stderr)
	}
	if fi, err := os.Stat(mapFile); err != nil || fi.Size() > 1<<20 {
		t.Errorf("map.md was not written again: %v", err)
	}
}
