//go:build unix

package store

import (
	"os"

	"golang.org/x/sys/unix"
)

// ReadInto reads the file at path into buf, at most len(buf) bytes, and
// returns how many it read: fewer than len(buf) is the whole file. An
// index run reads thousands of files; plain system calls spare each the
// file descriptor bookkeeping os.File does (a status query and a poller
// registration attempt), a third of the calls. A link at path is not
// followed and a FIFO does not block the open: the tree is a repository's,
// and may have changed since the walk listed it.
func ReadInto(path string, buf []byte) (int, error) {
	var fd int
	var err error
	for {
		if fd, err = unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0); err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return 0, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(fd)
	n := 0
	for n < len(buf) {
		m, err := unix.Read(fd, buf[n:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return n, &os.PathError{Op: "read", Path: path, Err: err}
		}
		if m == 0 {
			break
		}
		n += m
	}
	return n, nil
}
