package hooks

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/memory"
	"github.com/rubi-dev/rubi/internal/rubitest"
)

// writeTranscript writes a Claude Code transcript whose last main-chain
// call used context tokens (input + cache creation + cache read), after a
// subagent call of a much larger context that must not count.
func writeTranscript(t *testing.T, path string, context int64) {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"type":"user","message":{"role":"user","content":"explain the checkout"},"uuid":"u1","sessionId":"s1"}` + "\n")
	fmt.Fprintf(&b, `{"type":"assistant","message":{"id":"msg_1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":%d,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d,"output_tokens":50}},"requestId":"req_1","uuid":"a1"}`+"\n", context/10, context/10, context-2*(context/10))
	b.WriteString(`{"type":"assistant","isSidechain":true,"message":{"id":"msg_2","role":"assistant","content":[{"type":"text","text":"sub"}],"usage":{"input_tokens":900000,"output_tokens":5}},"requestId":"req_2","uuid":"a2"}` + "\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (p *project) toolPayload(sample, tool string, input map[string]any, transcript string) string {
	set := map[string]any{"tool_name": tool, "tool_input": input, "session_id": "sess-1"}
	if transcript != "" {
		set["transcript_path"] = transcript
	}
	return p.payload(sample, set)
}

func TestMeterWarnsOncePerCrossing(t *testing.T) {
	p := newProject(t)
	tr := filepath.Join(t.TempDir(), "s.jsonl")
	post := func() string {
		a := p.hook(PostToolUse, p.toolPayload("claude-code/PostToolUse.json", "Bash", map[string]any{"command": "go build ./..."}, tr))
		return a.Specific.Context
	}
	writeTranscript(t, tr, 100_000) // under 80% of 150,000
	if got := post(); got != "" {
		t.Fatalf("100k of 150k: warned %q", got)
	}
	writeTranscript(t, tr, 125_000)
	got := post()
	for _, want := range []string{"rubi meter", "125k tokens", "83%", "150k", "register", "handoff"} {
		if !strings.Contains(got, want) {
			t.Errorf("125k of 150k: the warning lacks %q: %q", want, got)
		}
	}
	if got := post(); got != "" {
		t.Errorf("second tool call above the threshold warned again: %q", got)
	}
	writeTranscript(t, tr, 40_000) // compacted
	if got := post(); got != "" {
		t.Errorf("after compaction: warned %q", got)
	}
	writeTranscript(t, tr, 130_000) // the next crossing
	if got := post(); !strings.Contains(got, "rubi meter") {
		t.Errorf("second crossing: no warning")
	}
	// The agent's own compaction window wins over hooks.compact_window.
	p.vars["CLAUDE_CODE_AUTO_COMPACT_WINDOW"] = "400000"
	writeTranscript(t, tr, 10_000)
	post()
	writeTranscript(t, tr, 200_000)
	if got := post(); got != "" {
		t.Errorf("200k of a 400k window: warned %q", got)
	}
}

func TestMeterToleratesMissingAndTruncatedTranscripts(t *testing.T) {
	p := newProject(t)
	dir := t.TempDir()
	missing := filepath.Join(dir, "gone.jsonl")
	if a := p.hook(PostToolUse, p.toolPayload("claude-code/PostToolUse.json", "Bash", map[string]any{"command": "ls"}, missing)); a.raw != "" {
		t.Errorf("missing transcript: printed %q", a.raw)
	}
	// Not written yet, as at a new session's first prompt: not an error.
	if log, err := os.ReadFile(filepath.Join(p.root, ".rubi", LogName)); err == nil && len(log) > 0 {
		t.Errorf("missing transcript: logged %s", log)
	}
	truncated := filepath.Join(dir, "cut.jsonl")
	writeTranscript(t, truncated, 130_000)
	data, _ := os.ReadFile(truncated)
	// The agent is writing the next line: half of a 140k call.
	data = append(data, `{"type":"assistant","message":{"id":"msg_9","usage":{"input_tokens":140000,`...)
	os.WriteFile(truncated, data, 0o644)
	a := p.hook(PostToolUse, p.toolPayload("claude-code/PostToolUse.json", "Bash", map[string]any{"command": "ls"}, truncated))
	if !strings.Contains(a.Specific.Context, "130k tokens") {
		t.Errorf("truncated transcript: want the last complete call (130k), got %q", a.raw)
	}
}

// TestMeterReadsAHugeTranscriptFromItsEnd checks that a 1 GB transcript
// costs the meter a read of its tail: memory stays bounded by that window.
func TestMeterReadsAHugeTranscriptFromItsEnd(t *testing.T) {
	p := newProject(t)
	path := filepath.Join(t.TempDir(), "huge.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 4<<20)
	block := strings.Repeat(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"`+strings.Repeat("x", 4000)+`"}]}}`+"\n", 256)
	for written := 0; written < 1<<30; written += len(block) {
		w.WriteString(block)
	}
	w.Flush()
	f.Close()
	tail, _ := os.CreateTemp(t.TempDir(), "tail")
	writeTranscript(t, tail.Name(), 123_000)
	data, _ := os.ReadFile(tail.Name())
	af, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	af.Write(data)
	af.Close()
	if st, _ := os.Stat(path); st.Size() < 1<<30 {
		t.Fatalf("the transcript is %d bytes, want 1 GiB", st.Size())
	}

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	a := p.hook(PostToolUse, p.toolPayload("claude-code/PostToolUse.json", "Read", map[string]any{"file_path": "go.mod"}, path))
	runtime.ReadMemStats(&after)
	if !strings.Contains(a.Specific.Context, "123k tokens") {
		t.Errorf("1 GiB transcript: want the 123k warning, got %q", a.raw)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("reading the meter of a 1 GiB transcript allocated %d MiB, want under 64", alloc>>20)
	}
}

func TestHarvestBlocksOnceAfterHeavyExploration(t *testing.T) {
	p := newProject(t)
	prompt := func() {
		p.hook(UserPromptSubmit, p.payload("claude-code/UserPromptSubmit.json", map[string]any{"prompt": "thanks", "session_id": "sess-1"}))
	}
	explore := func(n int) {
		tools := []struct {
			name string
			in   map[string]any
		}{
			{"Read", map[string]any{"file_path": filepath.Join(p.root, "go.mod")}},
			{"Grep", map[string]any{"pattern": "coupon"}},
			{"Glob", map[string]any{"pattern": "**/*.go"}},
			{"Bash", map[string]any{"command": "cd internal && rg -n Apply"}},
			{"mcp__plugin_rubi_rubi__context", map[string]any{"query": "coupon"}},
			{"mcp__rubi__memory", map[string]any{"action": "grep", "text": "coupon"}},
		}
		for i := range n {
			tl := tools[i%len(tools)]
			p.hook(PostToolUse, p.toolPayload("claude-code/PostToolUse.json", tl.name, tl.in, ""))
		}
	}
	stop := func(active bool) hookAnswer {
		return p.hook(Stop, p.payload("claude-code/Stop.json", map[string]any{"session_id": "sess-1", "stop_hook_active": active}))
	}

	prompt()
	explore(9)
	if a := stop(false); a.raw != "" {
		t.Errorf("9 reads: blocked %q", a.raw)
	}
	prompt()
	explore(10)
	// Edits and builds are not exploration.
	p.hook(PostToolUse, p.toolPayload("claude-code/PostToolUse.json", "Edit", map[string]any{"file_path": "x.go"}, ""))
	a := stop(false)
	if a.Decision != "block" || !strings.Contains(a.Reason, "10 reads and searches") || !strings.Contains(a.Reason, "register") {
		t.Fatalf("10 reads, nothing registered: want a block, got %q", a.raw)
	}
	if a := stop(true); a.raw != "" {
		t.Errorf("stop_hook_active: blocked again %q", a.raw)
	}
	if a := stop(false); a.raw != "" {
		t.Errorf("a second stop in the same turn: blocked again %q", a.raw)
	}

	// A turn that registered something is left alone, through the MCP
	// tool or the command line.
	for _, reg := range []struct {
		name string
		in   map[string]any
	}{
		{"mcp__rubi__register", map[string]any{"nodes": []any{}}},
		{"mcp__plugin_rubi_rubi__memory", map[string]any{"action": "handoff", "text": "## Goal\nx"}},
		{"mcp__rubi__memory", map[string]any{"action": "save", "text": "a debugging session"}},
		{"Bash", map[string]any{"command": "rubi register --type gotcha --title x"}},
		{"Bash", map[string]any{"command": "rubi memory save notes.md"}},
	} {
		prompt()
		explore(12)
		p.hook(PostToolUse, p.toolPayload("claude-code/PostToolUse.json", reg.name, reg.in, ""))
		if a := stop(false); a.raw != "" {
			t.Errorf("registered with %s: blocked %q", reg.name, a.raw)
		}
	}

	// Codex's shell tool counts the same way.
	prompt()
	for range 10 {
		p.hook(PostToolUse, p.toolPayload("codex/PostToolUse.json", "Bash", map[string]any{"command": "sed -n 1,80p internal/discount/coupon.go"}, ""))
	}
	if a := p.hook(Stop, p.payload("codex/Stop.json", map[string]any{"session_id": "sess-1"})); a.Decision != "block" {
		t.Errorf("codex: 10 sed reads: want a block, got %q", a.raw)
	}
}

func TestReadGuardDeniesOncePerFileAndSession(t *testing.T) {
	p := newProject(t)
	big := filepath.Join(p.root, "internal", "generated.go")
	os.WriteFile(big, []byte(strings.Repeat("var x = 1\n", 5000)), 0o644)
	wide := filepath.Join(p.root, "data.json")
	os.WriteFile(wide, []byte(strings.Repeat("y", 100_000)), 0o644)
	read := func(session string, in map[string]any) hookAnswer {
		return p.hook(PreToolUse, p.payload("claude-code/PreToolUse.json", map[string]any{"tool_name": "Read", "tool_input": in, "session_id": session}))
	}

	a := read("s1", map[string]any{"file_path": big})
	if a.Specific.Permission != "deny" || !strings.Contains(a.Specific.Why, "internal/generated.go") ||
		!strings.Contains(a.Specific.Why, "5000 lines") || !strings.Contains(a.Specific.Why, "Grep") || !strings.Contains(a.Specific.Why, "offset") {
		t.Fatalf("first full read of 5,000 lines: want a deny naming the file, got %q", a.raw)
	}
	if a := read("s1", map[string]any{"file_path": big}); a.raw != "" {
		t.Errorf("second full read in the session: denied again %q", a.raw)
	}
	if a := read("s2", map[string]any{"file_path": big}); a.Specific.Permission != "deny" {
		t.Errorf("another session: want a deny, got %q", a.raw)
	}
	if a := read("s3", map[string]any{"file_path": big, "offset": 100, "limit": 50}); a.raw != "" {
		t.Errorf("a read with offset and limit: denied %q", a.raw)
	}
	if a := read("s3", map[string]any{"file_path": "internal/discount/coupon.go"}); a.raw != "" {
		t.Errorf("a small file (relative path): denied %q", a.raw)
	}
	if a := read("s3", map[string]any{"file_path": wide}); a.Specific.Permission != "deny" || !strings.Contains(a.Specific.Why, "98 KB") {
		t.Errorf("one 100 KB line: want a deny by size, got %q", a.raw)
	}
	if a := read("s3", map[string]any{"file_path": filepath.Join(p.root, "missing.go")}); a.raw != "" {
		t.Errorf("a missing file: answered %q", a.raw)
	}
	// A shell that cats the whole file (Codex reads that way).
	a = p.hook(PreToolUse, p.payload("codex/PreToolUse.json", map[string]any{"tool_input": map[string]any{"command": "cat internal/generated.go"}, "session_id": "s4"}))
	if a.Specific.Permission != "deny" || !strings.Contains(a.Specific.Why, "grep -n") || !strings.Contains(a.Specific.Why, "sed -n") {
		t.Errorf("codex cat of a huge file: want a deny pointing to grep and sed, got %q", a.raw)
	}
	a = p.hook(PreToolUse, p.payload("codex/PreToolUse.json", map[string]any{"tool_input": map[string]any{"command": "cat internal/generated.go | head -20"}, "session_id": "s4"}))
	if a.raw != "" {
		t.Errorf("cat into head: denied %q", a.raw)
	}
	// The limits come from rubi.hcl.
	os.WriteFile(filepath.Join(p.root, "rubi.hcl"), []byte("hooks {\n  read_guard_lines = 10000\n}\n"), 0o644)
	if a := read("s5", map[string]any{"file_path": big}); a.raw != "" {
		t.Errorf("5,000 lines under a 10,000-line limit: denied %q", a.raw)
	}
}

func TestSessionStateIsKeptInsideRubiAndRemovedAtTheEnd(t *testing.T) {
	p := newProject(t)
	big := filepath.Join(p.root, "big.txt")
	os.WriteFile(big, []byte(strings.Repeat("line\n", 1000)), 0o644)
	deny := func(session string) hookAnswer {
		return p.hook(PreToolUse, p.payload("claude-code/PreToolUse.json", map[string]any{"tool_name": "Read", "tool_input": map[string]any{"file_path": big}, "session_id": session}))
	}
	deny("sess-9")
	state := filepath.Join(p.root, ".rubi", "sessions", "state", "sess-9.json")
	if _, err := os.Stat(state); err != nil {
		t.Fatalf("no state file: %v", err)
	}
	p.hook(SessionEnd, p.payload("claude-code/SessionEnd.json", map[string]any{"session_id": "sess-9"}))
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Errorf("the state outlived SessionEnd: %v", err)
	}
	// A session id that would leave the folder is refused: no state, and
	// the guard says nothing rather than deny forever.
	for _, bad := range []string{"../../escape", "a/b", ".hidden", ""} {
		if a := deny(bad); a.raw != "" {
			t.Errorf("session id %q: answered %q", bad, a.raw)
		}
	}
	filepath.WalkDir(filepath.Dir(p.root), func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(path, "escape") {
			t.Errorf("a file outside .rubi/sessions/state: %s", path)
		}
		return nil
	})
}

