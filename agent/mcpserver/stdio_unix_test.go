//go:build unix

package mcpserver

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// Closing stdin while the xray tool reads a log stops the read, whatever
// the log holds. A log whose bytes give no record (here a sparse file of
// 1 TiB: zeros, no newline) was read to its end after the client had
// gone, the process with it: xray looked at its context only between
// records (and, before that, only between sessions, which left a 1 GB log
// of real records running about 15 s).
func TestClosingStdinStopsXrayWithinALog(t *testing.T) {
	isolate(t)
	claude, _ := agentHomes(t)
	log := filepath.Join(claude, "projects", "-home-dev-shop", "aaaaaaaa-0000-4000-8000-000000000001.jsonl")
	if err := os.MkdirAll(filepath.Dir(log), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	err = f.Truncate(1 << 40)
	f.Close()
	if err != nil {
		t.Skipf("no sparse file of 1 TiB here: %v", err)
	}
	s, _ := newServer(t, Options{ProjectDir: writeProject(t, rubitest.GoProject), Xray: true})
	inR, inW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(context.Background(), inR, io.Discard) }()
	fmt.Fprintln(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	fmt.Fprintln(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	fmt.Fprintln(inW, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory","arguments":{"action":"xray","since":"all"}}}`)
	// Close stdin once the log is being read (a call cancelled before
	// it starts reading stops anyway).
	waitOpen(t, log)
	inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
	case <-time.After(30 * time.Second):
		// Reading the whole TiB takes minutes.
		t.Fatal("closing stdin left the xray call reading the log")
	}
}

// waitOpen waits until this process has path open (Linux's /proc), or a
// second where there is no /proc to tell.
func waitOpen(t *testing.T, path string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		time.Sleep(time.Second)
		return
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		fds, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		for _, fd := range fds {
			if target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && target == path {
				return
			}
		}
	}
	t.Fatal("the xray call did not open the log")
}
