package mcpserver

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rubi-dev/rubi/internal/rubitest"
)

func TestListenAddr(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"8765", "127.0.0.1:8765"},
		{":8765", "127.0.0.1:8765"},
		{"localhost:8765", "localhost:8765"},
		{"0.0.0.0:8765", "0.0.0.0:8765"},
		{"[::1]:8765", "[::1]:8765"},
		{"192.168.1.4:80", "192.168.1.4:80"},
	} {
		got, err := ListenAddr(c.in)
		if err != nil || got != c.want {
			t.Errorf("ListenAddr(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := ListenAddr("a:b:c"); err == nil || !strings.Contains(err.Error(), "host:port") {
		t.Errorf("bad address: %v", err)
	}
}

func TestCheckHTTP(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:1", "localhost:1", "[::1]:1"} {
		// Any local user reaches a loopback port.
		if err := CheckHTTP(addr, HTTPOptions{}); err == nil || !strings.Contains(err.Error(), "any local user") {
			t.Errorf("%s without a token: %v", addr, err)
		}
		if err := CheckHTTP(addr, HTTPOptions{Token: testToken}); err != nil {
			t.Errorf("%s with a token: %v", addr, err)
		}
	}
	for _, addr := range []string{"0.0.0.0:1", "[::]:1", "192.168.1.4:1", "example.com:1"} {
		err := CheckHTTP(addr, HTTPOptions{})
		if err == nil || !strings.Contains(err.Error(), "--token or "+TokenEnv) {
			t.Errorf("%s without a token: %v", addr, err)
		}
		if err := CheckHTTP(addr, HTTPOptions{Token: "s3cret-s3cret-s3"}); err != nil {
			t.Errorf("%s with a token: %v", addr, err)
		}
		for _, short := range []string{"x", "s3cret-s3cret-s"} {
			if err := CheckHTTP(addr, HTTPOptions{Token: short}); err == nil || !strings.Contains(err.Error(), "at least 16 characters") {
				t.Errorf("%s with the token %q: %v", addr, short, err)
			}
		}
	}
}

// testToken is the bearer token of the tests' servers; auth sends it.
const testToken = "s3cret-s3cret-s3"

var auth = map[string]string{"Authorization": "Bearer " + testToken}

// withAuth is headers and auth's.
func withAuth(headers map[string]string) map[string]string {
	out := map[string]string{"Authorization": auth["Authorization"]}
	for k, v := range headers {
		out[k] = v
	}
	return out
}

// serveHTTP serves s on a listener at addr until the test ends, and
// returns the endpoint's URL (through loopback) and a function that stops
// the server and returns ServeHTTP's result.
func serveHTTP(t *testing.T, s *Server, addr string, opts HTTPOptions) (string, func() error) {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeHTTP(ctx, ln, opts) }()
	var once bool
	var result error
	stop := func() error {
		if !once {
			once = true
			cancel()
			select {
			case result = <-done:
			case <-time.After(10 * time.Second):
				result = errors.New("ServeHTTP did not return 10s after its context ended")
			}
		}
		return result
	}
	t.Cleanup(func() { stop() })
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return "http://127.0.0.1:" + port + Path, stop
}

func httpClient(t *testing.T, url string, headers map[string]string) (*client.Client, error) {
	t.Helper()
	c, err := client.NewStreamableHttpClient(url, transport.WithHTTPHeaders(headers))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Start(context.Background()); err != nil {
		return nil, err
	}
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = mcp.Implementation{Name: "rubi-test", Version: "1"}
	_, err = c.Initialize(context.Background(), req)
	return c, err
}

