package mockapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
)

// Messages is a local stand-in for the Anthropic Messages API: it answers
// POST /v1/messages with a streamed message (SSE) or a plain JSON one,
// decided by its script, and records every request. Token counting
// (/v1/messages/count_tokens, which Claude Code asks for large tool
// results) answers a quarter of the body's bytes.
type Messages struct {
	Recorder[Request]
	script func(Request) Reply
}

// NewMessages starts a Messages API on a loopback port; Close stops it.
func NewMessages(script func(Request) Reply) (*Messages, error) {
	m := &Messages{script: script}
	if err := m.serve(m); err != nil {
		return nil, err
	}
	return m, nil
}

// Request is one recorded request to /v1/messages.
type Request struct {
	Raw    []byte `json:"-"` // the body as sent
	Model  string `json:"model"`
	Stream bool   `json:"stream"`
	// SystemRaw is the system prompt: a string or text blocks.
	SystemRaw json.RawMessage `json:"system"`
	// Messages are the conversation so far, content blocks decoded.
	Messages []Message `json:"messages"`
	Tools    []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

// Message is one message of the conversation.
type Message struct {
	Role    string
	Content []Block
}

// UnmarshalJSON reads a message whose content is a string or blocks.
func (m *Message) UnmarshalJSON(b []byte) error {
	var raw struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	m.Role = raw.Role
	var s string
	if json.Unmarshal(raw.Content, &s) == nil {
		m.Content = []Block{{Type: "text", Text: s}}
		return nil
	}
	return json.Unmarshal(raw.Content, &m.Content)
}

// Block is a text, tool_use or tool_result block.
type Block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
	// Content of a tool_result: a string or a list of text blocks.
	Content json.RawMessage `json:"content,omitempty"`
}

// ResultText is a tool_result's content as one string.
func (c Block) ResultText() string {
	var s string
	if json.Unmarshal(c.Content, &s) == nil {
		return s
	}
	var blocks []Block
	json.Unmarshal(c.Content, &blocks)
	var b strings.Builder
	for _, x := range blocks {
		b.WriteString(x.Text)
	}
	return b.String()
}

// Prompt is what the user typed: the first user message's text, without
// the reminders Claude Code adds around it.
func (r Request) Prompt() string {
	for _, m := range r.Messages {
		if m.Role != "user" {
			continue
		}
		var b strings.Builder
		for _, c := range m.Content {
			if c.Type == "text" && !strings.HasPrefix(c.Text, "<system-reminder>") {
				b.WriteString(c.Text)
			}
		}
		return b.String()
	}
	return ""
}

// ToolResults are the request's tool_result blocks, in order.
func (r Request) ToolResults() []Block {
	var rs []Block
	for _, m := range r.Messages {
		for _, c := range m.Content {
			if c.Type == "tool_result" {
				rs = append(rs, c)
			}
		}
	}
	return rs
}

// HasTool reports whether the request offers the model a tool by name.
func (r Request) HasTool(name string) bool {
	for _, t := range r.Tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// ToolNames are the tools the request offers, sorted, without Claude
// Code's placeholder for deferred ones.
func (r Request) ToolNames() []string {
	var names []string
	for _, t := range r.Tools {
		if t.Name != "DeferredToolPlaceholder" {
			names = append(names, t.Name)
		}
	}
	slices.Sort(names)
	return names
}

// System is the request's system prompt as one string.
func (r Request) System() string {
	var s string
	if json.Unmarshal(r.SystemRaw, &s) == nil {
		return s
	}
	var blocks []Block
	json.Unmarshal(r.SystemRaw, &blocks)
	var b strings.Builder
	for _, c := range blocks {
		b.WriteString(c.Text)
		b.WriteString("\n")
	}
	return b.String()
}

// Text is everything the model reads in a request, decoded: the system
// prompt, every message's text and every tool result.
func (r Request) Text() string {
	var b strings.Builder
	b.WriteString(r.System())
	for _, m := range r.Messages {
		for _, c := range m.Content {
			b.WriteString(c.Text)
			b.WriteString(c.ResultText())
			b.WriteString("\n")
		}
	}
	return b.String()
}

func (m *Messages) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens" {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"input_tokens":%d}`, len(body)/4)
		return
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		m.refuse(w, r)
		return
	}
	req, n, ok := m.record(w, r, func(q *Request, body []byte) { q.Raw = body })
	if !ok {
		return
	}
	id := fmt.Sprintf("msg_mock_%d", n)
	toolID := fmt.Sprintf("toolu_mock_%d", n)
	rep := m.script(req)

	var content []map[string]any
	stop := "end_turn"
	for i, c := range rep.calls() {
		content = append(content, map[string]any{"type": "tool_use", "id": fmt.Sprintf("%s_%d", toolID, i), "name": c.Name, "input": c.Input})
		stop = "tool_use"
	}
	if len(content) == 0 {
		content = append(content, map[string]any{"type": "text", "text": rep.Text})
	}
	u := estimate(req.Raw)
	if rep.Usage != nil {
		u = *rep.Usage
	}
	usage := map[string]any{"input_tokens": u.Input, "output_tokens": u.Output,
		"cache_creation_input_tokens": u.CacheWrite, "cache_read_input_tokens": u.CacheRead}
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": req.Model,
			"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	send := func(event string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
	}
	send("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": req.Model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": usage,
	}})
	for i, c := range content {
		if c["type"] == "tool_use" {
			input, _ := json.Marshal(c["input"])
			send("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": c["id"], "name": c["name"], "input": map[string]any{}}})
			send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		} else {
			send("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "text", "text": ""}})
			send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "text_delta", "text": c["text"]}})
		}
		send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	// The API's message_delta carries the final usage: the output count,
	// and the input counts again.
	send("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": usage})
	send("message_stop", map[string]any{"type": "message_stop"})
}
