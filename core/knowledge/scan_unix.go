//go:build unix

package knowledge

import (
	"os"

	"golang.org/x/sys/unix"
)

// versionsIn returns the version of each named file of dir (fileKey's
// form; "" for one that cannot be statted), each statted relative to the
// open folder: a path of many folders is resolved once, not once a file.
func versionsIn(dir string, names []string) []string {
	out := make([]string, len(names))
	d, err := os.Open(dir)
	if err != nil {
		return out
	}
	defer d.Close()
	fd := int(d.Fd())
	parallel(len(names), func(k int) {
		var st unix.Stat_t
		if unix.Fstatat(fd, names[k], &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFREG {
			out[k] = fileKey{mod: st.Mtim.Nano(), size: st.Size, inode: uint64(st.Ino)}.String()
		}
	})
	return out
}
