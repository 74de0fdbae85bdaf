//go:build unix

package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestReadWithinRefusesWhatARepositoryCouldPlant(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	secret := filepath.Join(outside, "credentials")
	os.WriteFile(secret, []byte("aws_secret_access_key = KEY\n"), 0o600)
	os.MkdirAll(filepath.Join(root, ".rubi"), 0o755)
	os.WriteFile(filepath.Join(root, ".rubi", "map.md"), []byte("# map\n"), 0o644)
	os.Symlink(secret, filepath.Join(root, ".rubi", "linked.md"))
	os.Symlink("/dev/zero", filepath.Join(root, ".rubi", "zero.md"))
	os.Symlink(outside, filepath.Join(root, "away"))
	os.WriteFile(filepath.Join(root, "big.md"), bytes.Repeat([]byte("x"), 2048), 0o644)
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}

	if data, err := ReadWithin(root, filepath.Join(root, ".rubi", "map.md"), 1024); err != nil || string(data) != "# map\n" {
		t.Fatalf("a regular file inside: %q, %v", data, err)
	}
	for name, path := range map[string]string{
		"a link to a secret":          filepath.Join(root, ".rubi", "linked.md"),
		"a link to /dev/zero":         filepath.Join(root, ".rubi", "zero.md"),
		"a folder linked out":         filepath.Join(root, "away", "credentials"),
		"a FIFO (must not block)":     filepath.Join(root, "pipe.md"),
		"a file over the cap":         filepath.Join(root, "big.md"),
		"a path outside the base dir": secret,
	} {
		data, err := ReadWithin(root, path, 1024)
		if err == nil || len(data) > 0 {
			t.Errorf("%s: read %d bytes, err %v", name, len(data), err)
		}
	}
	if _, err := ReadWithin(root, filepath.Join(root, "big.md"), 1024); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the cap: %v, want ErrTooLarge", err)
	}
	if _, err := ReadWithin(root, filepath.Join(root, "missing.md"), 1024); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v, want not-exist", err)
	}
	if _, err := ReadRegular(filepath.Join(root, ".rubi", "zero.md"), 1024); !errors.Is(err, ErrNotOwned) {
		t.Errorf("ReadRegular of /dev/zero: %v, want ErrNotOwned", err)
	}
	if data, err := ReadRegular(filepath.Join(root, ".rubi", "linked.md"), 1024); err != nil || len(data) == 0 {
		t.Errorf("ReadRegular follows a link to a regular file: %q, %v", data, err)
	}
}

// What a reader of a folder it checked opens file after file (ReadLeaf,
// OpenLeaf), maps (Map) or reads into a buffer (ReadInto) is refused when
// it is a link, a FIFO or a device, at once: a committed
// .rubi/index/manifest.bin -> /dev/zero, or a source file that became a
// link since the walk.
func TestLeafReadsRefuseLinksAndDevices(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(t.TempDir(), "credentials")
	os.WriteFile(secret, []byte("aws_secret_access_key = KEY\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "ok"), []byte("fine\n"), 0o644)
	os.Symlink(secret, filepath.Join(dir, "secret"))
	os.Symlink("/dev/zero", filepath.Join(dir, "zero"))
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadLeaf(filepath.Join(dir, "ok"), 64); err != nil || string(data) != "fine\n" {
		t.Fatalf("a regular file: %q, %v", data, err)
	}
	if _, err := ReadLeaf(filepath.Join(dir, "ok"), 2); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the cap: %v, want ErrTooLarge", err)
	}
	for _, name := range []string{"secret", "zero", "pipe"} {
		p := filepath.Join(dir, name)
		if data, err := ReadLeaf(p, 1<<20); !errors.Is(err, ErrNotOwned) || len(data) > 0 {
			t.Errorf("ReadLeaf %s: %d bytes, %v", name, len(data), err)
		}
		if m, err := Map(p, false); !errors.Is(err, ErrNotOwned) {
			t.Errorf("Map %s: %v", name, err)
			if m != nil {
				m.Close()
			}
		}
		if name != "pipe" { // a FIFO opens without blocking and reads as empty
			if n, err := ReadInto(p, make([]byte, 64)); err == nil {
				t.Errorf("ReadInto %s: read %d bytes through a link", name, n)
			}
		}
	}
	if n, err := ReadInto(filepath.Join(dir, "pipe"), make([]byte, 64)); err != nil || n != 0 {
		t.Errorf("ReadInto of a FIFO: %d, %v; want 0 at once", n, err)
	}
}
