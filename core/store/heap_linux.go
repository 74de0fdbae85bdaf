package store

import "golang.org/x/sys/unix"

// adviseHugeHeap allocates n bytes and advises huge pages for them; the
// allocation is garbage once it returns.
func adviseHugeHeap(n int) bool {
	b := make([]byte, n)
	return unix.Madvise(b, unix.MADV_HUGEPAGE) == nil
}
