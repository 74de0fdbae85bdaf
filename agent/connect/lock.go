package connect

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"
)

// Claude Code serializes writes to its configuration files with the npm
// package proper-lockfile: the lock of FILE is a directory named
// FILE.lock, made with mkdir (which fails while it exists), whose
// modification time its holder refreshes; one left untouched for ten
// seconds belongs to a process that died and is taken over. rubi takes
// the same lock, so it never interleaves its read-change-write of
// ~/.claude.json with Claude Code's own, nor with another rubi's. A plain
// lock file by that name would break Claude Code, which expects a
// directory there.
const (
	// lockStale is how long an untouched lock is honoured
	// (proper-lockfile's default, which Claude Code keeps).
	lockStale = 10 * time.Second
	// lockRefresh is how often a holder touches its lock.
	lockRefresh = lockStale / 2
	// lockPoll is the wait between two tries.
	lockPoll = 25 * time.Millisecond
)

// fileLock is a held lock on one file.
type fileLock struct {
	dir  string
	stop chan struct{}
	done sync.WaitGroup
	once sync.Once
}

// lockFile takes the lock of path, waiting until ctx is done.
func lockFile(ctx context.Context, path string) (*fileLock, error) {
	dir := path + ".lock"
	for {
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			return holdLock(dir), nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if st, serr := os.Stat(dir); serr == nil && time.Since(st.ModTime()) > lockStale {
			// Abandoned by a process that died: take it over.
			os.Remove(dir)
			continue
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%s is locked by another process (Claude Code or rubi) through %s; try again", path, dir)
		case <-time.After(lockPoll):
		}
	}
}

// holdLock keeps the lock fresh while it is held, so that a long write is
// not mistaken for an abandoned lock.
func holdLock(dir string) *fileLock {
	l := &fileLock{dir: dir, stop: make(chan struct{})}
	l.done.Add(1)
	go func() {
		defer l.done.Done()
		t := time.NewTicker(lockRefresh)
		defer t.Stop()
		for {
			select {
			case <-l.stop:
				return
			case now := <-t.C:
				os.Chtimes(dir, now, now)
			}
		}
	}()
	return l
}

// unlock releases the lock. It is safe to call more than once.
func (l *fileLock) unlock() error {
	var err error
	l.once.Do(func() {
		close(l.stop)
		l.done.Wait()
		if rerr := os.Remove(l.dir); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			err = fmt.Errorf("unlock %s: %w", l.dir, rerr)
		}
	})
	return err
}
