package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

func TestXrayOnRealSamples(t *testing.T) {
	rubitest.AgentHomes(t, time.Now())
	code, out, errOut := runRubi(t, "xray", "--days", "0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// Two sessions of two calls each, 100 tokens in and 10 out per call:
	// 4 × (100 + 5·10) = 600 equivalents, 400 of them input. The tool
	// outputs weigh on the second call of each: Codex's exec_command
	// output (31 tokens) and Claude Code's Bash output (3) over 400
	// context tokens.
	for _, want := range []string{
		"rubi xray: all logs. 2 sessions in 2 projects (claude-code 1, codex 1), 4 API calls.",
		"Where the cost went: 600 input-token equivalents",
		"  output        ██████████                       33%  40 tokens",
		"  input         ████████████████████             67%  400 tokens",
		"Context loaded before the first message (median)         100",
		"Tool whose outputs weighed most in the context           exec_command 7.8%, then Bash 0.8%",
		"Times the cache expired mid-session and was rewritten    0",
		"No threshold would have saved",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "/home/dev/project") || !strings.Contains(out, "/home/dev/cproj") {
		t.Errorf("the most expensive sessions should name their projects:\n%s", out)
	}

	code, out, _ = runRubi(t, "xray", "--days", "0", "--json")
	if code != 0 {
		t.Fatal(out)
	}
	var rep struct {
		Sessions int `json:"sessions"`
		Cost     struct {
			Total float64 `json:"total"`
			Input float64 `json:"input"`
		} `json:"cost"`
		Tools []struct {
			Tool   string  `json:"tool"`
			Tokens int     `json:"tokens"`
			Share  float64 `json:"share"`
		} `json:"tools"`
		Top []struct {
			Agent   string `json:"agent"`
			Project string `json:"project"`
		} `json:"top_sessions"`
		Sims []struct {
			Threshold int64   `json:"threshold"`
			Saving    float64 `json:"saving"`
		} `json:"simulation"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err, out)
	}
	if rep.Sessions != 2 || rep.Cost.Total != 600 || rep.Cost.Input != 400 || len(rep.Tools) != 2 || rep.Tools[0].Tool != "exec_command" || rep.Tools[0].Share != 31.0/400 {
		t.Errorf("json report: %+v", rep)
	}
	if len(rep.Sims) != 3 || rep.Sims[1].Threshold != 150000 || rep.Sims[1].Saving != 0 {
		t.Errorf("simulation: %+v", rep.Sims)
	}

	// The same logs named directly, whatever their file names: each says
	// which agent wrote it and which session it is.
	code, out, _ = runRubi(t, "xray", "--days", "0", "--transcripts", rubitest.ClaudeSample, "--transcripts", rubitest.CodexSample)
	for _, want := range []string{"2 sessions in 2 projects (claude-code 1, codex 1)", "fb8b07ed\n", "01a2279f\n"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("--transcripts FILE: output lacks %q:\n%s", want, out)
		}
	}

	// Logs older than --days are not read.
	rubitest.AgentHomes(t, time.Now().Add(-40*24*time.Hour))
	code, out, _ = runRubi(t, "xray", "--days", "30")
	if code != 0 || !strings.Contains(out, "0 sessions") || !strings.Contains(out, "No session with token usage found") {
		t.Errorf("old logs: exit %d\n%s", code, out)
	}
}

func TestXraySimulateAndFilters(t *testing.T) {
	fixtures := rubitest.XrayFixtures(t)
	code, out, errOut := runRubi(t, "xray", "simulate", "--transcripts", fixtures, "--days", "0", "--thresholds", "100k,250k")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// Session B switches once at 100k and pays 56,000 equivalents more
	// (see agent/xray's TestFindingsByHand).
	for _, want := range []string{
		"3 sessions in 2 projects",
		"resume from the fixed context + 8k handoff",
		"  100k       1                1         518k  -12%",
		"  250k       0                0         462k  0%",
		"No threshold would have saved",
		"bbbbbbbb  /home/dev/shop  180k  297k  -19% (1 switch)  0% (0 switches)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("simulate output lacks %q:\n%s", want, out)
		}
	}

	code, out, _ = runRubi(t, "xray", "--transcripts", fixtures, "--days", "0", "--project", "api", "--usd")
	if code != 0 || !strings.Contains(out, "1 session in 1 project (codex 1)") || !strings.Contains(out, "$0.02 at list prices") {
		t.Errorf("--project api --usd:\n%s", out)
	}

	// A reader who prices output at 4× sees the new total.
	code, out, _ = runRubi(t, "xray", "--transcripts", fixtures, "--days", "0", "--ratios", "output=4", "--json")
	var rep struct {
		Cost struct{ Total float64 } `json:"cost"`
	}
	json.Unmarshal([]byte(out), &rep)
	if code != 0 || rep.Cost.Total != 461868-5500 {
		t.Errorf("--ratios output=4: total %v", rep.Cost.Total)
	}
}

func TestXrayHTML(t *testing.T) {
	page := filepath.Join(t.TempDir(), "xray.html")
	fixtures := rubitest.XrayFixtures(t)
	code, _, errOut := runRubi(t, "xray", "--transcripts", fixtures, "--days", "0", "--html", page, "--usd")
	if code != 0 || !strings.Contains(errOut, "wrote "+page) {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	for _, want := range []string{
		`id="cost"`, `<svg class="costbar"`, // the cost breakdown
		`id="tools"`, `Bash: 1 outputs, 1k tokens`, // tool weights
		`<svg class="curve"`, `context curve of session bbbbbbbb`, `compact at 150k`, // curves with thresholds
		`id="simulation"`, `compact at 100k`, `<td class="n">-12%</td>`, // the simulation
		`$1.35 at list prices`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Self-contained: nothing to fetch, no script.
	for _, bad := range []string{"<script", "http://", "https://", "<link", "@import"} {
		if strings.Contains(html, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
}

func TestXrayBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--thresholds", "100k,lots"}, `--thresholds "100k,lots": give token counts`},
		{[]string{"--ratios", "reads=0.1"}, `--ratios "reads=0.1": use input=, read=`},
		{[]string{"--handoff", "big"}, `--handoff: "big" is not a token count`},
		{[]string{"--days", "-1"}, "--days -1"},
		{[]string{"--transcripts", "/does/not/exist"}, "find session logs: stat /does/not/exist"},
	} {
		code, _, errOut := runRubi(t, append([]string{"xray"}, c.args...)...)
		if code != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, errOut, c.want)
		}
	}
}
