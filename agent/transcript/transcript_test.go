package transcript

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// rec is a record as a test states it: kind, line and what matters for it.
func summarize(r Record) string {
	side := ""
	if r.Sidechain {
		side = " sidechain"
	}
	switch r.Kind {
	case KindCall:
		u := r.Usage
		return fmt.Sprintf("%d call %s%s in=%d read=%d w5m=%d w1h=%d out=%d ctx=%d", r.Line, r.ID, side, u.Input, u.CacheRead, u.CacheWrite5m, u.CacheWrite1h, u.Output, u.Context())
	case KindToolResult:
		return fmt.Sprintf("%d tool %s%s %d tokens", r.Line, r.Tool, side, r.Tokens)
	default:
		return fmt.Sprintf("%d %s%s", r.Line, r.Kind, side)
	}
}

func readAll(t *testing.T, path string) ([]string, *Reader) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := NewReader(f, path)
	var got []string
	for r := range rd.Records() {
		got = append(got, summarize(r))
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	return got, rd
}

func checkLines(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("records:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestClaudeCodeSample(t *testing.T) {
	// A real Claude Code 2.1.328 session: a Bash call and its answer.
	got, rd := readAll(t, "testdata/claude-code-2.1.328.jsonl")
	checkLines(t, got, []string{
		"22 call msg_mock_1:req_mock_1 in=100 read=0 w5m=0 w1h=0 out=10 ctx=100",
		"25 tool Bash 3 tokens", // "hello.txt"
		"33 call msg_mock_2:req_mock_2 in=100 read=0 w5m=0 w1h=0 out=10 ctx=100",
	})
	m := rd.Meta()
	if m.Agent != ClaudeCode || m.SessionID != "fb8b07ed-43f1-4f11-8556-ee3bf452f7db" || m.CWD != "/home/dev/project" || m.Version != "2.1.328" {
		t.Errorf("meta = %+v", m)
	}
	if rd.ProblemCount() != 0 {
		t.Errorf("problems: %v", rd.Problems())
	}
}

func TestCodexSample(t *testing.T) {
	// A real Codex 0.169.0 rollout: each response is reported twice, as a
	// token_usage_record and as a token_count event.
	got, rd := readAll(t, "testdata/codex-0.169.0.jsonl")
	checkLines(t, got, []string{
		"13 call resp_mock_3 in=100 read=0 w5m=0 w1h=0 out=10 ctx=100",
		"16 tool exec_command 31 tokens", // 108 characters
		"20 call resp_mock_4 in=100 read=0 w5m=0 w1h=0 out=10 ctx=100",
	})
	m := rd.Meta()
	if m.Agent != Codex || m.SessionID != "01a2279f-ca04-7bc3-baff-8285562be50b" || m.CWD != "/home/dev/cproj" || m.Version != "0.169.0" {
		t.Errorf("meta = %+v", m)
	}
	if rd.Stats().Duplicates != 2 {
		t.Errorf("duplicates = %d, want 2 (the token_count events)", rd.Stats().Duplicates)
	}
}

func TestClaudeCodeEdgeCases(t *testing.T) {
	got, rd := readAll(t, "testdata/claude-edge.jsonl")
	checkLines(t, got, []string{
		// Lines 2 and 3 are one response; the later line's output counts.
		"2 call msg_a:req_a in=10 read=0 w5m=20000 w1h=0 out=42 ctx=20010",
		"4 tool Read 100 tokens", // 350 characters
		// Null cache_creation and output fields read as zero.
		"5 call msg_b:req_b in=5 read=20010 w5m=0 w1h=0 out=0 ctx=20015",
		"6 tool Bash 20 tokens", // 70 characters of text; the image counts nothing
		"8 call msg_s:req_s sidechain in=3 read=1000 w5m=0 w1h=0 out=7 ctx=1003",
		// Line 9 has a null usage; line 10 replays msg_a.
		"11 call msg_d:req_d in=2 read=0 w5m=500 w1h=20000 out=30 ctx=20502",
		"12 compaction",
		"13 call msg_e:req_e in=100 read=0 w5m=3000 w1h=0 out=10 ctx=3100",
		// Line 14 is an all-zero error placeholder.
	})
	if rd.Stats().Duplicates != 2 {
		t.Errorf("duplicates = %d, want 2", rd.Stats().Duplicates)
	}
	probs := rd.Problems()
	if len(probs) != 2 {
		t.Fatalf("problems = %v, want the malformed line 7 and the truncated line 15", probs)
	}
	if p := probs[0]; p.Line != 7 || p.Truncated || !strings.HasPrefix(p.Error(), "testdata/claude-edge.jsonl:7: not valid JSON") {
		t.Errorf("problem 0 = %q", p.Error())
	}
	if p := probs[1]; p.Line != 15 || !p.Truncated || !strings.Contains(p.Error(), "truncated last line") {
		t.Errorf("problem 1 = %q", p.Error())
	}
}

func TestCodexLegacy(t *testing.T) {
	// An older rollout: usage only in token_count events, one of them
	// repeated, one with no info; a compaction.
	got, rd := readAll(t, "testdata/codex-legacy.jsonl")
	checkLines(t, got, []string{
		"4 call  in=4000 read=8000 w5m=0 w1h=0 out=300 ctx=12000",
		"6 tool shell 100 tokens",
		"8 call  in=1000 read=12000 w5m=0 w1h=0 out=200 ctx=13000",
		"9 compaction",
		"10 call  in=4000 read=0 w5m=0 w1h=0 out=100 ctx=4000",
	})
	if m := rd.Meta(); m.CWD != "/home/dev/api" || m.Version != "0.40.0" {
		t.Errorf("meta = %+v", m)
	}
}

func TestBrokenFirstLine(t *testing.T) {
	// A Codex rollout whose first line is broken is still read as Codex.
	b, err := os.ReadFile("testdata/codex-legacy.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	rd := NewReader(strings.NewReader("{\"timestamp\":\n"+string(b)), "r.jsonl")
	n := 0
	for r := range rd.Records() {
		if r.Kind == KindCall {
			n++
		}
	}
	if rd.Meta().Agent != Codex || n != 3 || rd.ProblemCount() != 1 || rd.Problems()[0].Line != 1 {
		t.Errorf("agent %s, %d calls, problems %v", rd.Meta().Agent, n, rd.Problems())
	}
}

func TestOverlongLineIsSkipped(t *testing.T) {
	long := `{"type":"user","message":{"role":"user","content":"` + strings.Repeat("a", 5000) + `"}}`
	in := long + "\n" + `{"type":"assistant","cwd":"/p","requestId":"r","message":{"id":"m","usage":{"input_tokens":7}}}` + "\n"
	rd := NewReader(strings.NewReader(in), "big.jsonl")
	rd.SetMaxLine(1024)
	var got []string
	for r := range rd.Records() {
		got = append(got, summarize(r))
	}
	checkLines(t, got, []string{"2 call m:r in=7 read=0 w5m=0 w1h=0 out=0 ctx=7"})
	if p := rd.Problems(); len(p) != 1 || p[0].Line != 1 || !strings.Contains(p[0].Msg, "longer than the 1024-byte limit") {
		t.Errorf("problems = %v", p)
	}
}

// A negative or absurd count is refused with its line, never summed into
// costs.
func TestAbsurdUsageIsAProblem(t *testing.T) {
	for agent, in := range map[string]string{
		"claude": `{"type":"user","cwd":"/p","message":{"role":"user","content":"hi"}}` + "\n" +
			`{"type":"assistant","cwd":"/p","requestId":"r1","message":{"id":"m1","usage":{"input_tokens":-5000}}}` + "\n" +
			`{"type":"assistant","cwd":"/p","requestId":"r2","message":{"id":"m2","usage":{"input_tokens":7,"output_tokens":900000000000}}}` + "\n" +
			`{"type":"assistant","cwd":"/p","requestId":"r3","message":{"id":"m3","usage":{"input_tokens":7}}}` + "\n",
		"gemini": `{"sessionId":"s","projectHash":"h"}` + "\n" +
			`{"type":"gemini","id":"g1","tokens":{"input":10,"cached":-3}}` + "\n" +
			`{"type":"gemini","id":"g2","tokens":{"input":10,"output":-1}}` + "\n" +
			`{"type":"gemini","id":"g3","tokens":{"input":7}}` + "\n",
		"codex": `{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"c","cwd":"/p"}}` + "\n" +
			`{"timestamp":"2026-01-01T00:00:01Z","type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":{"input_tokens":10,"cached_input_tokens":-4}}}}` + "\n" +
			`{"timestamp":"2026-01-01T00:00:02Z","type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":{"input_tokens":10,"output_tokens":-4}}}}` + "\n" +
			`{"timestamp":"2026-01-01T00:00:03Z","type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":{"input_tokens":7}}}}` + "\n",
	} {
		rd := NewReader(strings.NewReader(in), agent+".jsonl")
		var calls []Usage
		for r := range rd.Records() {
			if r.Kind == KindCall {
				calls = append(calls, r.Usage)
			}
		}
		if len(calls) != 1 || calls[0].Input != 7 {
			t.Errorf("%s: calls %+v, want the one sound call", agent, calls)
		}
		p := rd.Problems()
		if len(p) != 2 || p[0].Line != 2 || p[1].Line != 3 || p[0].Path != agent+".jsonl" {
			t.Errorf("%s: problems %+v, want lines 2 and 3", agent, p)
			continue
		}
		for _, pr := range p {
			if !strings.Contains(pr.Msg, "negative") && !strings.Contains(pr.Msg, "more than any call holds") {
				t.Errorf("%s: line %d: %q", agent, pr.Line, pr.Msg)
			}
		}
	}
}

func TestLastCall(t *testing.T) {
	rec, ok, err := LastCall("testdata/claude-edge.jsonl")
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if rec.ID != "msg_e:req_e" || rec.Usage.Context() != 3100 {
		t.Errorf("last call = %s", summarize(rec))
	}
	rec, ok, err = LastCall("testdata/codex-0.169.0.jsonl")
	if err != nil || !ok || rec.ID != "resp_mock_4" || rec.Usage.Context() != 100 {
		t.Errorf("codex last call = %s %v %v", summarize(rec), ok, err)
	}

	// A long log: the last call is found from the end; a sidechain call
	// after it does not count.
	dir := t.TempDir()
	path := filepath.Join(dir, "long.jsonl")
	var b strings.Builder
	filler := `{"type":"attachment","cwd":"/p","attachment":{"content":"` + strings.Repeat("f", 4000) + `"}}` + "\n"
	for i := range 300 {
		fmt.Fprintf(&b, `{"type":"assistant","cwd":"/p","requestId":"r%d","message":{"id":"m%d","usage":{"input_tokens":1,"cache_read_input_tokens":%d}}}`+"\n", i, i, 1000*i)
		b.WriteString(filler)
	}
	b.WriteString(`{"type":"assistant","isSidechain":true,"cwd":"/p","requestId":"rs","message":{"id":"ms","usage":{"input_tokens":5}}}` + "\n")
	for range 200 {
		b.WriteString(filler) // pushes the last main call out of the first window
	}
	os.WriteFile(path, []byte(b.String()), 0o644)
	rec, ok, err = LastCall(path)
	if err != nil || !ok || rec.ID != "m299:r299" || rec.Usage.Context() != 299001 {
		t.Errorf("long log last call = %s %v %v", summarize(rec), ok, err)
	}

	// A call followed by more than 4 MiB without one: read from the start.
	var far strings.Builder
	far.WriteString(`{"type":"assistant","cwd":"/p","requestId":"r","message":{"id":"first","usage":{"input_tokens":9}}}` + "\n")
	for range 1200 {
		far.WriteString(filler)
	}
	farPath := filepath.Join(dir, "far.jsonl")
	os.WriteFile(farPath, []byte(far.String()), 0o644)
	if rec, ok, err := LastCall(farPath); err != nil || !ok || rec.ID != "first:r" || rec.Line != 1 {
		t.Errorf("far call = %s %v %v", summarize(rec), ok, err)
	}

	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, []byte(`{"type":"user","message":{"content":"hi"}}`+"\n"), 0o644)
	if _, ok, err := LastCall(empty); ok || err != nil {
		t.Errorf("a log with no call: ok=%v err=%v", ok, err)
	}
}