func TestPreCompactWritesAnObjectiveRecord(t *testing.T) {
	p := newProject(t)
	tr := filepath.Join(t.TempDir(), "s.jsonl")
	lines := []string{
		`{"type":"user","message":{"role":"user","content":"an old request, before the last compaction"}}`,
		`{"type":"assistant","message":{"id":"m0","content":[{"type":"tool_use","id":"t0","name":"Edit","input":{"file_path":"` + p.root + `/old.go"}}]}}`,
		`{"type":"system","subtype":"compact_boundary","content":"Conversation compacted"}`,
		`{"type":"user","isCompactSummary":true,"message":{"role":"user","content":"This session is being continued from a previous conversation…"}}`,
		`{"type":"user","message":{"role":"user","content":"fix the coupon applied twice"}}`,
		`{"type":"assistant","message":{"id":"m1","content":[{"type":"text","text":"Looking."},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"go test ./internal/..."}}]}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"FAIL coupon_test.go"}]}}`,
		`{"type":"assistant","message":{"id":"m2","content":[{"type":"tool_use","id":"t2","name":"Edit","input":{"file_path":"` + p.root + `/internal/discount/coupon.go","old_string":"a","new_string":"b"}}]}}`,
		`{"type":"assistant","message":{"id":"m3","content":[{"type":"tool_use","id":"t3","name":"Write","input":{"file_path":"` + p.root + `/internal/discount/coupon_test.go","content":"package discount"}}]}}`,
		`{"type":"user","isMeta":true,"message":{"role":"user","content":"<local-command-caveat>"}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"now   run the\ntests again"}]}}`,
		`{"type":"assistant","message":{"id":"m4","content":[{"type":"tool_use","id":"t4","name":"Edit","input":{"file_path":"` + p.root + `/internal/discount/coupon.go"}}]}}`,
		`{"type":"user","message":{"role":"user","content":"cut in the mid`,
	}
	os.WriteFile(tr, []byte(strings.Join(lines, "\n")), 0o644)
	a := p.hook(PreCompact, p.payload("claude-code/PreCompact.json", map[string]any{"transcript_path": tr, "session_id": "6f49d45b-8c27"}))
	if a.raw != "" {
		t.Errorf("PreCompact printed %q", a.raw)
	}
	chunks, err := memory.Open(p.root).List(memory.Filter{Session: "6f49d45b-8c27"})
	if err != nil || len(chunks) != 1 {
		t.Fatalf("records: %v %v (log %q)", chunks, err, p.logText())
	}
	c, _ := memory.Open(p.root).Get(chunks[0].ID)
	data, _ := os.ReadFile(c.Path)
	rec := string(data)
	if c.Type != memory.TypeSnapshot || strings.Join(c.Tags, ",") != "pre-compaction,manual" ||
		c.Summary != "Before compaction: 2 requests, 2 files changed, 1 command run" {
		t.Errorf("chunk %+v", c)
	}
	if strings.Join(c.Entities.Files, ",") != "internal/discount/coupon.go,internal/discount/coupon_test.go" {
		t.Errorf("the record's files are not its entities: %+v", c.Entities)
	}
	for _, want := range []string{
		"## Requests\n\n- fix the coupon applied twice\n- now run the tests again\n",
		"## Files changed\n\n- [[internal/discount/coupon.go]]\n- [[internal/discount/coupon_test.go]]\n",
		"## Commands\n\n- `go test ./internal/...`\n",
	} {
		if !strings.Contains(rec, want) {
			t.Errorf("the record lacks %q:\n%s", want, rec)
		}
	}
	for _, not := range []string{"an old request", "old.go", "being continued", "local-command-caveat", "FAIL coupon_test.go"} {
		if strings.Contains(rec, not) {
			t.Errorf("the record holds %q:\n%s", not, rec)
		}
	}
	// The same record again (nothing new) is kept once; it is searchable.
	p.hook(PreCompact, p.payload("claude-code/PreCompact.json", map[string]any{"transcript_path": tr, "session_id": "6f49d45b-8c27"}))
	if all, _ := memory.Open(p.root).List(memory.Filter{}); len(all) != 1 {
		t.Errorf("the same compaction twice: %d records", len(all))
	}
	if res, err := memory.Open(p.root).Grep("applied twice", memory.GrepOptions{Filter: memory.Filter{Type: "snapshot"}}); err != nil || res.Total != 1 {
		t.Errorf("grep the record: %+v %v", res, err)
	}
}

