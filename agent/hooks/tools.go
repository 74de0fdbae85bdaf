package hooks

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rubi-dev/rubi/agent/transcript"
	"github.com/rubi-dev/rubi/core/messages"
)

// postToolUse counts the tool call for the harvest, reads the meter, and
// nudges an agent that wrote its own memory file toward rubi, once per
// session (nudge.go).
func (h *handler) postToolUse(ctx context.Context) (Output, error) {
	t := h.in.tool()
	kind := classify(h.in.ToolName, t)
	mem := h.memoryWrite(t)
	var warn, nudge string
	_, err := h.updateState(ctx, func(st *sessionState) {
		switch kind {
		case toolExplore:
			st.Explored++
		case toolRegister:
			st.Registered++
		}
		warn = h.meter(st)
		if mem != "" && !st.Nudged {
			st.Nudged = true
			nudge = h.lang.Format(messages.HookNudge, mem)
		}
	})
	if errors.Is(err, errNoSession) {
		err = nil
	}
	return Output{Context: joinParts(nudge, warn)}, err
}

// meter reads the session's context size from its transcript and returns
// the warning to give, once per crossing of the warning share of the
// compaction window. The window is CLAUDE_CODE_AUTO_COMPACT_WINDOW when
// the agent runs with one (Claude Code compacts there), else
// hooks.compact_window.
func (h *handler) meter(st *sessionState) string {
	if h.in.TranscriptPath == "" || h.cfg.Hooks.WarnPercent <= 0 {
		return ""
	}
	rec, ok, err := transcript.LastCall(h.in.TranscriptPath)
	if err != nil || !ok {
		// A new session's first prompt comes before its transcript is
		// written (Claude Code 2.1.328): nothing to measure yet, no error.
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			logError(h.dataDir(), h.event, fmt.Errorf("meter: %w", err))
		}
		return ""
	}
	window := int64(h.cfg.Hooks.CompactWindow)
	if v, err := strconv.ParseInt(strings.TrimSpace(h.env.getenv("CLAUDE_CODE_AUTO_COMPACT_WINDOW")), 10, 64); err == nil && v > 0 {
		window = v
	}
	if window <= 0 {
		return ""
	}
	size := rec.Usage.Context()
	st.Context = size
	threshold := window * int64(h.cfg.Hooks.WarnPercent) / 100
	if size < threshold {
		st.Warned = false
		return ""
	}
	if st.Warned {
		return ""
	}
	st.Warned = true
	return h.lang.Format(messages.HookMeter, thousands(size), size*100/window, thousands(window))
}

// thousands writes n with a k suffix past 10,000 (121k).
func thousands(n int64) string {
	if n >= 10_000 {
		return strconv.FormatInt((n+500)/1000, 10) + "k"
	}
	return strconv.FormatInt(n, 10)
}

// stop is the harvest: when this turn explored a lot and registered
// nothing, the agent is kept going once with a request to register what
// it learned. A stop the hook already blocked (stop_hook_active) is never
// blocked again.
func (h *handler) stop(ctx context.Context) (Output, error) {
	least := h.cfg.Hooks.HarvestMin
	if h.in.StopHookActive || least <= 0 {
		return Output{}, nil
	}
	var ask int
	_, err := h.updateState(ctx, func(st *sessionState) {
		if st.Explored >= least && st.Registered == 0 && !st.Harvested {
			st.Harvested = true
			ask = st.Explored
		}
	})
	if errors.Is(err, errNoSession) {
		return Output{}, nil
	}
	if err != nil || ask == 0 {
		return Output{}, err
	}
	return Output{Block: h.lang.Format(messages.HookHarvest, ask)}, nil
}

// toolKind is what a tool call means to the harvest.
type toolKind int

const (
	toolOther toolKind = iota
	toolExplore
	toolRegister
)

// exploreTools are the tools that read or search the project.
var exploreTools = map[string]bool{
	"Read": true, "Grep": true, "Glob": true, "LS": true, "NotebookRead": true,
	"read_file": true, "grep": true, "glob": true, "list_directory": true, "search_file_content": true,
	"grep_search": true, "read_many_files": true, // Gemini CLI 0.61's
}

// exploreCommands are the shell commands that read or search.
var exploreCommands = map[string]bool{
	"cat": true, "head": true, "tail": true, "less": true, "more": true, "grep": true, "egrep": true,
	"rg": true, "ag": true, "ack": true, "find": true, "fd": true, "ls": true, "tree": true, "sed": true,
	"awk": true, "wc": true, "nl": true, "bat": true,
}

// gitExplore are the git subcommands that read.
var gitExplore = map[string]bool{"grep": true, "log": true, "show": true, "blame": true, "diff": true, "ls-files": true}

// classify tells whether a tool call explored the project, registered
// knowledge, or neither. rubi's own MCP tools count too: whatever the
// agent's namespace (mcp__rubi__register, mcp__plugin_rubi_rubi__context),
// the server part names rubi and the last part names the tool.
func classify(name string, in toolFields) toolKind {
	if exploreTools[name] {
		return toolExplore
	}
	if after, ok := strings.CutPrefix(name, "mcp_rubi_"); ok { // Gemini CLI: mcp_<server>_<tool>
		name = "mcp__rubi__" + after
	}
	if strings.HasPrefix(name, "mcp__") && strings.Contains(strings.ToLower(name), "rubi") {
		switch name[strings.LastIndex(name, "__")+2:] {
		case "register":
			return toolRegister
		case "context", "map", "read":
			return toolExplore
		case "memory":
			switch in.Action {
			case "save", "handoff":
				return toolRegister
			case "grep", "list", "last":
				return toolExplore
			}
		}
		return toolOther
	}
	if name == "Bash" || name == "shell" || name == "exec_command" || name == "run_shell_command" {
		return classifyCommand(in.command())
	}
	return toolOther
}

// classifyCommand reads a shell command line: its first command decides
// (after cd … &&, environment assignments and sudo).
func classifyCommand(line string) toolKind {
	for _, seg := range splitCommands(line) {
		f := strings.Fields(seg)
		for len(f) > 0 && (strings.Contains(f[0], "=") || f[0] == "sudo" || f[0] == "env") {
			f = f[1:]
		}
		if len(f) == 0 || f[0] == "cd" {
			continue
		}
		cmd := filepath.Base(f[0])
		switch {
		case cmd == "rubi" && len(f) > 1 && (f[1] == "register" || f[1] == "handoff" || f[1] == "summary" || f[1] == "memory" && len(f) > 2 && f[2] == "save"):
			return toolRegister
		case cmd == "rubi" && len(f) > 1 && (f[1] == "context" || f[1] == "map" || f[1] == "read"):
			return toolExplore
		case exploreCommands[cmd]:
			return toolExplore
		case cmd == "git" && len(f) > 1 && gitExplore[f[1]]:
			return toolExplore
		}
		return toolOther
	}
	return toolOther
}

// splitCommands splits a command line at &&, || and ; (not inside
// quotes; good enough to skip a leading cd).
func splitCommands(line string) []string {
	var out []string
	var quote byte
	start := 0
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == ';':
			out = append(out, line[start:i])
			start = i + 1
		case (c == '&' || c == '|') && i+1 < len(line) && line[i+1] == c:
			out = append(out, line[start:i])
			start = i + 2
			i++
		}
	}
	return append(out, line[start:])
}
