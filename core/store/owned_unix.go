//go:build unix

package store

import (
	"errors"
	"os"
	"syscall"
)

// openAppend opens without following a final symbolic link, and without
// blocking on a FIFO.
func openAppend(path string, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, perm)
}

// isLoop reports the error O_NOFOLLOW gives for a link (ELOOP; EMLINK on
// some BSDs).
func isLoop(err error) bool {
	return errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK)
}

// openRead opens for reading without blocking on a FIFO (reads of a
// regular file ignore O_NONBLOCK).
func openRead(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// noFollow keeps an open from following a final symbolic link.
const noFollow = syscall.O_NOFOLLOW

// nonBlock keeps an open from waiting on a FIFO.
const nonBlock = syscall.O_NONBLOCK
