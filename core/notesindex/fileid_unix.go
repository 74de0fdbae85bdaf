//go:build unix

package notesindex

import (
	"io/fs"
	"syscall"
)

// fileID tells a folder from another that took its place (a git
// checkout's, a rename): its device and inode.
func fileID(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev)<<40 ^ uint64(st.Ino)
	}
	return 0
}
