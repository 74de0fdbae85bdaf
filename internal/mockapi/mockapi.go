// Package mockapi serves loopback stand-ins for the model APIs the agent
// CLIs speak: the Anthropic Messages API (Claude Code) and the OpenAI
// Responses API (Codex CLI). Each answers what a script decides for the
// request, records every request, and records any other request it
// receives (a CONNECT through the proxy variables is a call beyond the
// mock), so a test or a benchmark can check that nothing left the
// machine.
//
// A Reply may carry the usage the response reports; the agents write it
// into their session logs as they got it, so a scripted session's token
// accounting is known in advance. Without one the usage is estimated from
// the request's size (a quarter of its bytes as input, 10 output tokens).
//
// The end-to-end tests (e2e) and the A/B benchmark (bench/ab) share it.
package mockapi

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// Reply is what the mock answers: text, or one tool call, or several in
// one message (Calls, after ToolName's: the Messages API only; the
// Responses API answers ToolName alone, else the first of Calls).
type Reply struct {
	Text      string
	ToolName  string
	ToolInput any
	// ToolNamespace is the namespace of ToolName (Responses API only).
	ToolNamespace string
	Calls         []ToolCall
	// Usage is the usage the response reports; nil estimates it.
	Usage *Usage
}

// ToolCall is one tool call of a reply.
type ToolCall struct {
	Name  string
	Input any
	// Namespace is the namespace a Responses API function is offered in:
	// Codex offers an MCP server's tools as the namespace mcp__SERVER.
	Namespace string
}

// calls returns the reply's tool calls in order.
func (r Reply) calls() []ToolCall {
	calls := r.Calls
	if r.ToolName != "" {
		calls = append([]ToolCall{{Name: r.ToolName, Input: r.ToolInput, Namespace: r.ToolNamespace}}, calls...)
	}
	return calls
}

// Usage is a response's token usage as the Messages API splits it. The
// Responses API has no cache writes: there they count as input.
type Usage struct {
	Input      int64 `json:"input"`
	CacheRead  int64 `json:"cache_read"`
	CacheWrite int64 `json:"cache_write"`
	Output     int64 `json:"output"`
}

// estimate is the usage of a reply that names none.
func estimate(raw []byte) Usage { return Usage{Input: int64(len(raw) / 4), Output: 10} }

// Recorder is what the mocks share: a loopback server recording the
// requests to its endpoint, decoded as T, and every other request.
type Recorder[T any] struct {
	// URL is the server's base address, http://127.0.0.1:PORT.
	URL string

	srv      *http.Server
	mu       sync.Mutex
	requests []T
	other    []string
	n        int
}

// serve starts h on a loopback port.
func (rc *Recorder[T]) serve(h http.Handler) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	rc.srv = &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go rc.srv.Serve(ln)
	rc.URL = "http://" + ln.Addr().String()
	return nil
}

// Close stops the server and its open connections.
func (rc *Recorder[T]) Close() error {
	if err := rc.srv.Close(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Requests returns the requests recorded so far.
func (rc *Recorder[T]) Requests() []T {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]T(nil), rc.requests...)
}

// Other returns the requests the mock does not serve ("METHOD host/path").
func (rc *Recorder[T]) Other() []string {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]string(nil), rc.other...)
}

// refuse records a request the mock does not serve and answers 404.
func (rc *Recorder[T]) refuse(w http.ResponseWriter, r *http.Request) {
	rc.mu.Lock()
	rc.other = append(rc.other, r.Method+" "+r.Host+r.URL.Path)
	rc.mu.Unlock()
	http.NotFound(w, r)
}

// record decodes a request's JSON body, keeps it (raw sets the body as
// sent) and returns it with its 1-based number; ok is false when the body
// did not decode, which has been answered.
func (rc *Recorder[T]) record(w http.ResponseWriter, r *http.Request, raw func(*T, []byte)) (req T, n int, ok bool) {
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
