package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/memory"
)

// Gemini CLI 0.61.0's payloads (captured from the real CLI run offline,
// testdata/gemini-cli) are answered by rubi's handlers under Gemini's
// event names: context where Gemini reads hookSpecificOutput's
// additionalContext, and the read guard's refusal as the top-level
// decision Gemini's BeforeTool reads.
func TestGeminiPayloadsAreAnswered(t *testing.T) {
	p := newProject(t, couponNote, ruleNote)
	transcript := filepath.Join(testdata, "gemini-cli", "transcript.jsonl")

	a := p.hook("SessionStart", p.payload("gemini-cli/SessionStart.json", nil))
	if !strings.Contains(a.Specific.Context, "# Map of") || !strings.Contains(a.Specific.Context, "Money is stored in cents") || a.Specific.Event != "SessionStart" {
		t.Errorf("SessionStart: %q", a.raw)
	}
	a = p.hook("BeforeAgent", p.payload("gemini-cli/BeforeAgent.json", map[string]any{"prompt": "why is the coupon applied twice?"}))
	if !strings.Contains(a.Specific.Context, "Coupon applied twice") || a.Specific.Event != "BeforeAgent" {
		t.Errorf("BeforeAgent recall: %q", a.raw)
	}
	if a := p.hook("BeforeAgent", p.payload("gemini-cli/BeforeAgent.json", nil)); a.raw != "" {
		t.Errorf("BeforeAgent with nothing to recall answered %q", a.raw)
	}

	// The read guard: read_file of a huge file, then the same again.
	big := strings.Repeat("x := 1\n", 2000)
	if err := os.WriteFile(filepath.Join(p.root, "big.go"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	read := p.payload("gemini-cli/BeforeTool.json", map[string]any{"tool_input": map[string]any{"file_path": "big.go"}})
	a = p.hook("BeforeTool", read)
	if a.Decision != "deny" || !strings.Contains(a.Reason, "big.go is large") || a.Specific.Permission != "" {
		t.Errorf("BeforeTool read_file big.go: %q", a.raw)
	}
	if a := p.hook("BeforeTool", read); a.raw != "" {
		t.Errorf("the second read_file of big.go answered %q", a.raw)
	}
	cat := p.payload("gemini-cli/BeforeTool.json", map[string]any{"tool_name": "run_shell_command", "tool_input": map[string]any{"command": "cat big.go", "description": "show it"}, "session_id": "g3"})
	if a := p.hook("BeforeTool", cat); a.Decision != "deny" || !strings.Contains(a.Reason, "sed -n") {
		t.Errorf("BeforeTool run_shell_command cat big.go: %q", a.raw)
	}
	if a := p.hook("BeforeTool", p.payload("gemini-cli/BeforeTool.json", nil)); a.raw != "" {
		t.Errorf("BeforeTool read_file main.go (small) answered %q", a.raw)
	}

	// Tool calls count for the harvest; Gemini's own transcript is not
	// one the meter reads, which is no error.
	for range 10 {
		if a := p.hook("AfterTool", p.payload("gemini-cli/AfterTool.json", map[string]any{"transcript_path": transcript})); a.raw != "" {
			t.Errorf("AfterTool answered %q", a.raw)
		}
	}
	a = p.hook("AfterAgent", p.payload("gemini-cli/AfterAgent.json", nil))
	if a.Decision != "block" || !strings.Contains(a.Reason, "register") {
		t.Errorf("AfterAgent after 10 reads: %q", a.raw)
	}
	if a := p.hook("AfterAgent", p.payload("gemini-cli/AfterAgent.json", map[string]any{"stop_hook_active": true})); a.raw != "" {
		t.Errorf("AfterAgent while the retry runs answered %q", a.raw)
	}
	p.hook("PreCompress", p.payload("gemini-cli/PreCompress.json", map[string]any{"transcript_path": transcript}))
	p.hook("SessionEnd", p.payload("gemini-cli/SessionEnd.json", nil))
	if log := p.logText(); log != "" {
		t.Errorf("hooks.log:\n%s", log)
	}
}

// PreCompress writes the record from Gemini CLI's own chat file: the
// user's requests (not the session context Gemini sends first, nor tool
// results), the files written and the commands run.
func TestGeminiPreCompressRecord(t *testing.T) {
	p := newProject(t)
	p.hook("PreCompress", p.payload("gemini-cli/PreCompress.json", map[string]any{"transcript_path": filepath.Join(testdata, "gemini-cli", "transcript.jsonl")}))
	cs, _ := memory.Open(p.root).List(memory.Filter{Session: "10c7f95c-4cd8-4572-ad9f-153bade36780"})
	if len(cs) != 1 {
		t.Fatalf("records: %v (log: %s)", cs, p.logText())
	}
	c, _ := memory.Open(p.root).Get(cs[0].ID)
	if rec := c.Content; !strings.Contains(rec, "- read main.go and say done") || strings.Contains(rec, "session_context") || strings.Contains(rec, "package main") {
		t.Errorf("record:\n%s", rec)
	}
}

// Gemini CLI's read_file takes a range as start_line and end_line: a
// ranged read is never refused. rubi's tools reached through Gemini
// (mcp_rubi_register) count as registering for the harvest.
func TestGeminiToolNames(t *testing.T) {
	p := newProject(t)
	os.WriteFile(filepath.Join(p.root, "big.go"), []byte(strings.Repeat("x := 1\n", 2000)), 0o644)
	ranged := p.payload("gemini-cli/BeforeTool.json", map[string]any{"tool_input": map[string]any{"file_path": "big.go", "start_line": 1, "end_line": 200}})
	if a := p.hook("BeforeTool", ranged); a.raw != "" {
		t.Errorf("a ranged read_file was answered %q", a.raw)
	}
	after := func(tool string) string {
		return p.payload("gemini-cli/AfterTool.json", map[string]any{"tool_name": tool, "session_id": "g2"})
	}
	for range 12 {
		p.hook("AfterTool", after("grep_search"))
	}
	p.hook("AfterTool", after("mcp_rubi_register"))
	if a := p.hook("AfterAgent", p.payload("gemini-cli/AfterAgent.json", map[string]any{"session_id": "g2"})); a.raw != "" {
		t.Errorf("AfterAgent after a register answered %q", a.raw)
	}
}

// Headless Gemini CLI puts SessionStart's context before the prompt it
// hands BeforeAgent, in <hook_context> tags: recall reads only the user's
// words, so rubi's own critical notes in that context recall nothing.
func TestGeminiRecallIgnoresHookContext(t *testing.T) {
	p := newProject(t, couponNote, ruleNote)
	start := p.hook("SessionStart", p.payload("gemini-cli/SessionStart.json", nil))
	prompt := "<hook_context>" + start.Specific.Context + "</hook_context>\n\nWrite a haiku about autumn leaves."
	if a := p.hook("BeforeAgent", p.payload("gemini-cli/BeforeAgent.json", map[string]any{"prompt": prompt})); a.raw != "" {
		t.Errorf("BeforeAgent recalled from the injected context: %q", a.raw)
	}
	prompt = "<hook_context>" + start.Specific.Context + "</hook_context>\n\nwhy is the coupon applied twice?"
	if a := p.hook("BeforeAgent", p.payload("gemini-cli/BeforeAgent.json", map[string]any{"prompt": prompt})); !strings.Contains(a.Specific.Context, "Coupon applied twice") || strings.Contains(a.Specific.Context, "Money is stored in cents") {
		t.Errorf("BeforeAgent after the injected context: %q", a.raw)
	}
}

// The meter reads Gemini CLI's chat file: past hooks.warn_percent of the
// window, AfterTool asks once to register and save a handoff.
func TestGeminiMeter(t *testing.T) {
	p := newProject(t)
	chat := filepath.Join(t.TempDir(), "session.jsonl")
	os.WriteFile(chat, []byte(`{"sessionId":"g4","projectHash":"x","startTime":"2026-11-29T18:51:49.067Z","kind":"main"}
{"id":"m1","timestamp":"2026-11-29T18:53:12.137Z","type":"gemini","content":"","tokens":{"input":130000,"output":50,"cached":100000,"thoughts":0,"tool":0,"total":130050},"model":"gemini-2.5-pro"}
{"$set":{"lastUpdated":"2026-11-29T18:53:12.137Z"}}
`), 0o644)
	after := p.payload("gemini-cli/AfterTool.json", map[string]any{"transcript_path": chat, "session_id": "g4"})
	a := p.hook("AfterTool", after)
	if !strings.Contains(a.Specific.Context, "rubi meter: the context holds 130k tokens") || a.Specific.Event != "AfterTool" {
		t.Errorf("AfterTool at 130k tokens: %q", a.raw)
	}
	if a := p.hook("AfterTool", after); a.raw != "" {
		t.Errorf("the meter warned twice: %q", a.raw)
	}
	if log := p.logText(); log != "" {
		t.Errorf("hooks.log:\n%s", log)
	}
}