// rubi.hcl's limit on a chunk's size holds for the records too: one over
// it is not saved, and the log says why.
func TestPreCompactKeepsTheSizeLimit(t *testing.T) {
	p := newProject(t)
	os.WriteFile(filepath.Join(p.root, "rubi.hcl"), []byte("memory {\n  max_chunk_size = 64\n}\n"), 0o644)
	p.hook(PreCompact, p.payload("claude-code/PreCompact.json", map[string]any{"transcript_path": rubitest.ClaudeSample}))
	if cs, _ := memory.Open(p.root).List(memory.Filter{}); len(cs) != 0 {
		c, _ := memory.Open(p.root).Get(cs[0].ID)
		t.Errorf("a record over max_chunk_size was saved: %d bytes", len(c.Content))
	}
	if log := p.logText(); !strings.Contains(log, "over the limit") {
		t.Errorf("hooks.log: %q", log)
	}
}

func TestPreCompactReadsTheRealSamples(t *testing.T) {
	p := newProject(t)
	p.hook(PreCompact, p.payload("claude-code/PreCompact.json", map[string]any{"transcript_path": rubitest.ClaudeSample}))
	p.hook(PreCompact, p.payload("claude-code/PreCompact.json", map[string]any{"transcript_path": rubitest.CodexSample, "session_id": "01a2279f-ca04"}))
	read := func(session string) string {
		cs, _ := memory.Open(p.root).List(memory.Filter{Session: session})
		if len(cs) != 1 {
			t.Fatalf("records of %s: %v (log %q)", session, cs, p.logText())
		}
		c, _ := memory.Open(p.root).Get(cs[0].ID)
		return c.Content
	}
	c := read("6f49d45b-8c27-4f32-8f21-90dcc2aea3b6")
	if !strings.Contains(c, `- TOOLCALL Bash {"command":"ls","description":"list files"}`) || !strings.Contains(c, "- `ls`") {
		t.Errorf("claude sample record:\n%s", c)
	}
	x := read("01a2279f-ca04")
	if !strings.Contains(x, `- TOOLCALL exec_command {"cmd":"ls"}`) || !strings.Contains(x, "- `ls`") || strings.Contains(x, "environment_context") {
		t.Errorf("codex sample record:\n%s", x)
	}
}