// post sends an initialize request by hand and returns the status.
func post(t *testing.T, url string, headers map[string]string) int {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

func TestHTTPLoopback(t *testing.T) {
	isolate(t)
	a := writeProject(t, rubitest.GoProject)
	b := writeProject(t, map[string]string{"billing/invoice.go": "package billing\n\n// RenderInvoicePDF draws an invoice.\nfunc RenderInvoicePDF() {}\n"})
	other := writeProject(t, rubitest.GoProject) // not allowed: neither the working directory's nor under --allow
	s, _ := newServer(t, Options{WorkDir: a, Multi: true, Allow: []string{b}})
	url, stop := serveHTTP(t, s, "127.0.0.1:0", HTTPOptions{Token: testToken, Origins: []string{"https://app.example.com"}})

	c, err := httpClient(t, url, auth)
	if err != nil {
		t.Fatal(err)
	}
	list, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil || len(list.Tools) != 4 {
		t.Fatalf("tools over HTTP: %v %v", list, err)
	}
	for _, proj := range []struct{ name, query, want string }{{a, "order database", "store/store.go"}, {b, "invoice pdf", "billing/invoice.go"}} {
		if out, _ := ok(t, c, "context", map[string]any{"query": proj.query, "project": proj.name}); !strings.Contains(out, proj.want) {
			t.Errorf("project %s:\n%s", proj.name, out)
		}
	}
	if out, _ := ok(t, c, "read", map[string]any{"target": "map"}); !strings.HasPrefix(out, "open projects") || !strings.Contains(out, "  "+a+"\n") || !strings.Contains(out, "  "+b+"\n") {
		t.Errorf("map does not list the open projects:\n%s", out)
	}
	fails(t, c, "read", map[string]any{"target": "../../etc/passwd", "project": a}, "inside the project")
	fails(t, c, "context", map[string]any{"query": "order database", "project": other}, "outside the folders this server may open", "--allow DIR")
	if _, err := os.Stat(filepath.Join(other, ".rubi")); err == nil {
		t.Error("a refused project got a .rubi/ folder")
	}
	fails(t, c, "context", map[string]any{"query": "passwd", "project": "/etc"}, "outside the folders this server may open")

	// Browsers: only loopback pages and the origins allowed.
	for origin, want := range map[string]int{
		"https://evil.example.com": http.StatusForbidden,
		"null":                     http.StatusForbidden,
		"http://localhost:3000":    http.StatusOK,
		"https://app.example.com":  http.StatusOK,
	} {
		if got := post(t, url, withAuth(map[string]string{"Origin": origin})); got != want {
			t.Errorf("Origin %s: status %d, want %d", origin, got, want)
		}
	}
	if got := post(t, url, auth); got != http.StatusOK {
		t.Errorf("no Origin (not a browser): status %d", got)
	}
	// DNS rebinding: a loopback connection naming another host.
	if got := post(t, url, withAuth(map[string]string{"Host": "evil.example.com"})); got != http.StatusForbidden {
		t.Errorf("rebound Host: status %d", got)
	}
	if err := stop(); err != nil {
		t.Errorf("shutdown: %v", err)
	}
}

// Listening on every interface needs a token, and then every request
// must carry it.
func TestHTTPTokenRequiredOffLoopback(t *testing.T) {
	isolate(t)
	root := writeProject(t, rubitest.GoProject)
	s, _ := newServer(t, Options{ProjectDir: root, Multi: true})

	ln, err := net.Listen("tcp", "0.0.0.0:0")
	if err != nil {
		t.Fatal(err)
	}
	err = s.ServeHTTP(context.Background(), ln, HTTPOptions{})
	if err == nil || !strings.Contains(err.Error(), "bearer token") {
		t.Fatalf("serving on %s without a token: %v", ln.Addr(), err)
	}
	if c, err := net.Dial("tcp", ln.Addr().String()); err == nil {
		c.Close()
		t.Error("the refused listener still accepts connections")
	}

	const token = testToken
	url, stop := serveHTTP(t, s, "0.0.0.0:0", HTTPOptions{Token: token})
	for _, h := range []map[string]string{nil, {"Authorization": "Bearer wrong"}, {"Authorization": token}, {"Authorization": "Basic " + token}, {"Authorization": "Bearer" + token}} {
		if got := post(t, url, h); got != http.StatusUnauthorized {
			t.Errorf("headers %v: status %d, want 401", h, got)
		}
	}
	if _, err := httpClient(t, url, nil); err == nil {
		t.Error("a client without the token connected")
	}
	for _, auth := range []string{"bearer " + token, "BEARER  " + token} {
		if got := post(t, url, map[string]string{"Authorization": auth}); got != http.StatusOK {
			t.Errorf("Authorization %q: status %d, want 200 (the scheme is case-insensitive)", auth, got)
		}
	}
	c, err := httpClient(t, url, map[string]string{"Authorization": "Bearer " + token})
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := ok(t, c, "context", map[string]any{"query": "order database"}); !strings.Contains(out, "store/store.go") {
		t.Errorf("with the token:\n%s", out)
	}
	if err := stop(); err != nil {
		t.Errorf("shutdown: %v", err)
	}
}

// A body past MaxBody is refused before it is read, whether it says its
// length or not, and the server goes on serving.
func TestHTTPBodyLimit(t *testing.T) {
	isolate(t)
	root := writeProject(t, rubitest.GoProject)
	s, _ := newServer(t, Options{ProjectDir: root, Multi: true})
	url, stop := serveHTTP(t, s, "127.0.0.1:0", HTTPOptions{Token: testToken})
	huge := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"context","arguments":{"query":"` + strings.Repeat("order ", MaxBody/6+1) + `"}}}`
	for _, chunked := range []bool{false, true} {
		var body io.Reader = strings.NewReader(huge)
		if chunked {
			body = io.MultiReader(body) // no length: sent chunked
		}
		req, _ := http.NewRequest(http.MethodPost, url, body)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", auth["Authorization"])
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode < 400 || len(answer) > 4096 {
			t.Errorf("a %d-byte body (chunked %v): status %d, %d bytes back", len(huge), chunked, resp.StatusCode, len(answer))
		}
		if !chunked && resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("a %d-byte body with its length: status %d, want 413", len(huge), resp.StatusCode)
		}
	}
	if got := post(t, url, auth); got != http.StatusOK {
		t.Errorf("after the refusals: status %d", got)
	}
	if err := stop(); err != nil {
		t.Errorf("shutdown: %v", err)
	}
}

// Stopping lets a call under way finish, then refuses new connections.
func TestHTTPGracefulShutdown(t *testing.T) {
	isolate(t)
	s, _ := newServer(t, Options{ProjectDir: writeProject(t, rubitest.GoProject), Multi: true})
	started := make(chan struct{})
	s.MCP().AddTool(mcp.NewTool("slow"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		close(started)
		time.Sleep(300 * time.Millisecond)
		return mcp.NewToolResultText("finished"), nil
	})
	url, stop := serveHTTP(t, s, "127.0.0.1:0", HTTPOptions{Token: testToken})
	c, err := httpClient(t, url, auth)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan string, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "slow"
		res, err := c.CallTool(context.Background(), req)
		if err != nil {
			done <- err.Error()
			return
		}
		done <- text(res)
	}()
	<-started
	if err := stop(); err != nil {
		t.Errorf("shutdown: %v", err)
	}
	if got := <-done; got != "finished" {
		t.Errorf("the call under way got %q", got)
	}
	if _, err := http.Post(url, "application/json", strings.NewReader("{}")); err == nil {
		t.Error("the server still accepts requests after shutdown")
	}
}
