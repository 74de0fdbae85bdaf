//go:build unix

package store

import (
	"os"

	"golang.org/x/sys/unix"
)

func mapFile(f *os.File, size int64, populated bool) ([]byte, func() error, error) {
	if int64(int(size)) != size {
		return nil, nil, unix.EFBIG
	}
	flags := unix.MAP_SHARED
	if populated {
		flags |= populate
	}
	data, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, flags)
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return unix.Munmap(data) }, nil
}
