package store

import (
	"errors"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// FileVersion is a file and the version of it a listing found (Version).
type FileVersion struct {
	Path    string
	Version string
}

// Version names one version of a file: its modification time in Unix
// nanoseconds, its size and its inode (0 where the system has none). A
// file renamed over another has another inode even when its size and
// (coarse) time are the same.
func Version(mod, size int64, inode uint64) string {
	var b [64]byte
	v := strconv.AppendInt(b[:0], mod, 10)
	v = strconv.AppendInt(append(v, '/'), size, 10)
	v = strconv.AppendUint(append(v, '/'), inode, 10)
	return string(v)
}

// VersionOf is the Version of a file as fi describes it.
func VersionOf(fi fs.FileInfo) string {
	return Version(fi.ModTime().UnixNano(), fi.Size(), Inode(fi))
}

// ScanFolder lists the regular files of dir whose names keep accepts, each
// with its version now, sorted by path, reading none of them: compared
// with an earlier listing, it tells which files changed, for a stat each,
// the least finding them can cost. A file that cannot be statted has an
// empty version; a missing folder lists nothing.
func ScanFolder(dir string, keep func(name string) bool) ([]FileVersion, error) {
	names, maybe, err := listNames(dir, keep)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := make([]FileVersion, 0, len(names))
	prefix := dir + string(filepath.Separator)
	for k, v := range versionsIn(dir, names) {
		if v == "" && maybe[k] {
			continue // of a type the listing did not say, and not a regular file
		}
		out = append(out, FileVersion{prefix + names[k], v})
	}
	slices.SortFunc(out, func(a, b FileVersion) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// Each calls fn for 0..n-1 from one worker per processor, eachBatch
// numbers at a time; fewer than two batches are done in line. For system
// calls on many files, which cost more than they compute.
func Each(n int, fn func(k int)) {
	workers := min(runtime.GOMAXPROCS(0), n/eachBatch)
	if workers < 2 {
		for k := range n {
			fn(k)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				from := int(next.Add(eachBatch)) - eachBatch
				if from >= n {
					return
				}
				for k := from; k < min(from+eachBatch, n); k++ {
					fn(k)
				}
			}
		})
	}
	wg.Wait()
}

// eachBatch is how many numbers an Each worker takes at a time.
const eachBatch = 128
