package store

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A file WriteVerified wrote is Unchanged until anything touches it: a
// rewrite in place with the same bytes or the same size, a replacement,
// a lost or torn record.
func TestWriteVerifiedUnchanged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "graph.bin")
	write := func() {
		t.Helper()
		if err := WriteVerified(path, []byte("the index's bytes"), 0o644); err != nil {
			t.Fatal(err)
		}
		if !Unchanged(path) {
			t.Fatal("a file just written is not Unchanged")
		}
	}
	write()
	if Unchanged(filepath.Join(dir, "other.bin")) {
		t.Error("a missing file is Unchanged")
	}
	time.Sleep(10 * time.Millisecond) // distinct change times on coarse clocks
	for name, change := range map[string]func() error{
		"same bytes rewritten": func() error { return os.WriteFile(path, []byte("the index's bytes"), 0o644) },
		"a byte changed":       func() error { return os.WriteFile(path, []byte("the index's bytez"), 0o644) },
		"replaced":             func() error { return WriteFile(path, []byte("the index's bytes"), 0o644) },
		"record lost":          func() error { return os.Remove(path + WrittenSuffix) },
		"record torn":          func() error { return os.WriteFile(path+WrittenSuffix, []byte("12 3"), 0o644) },
	} {
		write()
		time.Sleep(10 * time.Millisecond)
		if err := change(); err != nil {
			t.Fatal(err)
		}
		if Unchanged(path) {
			t.Errorf("%s: still Unchanged", name)
		}
	}
}
