//go:build unix

package knowledge

import (
	"io/fs"
	"syscall"
)

// inode identifies the file behind a name: store.WriteFile renames a new
// file over the old one, so a rewrite changes it even when the size and
// the (coarse) modification time do not.
func inode(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
