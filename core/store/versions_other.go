//go:build !unix

package store

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Inode is unknown here: a modification time and a size tell versions
// apart.
func Inode(fs.FileInfo) uint64 { return 0 }

// versionsIn returns the version of each named file of dir ("" for one
// that cannot be statted or is no longer a regular file).
func versionsIn(dir string, names []string) []string {
	out := make([]string, len(names))
	Each(len(names), func(k int) {
		if fi, err := os.Lstat(filepath.Join(dir, names[k])); err == nil && fi.Mode().IsRegular() {
			out[k] = VersionOf(fi)
		}
	})
	return out
}
