package pipeline

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// readHead reads a file whole up to its limit, whatever its size against
// the buffer it starts with: empty, smaller than the limit, exactly the
// limit, and past it.
func TestReadHead(t *testing.T) {
	dir := t.TempDir()
	const limit = 1000
	for _, size := range []int{0, 1, 511, 999, 1000, 1001, 5000} {
		want := bytes.Repeat([]byte("abcdefghij"), size/10+1)[:size]
		name := filepath.Join(dir, "f")
		if err := os.WriteFile(name, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got := readHead(name, limit)
		if size > limit {
			want = want[:limit]
		}
		if !bytes.Equal(got, want) {
			t.Errorf("a file of %d bytes: read %d bytes, want %d", size, len(got), len(want))
		}
	}
	if got := readHead(filepath.Join(dir, "missing"), limit); got != nil {
		t.Errorf("a missing file reads %d bytes", len(got))
	}
	if got := readHead(dir, limit); got != nil {
		t.Errorf("a directory reads %d bytes", len(got))
	}
}
