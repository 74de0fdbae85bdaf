package mcpserver

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rubi-dev/rubi/internal/rubitest"
)

// Any local user reaches a loopback port: the server takes no request
// without the token there either, and refuses to start without one.
func TestHTTPTokenOnLoopback(t *testing.T) {
	isolate(t)
	s, _ := newServer(t, Options{ProjectDir: writeProject(t, rubitest.GoProject), Multi: true})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.ServeHTTP(context.Background(), ln, HTTPOptions{}); err == nil || !strings.Contains(err.Error(), "any local user") {
		t.Fatalf("serving on loopback without a token: %v", err)
	}
	url, stop := serveHTTP(t, s, "127.0.0.1:0", HTTPOptions{Token: testToken})
	for _, h := range []map[string]string{nil, {"Authorization": "Bearer wrong-wrong-wrong"}} {
		if got := post(t, url, h); got != http.StatusUnauthorized {
			t.Errorf("from loopback with headers %v: status %d, want 401", h, got)
		}
	}
	if got := post(t, url, auth); got != http.StatusOK {
		t.Errorf("with the token: status %d", got)
	}
	if err := stop(); err != nil {
		t.Errorf("shutdown: %v", err)
	}
}

// closedBy reads c until the server closes it, and fails the test if it
// does not within d (a hang; the server's timeouts are far shorter).
func closedBy(t *testing.T, c net.Conn, d time.Duration, what string) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Errorf("%s: the server did not close the connection within %v", what, d)
	}
}

// dial opens a raw connection to the server at url.
func dial(t *testing.T, url string) net.Conn {
	t.Helper()
	host := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), Path)
	c, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// A client that hangs is cut: one that never finishes its headers, one
