package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Ignored is what rubi keeps out of the team's commits in its data folder
// (.rubi/.gitignore): the derived index, the automatic session records
// (prompts, pasted secrets), the hooks' log and the lock. The knowledge
// next to them is meant to be committed.
const Ignored = `# Written by rubi, and put back at the end of this file by every index
# and save: the knowledge in this folder is meant to be committed; the
# derived index, automatic session records, the hooks' log and the lock
# are not. Your own lines go above these.
index/
sessions/
hooks.log*
.lock
`

// maxIgnoreFile is the most of .rubi/.gitignore read to rewrite it.
const maxIgnoreFile = 64 << 10

// KeepIgnored makes dir/.gitignore (dir a project's .rubi/, inside base)
// end with Ignored, keeping the lines someone else wrote above it. Git
// takes the last pattern that matches a path, so a committed "!*" or
// "!sessions/" above rubi's lines cannot bring the session records back
// into `git add -A`. The file is never read or written through a link: a
// link, or anything but a regular file, is replaced by one holding
// Ignored; a file over 64 KiB is not read, and Ignored is appended to it
// unless it already ends with it.
func KeepIgnored(base, dir string) error {
	if err := Confined(base, dir); err != nil {
		return err
	}
	path := filepath.Join(dir, ".gitignore")
	if fi, err := os.Lstat(path); os.IsNotExist(err) || err == nil && !fi.Mode().IsRegular() {
		// Missing, a link or not a file: rename puts a file in its place
		// and never writes through it.
		return WriteFile(path, []byte(Ignored), 0o644)
	}
	f, err := OpenLeaf(path)
	if err != nil {
		if errors.Is(err, ErrNotOwned) || isLoop(err) {
			// It became a link or a FIFO since the look above.
			return WriteFile(path, []byte(Ignored), 0o644)
		}
		return fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if fi.Size() > maxIgnoreFile {
		return appendIgnored(f, path, fi.Size())
	}
	data, err := readCapped(f, path, maxIgnoreFile)
	if err != nil {
		return err
	}
	want := withIgnored(data)
	if bytes.Equal(data, want) {
		return nil
	}
	return WriteFile(path, want, fi.Mode().Perm())
}

// withIgnored returns data with rubi's lines taken out wherever they are
// and put back at the end.
func withIgnored(data []byte) []byte {
	ours := map[string]bool{}
	for _, l := range strings.Split(Ignored, "\n") {
		if l != "" {
			ours[l] = true
		}
	}
	// The lines of an older rubi's header, so that they are not kept
	// above the new one.
	for _, l := range []string{
		"# Written by rubi. The knowledge in this folder is meant to be committed;",
		"# the derived index, automatic session records, the hooks' log and the",
		"# lock are not.",
		"# the derived index, automatic session records and the lock are not.",
	} {
		ours[l] = true
	}
	var b bytes.Buffer
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if ours[strings.TrimRight(l, "\r\n")] {
			continue
		}
		b.WriteString(l)
	}
	user := bytes.TrimRight(b.Bytes(), " \t\r\n")
	var out bytes.Buffer
	if len(user) > 0 {
		out.Write(user)
		out.WriteString("\n\n")
	}
	out.WriteString(Ignored)
	return out.Bytes()
}

// appendIgnored appends Ignored to the large file f unless it ends with it.
func appendIgnored(f *os.File, path string, size int64) error {
	tail := make([]byte, len(Ignored))
	if _, err := f.ReadAt(tail, size-int64(len(tail))); err != nil && err != io.EOF {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if string(tail) == Ignored {
		return nil
	}
	a, err := OpenAppend(path, 0o644)
	if err != nil {
		return err
	}
	_, err = a.WriteString("\n" + Ignored)
	if cerr := a.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
