//go:build unix

package store

import (
	"os"

	"golang.org/x/sys/unix"
)

func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	if int64(int(size)) != size {
		return nil, nil, unix.EFBIG
	}
	flags := unix.MAP_SHARED
	if !OneShot() {
		// A query process reads much of what it maps: in one call, not a
		// page fault a page. A one-shot one (a hook) answers one narrow
		// query, a recall of notes, which reads a few pages of indexes
		// of megabytes: populating them cost it more than its faults
		// (2.5 ms of a recall on kubernetes).
		flags |= populate
	}
	data, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, flags)
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return unix.Munmap(data) }, nil
}