// that sends its headers (with the token) but never its whole body, and
// one that keeps its connection open after a request. Before, the last
// two held their connection for ever.
func TestHTTPTimeoutsCutHangingClients(t *testing.T) {
	isolate(t)
	s, _ := newServer(t, Options{ProjectDir: writeProject(t, rubitest.GoProject), Multi: true})
	opts := HTTPOptions{Token: testToken, HeaderTimeout: 200 * time.Millisecond, ReadTimeout: 400 * time.Millisecond, IdleTimeout: 200 * time.Millisecond}
	url, stop := serveHTTP(t, s, "127.0.0.1:0", opts)

	headers := dial(t, url)
	io.WriteString(headers, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl")
	closedBy(t, headers, 30*time.Second, "headers never finished")

	body := dial(t, url)
	io.WriteString(body, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "+testToken+"\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":")
	closedBy(t, body, 30*time.Second, "body never finished")

	idle := dial(t, url)
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(init))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", auth["Authorization"])
	if err := req.Write(idle); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(idle), req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the request before idling: %v %v", resp, err)
	}
	io.Copy(io.Discard, resp.Body)
	closedBy(t, idle, 30*time.Second, "kept alive and idle")

	// A call whose answer takes longer than the read timeout is not cut:
	// the timeout bounds sending the request, not answering it.
	s.MCP().AddTool(mcp.NewTool("slow"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		select {
		case <-time.After(3 * opts.ReadTimeout):
			return mcp.NewToolResultText("finished"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	c, err := httpClient(t, url, auth)
	if err != nil {
		t.Fatal(err)
	}
	call := mcp.CallToolRequest{}
	call.Params.Name = "slow"
	if res, err := c.CallTool(context.Background(), call); err != nil || text(res) != "finished" {
		t.Errorf("a call longer than the read timeout: %v %v", res, err)
	}
	if err := stop(); err != nil {
		t.Errorf("shutdown: %v", err)
	}
}

// Connections past the cap close the oldest that serve no request with
// the token: many connections that send nothing neither exhaust the
// server nor make a client with the token wait for them to time out (the
// header timeout here is far longer than the test may run).
func TestHTTPConnectionCap(t *testing.T) {
	isolate(t)
	s, _ := newServer(t, Options{ProjectDir: writeProject(t, rubitest.GoProject), Multi: true})
	const max = 4
	release := make(chan struct{})
	serving := make(chan struct{}, max)
	s.MCP().AddTool(mcp.NewTool("hold"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		serving <- struct{}{}
		select {
		case <-release:
		case <-ctx.Done():
		}
		return mcp.NewToolResultText("released"), nil
	})
	url, stop := serveHTTP(t, s, "127.0.0.1:0", HTTPOptions{Token: testToken, MaxConns: max, HeaderTimeout: 10 * time.Minute, ReadTimeout: 10 * time.Minute, IdleTimeout: 10 * time.Minute})

	slow := make([]net.Conn, 5*max)
	for i := range slow {
		slow[i] = dial(t, url)
		io.WriteString(slow[i], "POST /mcp HTTP/1.1\r\n") // and nothing more
	}
	// The oldest were closed to make room for the newer.
	for _, c := range slow[:len(slow)-max] {
		closedBy(t, c, 30*time.Second, "a slow connection past the cap")
	}
	done := make(chan int, 1)
	go func() { done <- post(t, url, auth) }()
	select {
	case got := <-done:
		if got != http.StatusOK {
			t.Errorf("a request with the token among slow connections: status %d", got)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("a request with the token waited for the slow connections")
	}

	// When every connection serves a call with the token, a new one is
	// closed, and the calls go on.
	results := make(chan string, max)
	for range max {
		c, err := httpClient(t, url, auth)
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			call := mcp.CallToolRequest{}
			call.Params.Name = "hold"
			res, err := c.CallTool(context.Background(), call)
			if err != nil {
				results <- err.Error()
				return
			}
			results <- text(res)
		}()
		<-serving
	}
	extra := dial(t, url)
	io.WriteString(extra, "POST /mcp HTTP/1.1\r\n")
	closedBy(t, extra, 30*time.Second, "a connection past a full cap")
	close(release)
	for range max {
		if got := <-results; got != "released" {
			t.Errorf("a call under way when the cap was full got %q", got)
		}
	}
	if err := stop(); err != nil {
		t.Errorf("shutdown: %v", err)
	}
}

// A session idle past SessionIdle ends: the server forgets it (and what
// it kept for it), and a request naming it gets 404, on which clients
// start a new one.
func TestHTTPIdleSessionExpires(t *testing.T) {
	isolate(t)
	s, _ := newServer(t, Options{ProjectDir: writeProject(t, rubitest.GoProject), Multi: true})
	h, transport, ids := s.handler(HTTPOptions{Token: testToken, SessionIdle: time.Second})
	t.Cleanup(func() { transport.Shutdown(context.Background()) })
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	url := srv.URL + Path

	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	send := func(session, body string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", auth["Authorization"])
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	resp := send("", init)
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("initialize: status %d, session %q", resp.StatusCode, id)
	}
	s.mu.Lock()
	s.roots[id] = "/somewhere" // what the server keeps for the session
	s.mu.Unlock()
	const list = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	if got := send(id, list).StatusCode; got != http.StatusOK {
		t.Fatalf("a live session: status %d", got)
	}
	if got := send("mcp-session-00000000000000000000000000000000", list).StatusCode; got != http.StatusNotFound {
		t.Errorf("a session the server never made: status %d, want 404", got)
	}
	// Idle now; wait (a bound only against a hang) until it is swept.
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, live := ids.live.Load(id); !live {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the idle session never expired")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := send(id, list).StatusCode; got != http.StatusNotFound {
		t.Errorf("an expired session: status %d, want 404", got)
	}
	s.mu.Lock()
	_, kept := s.roots[id]
	s.mu.Unlock()
	if kept {
		t.Error("the server still keeps the expired session's roots")
	}
	if resp := send("", init); resp.StatusCode != http.StatusOK || resp.Header.Get("Mcp-Session-Id") == id {
		t.Errorf("a new session after the expiry: status %d", resp.StatusCode)
	}
}
