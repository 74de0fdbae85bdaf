package store

import "sync/atomic"

// Arena hands out byte slices from one large block of memory, for the
// many file contents an index run reads and drops together. On Linux the
// block is an anonymous mapping with transparent huge pages, so reading
// 100 MB of files takes a page fault per 2 MiB instead of per 4 KiB of
// fresh memory (on virtual machines the faults cost more than the reads).
// Slices must not be used after Release.
type Arena struct {
	buf     []byte
	off     atomic.Int64
	release func()
}

// NewArena reserves size bytes.
func NewArena(size int) *Arena {
	a := &Arena{}
	if size <= 0 {
		return a
	}
	if buf, release, err := anonymous(size); err == nil {
		a.buf, a.release = buf, release
	} else {
		a.buf = make([]byte, size)
	}
	return a
}

// Alloc returns n bytes of the arena, or nil when it has no room left.
// It is safe for concurrent use.
func (a *Arena) Alloc(n int) []byte {
	end := a.off.Add(int64(n))
	if end > int64(len(a.buf)) || n < 0 {
		return nil
	}
	return a.buf[end-int64(n) : end : end]
}

// Release returns the memory; the slices Alloc gave are invalid after.
func (a *Arena) Release() {
	if a.release != nil {
		a.release()
		a.release = nil
	}
	a.buf = nil
}

// Reset takes back every slice Alloc gave, for the arena to give its
// memory again: the slices given before are invalid after. It must not
// run beside Alloc.
func (a *Arena) Reset() { a.off.Store(0) }
