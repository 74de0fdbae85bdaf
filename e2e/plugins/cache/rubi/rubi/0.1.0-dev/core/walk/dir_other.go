//go:build !linux && !darwin

package walk

import (
	"io/fs"
	"os"
	"time"
)

func readDir(dir string) ([]fs.DirEntry, func(), error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, func() {}, err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	return entries, func() {}, err
}

func statEntry(e fs.DirEntry) (int64, time.Time, error) { return statInfo(e) }
