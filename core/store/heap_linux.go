package store

import (
	"bytes"
	"os"

	"golang.org/x/sys/unix"
)

// adviseHugeHeap allocates n bytes and advises huge pages for them; the
// allocation is garbage once it returns. It does nothing where huge pages
// are never given, and unless the kernel overcommits (modes 0 and 1): in
// mode 2 every writable mapping counts against a strict commit limit, so
// an allocation of untouched memory is not free.
func adviseHugeHeap(n int) bool {
	if mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil || bytes.Contains(mode, []byte("[never]")) {
		return false
	}
	if mode, err := os.ReadFile("/proc/sys/vm/overcommit_memory"); err != nil || !bytes.Equal(bytes.TrimSpace(mode), []byte("0")) && !bytes.Equal(bytes.TrimSpace(mode), []byte("1")) {
		return false
	}
	b := make([]byte, n)
	return unix.Madvise(b, unix.MADV_HUGEPAGE) == nil
}
