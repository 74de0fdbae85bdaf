package store

import "golang.org/x/sys/unix"

func anonymous(size int) ([]byte, func(), error) {
	buf, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return nil, nil, err
	}
	_ = unix.Madvise(buf, unix.MADV_HUGEPAGE) // advice only: without it, pages are small
	return buf, func() { unix.Munmap(buf) }, nil
}
