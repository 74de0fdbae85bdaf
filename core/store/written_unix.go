//go:build unix

package store

import "golang.org/x/sys/unix"

// versionOf describes the version of the file at path (see describe).
func versionOf(path string) (string, bool) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return "", false
	}
	return describe(uint64(st.Dev), uint64(st.Ino), st.Size, st.Mtim.Nano(), st.Ctim.Nano()), true
}
