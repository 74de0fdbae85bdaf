//go:build unix

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// repoRoot is the repository's root: the plugin's directory.
var repoRoot = func() string {
	abs, err := filepath.Abs("..")
	if err != nil {
		panic(err)
	}
	return abs
}()

// noNodeEnv opts out of the tests that need Node.js and npm packages.
const noNodeEnv = "RUBI_TEST_NO_NODE"

// claudeDir holds the pinned Claude Code CLI (package.json, npm ci).
const claudeDir = "agent/connect/testdata/claude"

// claudeCLI returns the real Claude Code CLI installed by npm ci, or fails
// the test saying how to install it.
func claudeCLI(t *testing.T) string {
	t.Helper()
	if os.Getenv(noNodeEnv) == "1" {
		t.Skipf("%s=1: the Claude Code CLI is not run", noNodeEnv)
	}
	bin := filepath.Join(repoRoot, claudeDir, "node_modules", ".bin", "claude")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("the Claude Code CLI is not installed: run `(cd %s && npm ci)` (make test does), or set %s=1 to leave this test out", claudeDir, noNodeEnv)
	}
	return bin
}

func TestMain(m *testing.M) { os.Exit(rubitest.Main(m)) }

// rubiBinDir returns the directory holding the rubi built for this test
// run, to be put first on PATH.
func rubiBinDir(t *testing.T) string { return filepath.Dir(rubitest.Binary(t)) }

// rubiEnv keeps the user's rubi configuration, vault and state (the
// record of the notes the user wrote) out of a run.
func rubiEnv(t *testing.T) []string {
	return []string{"XDG_CONFIG_HOME=" + t.TempDir(), "RUBI_VAULT=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir(), "RUBI_PROJECT_DIR="}
}

// runRubi runs the built rubi in dir and returns its standard output.
func runRubi(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(rubiBinDir(t), "rubi"), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("rubi %s: %v\n%s%s", strings.Join(args, " "), err, out, &stderr)
	}
	return string(out)
}

// writeFiles writes files (path → content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// git runs git in dir.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// survivors lists the processes (pid: command line) whose environment
// holds marker: everything a run started, however deep, inherits it.
func survivors(t *testing.T, marker string) []string {
	t.Helper()
	if runtime.GOOS != "linux" {
		// BSD and macOS ps print the environment after the command with e.
		out, err := exec.Command("ps", "-axeww", "-o", "pid=,command=").Output()
		if err != nil {
			t.Fatalf("ps: %v", err)
		}
		var found []string
		for _, line := range strings.Split(string(out), "\n") {
			pid, cmd, _ := strings.Cut(strings.TrimSpace(line), " ")
			if strings.Contains(cmd, marker) && !strings.Contains(cmd, "-axeww") {
				found = append(found, pid+": "+cmd)
			}
		}
		return found
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !bytes.Contains(env, []byte(marker)) {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if len(cmdline) == 0 {
			continue // a zombie about to be reaped
		}
		found = append(found, fmt.Sprintf("%d: %s", pid, bytes.ReplaceAll(bytes.TrimRight(cmdline, "\x00"), []byte{0}, []byte{' '})))
	}
	return found
}

// awaitNoSurvivors fails the test if a process started by a run is still
// alive within grace of the run's end, and kills it.
func awaitNoSurvivors(t *testing.T, marker string, grace time.Duration) {
	t.Helper()
	deadline := time.Now().Add(grace)
	for {
		left := survivors(t, marker)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("processes left running %v after the session ended:\n%s", grace, strings.Join(left, "\n"))
			for _, p := range left {
				if pid, err := strconv.Atoi(strings.SplitN(p, ":", 2)[0]); err == nil {
					if proc, err := os.FindProcess(pid); err == nil {
						proc.Kill()
					}
				}
			}
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// runAgent runs one session of an agent's CLI in dir, its own process
// group killed whole if it outlives a minute, fails the test if it fails,
// and checks that nothing it started (marked by marker in its
// environment) outlives it.
func runAgent(t *testing.T, dir string, env []string, marker, bin string, args ...string) (stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	line := filepath.Base(bin) + " " + strings.Join(args, " ")
	t.Logf("%s: %v", line, took.Round(time.Millisecond))
	if err != nil {
		t.Fatalf("%s: %v after %v\nstdout:\n%s\nstderr:\n%s", line, err, took, &out, &errb)
	}
	awaitNoSurvivors(t, marker, 3*time.Second)
	return out.String(), errb.String()
}

// untrustedPluginProject is shopProject with a rubi.hcl naming a plugin
// the project itself holds (bin/x), never trusted with rubi trust; ran is
// the file bin/x leaves when it runs.
func untrustedPluginProject(t *testing.T, env []string) (project, ran string) {
	t.Helper()
	project = shopProject(t, env)
	ran = filepath.Join(t.TempDir(), "ran")
	writeFiles(t, project, map[string]string{
		"rubi.hcl": "ranker \"rank.evil\" {\n  plugin = \"bin/x\"\n}\n",
		"bin/x":    "#!/bin/sh\ntouch " + ran + "\nexit 1\n",
	})
	if err := os.Chmod(filepath.Join(project, "bin", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	return project, ran
}

// checkUntrusted checks an agent's session in untrustedPluginProject:
// the plugin ran from no hook, the session start went on with the
// built-in stages (start, its context as the model got it, holds the
// map), and what rubi says of the plugin it left out is in hooks.log, for
// the user, and in none of the requests the model was sent.
func checkUntrusted(t *testing.T, project, ran, start string, sent []string) {
	t.Helper()
	if _, err := os.Stat(ran); err == nil {
		t.Error("the project's plugin ran from the agent's hooks")
	}
	if !strings.Contains(start, "rubi: the project map") || !strings.Contains(start, "cart/cart.go") {
		t.Errorf("the session start did not go on with the built-in stages; its context as the model got it:\n%s", excerpt(start, "rubi", 1500))
	}
	for _, text := range sent {
		if strings.Contains(text, "rank.evil") || strings.Contains(text, "rubi trust") {
			t.Errorf("the model was sent rubi's notice about the plugin it left out:\n%s", excerpt(text, "rank.evil", 800))
		}
	}
	log, _ := os.ReadFile(filepath.Join(project, ".rubi", "hooks.log"))
	if !strings.Contains(string(log), "rank.evil") || !strings.Contains(string(log), "rubi trust") {
		t.Errorf("hooks.log does not say what was left out and how to trust it:\n%s", log)
	}
}
