package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ReadInto reads a whole file into a larger buffer, stops at the buffer's
// end for a file that grew, and names the file it cannot open.
func TestReadInto(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.txt")
	if err := os.WriteFile(path, []byte("hello, rubi"), 0o644); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 12)
	if n, err := ReadInto(path, buf); err != nil || string(buf[:n]) != "hello, rubi" {
		t.Errorf("whole file: %q, %v", buf[:n], err)
	}
	small := make([]byte, 5)
	if n, err := ReadInto(path, small); err != nil || n != 5 || string(small) != "hello" {
		t.Errorf("a file larger than the buffer: %d %q, %v", n, small, err)
	}
	if n, err := ReadInto(filepath.Join(t.TempDir(), "gone.txt"), buf); err == nil || n != 0 || !strings.Contains(err.Error(), "gone.txt") {
		t.Errorf("missing file: %d, %v", n, err)
	}
}

// A capped read returns a file whole at any size up to its cap, and
// refuses it one byte over.
func TestReadLeafSizes(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 1, 511, 512, 513, 4096, 70000} {
		data := []byte(strings.Repeat("rubi", size/4+1)[:size])
		path := filepath.Join(dir, "f.txt")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := ReadLeaf(path, int64(size)); err != nil || string(got) != string(data) {
			t.Errorf("%d bytes, cap %d: %d bytes, %v", size, size, len(got), err)
		}
		if size > 0 {
			if _, err := ReadLeaf(path, int64(size-1)); !errors.Is(err, ErrTooLarge) {
				t.Errorf("%d bytes, cap %d: %v, want ErrTooLarge", size, size-1, err)
			}
		}
	}
}
