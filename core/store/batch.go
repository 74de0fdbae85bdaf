package store

import (
	"fmt"
	"os"
	"path/filepath"
)

// File is one file of a batch write.
type File struct {
	Path string
	Data []byte
	Perm os.FileMode
}

// WriteFiles writes several files with WriteFile's guarantees (each file
// is replaced whole or not at all, even across a crash) at a fraction of
// the cost: every file is written to a temporary first, the data of all of
// them is made durable with one filesystem sync, then each is renamed over
// its path and each directory is synced once. Per-file syncs, which
// dominate the cost of writing many small files, are avoided. It returns
// one error per file (nil for success), in the order given.
func WriteFiles(files []File) []error {
	errs := make([]error, len(files))
	temps := make([]string, len(files))
	for i, f := range files {
		temps[i], errs[i] = writeTemp(f)
	}
	if err := syncData(temps); err != nil {
		for i := range files {
			if errs[i] == nil {
				errs[i] = fmt.Errorf("write %s: %w", files[i].Path, err)
			}
		}
	}
	dirs := map[string]bool{}
	for i, f := range files {
		if errs[i] != nil {
			if temps[i] != "" {
				os.Remove(temps[i])
			}
			continue
		}
		if err := os.Rename(temps[i], f.Path); err != nil {
			os.Remove(temps[i])
			errs[i] = fmt.Errorf("write %s: %w", f.Path, err)
			continue
		}
		dirs[filepath.Dir(f.Path)] = true
	}
	for dir := range dirs {
		syncDir(dir)
	}
	return errs
}

// Staged is a file written beside its path, not yet in its place: a
// write that must wait for others before it counts, and need not wait for
// the disk (as WriteDerived writes).
type Staged struct {
	tmp, path string
}

// StageDerived writes data to a temporary file beside path, without
// waiting for the disk; Commit puts it in place atomically, Abort drops
// it. Writing while other work runs, and renaming once it is done, costs
// the wait a rename.
func StageDerived(path string, data []byte, perm os.FileMode) (*Staged, error) {
	tmp, err := writeTemp(File{Path: path, Data: data, Perm: perm})
	if err != nil {
		return nil, err
	}
	return &Staged{tmp: tmp, path: path}, nil
}

// Commit renames the staged file over its path.
func (s *Staged) Commit() error {
	if err := os.Rename(s.tmp, s.path); err != nil {
		os.Remove(s.tmp)
		return fmt.Errorf("write %s: %w", s.path, err)
	}
	return nil
}

// Abort removes the staged file.
func (s *Staged) Abort() { os.Remove(s.tmp) }

// writeTemp writes f's data to a new temporary file beside it, unsynced.
func writeTemp(f File) (string, error) {
	dir := filepath.Dir(f.Path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(f.Path)+".tmp-*")
	if err != nil {
		return "", fmt.Errorf("write %s: %w", f.Path, err)
	}
	_, err = tmp.Write(f.Data)
	if err == nil {
		err = tmp.Chmod(f.Perm)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("write %s: %w", f.Path, err)
	}
	return tmp.Name(), nil
}

// syncDir makes a directory's entries durable. Best effort: some
// filesystems refuse to sync a directory.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
