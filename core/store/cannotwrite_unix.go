//go:build unix

package store

import (
	"errors"
	"syscall"
)

// CannotWrite reports whether err is a write the file system refused for
// want of permission or room: a read-only .rubi/ (mode 0555, a read-only
// mount), a full disk or quota, a file-size limit. A query whose index
// refresh fails so still answers from the index as it stands.
func CannotWrite(err error) bool {
	for _, e := range []error{syscall.EACCES, syscall.EPERM, syscall.EROFS, syscall.ENOSPC, syscall.EDQUOT, syscall.EFBIG} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
