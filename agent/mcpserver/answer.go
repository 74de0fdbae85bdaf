package mcpserver

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/tokens"
)

// A tool result travels as two copies, the text and the structured
// content, and the client decides which one the model reads: Claude Code
// and Codex forward the structured content alone, Gemini CLI the text
// alone (found with the real CLIs against the mock API, e2e/budget_test.go).
// So the structured content is the same compact answer as the text, not a
// richer second copy, and the budget a context call names holds for the
// larger of the two.

// contextOutput is context's structured content without explain: each
// item as the text shows it, and the text's footer.
type contextOutput struct {
	// OpenFirst are the units to open first across the files, as the
	// text lists them: "path:line-end Name — why".
	OpenFirst []string      `json:"open_first,omitempty"`
	Items     []contextItem `json:"items"`
	Footer    string        `json:"footer"`
	// Note says the index is being built or was refreshed in part.
	Note string `json:"note,omitempty"`
}

// contextItem is one item: a file by its path, anything else by the id
// read (or map, for a module) takes; the line ranges to open, the
// strongest reason it is there, and its text.
type contextItem struct {
	Path  string   `json:"path,omitempty"`
	ID    string   `json:"id,omitempty"`
	Lines []string `json:"lines,omitempty"`
	Why   string   `json:"why,omitempty"`
	Text  string   `json:"text"`
}

// explainOutput is context's structured content with explain: the whole
// result, every ranker's score and every reason.
type explainOutput struct {
	*answer.Result
	Note string `json:"note,omitempty"`
}

// delivered estimates the tokens a copy of a result costs the model:
// text as a JSON string (clients send it inside JSON, its line breaks and
// quotes escaped), structured content as its JSON.
func delivered(v any) int {
	data, err := json.Marshal(v)
	if err != nil {
		return 0
	}
	return tokens.Estimate(string(data))
}

// contextResult renders res as a tool result whose larger copy fits the
// budget: items are dropped from the end (and counted as left out) until
// it does. Without explain each item keeps its strongest reason alone.
func (s *Server) contextResult(res *answer.Result, explain bool, note string) *mcp.CallToolResult {
	r := *res
	r.Items = append([]answer.Item(nil), res.Items...)
	if !explain {
		for i := range r.Items {
			if len(r.Items[i].Reasons) > 1 {
				r.Items[i].Reasons = r.Items[i].Reasons[:1]
			}
		}
	}
	for {
		text, structured := s.renderContext(&r, explain, note)
		if n := max(delivered(text), delivered(structured)); n <= r.Budget || len(r.Items) == 0 {
			return mcp.NewToolResultStructured(structured, text)
		}
		r.Items = r.Items[:len(r.Items)-1]
		r.Omitted++
	}
}

// renderContext is r's text and structured content; r.Tokens becomes
// what the text's items cost.
func (s *Server) renderContext(r *answer.Result, explain bool, note string) (string, any) {
	r.Tokens = 0
	text := r.Text(explain)
	body, _ := splitFooter(text)
	r.Tokens = tokens.Estimate(body)
	text = r.Text(explain)
	// The map is read's: point to it (the vault has none).
	hint := "; read module:NAME zooms into a module"
	if s.opts.VaultOnly {
		hint = ""
	}
	text = strings.Replace(text, answer.MapHint, hint, 1)
	_, footer := splitFooter(text)
	if note != "" {
		text += "\n" + note + "\n"
	}
	if explain {
		return text, explainOutput{Result: r, Note: note}
	}
	out := contextOutput{Items: make([]contextItem, len(r.Items)), Footer: strings.TrimSpace(footer), Note: note}
	for _, u := range r.OpenFirst {
		out.OpenFirst = append(out.OpenFirst, answer.OpenFirstLine(u))
	}
	for i, it := range r.Items {
		c := contextItem{Text: it.Text}
		if it.Kind == core.DocFile {
			c.Path = it.Path
		} else {
			c.ID = strings.TrimPrefix(it.ID, core.DocNode+":")
		}
		for _, u := range it.Units {
			if u.EndLine > u.Line {
				c.Lines = append(c.Lines, fmt.Sprintf("%d-%d", u.Line, u.EndLine))
			} else {
				c.Lines = append(c.Lines, fmt.Sprint(u.Line))
			}
		}
		if len(it.Reasons) > 0 {
			c.Why = it.Reasons[0]
		}
		out.Items[i] = c
	}
	return text, out
}

// splitFooter cuts the compact form's last line, its footer, from the
// items above it.
func splitFooter(text string) (body, footer string) {
	i := strings.LastIndexByte(strings.TrimSuffix(text, "\n"), '\n')
	return text[:i+1], text[i+1:]
}
