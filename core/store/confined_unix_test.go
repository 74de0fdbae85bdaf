//go:build unix

package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConfined(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".rubi", "index"), 0o755)
	os.Symlink(outside, filepath.Join(root, ".rubi", "knowledge"))
	os.MkdirAll(filepath.Join(root, "real"), 0o755)
	os.Symlink(filepath.Join(root, "real"), filepath.Join(root, "inner"))
	for dir, ok := range map[string]bool{
		filepath.Join(root, ".rubi", "index"):               true,
		filepath.Join(root, ".rubi", "sessions", "new"):     true, // not there yet
		filepath.Join(root, "inner", "x"):                   true, // a link that stays inside
		filepath.Join(root, ".rubi", "knowledge"):           false,
		filepath.Join(root, ".rubi", "knowledge", "deeper"): false,
		filepath.Join(root, "..", filepath.Base(outside)):   false,
	} {
		err := Confined(root, dir)
		if ok != (err == nil) {
			t.Errorf("Confined(%s): %v, want ok %v", dir, err, ok)
		}
		if err != nil && (!errors.Is(err, ErrNotOwned) || !strings.Contains(err.Error(), dir)) {
			t.Errorf("Confined(%s): %v does not name the folder", dir, err)
		}
	}
	// A root that is itself reached through a link is resolved too.
	alias := filepath.Join(t.TempDir(), "alias")
	os.Symlink(root, alias)
	if err := Confined(alias, filepath.Join(alias, ".rubi", "index")); err != nil {
		t.Errorf("through an aliased root: %v", err)
	}
}

func TestLockWithinCreatesNothingOutside(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".rubi"), 0o755)
	os.Symlink(outside, filepath.Join(root, ".rubi", "sessions"))
	if l, err := LockWithin(context.Background(), root, filepath.Join(root, ".rubi", "sessions")); err == nil {
		l.Unlock()
		t.Fatal("locked a folder outside the project")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("the outside folder got %v", entries)
	}
	// A .lock that is a link is not followed: it is replaced by a file.
	dir := filepath.Join(root, "d")
	os.MkdirAll(dir, 0o755)
	target := filepath.Join(outside, "created")
	os.Symlink(target, filepath.Join(dir, ".lock"))
	if l, err := LockDir(context.Background(), dir); err != nil {
		t.Error(err)
	} else {
		l.Unlock()
	}
	if fi, err := os.Lstat(filepath.Join(dir, ".lock")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("the .lock link was not replaced by a file: %v", err)
	}
	if _, err := os.Lstat(target); err == nil {
		t.Error("the .lock link's target was created")
	}
}
