//go:build unix

package xray

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/agent/transcript"
)

// A log that is a FIFO or a link to /dev/zero used to hang xray for ever
// (or spin, ignoring SIGTERM); it is now a problem naming the file, and
// the other logs are read.
func TestLogsThatAreNotFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.jsonl")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	good := "testdata/claude/projects/-home-dev-shop/aaaaaaaa-0000-4000-8000-000000000001.jsonl"
	sessions := []transcript.Session{
		{Agent: transcript.ClaudeCode, ID: "fifo", Path: fifo},
		{Agent: transcript.ClaudeCode, ID: "zero", Path: zero},
		{Agent: transcript.ClaudeCode, ID: "good", Path: good},
	}
	done := make(chan struct{})
	var rep *Report
	var err error
	go func() {
		defer close(done)
		rep, err = Analyze(context.Background(), sessions, Options{})
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Analyze did not return: it is reading a FIFO or a device")
	}
	if err != nil {
		t.Fatal(err)
	}
	if rep.Calls == 0 {
		t.Error("the regular log was not read")
	}
	var text []string
	for _, p := range rep.Problems.First {
		text = append(text, p.Path+": "+p.Msg)
	}
	all := strings.Join(text, "\n")
	for _, want := range []string{fifo + ": refusing to read", "it is a FIFO", zero + ": refusing to read", "it is a device"} {
		if !strings.Contains(all, want) {
			t.Errorf("the problems do not say %q:\n%s", want, all)
		}
	}
}

// A cancelled context (SIGINT, SIGTERM) stops Analyze between the records
// of a log, not only between sessions.
func TestCancelStopsWithinALog(t *testing.T) {
	src, err := os.ReadFile("testdata/claude/projects/-home-dev-shop/aaaaaaaa-0000-4000-8000-000000000001.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "long.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	for range 2000 {
		f.Write(src)
	}
	f.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Analyze(ctx, nil, Options{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("no sessions, cancelled: %v", err)
	}
	// One session, cancelled once its reading has started: the records
	// loop sees it.
	ctx, cancel = context.WithCancel(context.Background())
	a := &analyzer{ctx: ctx, opt: Options{}, seen: map[uint64]struct{}{}, tools: map[string]*ToolWeight{}, models: map[string]*ModelUsage{}, started: time.Now()}
	a.opt.defaults()
	cancel()
	st := &sessionState{chains: map[string]*chain{"": {}}, models: map[string]transcript.Usage{}}
	if a.file(st, path, false) {
		t.Error("a cancelled read went on to the end of the log")
	}
}
