package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestWriteFileReplacesAtomically(t *testing.T) {
	for name, write := range map[string]func(string, []byte, os.FileMode) error{"WriteFile": WriteFile, "WriteDerived": WriteDerived} {
		dir := t.TempDir()
		path := filepath.Join(dir, "sub", "state.bin")
		if err := write(path, []byte("one"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := write(path, []byte("two"), 0o644); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		st, _ := os.Stat(path)
		if string(data) != "two" || st.Mode().Perm() != 0o644 {
			t.Errorf("%s: content %q, mode %v", name, data, st.Mode())
		}
		entries, _ := os.ReadDir(filepath.Dir(path))
		if len(entries) != 1 {
			t.Errorf("%s: temporary files left behind: %v", name, entries)
		}
	}
}

// Readers racing with writers see one whole version or another, never a
// mix or an empty file.
func TestConcurrentWritersAndReaders(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	versions := map[string]bool{}
	for i := range 8 {
		versions[fmt.Sprintf("%d:%0500d", i, i)] = true
	}
	if err := WriteFile(path, []byte(fmt.Sprintf("%d:%0500d", 0, 0)), 0o644); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			write := WriteFile
			if i%2 == 1 {
				write = WriteDerived // the same promise to readers
			}
			for range 20 {
				if err := write(path, []byte(fmt.Sprintf("%d:%0500d", i, i)), 0o644); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for {
		select {
		case <-done:
			return
		default:
		}
		data, err := os.ReadFile(path)
		if err != nil || !versions[string(data)] {
			t.Fatalf("read %d bytes, err %v: not a whole version", len(data), err)
		}
	}
}

func TestWriteFileError(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	os.WriteFile(blocker, nil, 0o644)
	// A path under a regular file cannot be created; the error names it.
	err := WriteFile(filepath.Join(blocker, "x"), []byte("a"), 0o644)
	if err == nil || !strings.Contains(err.Error(), blocker) {
		t.Fatalf("err = %v", err)
	}
}

func TestLockDirExcludes(t *testing.T) {
	dir := t.TempDir()
	first, err := LockDir(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	if _, err := LockDir(ctx, dir); err == nil {
		t.Fatal("a second holder got the lock")
	}
	got := make(chan error, 1)
	go func() {
		l, err := LockDir(context.Background(), dir)
		if err == nil {
			l.Unlock()
		}
		got <- err
	}()
	first.Unlock()
	if err := <-got; err != nil {
		t.Fatalf("waiting holder: %v", err)
	}
	if err := first.Unlock(); err != nil {
		t.Errorf("second Unlock: %v", err)
	}
}

func TestMap(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := WriteFile(p, []byte("hello, mapped"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Map(p, false)
	if err != nil || string(m.Data) != "hello, mapped" {
		t.Fatalf("Map = %q, %v", m.Data, err)
	}
	// A replacement by rename does not change what the mapping shows.
	if err := WriteFile(p, []byte("replaced"), 0o644); err != nil {
		t.Fatal(err)
	}
	if string(m.Data) != "hello, mapped" {
		t.Errorf("after a rename over the file: %q", m.Data)
	}
	if err := m.Close(); err != nil || m.Data != nil || m.Close() != nil {
		t.Errorf("Close: %v, data %q", err, m.Data)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if m, err := Map(empty, false); err != nil || len(m.Data) != 0 {
		t.Errorf("empty file: %v, %v", m, err)
	}
	if _, err := Map(filepath.Join(dir, "missing"), false); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}

func TestArena(t *testing.T) {
	a := NewArena(10)
	x, y := a.Alloc(4), a.Alloc(6)
	if len(x) != 4 || cap(x) != 4 || len(y) != 6 {
		t.Fatalf("allocations %d/%d and %d", len(x), cap(x), len(y))
	}
	copy(x, "abcd")
	copy(y, "efghij")
	if string(x) != "abcd" || string(y) != "efghij" {
		t.Errorf("slices overlap: %q %q", x, y)
	}
	if z := a.Alloc(1); z != nil {
		t.Errorf("a full arena gave %d bytes", len(z))
	}
	a.Release()
	a.Release()
	if NewArena(0).Alloc(1) != nil {
		t.Error("an empty arena gave memory")
	}
}

func TestStamp(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := WriteFile(p, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := StampOf(p)
	if err != nil || !a.Valid() {
		t.Fatal(err)
	}
	if b, _ := StampOf(p); !a.Same(b) {
		t.Error("the same file stamped twice differs")
	}
	// Same size, and maybe the same time: a rename is still a new version.
	if err := WriteFile(p, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := StampOf(p); a.Same(b) {
		t.Error("a replaced file looks the same")
	}
	if s, err := StampOf(p + ".missing"); err == nil || s.Valid() || s.Same(s) {
		t.Error("a missing file has a stamp")
	}
}

// A Writer's pieces replace the file only once committed; an aborted
// one leaves it as it was, and neither leaves a temporary file.
func TestWriterReplacesOnCommit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "big.jsonl")
	if err := WriteFile(path, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, commit := range []bool{false, true} {
		w, err := CreateWriter(path, 0o640)
		if err != nil {
			t.Fatal(err)
		}
		for _, piece := range []string{"one\n", "two\n"} {
			if _, err := w.Write([]byte(piece)); err != nil {
				t.Fatal(err)
			}
		}
		if data, _ := os.ReadFile(path); string(data) != "old\n" {
			t.Fatalf("before Commit the file reads %q", data)
		}
		want := "old\n"
		if commit {
			if err := w.Commit(); err != nil {
				t.Fatal(err)
			}
			want = "one\ntwo\n"
		} else {
			w.Abort()
		}
		data, _ := os.ReadFile(path)
		if string(data) != want {
			t.Errorf("commit %v: the file reads %q, want %q", commit, data, want)
		}
		if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
			t.Errorf("commit %v: temporary files left behind: %v", commit, entries)
		}
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, %v", st.Mode(), err)
	}
}

// ReadWithinKept and ReadLeafKept give a file's bytes mapped in a
// one-shot process and read in any other, with the checks of ReadWithin
// and ReadLeaf either way: a file over the cap, a link and one outside
// the base are refused.
func TestReadKept(t *testing.T) {
	base := t.TempDir()
	p := filepath.Join(base, "f")
	if err := WriteFile(p, []byte("kept bytes"), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(outside, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(base, "empty")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, oneShot := range []bool{false, true} {
		for name, read := range map[string]func(path string, limit int64) ([]byte, error){
			"within": func(path string, limit int64) ([]byte, error) { return ReadWithinKept(base, path, limit, oneShot) },
			"leaf":   func(path string, limit int64) ([]byte, error) { return ReadLeafKept(path, limit, oneShot) },
		} {
			if data, err := read(p, 100); err != nil || string(data) != "kept bytes" {
				t.Errorf("%s, one-shot %v: %q, %v", name, oneShot, data, err)
			}
			if data, err := read(empty, 100); err != nil || len(data) != 0 {
				t.Errorf("%s, one-shot %v, empty: %q, %v", name, oneShot, data, err)
			}
			if _, err := read(p, 5); !errors.Is(err, ErrTooLarge) {
				t.Errorf("%s, one-shot %v, over the cap: %v", name, oneShot, err)
			}
			if _, err := read(link, 100); err == nil {
				t.Errorf("%s, one-shot %v: a link was read", name, oneShot)
			}
		}
		if _, err := ReadWithinKept(base, outside, 100, oneShot); err == nil {
			t.Errorf("one-shot %v: a file outside the base was read", oneShot)
		}
	}
}
