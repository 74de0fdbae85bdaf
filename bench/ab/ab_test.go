//go:build unix

package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

func TestMain(m *testing.M) { os.Exit(rubitest.Main(m)) }

// noNodeEnv opts out of the tests that need Node.js and the agents' CLIs,
// as in e2e.
const noNodeEnv = "RUBI_TEST_NO_NODE"

// harnessOptions are the options of a test run: this checkout, the rubi
// built for the tests, the pinned CLIs (the test fails when one is
// missing, unless RUBI_TEST_NO_NODE=1).
func harnessOptions(t *testing.T) options {
	t.Helper()
	if os.Getenv(noNodeEnv) == "1" {
		t.Skipf("%s=1: the agents' CLIs are not run", noNodeEnv)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range agentNames {
		if pinnedCLI(root, name) == "" {
			t.Fatalf("the %s CLI is not installed: run `(cd agent/connect/testdata/%s && npm ci)` (make test does), or set %s=1 to leave this test out", agentTitle(name), name, noNodeEnv)
		}
	}
	return options{
		root:    root,
		agents:  agentNames,
		arms:    armNames,
		runs:    1,
		models:  map[string]string{"claude": "claude-sonnet-4-5", "codex": "gpt-5"},
		rubi:    filepath.Dir(rubitest.Binary(t)),
		sandbox: "workspace-write",
		log:     t.Logf,
	}
}

// TestShortRun runs the harness as CI does (-short: the shipped task
// set's first chain, rubi's own repository, its first two tasks) with
// both agents' real CLIs in every arm against the scripted mock, and
// checks what the user reads: a session per agent, arm and task, rubi's
// map in the sessions of the arms with rubi (the harness refuses a
// session otherwise), the mature arm starting from the notes the map arm
// registered, and the report on disk.
func TestShortRun(t *testing.T) {
	o := harnessOptions(t)
	o.short = true
	rep, err := run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(rep.Sessions), len(agentNames)*len(armNames)*2; got != want {
		t.Fatalf("%d sessions, want %d (agents × arms × 2 tasks)", got, want)
	}
	for _, s := range rep.Sessions {
		if s.Calls == 0 || s.Wall <= 0 || !s.CostKnown {
			t.Errorf("%s %s %s: %d calls in %.1f s, cost known %v", s.Agent, s.Arm, s.Task, s.Calls, s.Wall, s.CostKnown)
		}
		if s.RubiMap != (s.Arm != armNone) {
			t.Errorf("%s %s %s: rubi's map reached it: %v", s.Agent, s.Arm, s.Task, s.RubiMap)
		}
	}
	for _, a := range agentNames {
		first := func(arm string) session {
			for _, s := range rep.Sessions {
				if s.Agent == a && s.Arm == arm {
					return s
				}
			}
			t.Fatalf("%s: no session of arm %s", a, arm)
			return session{}
		}
		if n := first(armMap).Notes; n != 0 {
			t.Errorf("%s: the map arm started with %d notes, want an empty graph", a, n)
		}
		// The first task's script registers a note where rubi is.
		if n := first(armMature).Notes; n < 1 {
			t.Errorf("%s: the mature arm started with %d notes, want the map arm's", a, n)
		}
		if x := rep.find(a, "", "", armMap); x == nil || x.Delta == nil {
			t.Errorf("%s: no summary of the map arm against no rubi", a)
		}
	}
	dir := t.TempDir()
	md, err := rep.write(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".md", ".json"} {
		if _, err := os.Stat(filepath.Join(dir, rep.name()+ext)); err != nil {
			t.Errorf("the report's %s: %v", ext, err)
		}
	}
	if !strings.HasSuffix(rep.name(), "-mock-short") {
		t.Errorf("a short run against the mock is named %s, which git does not ignore", rep.name())
	}
	for _, want := range []string{"## Claude Code 2.1.328, model claude-sonnet-4-5", "## Codex CLI 0.169.0, model gpt-5", "**Mock run**", "### Chain rubi-recall, task where", "| mature graph |"} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q:\n%s", want, md)
		}
	}
}

