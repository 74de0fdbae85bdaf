package store

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// syncData makes the data of the given files durable. On Linux one
// syncfs per filesystem does it for all of them at once.
func syncData(paths []string) error {
	done := map[string]bool{}
	for _, p := range paths {
		if p == "" || done[filepath.Dir(p)] {
			continue
		}
		done[filepath.Dir(p)] = true
		d, err := os.Open(filepath.Dir(p))
		if err != nil {
			return err
		}
		err = unix.Syncfs(int(d.Fd()))
		d.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
