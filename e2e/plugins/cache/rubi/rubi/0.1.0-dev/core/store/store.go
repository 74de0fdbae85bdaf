// Package store holds rubi's on-disk primitives: atomic file writes and the
// cross-process lock that serializes writers of one .rubi/ directory. Two
// agent windows, the MCP server and hooks may all write at once; every
// write goes through here.
package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// WriteFile writes data to path atomically: a reader sees the old content or
// the new one, never a mix, and a crash leaves the old file intact. The data
// is written to a temporary file in the same directory, synced, and renamed
// over path; the directory is synced so the rename survives a power cut.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(name, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	ok = true
	syncDir(dir)
	return nil
}

// Lock is an exclusive lock on a directory, held across processes.
type Lock struct {
	fl *flock.Flock
}

// LockDir takes the exclusive lock of dir (a file named .lock inside it),
// waiting until ctx is done. The caller must Unlock.
func LockDir(ctx context.Context, dir string) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	fl := flock.New(filepath.Join(dir, ".lock"))
	ok, err := fl.TryLockContext(ctx, 25*time.Millisecond)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if !ok {
		return nil, fmt.Errorf("lock %s: another rubi process holds it", dir)
	}
	return &Lock{fl: fl}, nil
}

// Unlock releases the lock. It is safe to call more than once.
func (l *Lock) Unlock() error {
	if l == nil || l.fl == nil {
		return nil
	}
	return l.fl.Unlock()
}
