package profile

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// keep holds what heapPeak allocates, so that the collection after it
// finds it live.
var keep [][]byte

// heapPeak grows the heap by 64 MiB of live memory, lets it go, and
// returns: the profile must show the heap as it was then, not at the
// end, when nothing of it is live.
//
//go:noinline
func heapPeak() {
	for range 64 {
		keep = append(keep, make([]byte, 1<<20))
	}
	runtime.GC()
	keep = nil
	runtime.GC()
}

// The heap profile is the heap at its largest: it names the function
// whose allocations made the peak, though they were freed before the
// command ended.
func TestHeapProfileAtItsLargest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mem.pprof")
	var h Heap
	if err := h.Start(path); err != nil {
		t.Fatal(err)
	}
	h.look() // the heap before the peak
	heapPeak()
	h.look() // as the watcher would within heapEvery; a test does not wait
	runtime.GC()
	if err := h.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := h.Stop(); err != nil { // once: a later call does nothing
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not a profile (pprof's gzipped protocol buffer): %v", err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), "heapPeak") {
		t.Errorf("the profile does not name heapPeak, which made the peak")
	}
	if h.top < 64<<20 {
		t.Errorf("profile taken at %d live bytes, want the peak's 64 MiB or more", h.top)
	}
}

// A path that cannot be written fails when the profile starts, before
// the command runs; no path profiles nothing.
func TestHeapProfileStart(t *testing.T) {
	var h Heap
	if err := h.Start(filepath.Join(t.TempDir(), "no", "such", "dir", "mem.pprof")); err == nil || !strings.Contains(err.Error(), "--memprofile") {
		t.Errorf("Start on a missing folder: %v", err)
	}
	var none Heap
	if err := none.Start(""); err != nil {
		t.Fatal(err)
	}
	if err := none.Stop(); err != nil {
		t.Fatal(err)
	}
}
