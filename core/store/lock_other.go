//go:build !unix

package store

import (
	"fmt"
	"os"
)

// repairLock refuses a .lock that is not a regular file, naming it: without
// a lock on the folder itself, removing it could race another rubi
// process's repair and take the lock that process just made.
func repairLock(dir, path string) error {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("lock %s: %s is %s, not rubi's lock; remove it", dir, path, describeMode(fi.Mode()))
	}
	return nil
}
