package transcript

import (
	"context"
	"errors"
	"testing"
)

// endless is a log of one line that never ends.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

// A Reader over ContextReader stops within the line it is draining once
// its context is done, and says why.
func TestContextReaderStopsAnEndlessLine(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	src := endless{}
	// The drain of the overlong line asks for more: cancel on the 8th read.
	n := 0
	counted := readFunc(func(p []byte) (int, error) {
		if n++; n == 8 {
			cancel()
		}
		return src.Read(p)
	})
	rd := NewReader(ContextReader(ctx, counted), "endless.jsonl")
	rd.SetMaxLine(1 << 10)
	for range rd.Records() {
		t.Fatal("a record from a line of x")
	}
	if !errors.Is(rd.Err(), context.Canceled) {
		t.Errorf("Err() = %v, want the context's error", rd.Err())
	}
	if n != 8 {
		t.Errorf("%d reads, want 8: the reads went on after the cancel", n)
	}
}

type readFunc func([]byte) (int, error)

func (f readFunc) Read(p []byte) (int, error) { return f(p) }
