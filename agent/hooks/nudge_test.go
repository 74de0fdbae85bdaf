package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/tokens"
)

// The payloads of each agent's file-writing tools (testdata: Claude Code's
// Write, Edit and MultiEdit, Codex's apply_patch, Gemini CLI's write_file,
// replace and save_memory) and the event each agent names.
var memoryWrites = []struct {
	event, sample, file string
}{
	{PostToolUse, "claude-code/PostToolUse.Write.json", "MEMORY.md"},
	{PostToolUse, "claude-code/PostToolUse.Edit.json", "CLAUDE.md"},
	{PostToolUse, "codex/PostToolUse.apply_patch.json", "AGENTS.md"},
	{"AfterTool", "gemini-cli/AfterTool.write_file.json", "GEMINI.md"},
	{"AfterTool", "gemini-cli/AfterTool.save_memory.json", "GEMINI.md"},
}

// nudgeOf runs the post-tool hook of sample in session and returns the
// context it injected.
func (p *project) nudgeOf(event, sample, session string, set map[string]any) string {
	p.t.Helper()
	fields := map[string]any{"session_id": session}
	for k, v := range set {
		fields[k] = v
	}
	a := p.hook(event, p.payload(sample, fields))
	if a.raw != "" && a.Specific.Event != event {
		p.t.Errorf("%s: answered for event %q: %s", sample, a.Specific.Event, a.raw)
	}
	return a.Specific.Context
}

func TestAMemoryWriteIsNudgedOncePerSession(t *testing.T) {
	p := newProject(t)
	for i, w := range memoryWrites {
		session := "nudge-" + string(rune('a'+i))
		got := p.nudgeOf(w.event, w.sample, session, nil)
		for _, want := range []string{"rubi: " + w.file + " is your own memory", "register tool", "once per session"} {
			if !strings.Contains(got, want) {
				t.Errorf("%s: the nudge lacks %q: %q", w.sample, want, got)
			}
		}
		if n := tokens.Estimate(got); n > 60 {
			t.Errorf("%s: the nudge costs %d tokens; keep it under 60: %q", w.sample, n, got)
		}
		if again := p.nudgeOf(w.event, w.sample, session, nil); again != "" {
			t.Errorf("%s: the second memory write of the session was nudged again: %q", w.sample, again)
		}
		if other := p.nudgeOf(w.event, w.sample, session+"-2", nil); !strings.Contains(other, "is your own memory") {
			t.Errorf("%s: another session's first memory write was not nudged: %q", w.sample, other)
		}
	}
	// Once per session means once whatever the file: the write of another
	// memory file in the same session says nothing.
	p.nudgeOf(PostToolUse, "claude-code/PostToolUse.Write.json", "mixed", nil)
	if got := p.nudgeOf(PostToolUse, "claude-code/PostToolUse.Edit.json", "mixed", nil); got != "" {
		t.Errorf("a second memory file in the same session was nudged: %q", got)
	}
	if log := p.logText(); log != "" {
		t.Errorf("hooks.log:\n%s", log)
	}
}

func TestOtherToolCallsAreNotNudged(t *testing.T) {
	p := newProject(t)
	calls := []struct {
		event, sample string
		set           map[string]any
	}{
		{PostToolUse, "claude-code/PostToolUse.MultiEdit.json", nil},
		{PostToolUse, "claude-code/PostToolUse.json", nil}, // Bash ls
		{"AfterTool", "gemini-cli/AfterTool.replace.json", nil},
		{"AfterTool", "gemini-cli/AfterTool.json", nil}, // read_file
		{PostToolUse, "codex/PostToolUse.json", nil},    // Bash ls
		{PostToolUse, "codex/PostToolUse.apply_patch.json", map[string]any{"tool_input": map[string]any{
			"command": "*** Begin Patch\n*** Add File: docs/AGENTS.md.txt\n+x\n*** Delete File: AGENTS.md\n*** Update File: src/memory/MEMORY.go\n@@\n-a\n+b\n*** End Patch\n"}}},
		// Reading a memory file, or writing one from the shell, is not the
		// agent's edit tool keeping a fact.
		{PostToolUse, "claude-code/PostToolUse.json", map[string]any{"tool_name": "Read", "tool_input": map[string]any{"file_path": "CLAUDE.md"}}},
		{PostToolUse, "claude-code/PostToolUse.json", map[string]any{"tool_input": map[string]any{"command": "echo '- use cents' >> CLAUDE.md"}}},
	}
	for _, path := range []string{
		"README.md", "docs/memory.md", ".rubi/knowledge/decision-money-in-cents.md", "CLAUDE.md.bak", "CLAUDE.txt",
		"memory/MEMORY.md.orig", "notes/projects/shop/memory/MEMORY.md", "/home/dev/.claude/projects/-home-dev-project/notes.md",
		"/home/dev/.claude/settings.json", "/home/dev/.codex/config.toml", "/home/dev/.codex/memories.md",
	} {
		calls = append(calls, struct {
			event, sample string
			set           map[string]any
		}{PostToolUse, "claude-code/PostToolUse.Write.json", map[string]any{"tool_input": map[string]any{"file_path": path, "content": "x"}}})
	}
	for i, c := range calls {
		if got := p.nudgeOf(c.event, c.sample, "other-"+string(rune('a'+i)), c.set); got != "" {
			t.Errorf("%s %v: nudged %q", c.sample, c.set, got)
		}
	}
}

