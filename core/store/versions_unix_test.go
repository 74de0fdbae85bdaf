//go:build unix

package store

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// ScanFolder lists the regular files its filter keeps, sorted by path,
// each with the version a stat gives, and nothing else: not folders, not
// symbolic links (even to a file), not named pipes; across more entries
// than one read of the folder returns.
func TestScanFolder(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for i := range 3000 {
		name := fmt.Sprintf("note-%04d-%s.md", i, strings.Repeat("x", 40))
		if err := os.WriteFile(filepath.Join(dir, name), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
		want = append(want, filepath.Join(dir, name))
	}
	if err := os.WriteFile(filepath.Join(dir, "skipped.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "folder.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(want[0], filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ScanFolder(dir, func(name string) bool { return strings.HasSuffix(name, ".md") })
	if err != nil {
		t.Fatal(err)
	}
	paths := make([]string, len(got))
	for i, fv := range got {
		paths[i] = fv.Path
		fi, err := os.Lstat(fv.Path)
		if err != nil {
			t.Fatal(err)
		}
		if fv.Version != VersionOf(fi) {
			t.Errorf("%s: version %q, a stat says %q", fv.Path, fv.Version, VersionOf(fi))
		}
	}
	if !slices.Equal(paths, want) {
		t.Errorf("listed %d files (first %v), want the %d regular notes in order", len(paths), paths[:min(3, len(paths))], len(want))
	}

	if got, err := ScanFolder(filepath.Join(dir, "missing"), func(string) bool { return true }); err != nil || got != nil {
		t.Errorf("a missing folder: %v, %v; want nothing and no error", got, err)
	}
	if _, err := ScanFolder(want[0], func(string) bool { return true }); err == nil {
		t.Error("a file listed as a folder gave no error")
	}
}
