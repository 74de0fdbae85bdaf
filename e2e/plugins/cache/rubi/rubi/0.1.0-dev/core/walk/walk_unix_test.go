//go:build unix

package walk

import (
	"maps"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

func TestWalkSpecialFiles(t *testing.T) {
	root := mkTree(t, map[string]string{"a.go": ""})
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	got, st := walkAll(t, root, Options{})
	if want := []string{"a.go"}; !slices.Equal(got, want) {
		t.Errorf("paths = %q, want %q", got, want)
	}
	if want := map[string]int{ReasonSpecial: 1}; !maps.Equal(st.Skipped, want) {
		t.Errorf("skipped = %v, want %v", st.Skipped, want)
	}
}