// accountingTasks is one task scripted with the usage of every response.
// The context step is rubi's tool, so the arm without rubi plays three
// responses and the map arm four. The answer's cache read is 0: the cache
// expired, and the whole context is written again.
const accountingTasks = `chain "shop" {
  repo = "shop"
  task "coupon" {
    prompt = "Where is the coupon applied?"
    mock {
      step "read" {
        path  = "checkout.go"
        usage = { input = 3, cache_read = 0, cache_write = 12000, output = 150 }
      }
      step "context" {
        query = "coupon"
        usage = { input = 5, cache_read = 12000, cache_write = 900, output = 40 }
      }
      step "search" {
        pattern = "Coupon"
        usage = { input = 4, cache_read = 12003, cache_write = 700, output = 60 }
      }
      step "answer" {
        text  = "In ApplyCoupon."
        usage = { input = 2, cache_read = 0, cache_write = 13007, output = 80 }
      }
    }
  }
}
`

// TestAccounting runs one scripted session per agent and arm through the
// real CLIs and checks the report's figures against the script's usage,
// worked out by hand below.
func TestAccounting(t *testing.T) {
	o := harnessOptions(t)
	o.arms = []string{armNone, armMap}
	dir := t.TempDir()
	project := filepath.Join(dir, "shop")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"go.mod":      "module example.com/shop\n\ngo 1.22\n",
		"checkout.go": "package shop\n\n// ApplyCoupon takes a coupon's discount off a total in cents.\nfunc ApplyCoupon(total int, code string) int {\n\tif code == \"WELCOME10\" {\n\t\treturn total - 10\n\t}\n\treturn total\n}\n",
	} {
		if err := os.WriteFile(filepath.Join(project, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-qm", "shop"}} {
		if err := git(project, args...); err != nil {
			t.Fatal(err)
		}
	}
	o.tasks = filepath.Join(dir, "tasks.hcl")
	if err := os.WriteFile(o.tasks, []byte(accountingTasks), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}

	// Each call's context is input + cache read + cache write; its
	// re-read is max(cache read, min(previous context, its context)).
	//
	//   step     input  read   write  output  context  re-read
	//   read       3       0  12000    150    12003        0
	//   context    5   12000    900     40    12905    12003  (map only: 3 of the 12003 re-sent uncached)
	//   search     4   12003    700     60    12707    12003 after read (none), 12707 after context (map)
	//   answer     2       0  13007     80    13009    12707  (cache expired: re-sent as a write)
	//
	// No rubi (read, search, answer): 3 calls, 2 tool calls;
	//   input 3+4+2 = 9, cache read 0+12003+0 = 12003,
	//   cache write 12000+700+13007 = 25707, output 150+60+80 = 290,
	//   re-read 0+12003+12707 = 24710.
	// Map (read, context, search, answer): 4 calls, 3 tool calls;
	//   input 3+5+4+2 = 14, cache read 0+12000+12003+0 = 24003,
	//   cache write 12000+900+700+13007 = 26607, output 150+40+60+80 = 330,
	//   re-read 0+12003+12707+12707 = 37417.
	//
	// Claude Code logs the usage as the API reports it. Cost at
	// claude-sonnet-4-5's list price ($ per million: input 3, output 15,
	// cache read 0.30, 5-minute cache write 3.75):
	//   none: 9×3 + 290×15 + 12003×0.3 + 25707×3.75
	//       = 27 + 4350 + 3600.9 + 96401.25 = 104379.15 → $0.10437915
	//   map:  14×3 + 330×15 + 24003×0.3 + 26607×3.75
	//       = 42 + 4950 + 7200.9 + 99776.25 = 111969.15 → $0.11196915
	//   difference: calls (4−3)/3 = +33.3%, cache read 12000/12003 = +100.0%,
	//   re-read 12707/24710 = +51.4%,
	//   cost 7590/104379.15 = +7.3%.
	//
	// The Responses API has no cache write: the mock reports it as
	// input, and Codex logs input 9+25707 = 25716 (map 14+26607 = 26621),
	// cache write 0; the rest is the same. Cost at gpt-5's list price
	// (input 1.25, output 10, cached input 0.125):
	//   none: 25716×1.25 + 290×10 + 12003×0.125
	//       = 32145 + 2900 + 1500.375 = 36545.375 → $0.036545375
	//   map:  26621×1.25 + 330×10 + 24003×0.125
	//       = 33276.25 + 3300 + 3000.375 = 39576.625 → $0.039576625
	//   difference: cost 3031.25/36545.375 = +8.3%.
	type want struct {
		calls, tools                            float64
		input, read, write, output, reread, usd float64
	}
	wants := map[string]map[string]want{
		"claude": {
			armNone: {3, 2, 9, 12003, 25707, 290, 24710, 0.10437915},
			armMap:  {4, 3, 14, 24003, 26607, 330, 37417, 0.11196915},
		},
		"codex": {
			armNone: {3, 2, 25716, 12003, 0, 290, 24710, 0.036545375},
			armMap:  {4, 3, 26621, 24003, 0, 330, 37417, 0.039576625},
		},
	}
	for agent, arms := range wants {
		for arm, w := range arms {
			x := rep.find(agent, "shop", "coupon", arm)
			if x == nil {
				t.Fatalf("%s %s: no row", agent, arm)
			}
			m := x.Median
			got := want{m.Calls, m.ToolCalls, m.Input, m.CacheRead, m.CacheWrite, m.Output, m.ReRead, m.Cost}
			if got.calls != w.calls || got.tools != w.tools || got.input != w.input || got.read != w.read ||
				got.write != w.write || got.output != w.output || got.reread != w.reread || math.Abs(got.usd-w.usd) > 1e-12 {
				t.Errorf("%s %s:\n got %+v\nwant %+v", agent, arm, got, w)
			}
		}
	}
	md := rep.markdown()
	for _, line := range []string{
		// Claude Code, then Codex CLI.
		"| steps (API calls) | 3 | 4 (+33.3%) |",
		"| tool calls | 2 | 3 (+50.0%) |",
		"| input tokens (uncached) | 9 | 14 (+55.6%) |",
		"| cache read tokens | 12,003 | 24,003 (+100.0%) |",
		"| cache write tokens | 25,707 | 26,607 (+3.5%) |",
		"| output tokens | 290 | 330 (+13.8%) |",
		"| context re-read (tokens) | 24,710 | 37,417 (+51.4%) |",
		"| cost (list price, USD) | $0.1044 | $0.1120 (+7.3%) |",
		"| input tokens (uncached) | 25,716 | 26,621 (+3.5%) |",
		"| cache write tokens | 0 | 0 (n/a) |",
		"| cost (list price, USD) | $0.0365 | $0.0396 (+8.3%) |",
	} {
		if !strings.Contains(md, line) {
			t.Errorf("the report lacks %q:\n%s", line, md)
		}
	}
}

// A session that fails (here: past a -timeout too short for any agent to
// answer) stops the run with an error naming the session, and leaves
// nothing behind: no process it started, no temporary folder.
func TestFailedSessionLeavesNothing(t *testing.T) {
	o := harnessOptions(t)
	o.short = true
	o.agents = []string{"claude"}
	o.arms = []string{armNone, armMap}
	o.timeout = 300 * time.Millisecond
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	_, err := run(context.Background(), o)
	if err == nil || !strings.Contains(err.Error(), "no answer after 300ms (-timeout)") || !strings.Contains(err.Error(), "Claude Code, chain rubi-recall, task where") {
		t.Fatalf("run: %v, want the first session stopped by -timeout", err)
	}
	prefix := fmt.Sprintf("RUBI_AB_SESSION=%d-", os.Getpid())
	if left := markedWith(prefix); len(left) > 0 {
		t.Errorf("processes of the run still running: %v", left)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("the run left %d entries in its temporary folder: %v", len(left), left[0].Name())
	}
}

// markedWith lists the processes whose environment has a variable
// starting with prefix.
func markedWith(prefix string) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && (bytes.HasPrefix(env, []byte(prefix)) || bytes.Contains(env, []byte("\x00"+prefix))) {
			out = append(out, e.Name())
		}
	}
	return out
}
