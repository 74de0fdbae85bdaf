//go:build !linux && !darwin

package walk

import (
	"errors"
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

// Here a directory has no stamp, so no walk remembers a listing (Dirs):
// every walk lists every directory.

func pathStamp(string, bool) stamp { return stamp{} }
func fileStamp(*os.File) stamp     { return stamp{} }

type openedDir struct{}

func openDir(string, bool) (openedDir, stamp, error) {
	return openedDir{}, stamp{}, errors.ErrUnsupported
}

func (openedDir) close()                                 {}
func (openedDir) stampAt(string) (stamp, bool)           { return stamp{}, false }
func (openedDir) fileAt(string) (int64, time.Time, bool) { return 0, time.Time{}, false }
