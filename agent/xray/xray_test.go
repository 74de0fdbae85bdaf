package xray

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/agent/transcript"
	"github.com/rubi-dev/rubi/internal/rubitest"
)

func near(got, want float64) bool { return math.Abs(got-want) < 1e-6*math.Max(1, math.Abs(want)) }

func u(in, read, w5, w1, out int64) transcript.Usage {
	return transcript.Usage{Input: in, CacheRead: read, CacheWrite5m: w5, CacheWrite1h: w1, Output: out}
}

// TestSimulateByHand replays a six-call session whose replay is worked out
// in the comments (threshold 150, handoff 10, default ratios).
func TestSimulateByHand(t *testing.T) {
	calls := []Call{
		{Usage: u(0, 0, 40, 0, 10)},              // ctx 40 = F.  real = sim = 1.25·40 + 5·10 = 100
		{Usage: u(0, 40, 60, 0, 10)},             // ctx 100.     real = sim = 4 + 75 + 50 = 129
		{Usage: u(0, 100, 60, 0, 10)},            // ctx 160 > 150, restart 40+10+60 = 110: switch.
		{Usage: u(5, 160, 0, 20, 10)},            // ctx 185, d 25: s = 135.
		{Usage: u(0, 0, 30, 0, 10), Reset: true}, // real compaction: s = min(30, 135) = 30
		{Usage: u(0, 30, 10, 0, 10)},             // ctx 40: s = 40
	}
	// Call 2: summary 0.1·100 + 5·10 = 60; the call reads F = 40, writes 70:
	//   4 + 87.5 + 50 = 141.5 (real: 10 + 75 + 50 = 135).
	// Call 3: in 5, writes its real 20 (1-hour), reads 135-5-20 = 110:
	//   5 + 11 + 40 + 50 = 106 (real: 5 + 16 + 40 + 50 = 111).
	// Call 4: 37.5 + 50 = 87.5 both. Call 5: 3 + 12.5 + 50 = 65.5 both.
	res := Simulate(calls, 150, 10, DefaultRatios(), true)
	if !near(res.Real, 628) || !near(res.Cost, 689.5) || res.Switches != 1 {
		t.Errorf("real %v sim %v switches %d, want 628, 689.5, 1", res.Real, res.Cost, res.Switches)
	}
	if fmt.Sprint(res.Contexts) != "[40 100 110 135 30 40]" {
		t.Errorf("contexts %v", res.Contexts)
	}
	// A threshold never reached prices every call as it happened.
	res = Simulate(calls, 1000, 10, DefaultRatios(), false)
	if !near(res.Cost, 628) || res.Switches != 0 {
		t.Errorf("no switch: sim %v switches %d", res.Cost, res.Switches)
	}
}

