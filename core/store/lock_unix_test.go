//go:build unix

package store

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// A .lock committed as a link (to a file outside), a FIFO or a socket is
// no lock rubi made: LockDir replaces it with a regular file and takes it,
// and what the link pointed at is untouched.
func TestLockRepairsWhatIsNoLock(t *testing.T) {
	for name, plant := range map[string]func(t *testing.T, path, outside string){
		"link": func(t *testing.T, path, outside string) {
			if err := os.Symlink(outside, path); err != nil {
				t.Fatal(err)
			}
		},
		"dangling link": func(t *testing.T, path, outside string) {
			if err := os.Symlink(outside+".missing", path); err != nil {
				t.Fatal(err)
			}
		},
		"fifo": func(t *testing.T, path, _ string) {
			if err := syscall.Mkfifo(path, 0o644); err != nil {
				t.Fatal(err)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			outside := filepath.Join(t.TempDir(), "secret")
			if err := os.WriteFile(outside, []byte("key"), 0o600); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, ".lock")
			plant(t, path, outside)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			l, err := LockDir(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Unlock()
			if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
				t.Errorf(".lock is not a regular file: %v %v", fi.Mode(), err)
			}
			if got, _ := os.ReadFile(outside); string(got) != "key" {
				t.Errorf("the link's target changed: %q", got)
			}
		})
	}
}

// Processes repairing a linked .lock at once never hold the lock together:
// none removes the regular lock another just made and holds.
func TestLockRepairKeepsTheLockExclusive(t *testing.T) {
	for range 20 {
		dir := t.TempDir()
		if err := os.Symlink("/nowhere", filepath.Join(dir, ".lock")); err != nil {
			t.Fatal(err)
		}
		var holders, most atomic.Int32
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				l, err := LockDir(ctx, dir)
				if err != nil {
					t.Error(err)
					return
				}
				n := holders.Add(1)
				for {
					m := most.Load()
					if n <= m || most.CompareAndSwap(m, n) {
						break
					}
				}
				time.Sleep(time.Millisecond)
				holders.Add(-1)
				l.Unlock()
			}()
		}
		wg.Wait()
		if most.Load() != 1 {
			t.Fatalf("%d goroutines held the lock at once", most.Load())
		}
	}
}

// A .lock held by a live process is a regular file: LockDir waits for it
// and never removes it.
func TestLockHeldIsNotRepaired(t *testing.T) {
	dir := t.TempDir()
	held, err := LockDir(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Unlock()
	before, _ := os.Stat(filepath.Join(dir, ".lock"))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if l, err := LockDir(ctx, dir); err == nil {
		l.Unlock()
		t.Fatal("took a lock another holder holds")
	}
	after, _ := os.Stat(filepath.Join(dir, ".lock"))
	if !os.SameFile(before, after) {
		t.Error("the held lock was replaced")
	}
}

// The moment a repair has looked and is about to remove the link is the
// one another repair could slip into: that one waits on the folder's lock
// instead of taking .lock and then losing it, so the two never hold the
// lock at once.
func TestLockRepairRace(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("/nowhere", filepath.Join(dir, ".lock")); err != nil {
		t.Fatal(err)
	}
	var holders, most atomic.Int32
	hold := func(l *Lock) {
		n := holders.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(300 * time.Millisecond)
		holders.Add(-1)
		l.Unlock()
	}
	got, done := make(chan bool, 1), make(chan bool)
	beforeRemove = func() {
		beforeRemove = nil
		go func() {
			defer close(done)
			l, err := LockDir(context.Background(), dir)
			if err != nil {
				t.Error(err)
				got <- true
				return
			}
			got <- true
			hold(l)
		}()
		// The other repair gets every chance to take the lock here.
		select {
		case <-got:
		case <-time.After(200 * time.Millisecond):
		}
	}
	defer func() { beforeRemove = nil }()
	first, err := LockDir(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	hold(first)
	<-done
	if most.Load() != 1 {
		t.Fatalf("%d repairs held the lock at once", most.Load())
	}
}