// Paths are read as the agent wrote them: relative to the payload's cwd,
// with ~/, Windows separators and drive letters, any case; a linked
// ~/.claude is recognised through its target.
func TestMemoryPathsAsAgentsWriteThem(t *testing.T) {
	p := newProject(t)
	home := t.TempDir()
	p.vars["HOME"] = home
	dotfiles := filepath.Join(home, "dotfiles", "claude")
	if err := os.MkdirAll(filepath.Join(dotfiles, "projects", "-home-dev-shop", "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dotfiles, filepath.Join(home, ".claude")); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(home, "other")
	if err := os.MkdirAll(filepath.Join(other, "projects", "p", "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path string
		env  map[string]string
		want string
	}{
		{path: "CLAUDE.md", want: "CLAUDE.md"},
		{path: "./sub/../CLAUDE.local.md", want: "CLAUDE.local.md"},
		{path: "services/api/AGENTS.md", want: "AGENTS.md"},
		{path: "AGENTS.override.md", want: "AGENTS.override.md"},
		{path: "claude.md", want: "CLAUDE.md"},
		{path: `..\docs\GEMINI.md`, want: "GEMINI.md"},
		{path: `C:\Users\dev\.claude\projects\C--Users-dev-shop\memory\MEMORY.md`, want: "MEMORY.md"},
		{path: `C:/Users/dev/.claude/projects/C--Users-dev-shop/memory/debugging.md`, want: "debugging.md"},
		{path: "~/.claude/projects/-home-dev-shop/memory/MEMORY.md", want: "MEMORY.md"},
		{path: "~/.claude/CLAUDE.md", want: "CLAUDE.md"},
		{path: ".claude/rules/testing.md", want: "testing.md"},
		{path: "/home/dev/.codex/memories/conventional_commits.md", want: "conventional_commits.md"},
		{path: "/srv/codex-home/memories/MEMORY.md", env: map[string]string{"CODEX_HOME": "/srv/codex-home/"}, want: "MEMORY.md"},
		{path: "/srv/claude-cfg/projects/p/memory/MEMORY.md", env: map[string]string{"CLAUDE_CONFIG_DIR": "/srv/claude-cfg"}, want: "MEMORY.md"},
		{path: "/srv/claude-cfg/projects/p/memory/MEMORY.md"},
		// Through the link's target.
		{path: filepath.Join(dotfiles, "projects", "-home-dev-shop", "memory", "MEMORY.md"), want: "MEMORY.md"},
		{path: filepath.Join(other, "projects", "p", "memory", "MEMORY.md")},
	}
	for i, c := range cases {
		for k := range p.vars {
			if k != "HOME" {
				delete(p.vars, k)
			}
		}
		for k, v := range c.env {
			p.vars[k] = v
		}
		got := p.nudgeOf(PostToolUse, "claude-code/PostToolUse.Write.json", "path-"+string(rune('a'+i)),
			map[string]any{"tool_input": map[string]any{"file_path": c.path, "content": "x"}})
		switch {
		case c.want == "" && got != "":
			t.Errorf("%s %v: nudged %q", c.path, c.env, got)
		case c.want != "" && !strings.HasPrefix(got, "rubi: "+c.want+" is your own memory"):
			t.Errorf("%s %v: want a nudge about %s, got %q", c.path, c.env, c.want, got)
		}
	}
}

// A PostToolUse that writes no memory file pays for the check a few
// string comparisons, against the milliseconds of the hook process.
func BenchmarkMemoryCheckOfOtherCalls(b *testing.B) {
	for _, c := range []struct{ tool, input string }{
		{"Bash", `{"command":"go test ./..."}`},
		{"Write", `{"file_path":"/home/dev/project/internal/cart/cart.go","content":"package cart\n"}`},
		{"Edit", `{"file_path":"/home/dev/project/docs/guide.md","old_string":"a","new_string":"b"}`},
	} {
		b.Run(c.tool, func(b *testing.B) {
			h := &handler{env: &Env{Getenv: func(string) string { return "" }}, in: &Input{ToolName: c.tool, ToolInput: []byte(c.input), CWD: "/home/dev/project"}}
			t := h.in.tool()
			for b.Loop() {
				if h.memoryWrite(t) != "" {
					b.Fatal("nudged")
				}
			}
		})
	}
}
