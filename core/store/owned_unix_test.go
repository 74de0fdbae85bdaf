//go:build unix

package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestOpenAppendWritesARegularFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hooks.log")
	for _, line := range []string{"one\n", "two\n"} {
		f, err := OpenAppend(path, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(line)
		f.Close()
	}
	if data, _ := os.ReadFile(path); string(data) != "one\ntwo\n" {
		t.Errorf("appended %q", data)
	}
}

func TestOpenAppendRefusesWhatIsNotOwned(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "profile")
	os.WriteFile(target, []byte("mine\n"), 0o644)
	link := filepath.Join(dir, "link.log")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling.log")
	if err := os.Symlink(filepath.Join(dir, "absent"), dangling); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.log")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(dir, "folder.log")
	os.Mkdir(folder, 0o755)
	for path, what := range map[string]string{link: "symbolic link", dangling: "symbolic link", fifo: "FIFO", folder: "folder"} {
		f, err := OpenAppend(path, 0o644)
		if err == nil {
			f.Close()
			t.Errorf("%s: opened", path)
			continue
		}
		if !errors.Is(err, ErrNotOwned) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), what) {
			t.Errorf("%s: %v, want a refusal naming it as a %s", path, err, what)
		}
	}
	if data, _ := os.ReadFile(target); string(data) != "mine\n" {
		t.Errorf("the link's target changed: %q", data)
	}
	if _, err := os.Lstat(filepath.Join(dir, "absent")); err == nil {
		t.Error("the dangling link's target was created")
	}
}

func TestRotateIfOver(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.log")
	os.WriteFile(path, []byte("0123456789"), 0o644)
	RotateIfOver(path, 20)
	if _, err := os.Stat(path); err != nil {
		t.Errorf("a small log was rotated: %v", err)
	}
	RotateIfOver(path, 5)
	if _, err := os.Stat(path + ".1"); err != nil {
		t.Errorf("a large log was not rotated: %v", err)
	}
	// A link is left alone, and so is a large log whose .1 is a link.
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("0123456789"), 0o644)
	os.Remove(path + ".1")
	os.Symlink(target, path+".1")
	os.WriteFile(path, []byte("0123456789"), 0o644)
	RotateIfOver(path, 5)
	if fi, err := os.Lstat(path + ".1"); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("a link at hooks.log.1 was replaced: %v %v", fi, err)
	}
}

func TestEscapeLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain text":              "plain text",
		"two\nlines":              "two | lines",
		"crlf\r\nend":             "crlf | end",
		"clear \x1b[2J screen":    `clear \u001b[2J screen`,
		"bell\a":                  `bell\u0007`,
		"bad \xff byte":           `bad \xff byte`,
		"café, 日本":                "café, 日本",
		"line\u2028separator":     `line\u2028separator`,
		"$(touch /tmp/PWNED)\tok": "$(touch /tmp/PWNED) ok",
	} {
		if got := EscapeLine(in); got != want {
			t.Errorf("EscapeLine(%q) = %q, want %q", in, got, want)
		}
	}
}
