// Package store holds rubi's on-disk primitives. Two agent windows, the MCP
// server and hooks may all write one .rubi/ at once, and every file of a
// repository, .rubi/ included, may have been crafted by someone else: every
// write and every read of a repository's files goes through here
// (reads_test.go at the root enforces the reads).
//
// Writes are atomic: a temporary beside the file, fsync, rename, the
// directory's sync (WriteFile). WriteFiles writes a batch with the same
// guarantee for each file at a fraction of the cost: every temporary, one
// filesystem sync, the renames, each directory's sync. Derived files
// (WriteDerived, WriteDerivedVerified, StageDerived) are written without
// waiting for the disk: they are read back through a checksum, so a loss
// in a power cut fails the checksum and a full index rebuilds them.
//
// Locks: LockDir is the cross-process lock of a folder (gofrs/flock on
// .lock, opened without following a link); a .lock that is a link, a FIFO
// or a device is not one rubi made and is replaced by a regular file, or a
// committed one would stop rubi writing there for good. Every folder rubi
// writes is checked with Confined or locked with LockWithin, so a cloned
// .rubi/knowledge that links out of the project is refused before anything
// is created; logs are opened with OpenAppend. KeepIgnored keeps rubi's
// lines last in .rubi/.gitignore, so a committed "!*" cannot stage the
// session records. CannotWrite recognises a read-only .rubi/ or a full
// disk: the caller answers from the index as it stands, with one warning.
//
// Reads: ReadWithin and OpenWithin read a repository's file (no link out of
// the base, none at the file, regular files only, opened without
// blocking, capped); ReadLeaf and OpenLeaf an index file (no link at it);
// ReadRegular a file of the user's own.
//
// Verified files: a ranker's index files carry checksums of their whole
// content, and reading megabytes only to check them cost a fresh process
// more than its query. A file written with WriteVerified gets a record of
// the version written beside it (.written: device, inode, size,
// modification and change times), and a reader that finds the file still
// that version skips the checksum (Unchanged, UnchangedAt). Any rewrite,
// truncation or edit in place changes the version, and the file is
// checked whole again; index runs check whole files before they build on
// or keep them.
//
// Mapped files (Map, CloseWith): index files are memory-mapped for queries
// and used where they lie. A one-shot process (rubi context, a hook: its
// command passes that choice down as pipeline.Options.OneShot and
// core.Setup.OneShot, and Map takes it as an argument; the store keeps no
// switch of its own) keeps its mappings until it exits instead of copying
// out of them: read into fresh memory, each 4 KiB costs a page fault,
// which on the 2-core VMs took longer than the query. It also maps
// without populating the pages ahead: its one query reads a few pages of
// indexes of megabytes (a hook's recall 2–3 ms sooner, rubi context 2–6 %
// less CPU on kubernetes).
//
// ReserveHugeHeap: an index run of a command (not the MCP server) that
// reads 16 MiB or more first reserves eight times that much of its heap
// (2 GiB at most) in transparent huge pages: a fresh allocation advised
// MADV_HUGEPAGE and collected at once, so the heap reuses it; skipped
// where huge pages are never given or the kernel does not overcommit.
// Each 4 KiB page of a growing heap is otherwise a page fault, which on
// these virtual machines costs tens of microseconds: kubernetes' cold index took 77,000 of them, then about
// 4,000. A one-shot process's notes delta (a hook's, after an edited
// note) reserves 32 times the notes' state, at least 8 MiB: on kubernetes
// with 2,000 notes such a hook took 58 ms instead of 75.
package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

// WriteFile writes data to path atomically: a reader sees the old content or
// the new one, never a mix, and a crash leaves the old file intact. The data
// is written to a temporary file in the same directory, synced, and renamed
// over path; the directory is synced so the rename survives a power cut.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return writeFile(path, data, perm, true)
}

// WriteDerived writes data to path atomically as WriteFile does, without
// waiting for it to reach the disk: for a file derived from others, read
// back through a checksum, whose loss or damage in a power cut costs the
// next run rebuilding it and nothing else. Concurrent readers still see
// the old content or the new one.
func WriteDerived(path string, data []byte, perm os.FileMode) error {
	return writeFile(path, data, perm, false)
}

