package store

import (
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
