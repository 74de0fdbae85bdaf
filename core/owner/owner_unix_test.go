//go:build unix

package owner

import (
	"os"
	"path/filepath"
	"testing"
)

// The tests run as root, who owns nothing of another uid either: 65534
// (nobody) is the other user.
func TestFolderAndFile(t *testing.T) {
	mine := t.TempDir()
	theirs := filepath.Join(t.TempDir(), "theirs")
	shared := filepath.Join(t.TempDir(), "shared")
	for _, d := range []string{theirs, shared} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chown(theirs, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(shared, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	hcl := filepath.Join(mine, "rubi.hcl")
	if err := os.WriteFile(hcl, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if p := Folder(mine, nil); p != nil {
		t.Errorf("Folder(own) = %v", p)
	}
	if p := Folder(theirs, nil); p == nil || p.UID != 65534 || p.Shared || p.Dir != theirs {
		t.Errorf("Folder(another user's) = %+v", p)
	}
	if p := Folder(shared, nil); p == nil || !p.Shared {
		t.Errorf("Folder(sticky, writable by all) = %+v", p)
	}
	if p := Folder(filepath.Join(mine, "missing"), nil); p != nil {
		t.Errorf("Folder(missing) = %v", p)
	}
	if p := File(hcl, nil); p != nil {
		t.Errorf("File(own) = %v", p)
	}
	if err := os.Chown(hcl, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if p := File(hcl, nil); p == nil || p.Path != hcl || p.Dir != mine {
		t.Errorf("File(another user's) = %+v", p)
	}
	if p := File(hcl, Safe{mine}); p != nil {
		t.Errorf("File(another user's, in a safe folder) = %v", p)
	}
	for _, safe := range []Safe{{theirs}, {filepath.Dir(theirs)}, {filepath.Dir(theirs) + "/*"}, {"*"}} {
		if p := Folder(theirs, safe); p != nil {
			t.Errorf("Folder(another user's) with safe %v = %v", safe, p)
		}
	}
	for _, safe := range []Safe{{theirs + "x"}, {"relative/" + filepath.Base(theirs)}, {filepath.Join(theirs, "below")}} {
		if p := Folder(theirs, safe); p == nil {
			t.Errorf("Folder(another user's) with safe %v passed", safe)
		}
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	if !(Safe{"~/mnt"}).Covers(filepath.Join(home, "mnt", "src")) {
		t.Error("~/mnt does not cover a folder below it")
	}
}
