package profile

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// keep holds what heapPeak allocates, so that the collection after it
// finds it live.
var keep [][]byte

// heapPeak grows the heap by 64 MiB of live memory, touched, and has h
// look at it (as its watcher would within heapEvery) before letting it
// go: the profile must show the heap as it was then, not at the end,
// when none of it is live.
//
//go:noinline
func heapPeak(h *Heap) {
	for range 8 { // of 8 MiB: the profile samples every one (one in 512 KiB)
		b := make([]byte, 8<<20)
		for i := range b {
			b[i] = 1
		}
		keep = append(keep, b)
	}
	// The profile counts an allocation once a collection after the one
	// that followed it is over: two, as a peak lasts more than one.
	runtime.GC()
	runtime.GC()
	h.look()
	keep = nil
	runtime.GC()
}

// The heap profile is the heap at its largest: pprof reads it, and its
// inuse_space names the function whose allocations made the peak, though
// they were freed before the command ended.
func TestHeapProfileAtItsLargest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mem.pprof")
	var h Heap
	if err := h.startUnwatched(path); err != nil { // the test looks itself
		t.Fatal(err)
	}
	h.look() // the heap before the peak
	heapPeak(&h)
	runtime.GC()
	if err := h.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := h.Stop(); err != nil { // once: a later call does nothing
		t.Fatal(err)
	}
	out, err := exec.Command("go", "tool", "pprof", "-top", "-sample_index=inuse_space", "-unit=MB", path).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof: %v\n%s", err, out)
	}
	// A -top line: flat flat% sum% cum cum% name.
	line := regexp.MustCompile(`(?m)^\s*([0-9.]+)MB.*\bprofile\.heapPeak\b`).FindSubmatch(out)
	if line == nil {
		t.Fatalf("inuse_space does not name heapPeak:\n%s", out)
	}
	if mb, _ := strconv.ParseFloat(string(line[1]), 64); mb < 60 {
		t.Errorf("heapPeak holds %.1f MB in the profile, want its 64:\n%s", mb, out)
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
