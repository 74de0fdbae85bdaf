package store

import (
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// dirent encodes one linux_dirent64 record as getdents64 writes it.
func dirent(ino uint64, typ byte, name string) []byte {
	reclen := (19 + len(name) + 1 + 7) &^ 7
	b := make([]byte, reclen)
	binary.NativeEndian.PutUint64(b[0:8], ino)
	binary.NativeEndian.PutUint16(b[16:18], uint16(reclen))
	b[18] = typ
	copy(b[19:], name)
	return b
}

// The records getdents64 returns are read whole: regular files and files
// of a type not given are listed (the latter for a stat to decide), the
// rest skipped, and a record cut short is an error, not a guess.
func TestAppendDirents(t *testing.T) {
	var buf []byte
	for _, d := range []struct {
		ino  uint64
		typ  byte
		name string
	}{
		{1, unix.DT_DIR, "."}, {2, unix.DT_DIR, ".."},
		{3, unix.DT_REG, "a.md"}, {4, unix.DT_UNKNOWN, "b.md"}, {5, unix.DT_DIR, "c.md"},
		{0, unix.DT_REG, "deleted.md"}, {6, unix.DT_REG, "skip.txt"}, {7, unix.DT_LNK, "link.md"},
		{8, unix.DT_REG, strings.Repeat("long", 60) + ".md"},
	} {
		buf = append(buf, dirent(d.ino, d.typ, d.name)...)
	}
	keep := func(name string) bool { return strings.HasSuffix(name, ".md") }
	names, maybe, err := appendDirents(buf, keep, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.md", "b.md", strings.Repeat("long", 60) + ".md"}; !slices.Equal(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
	if want := []bool{false, true, false}; !slices.Equal(maybe, want) {
		t.Errorf("maybe %v, want %v", maybe, want)
	}
	for _, cut := range []int{5, 20, len(buf) - 3} {
		if _, _, err := appendDirents(buf[:cut], keep, nil, nil); !errors.Is(err, unix.EIO) {
			t.Errorf("a buffer cut at %d: %v, want EIO", cut, err)
		}
	}
}
