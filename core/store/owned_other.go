//go:build !unix

package store

import "os"

// openAppend opens path for appending; OpenAppend has checked with Lstat
// that it is not a link and checks the opened file is regular.
func openAppend(path string, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, perm)
}

func isLoop(error) bool { return false }

// openRead opens path for reading; OpenRegular checks what it is.
func openRead(path string) (*os.File, error) { return os.Open(path) }

// noFollow is 0 where the open flag does not exist.
const noFollow = 0

// nonBlock is 0 where the open flag does not exist.
const nonBlock = 0
