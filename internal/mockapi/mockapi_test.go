package mockapi

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// events reads an SSE stream into its data payloads, in order.
func events(t *testing.T, resp *http.Response) []map[string]any {
	t.Helper()
	defer resp.Body.Close()
	var out []map[string]any
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			var v map[string]any
			if err := json.Unmarshal([]byte(data), &v); err != nil {
				t.Fatalf("event %q: %v", data, err)
			}
			out = append(out, v)
		}
	}
	return out
}

func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// A scripted usage reaches the client as given: in message_start and
// again in message_delta, the way the API reports a streamed message.
func TestMessagesUsageAsScripted(t *testing.T) {
	m, err := NewMessages(func(r Request) Reply {
		if len(r.ToolResults()) == 0 {
			return Reply{ToolName: "Read", ToolInput: map[string]any{"file_path": "/p/a.go"}, Usage: &Usage{Input: 3, CacheRead: 100, CacheWrite: 20, Output: 7}}
		}
		return Reply{Text: "done"}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	evs := events(t, post(t, m.URL+"/v1/messages", `{"model":"claude-sonnet-4-5","stream":true,"messages":[{"role":"user","content":"hi"}]}`))
	want := map[string]any{"input_tokens": 3.0, "cache_read_input_tokens": 100.0, "cache_creation_input_tokens": 20.0, "output_tokens": 7.0}
	var starts, deltas int
	for _, e := range evs {
		var u map[string]any
		switch e["type"] {
		case "message_start":
			starts++
			u = e["message"].(map[string]any)["usage"].(map[string]any)
		case "message_delta":
			deltas++
			u = e["usage"].(map[string]any)
			if got := e["delta"].(map[string]any)["stop_reason"]; got != "tool_use" {
				t.Errorf("stop_reason %v, want tool_use", got)
			}
		case "content_block_start":
			if b := e["content_block"].(map[string]any); b["name"] != "Read" {
				t.Errorf("content block %v, want the Read call", b)
			}
		}
		for k, v := range want {
			if u != nil && u[k] != v {
				t.Errorf("%s usage %s = %v, want %v", e["type"], k, u[k], v)
			}
		}
	}
	if starts != 1 || deltas != 1 {
		t.Errorf("%d message_start and %d message_delta events, want one each", starts, deltas)
	}

	// Without a scripted usage it is estimated from the request's size;
	// the second request carries a tool result, so the script answers.
	body := `{"model":"m","stream":false,"messages":[{"role":"user","content":"hi"},{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"ok"}]}]}`
	resp := post(t, m.URL+"/v1/messages", body)
	var msg struct {
		Content []Block        `json:"content"`
		Usage   map[string]int `json:"usage"`
	}
	json.NewDecoder(resp.Body).Decode(&msg)
	resp.Body.Close()
	if len(msg.Content) != 1 || msg.Content[0].Text != "done" || msg.Usage["input_tokens"] != len(body)/4 || msg.Usage["output_tokens"] != 10 {
		t.Errorf("unscripted usage: %+v, want the text done, %d input and 10 output tokens", msg, len(body)/4)
	}
	if got := m.Requests(); len(got) != 2 || got[1].ToolResults()[0].ResultText() != "ok" {
		t.Errorf("recorded %d requests: %+v", len(got), got)
	}
}

// The Responses API counts cached input inside input_tokens; a function
// offered in a namespace (Codex's MCP tools) is called with it.
func TestResponsesUsageAsScripted(t *testing.T) {
	m, err := NewResponses(func(r ResponsesRequest) Reply {
		return Reply{ToolName: "context", ToolNamespace: "mcp__rubi", ToolInput: map[string]any{"query": "retries"}, Usage: &Usage{Input: 40, CacheRead: 1000, Output: 12}}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	evs := events(t, post(t, m.URL+"/v1/responses", `{"model":"gpt-5","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}]}`))
	var done map[string]any
	for _, e := range evs {
		if e["type"] == "response.output_item.done" {
			done = e["item"].(map[string]any)
		}
	}
	if done["type"] != "function_call" || done["name"] != "context" || done["namespace"] != "mcp__rubi" || done["arguments"] != `{"query":"retries"}` {
		t.Errorf("the call %v, want mcp__rubi's context with the query", done)
	}
	last := evs[len(evs)-1]
	if last["type"] != "response.completed" {
		t.Fatalf("last event %v", last["type"])
	}
	u := last["response"].(map[string]any)["usage"].(map[string]any)
	if u["input_tokens"] != 1040.0 || u["input_tokens_details"].(map[string]any)["cached_tokens"] != 1000.0 || u["output_tokens"] != 12.0 {
		t.Errorf("usage %v, want 1040 input of which 1000 cached, 12 output", u)
	}
	if p := m.Requests()[0].Prompt(); p != "go" {
		t.Errorf("prompt %q", p)
	}
}

// A request beyond the endpoint is refused and recorded.
func TestOtherRequestsRecorded(t *testing.T) {
	m, err := NewMessages(func(Request) Reply { return Reply{Text: "x"} })
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	resp, err := http.Get(m.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || len(m.Other()) != 1 || !strings.HasSuffix(m.Other()[0], "/v1/models") {
		t.Errorf("status %d, other %v", resp.StatusCode, m.Other())
	}
}
