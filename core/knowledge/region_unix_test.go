//go:build unix

package knowledge

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO in the project used to block read for ever (the open waits for
// a writer); it is refused at once.
func TestReadRegionRefusesAFIFO(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ReadRegion(root, "pipe.txt")
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "pipe.txt: not a regular file") {
			t.Errorf("a FIFO: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("ReadRegion blocked on a FIFO")
	}
}
