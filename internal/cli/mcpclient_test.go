package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// mcpStdio is a client of an MCP server started as a command, speaking
// over its standard input and output one call at a time, as an agent
// does: the server cancels a call under way when its input closes, so a
// client that sent everything at once and closed would test a path no
// agent takes.
type mcpStdio struct {
	t       *testing.T
	cmd     *exec.Cmd
	in      io.WriteCloser
	answers chan rpcAnswer
	stdout  strings.Builder // every line the server printed
	stderr  bytes.Buffer
	next    int
}

// rpcAnswer is a JSON-RPC response.
type rpcAnswer struct {
	ID     *int            `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// text is what a tool result's content says, "" for an error response.
func (a rpcAnswer) text() string {
	var res struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	json.Unmarshal(a.Result, &res)
	var b strings.Builder
	for _, c := range res.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// isError reports a JSON-RPC error or a tool result with isError.
func (a rpcAnswer) isError() bool {
	var res struct {
		IsError bool `json:"isError"`
	}
	json.Unmarshal(a.Result, &res)
	return a.Error != nil || res.IsError
}

// startMCP starts cmd, an MCP server on stdio, and initializes a session.
func startMCP(t *testing.T, cmd *exec.Cmd) *mcpStdio {
	t.Helper()
	m := &mcpStdio{t: t, cmd: cmd, answers: make(chan rpcAnswer)}
	cmd.Stderr = &m.stderr
	var err error
	if m.in, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			m.stdout.WriteString(sc.Text() + "\n")
			var a rpcAnswer
			if json.Unmarshal(sc.Bytes(), &a) == nil && a.ID != nil {
				m.answers <- a
			}
		}
		close(m.answers)
	}()
	if _, ok := m.request("initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`); !ok {
		t.Fatalf("no answer to initialize\nstderr: %s", m.stderr.String())
	}
	fmt.Fprintln(m.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return m
}

// call calls one tool with its arguments (a JSON object) and waits for
// the answer; false when the server answered nothing (it ended).
func (m *mcpStdio) call(tool, arguments string) (rpcAnswer, bool) {
	m.t.Helper()
	return m.request("tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s}`, tool, arguments))
}

func (m *mcpStdio) request(method, params string) (rpcAnswer, bool) {
	m.t.Helper()
	m.next++
	fmt.Fprintf(m.in, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", m.next, method, params)
	select {
	case a, ok := <-m.answers:
		return a, ok && *a.ID == m.next
	case <-time.After(time.Minute):
		m.t.Fatalf("no answer to %s %s within a minute\nstderr: %s", method, params, m.stderr.String())
		return rpcAnswer{}, false
	}
}

// close closes the server's input, as a client that quits does, and
// waits for it to exit: it must within a minute.
func (m *mcpStdio) close() error {
	m.t.Helper()
	m.in.Close()
	done := make(chan error, 1)
	go func() {
		for range m.answers {
		}
		done <- m.cmd.Wait()
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Minute):
		m.t.Fatalf("the MCP server did not end after its client closed its input\nstderr: %s", m.stderr.String())
		return nil
	}
}
