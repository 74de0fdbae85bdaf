package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/agent/hooks"
	"github.com/rubi-dev/rubi/internal/rubitest"
)

// TestMain lets the test binary stand in for rubi when a command under
// test starts rubi as a child process (the hooks' background index), and
// removes the binaries rubitest built. The commands keep what they cache
// (the configuration's entries, config.LoadThroughCache) in a state
// folder of the tests' own, never the user's, unless a test names one.
func TestMain(m *testing.M) {
	if os.Getenv("RUBI_TEST_AS_RUBI") == "1" {
		os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	state, err := os.MkdirTemp("", "rubi-cli-state-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_STATE_HOME", state)
	code := rubitest.Main(m)
	os.RemoveAll(state)
	os.Exit(code)
}

// processesIn lists the processes whose command line names dir.
func processesIn(dir string) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(data), dir) {
			out = append(out, e.Name()+": "+strings.ReplaceAll(string(data), "\x00", " "))
		}
	}
	return out
}

func TestHookSessionStartIndexesInTheBackground(t *testing.T) {
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Fatalf("this test reads /proc to find leftover processes: %v", err)
	}
	root := rubitest.Project(t, rubitest.GoProject)
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	t.Setenv("RUBI_TEST_AS_RUBI", "1")
	payload := fmt.Sprintf(`{"hook_event_name":"SessionStart","session_id":"s1","cwd":%q,"source":"startup"}`, root)
	code, out, errOut := runRubiIn(t, payload, "hook", "SessionStart")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var a struct {
		Specific struct {
			Event   string `json:"hookEventName"`
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil || a.Specific.Event != "SessionStart" || !strings.Contains(a.Specific.Context, "store") {
		log, _ := os.ReadFile(filepath.Join(root, ".rubi", "hooks.log"))
		t.Fatalf("first session start: want the map of a first index, got %q (%v); hooks.log:\n%s", out, err, log)
	}
	// The index runs detached and ends on its own: no process is left.
	deadline := time.Now().Add(60 * time.Second)
	for len(processesIn(root)) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if left := processesIn(root); len(left) > 0 {
		t.Errorf("processes left running: %v", left)
	}
}

func TestHookAlwaysExitsZero(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	// A payload that does not read is logged in the working directory's
	// project: the test's, not this checkout.
	if err := os.MkdirAll(filepath.Join(root, ".rubi"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	for _, tc := range []struct{ stdin, event string }{
		{"", "SessionStart"},
		{"not json", "UserPromptSubmit"},
		{fmt.Sprintf(`{"hook_event_name":"Notification","cwd":%q}`, root), ""},
		{fmt.Sprintf(`{"cwd":%q,"session_id":"s1","prompt":"x"}`, root), "NoSuchEvent"},
	} {
		code, out, errOut := runRubiIn(t, tc.stdin, "hook", tc.event)
		if code != 0 || out != "" || errOut != "" {
			t.Errorf("stdin %q event %q: exit %d, stdout %q, stderr %q", tc.stdin, tc.event, code, out, errOut)
		}
	}
	log, _ := os.ReadFile(filepath.Join(root, ".rubi", "hooks.log"))
	for _, want := range []string{"SessionStart: empty payload on stdin", "UserPromptSubmit: payload on stdin"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("the project's .rubi/hooks.log lacks %q:\n%s", want, log)
		}
	}
}

// The Codex example registers only events rubi handles, each with the
// command that handles it.
func TestCodexHooksExample(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "agents", "codex", ".codex", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Type    string `json:"type"`
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"} {
		if len(file.Hooks[want]) == 0 {
			t.Errorf("no %s hook", want)
		}
	}
	for event, groups := range file.Hooks {
		if !slices.Contains(hooks.Events, event) {
			t.Errorf("%s: rubi does not handle this event", event)
		}
		for _, g := range groups {
			for _, h := range g.Hooks {
				if h.Type != "command" || h.Command != "rubi hook "+event {
					t.Errorf("%s: %+v", event, h)
				}
			}
		}
	}
	if file.Hooks["PreToolUse"][0].Matcher != "Bash" {
		t.Errorf("PreToolUse must see Codex's shell tool, Bash: %+v", file.Hooks["PreToolUse"])
	}
}
