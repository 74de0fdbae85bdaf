package store

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
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

// heapChild names the environment variable that makes the test binary the
// fresh process TestReserveHugeHeap measures in: ReserveHugeHeap is meant
// for a process whose heap has not yet been used and freed, which a test
// binary that ran other tests is not.
const heapChild = "RUBI_TEST_HUGE_HEAP_CHILD"

// After ReserveHugeHeap, the small allocations that follow land in huge
// pages where the system offers them on request (without it, in
// transparent_hugepage's madvise mode, none do); where it never does,
// nothing changes.
func TestReserveHugeHeap(t *testing.T) {
	if os.Getenv(heapChild) != "" {
		before := anonHuge(t)
		if os.Getenv(heapChild) == "reserve" {
			ReserveHugeHeap(512 << 20)
		}
		kept = make([][]byte, 0, 128<<10)
		for range 128 << 10 {
			kept = append(kept, make([]byte, 1000)) // 128 MB in small objects
		}
		fmt.Printf("grown %d\n", anonHuge(t)-before)
		return
	}
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		t.Fatal(err)
	}
	grown := func(how string) int {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestReserveHugeHeap$", "-test.count", "1")
		cmd.Env = append(os.Environ(), heapChild+"="+how)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		var n int
		if _, err := fmt.Sscanf(string(out), "grown %d", &n); err != nil {
			t.Fatalf("child said %q", out)
		}
		return n
	}
	with, without := grown("reserve"), grown("plain")
	switch {
	case bytes.Contains(mode, []byte("[madvise]")) && (with < 4<<10 || without != 0):
		t.Errorf("after 128 MB of small allocations, huge pages grew by %d KiB with the reservation and %d without; want several 2 MiB pages with it, none without (transparent_hugepage: %s)", with, without, bytes.TrimSpace(mode))
	case bytes.Contains(mode, []byte("[always]")) && with < 4<<10:
		t.Errorf("huge pages grew by %d KiB with the reservation and transparent_hugepage always", with)
	case bytes.Contains(mode, []byte("[never]")) && (with != 0 || without != 0):
		t.Errorf("huge pages grew by %d KiB with the reservation, %d without, with transparent_hugepage never", with, without)
	}
}

// vmRSS is the process's resident memory, in KiB.
func vmRSS(t *testing.T) int {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				t.Fatalf("status: %q", l)
			}
			return n
		}
	}
	t.Fatal("status has no VmRSS line")
	return 0
}

var small, freed [][]byte

// The reservation is address space, not memory, also in a process whose
// heap has used and freed memory before it (a test binary, or an index
// run that walked a tree): reserving 1 GiB makes the process's resident
// memory grow by a few MiB at most, not by the gigabyte (which the
// runtime's clearing of one allocation begun in freed memory did).
func TestReserveHugeHeapTouchesNoMemory(t *testing.T) {
	// A heap that grew to a large allocation and freed it: the
	// reservation's first fit begins in it.
	for i := range 3000 {
		small = append(small, make([]byte, 10000+i))
	}
	freed = [][]byte{make([]byte, 8<<20)}
	for i := range freed[0] {
		freed[0][i] = 1
	}
	small, freed = small[:len(small)/2], nil
	runtime.GC()
	before := vmRSS(t)
	ReserveHugeHeap(1 << 30)
	if grown := vmRSS(t) - before; grown > 64<<10 {
		t.Errorf("reserving 1 GiB of huge pages made the process's resident memory grow by %d MiB; want a few at most", grown>>10)
	}
}
