package store

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A file WriteVerified or WriteDerivedVerified wrote is Unchanged until
// anything touches it: a rewrite in place with the same bytes or the same
// size, a replacement, a lost or torn record.
func TestWriteVerifiedUnchanged(t *testing.T) {
	for name, writer := range map[string]func(string, []byte, os.FileMode) error{"WriteVerified": WriteVerified, "WriteDerivedVerified": WriteDerivedVerified} {
		t.Run(name, func(t *testing.T) { testVerifiedUnchanged(t, writer) })
	}
}

func testVerifiedUnchanged(t *testing.T, writer func(string, []byte, os.FileMode) error) {
	dir := t.TempDir()
	path := filepath.Join(dir, "graph.bin")
	write := func() {
		t.Helper()
		if err := writer(path, []byte("the index's bytes"), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(path); err != nil || string(got) != "the index's bytes" {
			t.Fatalf("read back %q, %v", got, err)
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
