package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/bench/internal/perf"
	"github.com/rubi-dev/rubi/core/store"
)

// The arms.
const (
	armNone   = "none"   // the agent alone
	armMap    = "map"    // rubi installed: map, recall, rubi's tools; an empty graph
	armMature = "mature" // the same, with a graph of notes from the start
)

var armNames = []string{armNone, armMap, armMature}

func armTitle(arm string) string {
	switch arm {
	case armNone:
		return "no rubi"
	case armMap:
		return "map + recall"
	}
	return "mature graph"
}

// session is one measured session.
type session struct {
	Agent string `json:"agent"`
	Chain string `json:"chain"`
	Task  string `json:"task"`
	Arm   string `json:"arm"`
	Run   int    `json:"run"`
	// Notes is how many notes the project's graph held when the session
	// started.
	Notes int `json:"notes_at_start"`
	reading
}

// copyProject makes the chain's project for one run: a clone of the
// repository at the chain's revision that shares the source's objects
// read-only (the source is never written), without rubi's memory
// (.rubi/) the repository may carry, and with seed's notes in
// .rubi/knowledge when seed is set; committed, so the agent starts on a
// clean tree.
func copyProject(src, commit, dest, seed string) error {
	if err := git("", "clone", "-q", "--shared", "--no-checkout", src, dest); err != nil {
		return err
	}
	if err := git(dest, "checkout", "-q", "-B", "ab", commit); err != nil {
		return err
	}
	if err := git(dest, "remote", "remove", "origin"); err != nil {
		return err
	}
	if err := os.RemoveAll(filepath.Join(dest, ".rubi")); err != nil {
		return err
	}
	msg := "bench/ab: the project without rubi's memory"
	if seed != "" {
		if err := perf.CopyTree(seed, filepath.Join(dest, ".rubi", "knowledge")); err != nil {
			return err
		}
		msg = "bench/ab: the project with a graph of notes"
	}
	if err := git(dest, "add", "-A"); err != nil {
		return err
	}
	return git(dest, "commit", "-q", "--allow-empty", "--no-verify", "-m", msg)
}

// git runs git in dir with no configuration of the user's.
func git(dir string, args ...string) error {
	_, err := gitOutput(dir, args...)
	return err
}

func gitOutput(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@example.com",
		"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@example.com", "GIT_TERMINAL_PROMPT=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// writeFile writes atomically (core/store).
func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return store.WriteFile(path, data, 0o644)
}

// countNotes counts the notes of a project's graph.
func countNotes(project string) int {
	return countMarkdown(filepath.Join(project, ".rubi", "knowledge"))
}

// countMarkdown counts the markdown files under dir.
func countMarkdown(dir string) int {
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			n++
		}
		return nil
	})
	return n
}

// runSession runs one task in a new session of the agent and measures it
// from the log the agent wrote.
func (h *harness) runSession(ctx context.Context, a *agent, c *chain, t *task, arm string, run int, home, project string) (session, error) {
	s := session{Agent: a.Name, Chain: c.Name, Task: t.Name, Arm: arm, Run: run, Notes: countNotes(project)}
	name := fmt.Sprintf("%s, chain %s, task %s (%s), arm %s, run %d", a.Title, c.Name, t.Name, t.Where, arm, run)
	withRubi := arm != armNone
	before := map[string]bool{}
	old, err := newSessions(home, nil)
	if err != nil {
		return s, err
	}
	for _, o := range old {
		before[sessionKey(o)] = true
	}
	if h.script != nil {
		h.script.load(forArm(t.Script, withRubi), project)
	}
	h.sessions++
	marker := fmt.Sprintf("RUBI_AB_SESSION=%d-%d", os.Getpid(), h.sessions)
	env := h.env(a, home, withRubi, marker)

	ctx, cancel := context.WithTimeout(ctx, h.o.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, a.Bin, a.args(t.Prompt, h.o.sandbox)...)
	cmd.Dir = project
	cmd.Env = env
	ownGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	// Whatever the session left in its process group goes, and what it
	// started elsewhere (rubi's background index) gets a moment to end.
	if cmd.Process != nil {
		killGroup(cmd.Process.Pid)
	}
	left := sweep(marker, 10*time.Second)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("no answer after %v (-timeout)", h.o.timeout)
		} else if ctx.Err() != nil {
			err = ctx.Err()
		}
		return s, fmt.Errorf("%s: %s: %v\nstdout:\n%s\nstderr:\n%s", name, filepath.Base(a.Bin), err, tail(stdout.String()), tail(stderr.String()))
	}
	if len(left) > 0 {
		return s, fmt.Errorf("%s: processes it started were still running %v after it ended (killed):\n%s", name, 10*time.Second, strings.Join(left, "\n"))
	}

	found, err := newSessions(home, before)
	if err != nil {
		return s, err
	}
	if len(found) != 1 {
		return s, fmt.Errorf("%s: want the session's one log under %s, found %d new sessions", name, home, len(found))
	}
	s.reading, err = measure(found[0].Files())
	if err != nil {
		return s, fmt.Errorf("%s: %w", name, err)
	}
	s.Wall = wall.Seconds()
	if err := h.check(s, name); err != nil {
		return s, err
	}
	return s, nil
}

