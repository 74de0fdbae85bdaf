package mcpserver

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rubi-dev/rubi/internal/rubitest"
)

// Closing stdin while a call is under way cancels the call: the server
// does not outlive its client by a long query or index.
func TestClosingStdinCancelsCallsUnderWay(t *testing.T) {
	isolate(t)
	root := writeProject(t, rubitest.GoProject)
	s, _ := newServer(t, Options{ProjectDir: root})
	started, cancelled := make(chan struct{}), make(chan struct{})
	s.MCP().AddTool(mcp.NewTool("slow"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		close(started)
		select {
		case <-ctx.Done():
			close(cancelled)
		case <-time.After(30 * time.Second):
		}
		return mcp.NewToolResultText("done"), nil
	})
	inR, inW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(context.Background(), inR, io.Discard) }()
	fmt.Fprintln(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	fmt.Fprintln(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	fmt.Fprintln(inW, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{}}}`)
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the call did not start")
	}
	inW.Close()
	select {
	case <-cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("closing stdin left the call running")
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeStdio did not return")
	}
}
