//go:build unix

package store

import (
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// Inode is the inode of the file fi describes, 0 where the system has
// none: store.WriteFile renames a new file over the old one, so a rewrite
// changes it even when the size and the (coarse) time do not.
func Inode(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}

// versionsIn returns the version of each named file of dir ("" for one
// that cannot be statted or is no longer a regular file), each statted
// relative to the open folder: a path of many folders is resolved once,
// not once a file.
func versionsIn(dir string, names []string) []string {
	out := make([]string, len(names))
	d, err := os.Open(dir)
	if err != nil {
		return out
	}
	defer d.Close()
	fd := int(d.Fd())
	Each(len(names), func(k int) {
		var st unix.Stat_t
		if unix.Fstatat(fd, names[k], &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFREG {
			out[k] = Version(st.Mtim.Nano(), st.Size, uint64(st.Ino))
		}
	})
	return out
}
