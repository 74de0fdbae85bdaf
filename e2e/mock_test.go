//go:build unix

package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// mockAPI is a local stand-in for the Anthropic Messages API: it answers
// POST /v1/messages with a streamed message (SSE) or a plain JSON one,
// decided by the test's script, and records every request.
type mockAPI struct {
	recorder[apiRequest]
	script func(req apiRequest) reply
}

// recorder is what the model mocks share: a loopback server recording the
// requests to its one endpoint, decoded as T, and every other request
// (a CONNECT through the proxy variables is a call beyond the mock).
type recorder[T any] struct {
	URL string

	mu       sync.Mutex
	requests []T
	other    []string
	n        int
}

// serve starts h on a loopback port until the test ends.
func (rc *recorder[T]) serve(t *testing.T, h http.Handler) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	rc.URL = "http://" + ln.Addr().String()
}

// Requests returns the requests recorded so far.
func (rc *recorder[T]) Requests() []T {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]T(nil), rc.requests...)
}

// Other returns the requests the mock does not serve.
func (rc *recorder[T]) Other() []string {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]string(nil), rc.other...)
}

// refuse records a request the mock does not serve and answers 404.
func (rc *recorder[T]) refuse(w http.ResponseWriter, r *http.Request) {
	rc.mu.Lock()
	rc.other = append(rc.other, r.Method+" "+r.Host+r.URL.Path)
	rc.mu.Unlock()
	http.NotFound(w, r)
}

// record decodes a request's JSON body, keeps it (raw sets the body as
// sent) and returns it with its 1-based number; ok is false when the body
// did not decode, which has been answered.
func (rc *recorder[T]) record(w http.ResponseWriter, r *http.Request, raw func(*T, []byte)) (req T, n int, ok bool) {
	body, err := io.ReadAll(r.Body)
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return req, 0, false
	}
	raw(&req, body)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.requests = append(rc.requests, req)
	rc.n++
	return req, rc.n, true
}

// apiRequest is one recorded request to /v1/messages.
type apiRequest struct {
	Raw    []byte `json:"-"` // the body as sent
	Model  string `json:"model"`
	Stream bool   `json:"stream"`
	// System is the system prompt: a string or text blocks.
	System json.RawMessage `json:"system"`
	// Messages are the conversation so far, content blocks decoded.
	Messages []apiMessage `json:"messages"`
	Tools    []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

type apiMessage struct {
	Role    string
	Content []contentBlock
}

func (m *apiMessage) UnmarshalJSON(b []byte) error {
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
		m.Content = []contentBlock{{Type: "text", Text: s}}
		return nil
	}
	return json.Unmarshal(raw.Content, &m.Content)
}

// contentBlock is a text, tool_use or tool_result block.
type contentBlock struct {
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
func (c contentBlock) ResultText() string {
	var s string
	if json.Unmarshal(c.Content, &s) == nil {
		return s
	}
	var blocks []contentBlock
	json.Unmarshal(c.Content, &blocks)
	var b strings.Builder
	for _, x := range blocks {
		b.WriteString(x.Text)
	}
	return b.String()
}

// prompt is what the user typed: the first user message's text, without
// the reminders Claude Code adds around it.
func (r apiRequest) prompt() string {
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

// toolResults are the request's tool_result blocks, in order.
func (r apiRequest) toolResults() []contentBlock {
	var rs []contentBlock
	for _, m := range r.Messages {
		for _, c := range m.Content {
			if c.Type == "tool_result" {
				rs = append(rs, c)
			}
		}
	}
	return rs
}

// hasTool reports whether the request offers the model a tool by name.
func (r apiRequest) hasTool(name string) bool {
	for _, t := range r.Tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// reply is what the mock answers: text, or one tool call, or several
// in one message (Calls, after ToolName's: the Messages API mock only;
// the Responses API one answers ToolName alone).
type reply struct {
	Text      string
	ToolName  string
	ToolInput any
	Calls     []toolCall
}

// toolCall is one tool_use block of a reply.
type toolCall struct {
	Name  string
	Input any
}

func newMockAPI(t *testing.T, script func(apiRequest) reply) *mockAPI {
	t.Helper()
	m := &mockAPI{script: script}
	m.serve(t, m)
	return m
}

func (m *mockAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens" {
		// Claude Code counts the tokens of large tool results.
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"input_tokens":%d}`, len(body)/4)
		return
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		m.refuse(w, r)
		return
	}
	req, n, ok := m.record(w, r, func(q *apiRequest, body []byte) { q.Raw = body })
	if !ok {
		return
	}
	id := fmt.Sprintf("msg_mock_%d", n)
	toolID := fmt.Sprintf("toolu_mock_%d", n)
	rep := m.script(req)

	var content []map[string]any
	stop := "end_turn"
	calls := rep.Calls
	if rep.ToolName != "" {
		calls = append([]toolCall{{rep.ToolName, rep.ToolInput}}, calls...)
	}
	for i, c := range calls {
		content = append(content, map[string]any{"type": "tool_use", "id": fmt.Sprintf("%s_%d", toolID, i), "name": c.Name, "input": c.Input})
		stop = "tool_use"
	}
	if len(calls) == 0 {
		content = append(content, map[string]any{"type": "text", "text": rep.Text})
	}
	usage := map[string]any{"input_tokens": len(req.Raw) / 4, "output_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
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
	send("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 10}})
	send("message_stop", map[string]any{"type": "message_stop"})
}
