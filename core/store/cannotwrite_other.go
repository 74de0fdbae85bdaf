//go:build !unix

package store

import (
	"errors"
	"io/fs"
	"syscall"
)

// CannotWrite reports whether err is a write the file system refused for
// want of permission or room (see the unix version).
func CannotWrite(err error) bool {
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EROFS)
}