// check refuses a session that did not measure what its arm means.
func (h *harness) check(s session, name string) error {
	var problems []string
	switch {
	case s.Calls == 0:
		problems = append(problems, "its log holds no API call")
	case s.Arm != armNone && !s.RubiMap:
		problems = append(problems, "rubi's map did not reach it: rubi's hooks did not run (see .rubi/hooks.log in a kept -work folder)")
	case s.Arm == armNone && s.RubiMap:
		problems = append(problems, "rubi's map reached a session of the arm without rubi")
	}
	if h.script != nil {
		if n := h.script.answered(); n != s.Calls {
			problems = append(problems, fmt.Sprintf("its log holds %d API calls where the mock answered %d requests", s.Calls, n))
		}
		var other []string
		if h.messages != nil {
			other = append(other, h.messages.Other()...)
		}
		if h.responses != nil {
			other = append(other, h.responses.Other()...)
		}
		if len(other) > h.other {
			problems = append(problems, "it tried to reach beyond the mock: "+strings.Join(other[h.other:], ", "))
			h.other = len(other)
		}
	}
	problems = append(problems, s.Problems...)
	if len(problems) > 0 {
		return fmt.Errorf("%s: %s", name, strings.Join(problems, "; "))
	}
	return nil
}

// tail is the end of a process's output, for error messages.
func tail(s string) string {
	const n = 4000
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// sweep waits up to grace for the processes whose environment holds
// marker to end, then kills those left and returns them ("pid: command").
// Only Linux shows another process's environment (/proc); elsewhere the
// session's process group, killed after it, is all that is cleaned up.
func sweep(marker string, grace time.Duration) []string {
	if runtime.GOOS != "linux" {
		return nil
	}
	deadline := time.Now().Add(grace)
	for {
		left := marked(marker)
		if len(left) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			var out []string
			for pid, cmd := range left {
				killPID(pid)
				out = append(out, fmt.Sprintf("%d: %s", pid, cmd))
			}
			return out
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// marked lists the live processes whose environment holds marker.
func marked(marker string) map[int]string {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	found := map[int]string{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !bytes.Contains(env, append([]byte(marker), 0)) {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if len(cmdline) == 0 {
			continue // a zombie about to be reaped
		}
		found[pid] = string(bytes.ReplaceAll(bytes.TrimRight(cmdline, "\x00"), []byte{0}, []byte{' '}))
	}
	return found
}

// source returns the git repository a chain clones.
func (h *harness) source(c *chain) (string, error) {
	if c.Repo != "" {
		return c.Repo, nil
	}
	if h.o.mirrors == "" {
		return "", fmt.Errorf("%s: chain %q takes mirror %s: give -mirrors DIR (or RUBI_MIRRORS), the folder of OWNER+NAME/repo bare repositories", c.Where, c.Name, c.Mirror)
	}
	dir := filepath.Join(h.o.mirrors, strings.Replace(c.Mirror, "/", "+", 1), "repo")
	if _, err := os.Stat(dir); err != nil {
		return "", fmt.Errorf("%s: chain %q: no mirror of %s under -mirrors (%s)", c.Where, c.Name, c.Mirror, dir)
	}
	return dir, nil
}

// newHome makes a session home's folders.
func newHome(dir string) error {
	return os.MkdirAll(filepath.Join(dir, "tmp"), 0o755)
}
