package store

import (
	"bytes"
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// hugeHeapChunk is the piece the reservation is allocated in: a multiple
// of a huge page (2 MiB), and small beside the reservation.
//
// One allocation of the whole would be cleared whole by the runtime
// whenever it begins in memory the heap used and freed before, which a
// process that has run for a moment has: a 2 GiB reservation then became
// 2 GiB of resident memory in a second and a half of page faults, and
// stayed so until the runtime returned it, one index run in eight on a
// large tree peaking at over twice its usual memory. In pieces, only a
// piece that lands in freed memory is cleared: a few MiB.
const hugeHeapChunk = 4 << 20

// adviseHugeHeap allocates n bytes, in pieces, and advises huge pages for
// them; the allocations are garbage once it returns. It does nothing
// where huge pages are never given, and unless the kernel overcommits
// (modes 0 and 1): in mode 2 every writable mapping counts against a
// strict commit limit, so an allocation of untouched memory is not free.
func adviseHugeHeap(n int) bool {
	if mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil || bytes.Contains(mode, []byte("[never]")) {
		return false
	}
	if mode, err := os.ReadFile("/proc/sys/vm/overcommit_memory"); err != nil || !bytes.Equal(bytes.TrimSpace(mode), []byte("0")) && !bytes.Equal(bytes.TrimSpace(mode), []byte("1")) {
		return false
	}
	pieces := make([][]byte, 0, (n+hugeHeapChunk-1)/hugeHeapChunk)
	advised := false
	for left := n; left > 0; left -= hugeHeapChunk {
		b := make([]byte, min(left, hugeHeapChunk))
		pieces = append(pieces, b)
		advised = unix.Madvise(b, unix.MADV_HUGEPAGE) == nil || advised
	}
	// Held to the end: a piece collected before the next is allocated
	// would be the next's memory, used before, and cleared.
	runtime.KeepAlive(pieces)
	return advised
}
