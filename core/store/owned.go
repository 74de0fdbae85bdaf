package store

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrNotOwned is returned when a path rubi means to write or read is not
// a regular file it could own: a symbolic link (which could lead out of the
// project, into the user's shell profile), a FIFO, a device or a folder.
var ErrNotOwned = errors.New("not a regular file")

// OpenAppend opens path for appending, creating it with perm. It never
// follows a symbolic link at path and refuses anything but a regular file,
// naming the path in one line; opening never blocks (a FIFO is refused,
// not waited on). A repository the user just cloned may have committed
// .rubi/hooks.log as a link to ~/.bashrc: the log must stay in .rubi/.
func OpenAppend(path string, perm os.FileMode) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, refusal(path, fi.Mode())
	}
	f, err := openAppend(path, perm)
	if err != nil {
		if isLoop(err) {
			return nil, fmt.Errorf("refusing to write %s: it is a symbolic link: %w", path, ErrNotOwned)
		}
		return nil, err
	}
	return regularOnly(f, path, refusal)
}

// OpenRegular opens path for reading and refuses anything but a regular
// file (it follows a link, as a reader may). Opening never blocks: a FIFO
// a transcript path or a tool's target names would hang a hook or `rubi
// xray` for ever, and a link to /dev/zero would feed it without end.
func OpenRegular(path string) (*os.File, error) {
	f, err := openRead(path)
	if err != nil {
		return nil, err
	}
	return regularOnly(f, path, notRegular)
}

// regularOnly returns f if it is open on a regular file, else closes it
// and returns refuse's error.
func regularOnly(f *os.File, path string, refuse func(string, os.FileMode) error) (*os.File, error) {
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, refuse(path, fi.Mode())
	}
	return f, nil
}

// RotateIfOver renames path to path.1 when it is a regular file larger
// than limit; a link or anything else is left alone (OpenAppend refuses
// it next).
func RotateIfOver(path string, limit int64) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() && fi.Size() > limit {
		if old, err := os.Lstat(path + ".1"); err == nil && !old.Mode().IsRegular() {
			return // the rename would replace a link or a folder someone put there
		}
		_ = os.Rename(path, path+".1")
	}
}

func refusal(path string, mode os.FileMode) error {
	return fmt.Errorf("refusing to write %s: it is %s: %w", path, describeMode(mode), ErrNotOwned)
}

func notRegular(path string, mode os.FileMode) error {
	return fmt.Errorf("refusing to read %s: it is %s: %w", path, describeMode(mode), ErrNotOwned)
}

// describeMode names what a path is when it is not a regular file.
func describeMode(mode os.FileMode) string {
	what := "not a regular file"
	switch {
	case mode&os.ModeSymlink != 0:
		what = "a symbolic link"
	case mode&os.ModeNamedPipe != 0:
		what = "a FIFO"
	case mode.IsDir():
		what = "a folder"
	case mode&(os.ModeDevice|os.ModeCharDevice) != 0:
		what = "a device"
	case mode&os.ModeSocket != 0:
		what = "a socket"
	}
	return what
}

// EscapeLine makes s safe to write as one line of a log: line breaks
// become " | ", and control characters (terminal escapes included) and
// invalid UTF-8 are written as Go escapes, so what a repository's files
// put into an error message can neither start a new line nor drive the
// terminal of whoever reads the log.
func EscapeLine(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(" | ")
		case r == '\r':
		case r == '\t':
			b.WriteByte(' ')
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029':
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
