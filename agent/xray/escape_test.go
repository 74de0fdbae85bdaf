package xray

import (
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/messages"
)

// A session log names its project, its session and its tools as whoever
// wrote it chose: none reaches the terminal with its escapes raw, nor
// breaks a line of the report.
func TestTextEscapesWhatTheLogsName(t *testing.T) {
	evil := "x\x1b]52;c;ZXZpbA==\x07\x1b[2J\nforged line"
	rep := &Report{
		Project: evil,
		Tools:   []ToolWeight{{Tool: "mcp__" + evil, Outputs: 2, Tokens: 900, Share: 0.5}},
		Top:     []SessionSummary{{ID: "s-" + evil, Project: evil, Calls: 3, Peak: 1000}},
	}
	var b strings.Builder
	WriteText(&b, rep, TextOptions{Lang: messages.English})
	out := b.String()
	if strings.ContainsAny(out, "\x1b\x07") || strings.Contains(out, "\nforged line") || !strings.Contains(out, `x\x1b]52;c;ZXZpbA==\x07\x1b[2J\nforged line`) {
		t.Errorf("the report:\n%q", out)
	}
}
