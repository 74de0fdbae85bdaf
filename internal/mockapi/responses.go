package mockapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Responses is a local stand-in for the OpenAI Responses API, the wire
// Codex CLI speaks to a model provider: POST /v1/responses answers a
// streamed response (SSE) decided by its script, with a message or one
// function call, and every request is recorded.
type Responses struct {
	Recorder[ResponsesRequest]
	script func(ResponsesRequest) Reply
}

// NewResponses starts a Responses API on a loopback port; Close stops it.
func NewResponses(script func(ResponsesRequest) Reply) (*Responses, error) {
	m := &Responses{script: script}
	if err := m.serve(m); err != nil {
		return nil, err
	}
	return m, nil
}

// ResponsesRequest is one recorded request to /v1/responses.
type ResponsesRequest struct {
	Raw          []byte `json:"-"`
	Model        string `json:"model"`
	Instructions string `json:"instructions"`
	Input        []Item `json:"input"`
	Tools        []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	} `json:"tools"`
}

// Item is an input item: a message (its content parts), a function call
// or a function call's output.
type Item struct {
	Type    string `json:"type"`
	Role    string `json:"role"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"`
}

// Text is a message item's text.
func (it Item) Text() string {
	var b strings.Builder
	for _, c := range it.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// OutputText is a function call output's text: a string, or content parts.
func (it Item) OutputText() string {
	var s string
	if json.Unmarshal(it.Output, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(it.Output, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// Messages returns the text of the input's messages from role, in order.
func (r ResponsesRequest) Messages(role string) []string {
	var out []string
	for _, it := range r.Input {
		if it.Type == "message" && it.Role == role {
			out = append(out, it.Text())
		}
	}
	return out
}

// Prompt is the user's prompt: the last user message that is not context
// Codex adds (<environment_context> and the like).
func (r ResponsesRequest) Prompt() string {
	p := ""
	for _, m := range r.Messages("user") {
		if !strings.HasPrefix(strings.TrimSpace(m), "<") {
			p = m
		}
	}
	return p
}

// Outputs are the request's function call outputs, in order.
func (r ResponsesRequest) Outputs() []Item {
	var out []Item
	for _, it := range r.Input {
		if it.Type == "function_call_output" {
			out = append(out, it)
		}
	}
	return out
}

func (m *Responses) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/responses" {
		m.refuse(w, r)
		return
	}
	req, n, ok := m.record(w, r, func(q *ResponsesRequest, body []byte) { q.Raw = body })
	if !ok {
		return
	}
	rep := m.script(req)

	respID := fmt.Sprintf("resp_mock_%d", n)
	var item map[string]any
	if calls := rep.calls(); len(calls) > 0 {
		args, _ := json.Marshal(calls[0].Input)
		item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_mock_%d", n), "status": "completed",
			"name": calls[0].Name, "arguments": string(args), "call_id": fmt.Sprintf("call_mock_%d", n)}
		if calls[0].Namespace != "" {
			item["namespace"] = calls[0].Namespace
		}
	} else {
		item = map[string]any{"type": "message", "id": fmt.Sprintf("msg_mock_%d", n), "status": "completed", "role": "assistant",
			"content": []any{map[string]any{"type": "output_text", "text": rep.Text, "annotations": []any{}}}}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	send := func(data map[string]any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", data["type"], b)
	}
	send(map[string]any{"type": "response.created", "response": map[string]any{"id": respID, "status": "in_progress"}})
	send(map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
	if item["type"] == "message" {
		send(map[string]any{"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "item_id": item["id"], "delta": rep.Text})
	}
	send(map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	u := estimate(req.Raw)
	if rep.Usage != nil {
		u = *rep.Usage
	}
	// OpenAI counts the cached input inside input_tokens.
	in := u.Input + u.CacheRead + u.CacheWrite
	usage := map[string]any{"input_tokens": in, "input_tokens_details": map[string]any{"cached_tokens": u.CacheRead},
		"output_tokens": u.Output, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": in + u.Output}
	send(map[string]any{"type": "response.completed", "response": map[string]any{"id": respID, "status": "completed", "usage": usage}})
}
