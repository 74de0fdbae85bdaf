package mcpserver

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

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/rubi-dev/rubi/agent/transcript"
	"github.com/rubi-dev/rubi/agent/transcript/transcripttest"
	"github.com/rubi-dev/rubi/agent/xray"
	"github.com/rubi-dev/rubi/core/tokens"
)

// agentHomes points the agents' log directories ($CLAUDE_CONFIG_DIR,
// $CODEX_HOME) and the home at empty directories and returns them.
func agentHomes(t *testing.T) (claude, codex string) {
	t.Helper()
	home := t.TempDir()
	claude, codex = filepath.Join(home, "claude"), filepath.Join(home, "codex")
	for _, d := range []string{claude, codex} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("CLAUDE_CONFIG_DIR", claude)
	t.Setenv("CODEX_HOME", codex)
	t.Setenv("HOME", home)
	return claude, codex
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dst, string(data))
}

// actions lists the actions memory offers.
func actions(t *testing.T, s *Server) []string {
	t.Helper()
	list, err := connect(t, s).ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		if tool.Name == "memory" {
			p, _ := tool.InputSchema.Properties["action"].(map[string]any)
			var out []string
			for _, a := range p["enum"].([]any) {
				out = append(out, a.(string))
			}
			return out
		}
	}
	t.Fatal("no memory tool")
	return nil
}

func TestXrayIsOptIn(t *testing.T) {
	for _, multi := range []bool{false, true} {
		without, _ := newServer(t, Options{Multi: multi})
		with, _ := newServer(t, Options{Multi: multi, Xray: true})
		names := func(s *Server) []string {
			list, err := connect(t, s).ListTools(context.Background(), mcp.ListToolsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, tool := range list.Tools {
				out = append(out, tool.Name)
			}
			return out
		}
		// The option adds the action xray to memory, nothing else.
		if got, want := names(with), names(without); !slices.Equal(got, want) {
			t.Errorf("multi=%v: the tools are %v with the option, %v without", multi, got, want)
		}
		if got := actions(t, without); slices.Contains(got, "xray") {
			t.Errorf("multi=%v: without the option memory's actions are %v", multi, got)
		}
		if got := actions(t, with); got[len(got)-1] != "xray" {
			t.Errorf("multi=%v: with the option memory's actions are %v", multi, got)
		}
		fails(t, connect(t, without), "memory", map[string]any{"action": "xray"}, "action xray is off", "--xray")

		// It adds to the fixed cost memory's few words about it.
		c0, err := without.FixedCost()
		if err != nil {
			t.Fatal(err)
		}
		c1, err := with.FixedCost()
		if err != nil {
			t.Fatal(err)
		}
		added := c1.Total - c0.Total
		if len(c1.Tools) != len(c0.Tools) || added <= 0 || added > 40 {
			t.Errorf("multi=%v: cost without %+v, with %+v: xray adds %d tokens, keep it under 40", multi, c0, c1, added)
		}
		if c1.Total > CostLimit {
			t.Errorf("multi=%v: the fixed cost with xray is %d tokens, over the limit of %d", multi, c1.Total, CostLimit)
		}
	}
}

// The real logs of one Claude Code and one Codex session, worked out by
// hand in internal/cli's xray test: two calls each, 100 tokens in and 10 out
// per call, so 4 × (100 + 5·10) = 600 equivalents, 400 of them input; the
// tool outputs weigh on the second call of each, Codex's exec_command
// (31 tokens) and Claude Code's Bash (3) over 400 context tokens.
func TestXrayOnRealSamples(t *testing.T) {
	claude, codex := agentHomes(t)
	copyFile(t, "../transcript/testdata/claude-code-2.1.328.jsonl", filepath.Join(claude, "projects", "-home-dev-project", "fb8b07ed-43f1-4f11-8556-ee3bf452f7db.jsonl"))
	copyFile(t, "../transcript/testdata/codex-0.169.0.jsonl", filepath.Join(codex, "sessions", "2026", "11", "29", "rollout-2026-11-29T14-05-13-01a2279f-ca04-7bc3-baff-8285562be50b.jsonl"))
	s, _ := newServer(t, Options{Xray: true})
	c := connect(t, s)
	got, res := ok(t, c, "memory", map[string]any{"action": "xray", "since": "all"})
	for _, want := range []string{
		"rubi xray, every log: 2 sessions in 2 projects (claude-code 1, codex 1), 4 API calls.\n",
		"Cost 600 input-token equivalents: cache reads 0%, cache writes 0%, output 33%, input 67%.\n",
		"Sessions past 150k: 0 of 2, 0% of the cost; reaching ~1M: 0 (0%).\n",
		"Context before the first message: 100 (median).\n",
		"Tool outputs, share of the context sent: exec_command 7.8%, Bash 0.8%.\n",
		"The cache never expired mid-session.\n",
		"/home/dev/project 300 (50%, peak 100)",
		"/home/dev/cproj 300 (50%, peak 100)",
		"Compaction simulator (resume from the fixed context + 8k handoff), saving: 100k 0%, 150k 0%, 250k 0%.\n",
		"No threshold would have saved",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("text lacks %q:\n%s", want, got)
		}
	}
	// The structured content is the same summary, not the figures again.
	var out xrayResult
	structured(t, res, &out)
	if out.Sessions != 2 || out.Days != 0 || out.Text != got {
		t.Errorf("structured content: %+v", out)
	}
}