func TestFind(t *testing.T) {
	home := t.TempDir()
	claude := filepath.Join(home, "claude")
	codex := filepath.Join(home, "codex")
	write := func(p, s string, mod time.Time) {
		p = filepath.Join(home, p)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, mod, mod)
	}
	day := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	write("claude/projects/-home-dev-shop/aaa.jsonl", "{}\n", day)
	write("claude/projects/-home-dev-shop/aaa/subagents/agent-x.jsonl", "{}\n", day.Add(2*time.Hour))
	write("claude/projects/-home-dev-shop/agent-old.jsonl", `{"sessionId":"bbb"}`+"\n", day.Add(-time.Hour))
	write("claude/projects/-home-dev-shop/bbb.jsonl", "{}\n", day.Add(-2*time.Hour))
	write("claude/projects/-home-dev-api/ccc.jsonl", "{}\n", day.Add(-40*24*time.Hour))
	write("codex/sessions/2026/11/20/rollout-2026-11-20T10-00-00-0199a0b1-c2d3-7e4f-8a9b-0c1d2e3f4a5b.jsonl", "{}\n", day.Add(time.Hour))

	t.Setenv("CLAUDE_CONFIG_DIR", claude+", "+filepath.Join(home, "missing"))
	t.Setenv("CODEX_HOME", codex)
	roots := DefaultRoots()
	if len(roots.Claude) != 1 || roots.Claude[0] != claude || len(roots.Codex) != 1 {
		t.Fatalf("roots = %+v", roots)
	}
	sessions, err := Find(roots, day.Add(-7*24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range sessions {
		rel := func(p string) string { r, _ := filepath.Rel(home, p); return r }
		subs := []string{}
		for _, p := range s.Subagents {
			subs = append(subs, rel(p))
		}
		got = append(got, fmt.Sprintf("%s %s %s %v", s.Agent, s.ID, rel(s.Path), subs))
	}
	checkLines(t, got, []string{
		// Oldest change first; ccc is older than the cutoff.
		"claude-code bbb claude/projects/-home-dev-shop/bbb.jsonl [claude/projects/-home-dev-shop/agent-old.jsonl]",
		"codex 0199a0b1-c2d3-7e4f-8a9b-0c1d2e3f4a5b codex/sessions/2026/11/20/rollout-2026-11-20T10-00-00-0199a0b1-c2d3-7e4f-8a9b-0c1d2e3f4a5b.jsonl []",
		"claude-code aaa claude/projects/-home-dev-shop/aaa.jsonl [claude/projects/-home-dev-shop/aaa/subagents/agent-x.jsonl]",
	})
}