func writeFile(path string, data []byte, perm os.FileMode, durable bool) error {
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
	if durable {
		if err := tmp.Sync(); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(name, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	ok = true
	if durable {
		syncDir(dir)
	}
	return nil
}

// Lock is an exclusive lock on a directory, held across processes.
type Lock struct {
	fl *flock.Flock
}

// LockDir takes the exclusive lock of dir (a file named .lock inside it),
// waiting until ctx is done. The caller must Unlock. A .lock that is a
// link is not followed (it could create a file wherever it points), and
// neither it nor a FIFO or a device there is a lock rubi made: a committed
// one would stop rubi writing in dir for good, so it is removed and a
// regular file takes its place (repairLock).
func LockDir(ctx context.Context, dir string) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	path := filepath.Join(dir, ".lock")
	if err := repairLock(dir, path); err != nil {
		return nil, err
	}
	fl := flock.New(path, flock.SetFlag(os.O_CREATE|os.O_RDWR|noFollow|nonBlock))
	ok, err := fl.TryLockContext(ctx, 25*time.Millisecond)
	if err != nil && isLoop(err) {
		// It became a link since repairLock looked.
		if err := repairLock(dir, path); err != nil {
			return nil, err
		}
		ok, err = fl.TryLockContext(ctx, 25*time.Millisecond)
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if !ok {
		return nil, fmt.Errorf("lock %s: another rubi process holds it", dir)
	}
	return &Lock{fl: fl}, nil
}

// LockWithin is LockDir for a folder that must lie inside base (a project
// root, the vault): it refuses, naming the folder, when a link on the way
// leads out of base, before anything is created there.
func LockWithin(ctx context.Context, base, dir string) (*Lock, error) {
	if err := Confined(base, dir); err != nil {
		return nil, err
	}
	return LockDir(ctx, dir)
}

// Confined checks that dir, every link on its way resolved, lies inside
// base (resolved too). The part of dir that does not exist yet is taken as
// written. A repository just cloned may hold .rubi/knowledge as a link to
// a folder elsewhere on the machine: rubi must not write there.
func Confined(base, dir string) error {
	inside, real, err := within(base, dir)
	if err != nil {
		return err
	}
	if !inside {
		return fmt.Errorf("refusing to write in %s: it leads out of %s (to %s) through a symbolic link: %w", dir, base, real, ErrNotOwned)
	}
	return nil
}

// Inside reports whether path, every link on its way resolved, lies inside
// base: what a reader checks before it follows a path a file named (an
// import's chunk list, say).
func Inside(base, path string) bool {
	ok, _, err := within(base, path)
	return err == nil && ok
}

func within(base, path string) (bool, string, error) {
	realBase, err := resolveExisting(base)
	if err != nil {
		return false, "", err
	}
	real, err := resolveExisting(path)
	if err != nil {
		return false, "", err
	}
	rel, err := filepath.Rel(realBase, real)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel), real, nil
}

// resolveExisting resolves the links of the longest existing prefix of
// path and joins the rest as written.
func resolveExisting(path string) (string, error) {
	path = filepath.Clean(path)
	var rest []string
	for p := path; ; p = filepath.Dir(p) {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(append([]string{real}, rest...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%s: %w", path, err)
		}
		if filepath.Dir(p) == p {
			return path, nil
		}
		rest = append([]string{filepath.Base(p)}, rest...)
	}
}

// Unlock releases the lock. It is safe to call more than once.
func (l *Lock) Unlock() error {
	if l == nil || l.fl == nil {
		return nil
	}
	return l.fl.Unlock()
}

// Writer writes a file in pieces, atomically as WriteFile writes it
// whole: the pieces go to a temporary file beside path, which Commit
// syncs and renames over path; until then, and after Abort, path is as
// it was. For a file too large to hold in memory at once.
type Writer struct {
	tmp  *os.File
	path string
	perm os.FileMode
}

// CreateWriter starts writing path.
func CreateWriter(path string, perm os.FileMode) (*Writer, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return &Writer{tmp: tmp, path: path, perm: perm}, nil
}

// Write appends b to the file.
func (w *Writer) Write(b []byte) (int, error) {
	n, err := w.tmp.Write(b)
	if err != nil {
		err = fmt.Errorf("write %s: %w", w.path, err)
	}
	return n, err
}

// Commit puts the file written in place, durably; on an error it is
// removed and path left as it was.
func (w *Writer) Commit() error {
	name := w.tmp.Name()
	err := w.tmp.Chmod(w.perm)
	if err == nil {
		err = w.tmp.Sync()
	}
	if cerr := w.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(name, w.path)
	}
	if err != nil {
		os.Remove(name)
		return fmt.Errorf("write %s: %w", w.path, err)
	}
	syncDir(filepath.Dir(w.path))
	return nil
}

// Abort removes what was written; path is left as it was.
func (w *Writer) Abort() {
	w.tmp.Close()
	os.Remove(w.tmp.Name())
}