func TestXrayOnGeneratedLogs(t *testing.T) {
	claude, _ := agentHomes(t)
	// Nine long sessions over the last days, three in each project.
	if _, err := transcripttest.Write(claude, transcripttest.Spec{Sessions: 9, Calls: 160, Seed: 7, Start: time.Now().Add(-72 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	// What rubi xray reports on the same logs.
	since := time.Now().Add(-30 * 24 * time.Hour)
	sessions, err := transcript.Find(transcript.DefaultRoots(), since)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := xray.Analyze(context.Background(), sessions, xray.Options{Since: since})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Sessions != 9 || rep.Recommended == 0 || rep.Past.Sessions == 0 {
		t.Fatalf("the generated logs should have long sessions and a recommendation: %+v", rep)
	}
	var saving float64
	for _, sim := range rep.Sims {
		if sim.Threshold == rep.Recommended {
			saving = sim.Saving
		}
	}

	for _, multi := range []bool{false, true} {
		s, _ := newServer(t, Options{Multi: multi, Xray: true})
		c := connect(t, s)
		got, res := ok(t, c, "memory", map[string]any{"action": "xray"})
		for _, want := range []string{
			fmt.Sprintf("rubi xray, last 30 days: 9 sessions in 3 projects (claude-code 9), %s API calls.\n", xray.FormatTokens(rep.Calls)),
			fmt.Sprintf("Cost %s input-token equivalents: cache reads %s,", xray.FormatTokens(int64(rep.Cost.Total)), xray.Percent(rep.Shares.CacheRead)),
			fmt.Sprintf("Sessions past 150k: %d of 9, %s of the cost;", rep.Past.Sessions, xray.Percent(rep.Past.Share)),
			fmt.Sprintf("Context before the first message: %s (median).\n", xray.FormatTokens(rep.Start.Median)),
			fmt.Sprintf("Tool outputs, share of the context sent: %s %s, %s %s,", rep.Tools[0].Tool, xray.Percent(rep.Tools[0].Share), rep.Tools[1].Tool, xray.Percent(rep.Tools[1].Share)),
			fmt.Sprintf("Cache expired mid-session: %d times", rep.Expiries.Count),
			fmt.Sprintf("Most expensive: %s %s %s", rep.Top[0].Start.Local().Format("2006-01-02"), rep.Top[0].Project, xray.FormatTokens(int64(rep.Top[0].Cost.Total))),
			fmt.Sprintf("Recommended: compact at %s, about %s cheaper (Claude Code: CLAUDE_CODE_AUTO_COMPACT_WINDOW=%d).\n",
				xray.FormatTokens(rep.Recommended), xray.Percent(saving), rep.Recommended),
		} {
			if !strings.Contains(got, want) {
				t.Errorf("multi=%v: text lacks %q:\n%s", multi, want, got)
			}
		}
		if n := tokens.Estimate(got); n > 300 {
			t.Errorf("the summary costs %d tokens; keep it under 300:\n%s", n, got)
		}
		if _, top, _ := strings.Cut(got, "Most expensive: "); len(strings.Split(strings.SplitN(top, "\n", 2)[0], "; ")) != 3 {
			t.Errorf("the summary should name the three most expensive sessions:\n%s", got)
		}
		var out xrayResult
		structured(t, res, &out)
		if out.Days != 30 || out.Sessions != 9 || out.Text != got {
			t.Errorf("multi=%v: structured content %+v", multi, out)
		}
		if raw, _ := json.Marshal(res.StructuredContent); tokens.Estimate(string(raw)) > tokens.Estimate(got)+30 {
			t.Errorf("multi=%v: the structured content (%d tokens) is more than the summary (%d)", multi, tokens.Estimate(string(raw)), tokens.Estimate(got))
		}

		// Only one project's sessions, named as the report names it.
		got, res = ok(t, c, "memory", map[string]any{"action": "xray", "project": "shop", "since": "10d"})
		out = xrayResult{}
		structured(t, res, &out)
		if out.Sessions != 3 || out.Project != "shop" || out.Days != 10 ||
			!strings.HasPrefix(got, "rubi xray, last 10 days, project shop: 3 sessions in 1 project (claude-code 3)") {
			t.Errorf("multi=%v: project shop: %+v\n%s", multi, out, got)
		}
		got, res = ok(t, c, "memory", map[string]any{"action": "xray", "project": "/home/dev/api"})
		out = xrayResult{}
		structured(t, res, &out)
		if out.Sessions != 3 || out.Project != "/home/dev/api" || !strings.Contains(got, "Most expensive: ") || !strings.Contains(got, " /home/dev/api ") {
			t.Errorf("multi=%v: project /home/dev/api: %+v", multi, out)
		}
		fails(t, c, "memory", map[string]any{"action": "xray", "project": "nowhere"},
			`no agent session with token usage found in project "nowhere" in the last 30 days`, "leave project out to see every project")
	}
}

func TestXrayErrors(t *testing.T) {
	agentHomes(t)
	s, _ := newServer(t, Options{Xray: true})
	c := connect(t, s)
	xr := func(args map[string]any) map[string]any {
		args["action"] = "xray"
		return args
	}
	fails(t, c, "memory", xr(map[string]any{}), "no agent session with token usage found in the last 30 days",
		"$CLAUDE_CONFIG_DIR or ~/.claude", "$CODEX_HOME or ~/.codex", "on the machine the server runs on", "pass since all to read every log")
	msg := fails(t, c, "memory", xr(map[string]any{"since": "all"}), "no agent session with token usage found.")
	if strings.Contains(msg, "since all") {
		t.Errorf("with since all there is nothing older to read: %s", msg)
	}
	for _, bad := range []string{"-1d", "0d", "ten", "2026-11-01"} {
		fails(t, c, "memory", xr(map[string]any{"since": bad}), fmt.Sprintf("since %q: give the days back to read (7d), or all for every log", bad))
	}
	fails(t, c, "memory", xr(map[string]any{"since": "40000d"}), "since 40000d: give the days back to read (7d), or all for every log")
	fails(t, c, "memory", xr(map[string]any{"project": "../shop"}), `project "../shop": give the project's name or absolute path`)
}
