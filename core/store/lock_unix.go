//go:build unix

package store

import (
	"fmt"
	"os"
	"syscall"
)

// repairLock removes path when it is a link, a FIFO, a socket or a device:
// rubi's lock is always a regular file, so no rubi process holds one of
// those, and removing it takes no lock from anyone. Two rubi processes may
// repair at once: each looks and removes under an exclusive flock of dir
// itself, so one never removes the regular lock the other just created
// and holds. A folder named .lock is left for the user, named in the error.
func repairLock(dir, path string) error {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode().IsRegular() {
		return nil // missing or a file: the lock creates or takes it
	}
	if fi.IsDir() {
		return fmt.Errorf("lock %s: %s is a folder, not rubi's lock; remove it", dir, path)
	}
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("lock %s: %w", dir, err)
	}
	defer d.Close()
	if err := syscall.Flock(int(d.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("lock %s: %w", dir, err)
	}
	defer syscall.Flock(int(d.Fd()), syscall.LOCK_UN)
	// Looked at again under the folder's lock: another process may have
	// repaired it, created the regular lock and taken it since.
	fi, err = os.Lstat(path)
	if err != nil || fi.Mode().IsRegular() || fi.IsDir() {
		return nil
	}
	if beforeRemove != nil {
		beforeRemove()
	}
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("lock %s: remove %s (%s, not a lock rubi made): %w", dir, path, describeMode(fi.Mode()), err)
	}
	return nil
}

// beforeRemove, when set (by a test), runs between repairLock's last look
// and its removal: where another process's repair would slip in.
var beforeRemove func()
