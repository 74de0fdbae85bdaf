//go:build unix

package memory

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A cloned repository's .rubi/sessions that is a link to a folder
// elsewhere receives no chunk.
func TestNoChunkThroughALinkedFolder(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".rubi"), 0o755)
	if err := os.Symlink(outside, filepath.Join(root, filepath.FromSlash(Dir))); err != nil {
		t.Fatal(err)
	}
	_, err := Open(root).Save(context.Background(), Input{Content: "the coupon runs twice"})
	if err == nil || !strings.Contains(err.Error(), "leads out of") {
		t.Errorf("saved through a link: %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("the outside folder got %v", entries)
	}
}
