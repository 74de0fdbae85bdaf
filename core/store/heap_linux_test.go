package store

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"
)

// anonHuge is the process's memory in transparent huge pages, in KiB.
func anonHuge(t *testing.T) int {
	data, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(l, "AnonHugePages:"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				t.Fatalf("smaps_rollup: %q", l)
			}
			return n
		}
	}
	t.Fatal("smaps_rollup has no AnonHugePages line")
	return 0
}

var kept [][]byte

// After ReserveHugeHeap, the small allocations that follow land in huge
// pages where the system offers them on request (without it, in
// transparent_hugepage's madvise mode, none do); where it never does,
// nothing changes.
func TestReserveHugeHeap(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		t.Fatal(err)
	}
	offered := !bytes.Contains(mode, []byte("[never]"))
	before := anonHuge(t)
	ReserveHugeHeap(512 << 20)
	kept = make([][]byte, 0, 128<<10)
	for range 128 << 10 {
		kept = append(kept, make([]byte, 1000)) // 128 MB in small objects
	}
	grown := anonHuge(t) - before
	kept = nil
	switch {
	case offered && grown < 8<<10:
		t.Errorf("huge pages grew by %d KiB after 128 MB of allocations, want several 2 MiB pages (transparent_hugepage: %s)", grown, bytes.TrimSpace(mode))
	case !offered && grown != 0:
		t.Errorf("huge pages grew by %d KiB with transparent_hugepage never", grown)
	}
}
