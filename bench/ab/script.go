package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/rubi-dev/rubi/internal/mockapi"
)

// scripted is the model of a mock run: before each session the harness
// hands it the task's steps (those with rubi's tools left out in the arm
// without rubi), and it plays them in order against whichever API the
// agent speaks. The step is chosen by how many tool results the request
// carries, so a denied or failed call advances the script like a
// successful one and the session's responses, and their usage, are known
// in advance; a request past the script gets the answer again.
type scripted struct {
	mu      sync.Mutex
	steps   []step
	project string
	served  int
}

// load sets the script of the next session and resets its count.
func (s *scripted) load(steps []step, project string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.steps, s.project, s.served = steps, project, 0
}

// answered returns how many requests the mock answered since load.
func (s *scripted) answered() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.served
}

// next returns the step for a request carrying results tool results.
func (s *scripted) next(results int) (step, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.served++
	if len(s.steps) == 0 {
		return step{Kind: "answer", Text: "No task loaded."}, s.project
	}
	return s.steps[min(results, len(s.steps)-1)], s.project
}

// forArm returns the steps a session of an arm plays: rubi's tools only
// where rubi is installed.
func forArm(steps []step, withRubi bool) []step {
	var out []step
	for _, st := range steps {
		if st.rubiOnly() && !withRubi {
			continue
		}
		out = append(out, st)
	}
	return out
}

// claude answers Claude Code (the Messages API): Read with the absolute
// path, grep through Bash, rubi's tools as Claude Code names an MCP
// server's (mcp__rubi__NAME).
func (s *scripted) claude(r mockapi.Request) mockapi.Reply {
	st, project := s.next(len(r.ToolResults()))
	rep := mockapi.Reply{Usage: st.Usage}
	switch st.Kind {
	case "read":
		rep.ToolName, rep.ToolInput = "Read", map[string]any{"file_path": filepath.Join(project, filepath.FromSlash(st.Path))}
	case "search":
		rep.ToolName, rep.ToolInput = "Bash", map[string]any{"command": grepCommand(st.Pattern), "description": "Search the tree"}
	case "context":
		rep.ToolName, rep.ToolInput = "mcp__rubi__context", map[string]any{"query": st.Query}
	case "register":
		rep.ToolName, rep.ToolInput = "mcp__rubi__register", registerInput(st.Note)
	default:
		rep.Text = st.Text
	}
	return rep
}

// codex answers Codex CLI (the Responses API): cat and grep through its
// shell tool, rubi's tools in the namespace Codex offers an MCP server's
// in (mcp__rubi).
func (s *scripted) codex(r mockapi.ResponsesRequest) mockapi.Reply {
	st, _ := s.next(len(r.Outputs()))
	rep := mockapi.Reply{Usage: st.Usage}
	switch st.Kind {
	case "read":
		rep.ToolName, rep.ToolInput = "exec_command", map[string]any{"cmd": "cat " + shellQuote(st.Path)}
	case "search":
		rep.ToolName, rep.ToolInput = "exec_command", map[string]any{"cmd": grepCommand(st.Pattern)}
	case "context":
		rep.ToolName, rep.ToolNamespace, rep.ToolInput = "context", "mcp__rubi", map[string]any{"query": st.Query}
	case "register":
		rep.ToolName, rep.ToolNamespace, rep.ToolInput = "register", "mcp__rubi", registerInput(st.Note)
	default:
		rep.Text = st.Text
	}
	return rep
}

func grepCommand(pattern string) string {
	return fmt.Sprintf("grep -rn -- %s . | head -50", shellQuote(pattern))
}

func registerInput(n note) map[string]any {
	node := map[string]any{"type": n.Type, "title": n.Title, "body": n.Body}
	if len(n.Files) > 0 {
		node["files"] = n.Files
	}
	return map[string]any{"nodes": []any{node}}
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
