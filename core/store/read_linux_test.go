package store

import (
	"bytes"
	"errors"
	"os"
	"testing"
)

// A file whose size says less than it holds (the kernel's files say 0)
// is read whole, and refused past the cap.
func TestReadRegularBeyondItsStatedSize(t *testing.T) {
	const path = "/proc/self/maps"
	fi, err := os.Stat(path)
	if err != nil || fi.Size() != 0 {
		t.Fatalf("%s: size %v, %v: the test needs a file stating 0 bytes", path, fi, err)
	}
	got, err := ReadRegular(path, 1<<20)
	if err != nil || len(got) < 100 || !bytes.Contains(got, []byte("\n")) {
		t.Fatalf("read %d bytes, %v", len(got), err)
	}
	if _, err := ReadRegular(path, 10); !errors.Is(err, ErrTooLarge) {
		t.Errorf("cap 10: %v, want ErrTooLarge", err)
	}
}
