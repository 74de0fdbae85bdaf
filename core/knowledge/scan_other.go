//go:build !unix

package knowledge

import (
	"os"
	"path/filepath"
)

// versionsIn returns the version of each named file of dir (fileKey's
// form; "" for one that cannot be statted).
func versionsIn(dir string, names []string) []string {
	out := make([]string, len(names))
	parallel(len(names), func(k int) {
		if fi, err := os.Lstat(filepath.Join(dir, names[k])); err == nil && fi.Mode().IsRegular() {
			out[k] = keyOf(fi).String()
		}
	})
	return out
}
