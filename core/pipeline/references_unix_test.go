//go:build unix

package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/store"
)

// A resolver reads the project's files, never one through a folder that
// links out of it, however many files of a folder it reads.
func TestResolverReadsStayInside(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	for path, dir := range map[string]string{"pkg/a.go": root, "pkg/b.go": root, "x.go": outside} {
		p := filepath.Join(dir, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("package x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	p := newRefProject(root, filepath.Join(root, ".rubi"), manifest.New(), manifest.New(), nil, nil)
	defer p.close()
	for range 2 {
		for _, f := range []string{"pkg/a.go", "pkg/b.go"} {
			if data, err := p.Read(f); err != nil || string(data) != "package x\n" {
				t.Errorf("%s: %q, %v", f, data, err)
			}
		}
		if data, err := p.Read("out/x.go"); !errors.Is(err, store.ErrNotOwned) {
			t.Errorf("out/x.go, through a link out of the project: %q, %v", data, err)
		}
	}
	if _, err := p.Read("../x.go"); err == nil {
		t.Error("../x.go read")
	}
}
