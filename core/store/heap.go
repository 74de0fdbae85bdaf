package store

import "runtime"

// ReserveHugeHeap readies the next n bytes the Go heap grows by to be
// backed by transparent huge pages, where the system offers them on
// request (Linux's "madvise" mode, the usual default). An index run that
// parses a large project grows its heap by hundreds of megabytes; in 4 KiB
// pages each is a page fault, which on virtual machines costs tens of
// microseconds: on kubernetes they were a third of a cold index's time.
//
// It allocates n bytes the runtime maps fresh and never touches, in
// pieces of a few MiB, marks them for huge pages, and collects them at
// once, so the allocations that follow reuse that memory. Call it early
// in a process, before the heap has freed much: memory the heap has used
// before is cleared on allocation, which touches it (a piece that lands
// there is, not the whole: heap_linux.go). It costs one garbage
// collection, and no memory until the heap uses it.
func ReserveHugeHeap(n int) {
	if n <= 0 || !adviseHugeHeap(n) {
		return
	}
	runtime.GC()
}
