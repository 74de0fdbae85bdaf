//go:build !linux

package store

import "os"

// syncData makes the data of the given files durable, one fsync each.
func syncData(paths []string) error {
	for _, p := range paths {
		if p == "" {
			continue
		}
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		if err != nil {
			return err
		}
		err = f.Sync()
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