// linearSession writes a Claude Code log of n calls, each adding 10k
// tokens written to the cache and reading the rest: call i has a context
// of 10k·(i+1).
func linearSession(t *testing.T, dir string, n int) {
	t.Helper()
	var b strings.Builder
	start := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	for i := range n {
		fmt.Fprintf(&b, `{"type":"assistant","isSidechain":false,"sessionId":"lin","cwd":"/home/dev/big","requestId":"r%d","timestamp":%q,"message":{"id":"m%d","model":"claude-opus-4-5","content":[],"usage":{"input_tokens":0,"cache_read_input_tokens":%d,"cache_creation_input_tokens":10000,"output_tokens":0}}}`+"\n",
			i, start.Add(time.Duration(i)*time.Minute).Format(time.RFC3339), i, 10000*i)
	}
	p := filepath.Join(dir, "projects", "-home-dev-big", "lin.jsonl")
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSimulatorThresholds replays a 40-call session growing by 10k per
// call (F = 10k, handoff 10k). Real cost: Σ (0.1·10k·i + 1.25·10k) =
// 1000·780 + 40·12500 = 1,280,000. A switch costs a summary
// (0.1·s + 5·10k) and a call reading F and writing 20k (26,000); an
// ordinary call at context s costs 0.1·(s − 10k) + 12,500.
//
//	100k: calls 0–9 (10k..100k) 170,000; switches at 10, 18, 26, 34
//	      (86,000 each), 7 calls at 40k..100k (129,500) after the first
//	      three, 5 at 40k..80k (62,500) after the last: 990,000.
//	150k: calls 0–14 292,500; switch at 15 (91,000); 12 calls at
//	      40k..150k (252,000); switch at 28 (91,000); 11 calls at
//	      40k..140k (225,500): 952,000.
//	250k: calls 0–24 612,500; switch at 25 (101,000); 14 calls at
//	      40k..170k (308,000): 1,021,500.
func TestSimulatorThresholds(t *testing.T) {
	dir := t.TempDir()
	linearSession(t, dir, 40)
	sessions, err := transcript.Find(transcript.Roots{Claude: []string{dir}}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Analyze(context.Background(), sessions, Options{Handoff: 10000})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		threshold int64
		sim       float64
		switches  int
	}{{100000, 990000, 4}, {150000, 952000, 2}, {250000, 1021500, 1}}
	for i, w := range want {
		s := rep.Sims[i]
		if s.Threshold != w.threshold || !near(s.Real, 1280000) || !near(s.Cost, w.sim) || s.Switches != w.switches || s.Sessions != 1 {
			t.Errorf("threshold %d: %+v, want sim %v, %d switches", w.threshold, s, w.sim, w.switches)
		}
		if !near(s.Saving, (1280000-w.sim)/1280000) {
			t.Errorf("threshold %d: saving %v", w.threshold, s.Saving)
		}
	}
	if rep.Recommended != 150000 {
		t.Errorf("recommended %d, want 150000 (saves 25.6%%)", rep.Recommended)
	}
	// The curve of the session, and its replay at 150k.
	top := rep.Top[0]
	if len(top.Curve) != 40 || top.Curve[39] != [2]int64{39, 400000} || top.Peak != 400000 {
		t.Errorf("curve ends %v, peak %d", top.Curve[len(top.Curve)-1], top.Peak)
	}
	if top.SimCurve[15] != [2]int64{15, 30000} || top.SimCurve[14] != [2]int64{14, 150000} {
		t.Errorf("simulated curve %v", top.SimCurve[10:20])
	}
	// The page draws the curve, its replay at 150k, and the thresholds,
	// the recommended one set apart.
	var page strings.Builder
	if err := WriteHTML(&page, rep, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<path class="real"`, `<path class="replay"`, `<title>replayed with compaction at 150k</title>`,
		`<line class="threshold best"`, `compact at 150k ★`, `<tr class="best"><td>150k (recommended)</td>`, `+26%`} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// claude-opus-4-5 at $5 / $25 per million: 10k·(0+1+…+39) = 7.8M
	// tokens read at $0.50, 400k written at $6.25.
	if !near(rep.USD, 7.8*0.5+0.4*6.25) {
		t.Errorf("usd %v", rep.USD)
	}
}

func analyzeFixtures(t *testing.T, opt Options) *Report {
	t.Helper()
	dir := rubitest.XrayFixtures(t)
	roots := transcript.Roots{Claude: []string{filepath.Join(dir, "claude")}, Codex: []string{filepath.Join(dir, "codex")}}
	sessions, err := transcript.Find(roots, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	opt.Home = "/home/dev"
	rep, err := Analyze(context.Background(), sessions, opt)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestFindingsByHand checks every figure of three sessions worked out by
// hand: A (Claude Code, /home/dev/shop: four calls, one response on two
// lines, a cache expiry after a 28-minute pause, a broken line), B (the
// same project: grows to 180k, compacts, and runs a subagent whose log
// replays one of B's calls) and C (Codex, /home/dev/api: the legacy
// rollout fixture).
func TestFindingsByHand(t *testing.T) {
	rep := analyzeFixtures(t, Options{})
	// Costs in input-token equivalents (read 0.1, write 1.25 / 2, output 5):
	//   A: 50,510 + 7,511 + 6,337 + 86,510 = 150,868
	//   B: 80,000 + 86,000 + 92,000 + 30,000 + subagent 6,750 + 2,250 = 297,000
	//   C: 6,300 + 3,200 + 4,500 = 14,000
	if rep.Sessions != 3 || rep.Projects != 2 || rep.Agents["claude-code"] != 2 || rep.Agents["codex"] != 1 {
		t.Errorf("sessions %d projects %d agents %v", rep.Sessions, rep.Projects, rep.Agents)
	}
	if rep.Calls != 13 || rep.Files != 4 || rep.Duplicates != 3 {
		t.Errorf("calls %d files %d duplicates %d, want 13, 4, 3", rep.Calls, rep.Files, rep.Duplicates)
	}
	c := rep.Cost
	if !near(c.Total, 461868) || !near(c.Input, 9040) || !near(c.CacheWrite, 396625) || !near(c.CacheRead, 28703) || !near(c.Output, 27500) {
		t.Errorf("cost %+v", c)
	}
	if !near(rep.Shares.CacheWrite, 396625.0/461868) || !near(rep.Shares.CacheRead, 28703.0/461868) {
		t.Errorf("shares %+v", rep.Shares)
	}
	// Past 150k: B only. Near 1M: none.
	if rep.Past.Sessions != 1 || !near(rep.Past.Share, 297000.0/461868) || rep.Near.Sessions != 0 {
		t.Errorf("past %+v near %+v", rep.Past, rep.Near)
	}
	// Starting contexts 40,010 (A), 60,000 (B), 12,000 (C).
	if rep.Start.Median != 40010 || rep.Start.Sessions != 3 {
		t.Errorf("starting context %+v", rep.Start)
	}
	// A's last call rewrote 43,000 tokens (1-hour) after a 28-minute pause:
	// 43,000 × (2 − 0.1) = 81,700 beyond reading them.
	if e := rep.Expiries; e.Count != 1 || e.Sessions != 1 || !near(e.Cost, 81700) {
		t.Errorf("expiries %+v", e)
	}
	// Tool weights over 587,570 context tokens (A 167,570, B 380,000, B's
	// subagent 11,000, C 29,000): Bash 1,000 tokens × 3 calls, Read 200 × 2,
	// Grep 100 × 1 (subagent), shell 100 × 1 (Codex: the compaction drops it).
	var tools []string
	for _, w := range rep.Tools {
		tools = append(tools, fmt.Sprintf("%s %d×%d=%.0f %.6f", w.Tool, w.Outputs, w.Tokens, w.Weight, w.Share))
	}
	wantTools := []string{
		fmt.Sprintf("Bash 1×1000=3000 %.6f", 3000.0/587570),
		fmt.Sprintf("Read 1×200=400 %.6f", 400.0/587570),
		fmt.Sprintf("Grep 1×100=100 %.6f", 100.0/587570),
		fmt.Sprintf("shell 1×100=100 %.6f", 100.0/587570),
	}
	if strings.Join(tools, "\n") != strings.Join(wantTools, "\n") {
		t.Errorf("tools:\n%s\nwant:\n%s", strings.Join(tools, "\n"), strings.Join(wantTools, "\n"))
	}
	// The most expensive sessions, with project and date.
	var top []string
	for _, s := range rep.Top {
		top = append(top, fmt.Sprintf("%s %s %s %.0f peak=%d calls=%d sub=%d compactions=%d", s.ID[:8], s.Project, s.Start.Format("2006-01-02"), s.Cost.Total, s.Peak, s.Calls, s.SideCalls, s.Compactions))
	}
	wantTop := []string{
		"bbbbbbbb ~/shop 2026-11-10 297000 peak=180000 calls=6 sub=2 compactions=1",
		"aaaaaaaa ~/shop 2026-11-05 150868 peak=43010 calls=4 sub=0 compactions=0",
		"0199a0b1 ~/api 2026-10-02 14000 peak=13000 calls=3 sub=0 compactions=1",
	}
	if strings.Join(top, "\n") != strings.Join(wantTop, "\n") {
		t.Errorf("top:\n%s\nwant:\n%s", strings.Join(top, "\n"), strings.Join(wantTop, "\n"))
	}
	// USD at list prices: A (Sonnet 4.5) 0.452604, B 0.864 + its Haiku 4.5
	// subagent 0.009, C (gpt-5-codex) 0.01975.
	if !near(rep.USD, 1.345354) || len(rep.Unpriced) != 0 {
		t.Errorf("usd %v unpriced %v", rep.USD, rep.Unpriced)
	}
	// B at 100k and 150k switches once before call 3, which costs more
	// than it saves on so short a session: summary 52,000 and the call
	// 96,000 instead of 92,000.
	for i, want := range []float64{461868 + 56000, 461868 + 56000, 461868} {
		if s := rep.Sims[i]; !near(s.Cost, want) || !near(s.Real, 461868) {
			t.Errorf("simulation %d: %+v, want cost %v", s.Threshold, s, want)
		}
	}
	if rep.Recommended != 0 {
		t.Errorf("recommended %d, want none: no threshold saves", rep.Recommended)
	}
	// The broken line of A, with its file and line.
	if rep.Problems.Count != 1 || !strings.Contains(rep.Problems.First[0].Error(), "aaaaaaaa-0000-4000-8000-000000000001.jsonl:9: not valid JSON: cannot parse object") {
		t.Errorf("problems %+v", rep.Problems)
	}
}

func TestFilters(t *testing.T) {
	rep := analyzeFixtures(t, Options{Project: "shop"})
	if rep.Sessions != 2 || !near(rep.Cost.Total, 150868+297000) {
		t.Errorf("project shop: %d sessions, cost %v", rep.Sessions, rep.Cost.Total)
	}
	rep = analyzeFixtures(t, Options{Project: "/home/dev/api"})
	if rep.Sessions != 1 || !near(rep.Cost.Total, 14000) {
		t.Errorf("project /home/dev/api: %d sessions, cost %v", rep.Sessions, rep.Cost.Total)
	}
	// Since drops the calls before it: C (October) is left out, and so are
	// A's calls before 10:01.
	rep = analyzeFixtures(t, Options{Since: time.Date(2026, 11, 5, 10, 1, 0, 0, time.UTC)})
	if rep.Sessions != 2 || !near(rep.Cost.Total, 150868-50510+297000) {
		t.Errorf("since: %d sessions, cost %v", rep.Sessions, rep.Cost.Total)
	}
	// Other prices: output at 4×, reads at 0.08×.
	r := DefaultRatios()
	r.Output, r.CacheRead = 4, 0.08
	rep = analyzeFixtures(t, Options{Ratios: &r})
	if want := 461868 - 27500.0/5 - 28703*0.2; !near(rep.Cost.Total, want) {
		t.Errorf("ratios: cost %v, want %v", rep.Cost.Total, want)
	}
}

func TestParseAndFormatTokens(t *testing.T) {
	for in, want := range map[string]int64{"150000": 150000, "150k": 150000, "1m": 1000000, "1.5M": 1500000, " 8K ": 8000} {
		if got, err := ParseTokens(in); err != nil || got != want {
			t.Errorf("ParseTokens(%q) = %d, %v", in, got, err)
		}
	}
	if _, err := ParseTokens("lots"); err == nil || !strings.Contains(err.Error(), "150k") {
		t.Errorf("ParseTokens(lots) error %v", err)
	}
	for n, want := range map[int64]string{950: "950", 8000: "8k", 1500: "1.5k", 48213: "48k", 1200000: "1.2M", 3000000000: "3B"} {
		if got := FormatTokens(n); got != want {
			t.Errorf("FormatTokens(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestManySessions reads 50 copies of session A (each with its own
// response ids): every figure is 50 times A's, or A's own where it is a
// share or a median.
func TestManySessions(t *testing.T) {
	src, err := os.ReadFile("testdata/claude/projects/-home-dev-shop/aaaaaaaa-0000-4000-8000-000000000001.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for k := range 50 {
		id := fmt.Sprintf("s%02d", k)
		log := strings.ReplaceAll(string(src), `"requestId":"r`, `"requestId":"`+id+`r`)
		p := filepath.Join(dir, "projects", "-home-dev-shop", id+".jsonl")
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(log), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sessions, err := transcript.Find(transcript.Roots{Claude: []string{dir}}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Analyze(context.Background(), sessions, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Sessions != 50 || rep.Calls != 200 || rep.Duplicates != 50 || !near(rep.Cost.Total, 50*150868) {
		t.Errorf("sessions %d calls %d duplicates %d cost %v", rep.Sessions, rep.Calls, rep.Duplicates, rep.Cost.Total)
	}
	if rep.Expiries.Count != 50 || !near(rep.Expiries.Cost, 50*81700) || !near(rep.Expiries.Share, 81700.0/150868) {
		t.Errorf("expiries %+v", rep.Expiries)
	}
	if rep.Start.Median != 40010 || rep.Past.Sessions != 0 || len(rep.Top) != 10 || !near(rep.Top[0].Share, 0.02) {
		t.Errorf("start %+v past %+v top %d (%v)", rep.Start, rep.Past, len(rep.Top), rep.Top[0].Share)
	}
	if w := rep.Tools[0]; w.Tool != "Bash" || w.Outputs != 50 || !near(w.Weight, 50*3000) || !near(w.Share, 3000.0/167570) {
		t.Errorf("tools %+v", rep.Tools[0])
	}
	if rep.Problems.Count != 50 || len(rep.Problems.First) != 10 || rep.Recommended != 0 || !near(rep.Sims[0].Saving, 0) {
		t.Errorf("problems %d, recommended %d, saving %v", rep.Problems.Count, rep.Recommended, rep.Sims[0].Saving)
	}
}

// TestEdgeCaseLog analyses transcript's crafted log: a response on two
// lines, nulls, a sidechain call, a replayed line, a 19-minute pause with a
// 1-hour cache write, a compaction, an error placeholder, a broken line and
// a truncated last line.
func TestEdgeCaseLog(t *testing.T) {
	sessions, err := transcript.FindPaths([]string{"../transcript/testdata/claude-edge.jsonl"}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Analyze(context.Background(), sessions, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// msg_a 10 + 25,000 + 210; msg_b 5 + 2,001; the sidechain msg_s 3 +
	// 100 + 35; msg_d 2 + 625 + 40,000 + 150; msg_e 100 + 3,750 + 50.
	if rep.Calls != 5 || !near(rep.Cost.Total, 72041) {
		t.Errorf("calls %d cost %v, want 5, 72041", rep.Calls, rep.Cost.Total)
	}
	s := rep.Top[0]
	if s.SideCalls != 1 || s.Compactions != 1 || s.StartContext != 20010 || s.Peak != 20502 {
		t.Errorf("session %+v", s)
	}
	// msg_d rewrote 20,500 of msg_b's 20,015 after the pause:
	// 500 × (1.25 − 0.1) + 20,000 × (2 − 0.1).
	if rep.Expiries.Count != 1 || !near(rep.Expiries.Cost, 38575) {
		t.Errorf("expiries %+v", rep.Expiries)
	}
	// Read (100 tokens) rides on msg_b and msg_d, Bash (20) on msg_d; the
	// compaction before msg_e drops both. Contexts: 63,627 own + 1,003.
	var tools []string
	for _, w := range rep.Tools {
		tools = append(tools, fmt.Sprintf("%s %.0f %.6f", w.Tool, w.Weight, w.Share))
	}
	if want := fmt.Sprintf("[Read 200 %.6f Bash 20 %.6f]", 200.0/64630, 20.0/64630); fmt.Sprint(tools) != want {
		t.Errorf("tools %v, want %s", tools, want)
	}
	if rep.Problems.Count != 1 || rep.Problems.Truncated != 1 || rep.Problems.First[0].Line != 7 {
		t.Errorf("problems %+v", rep.Problems)
	}
}
