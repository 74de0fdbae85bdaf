package store

import (
	"testing"
)

// A version reads as its three numbers, as earlier releases wrote them in
// the notes' state.
func TestVersion(t *testing.T) {
	for _, c := range []struct {
		mod, size int64
		inode     uint64
		want      string
	}{
		{1764400000123456789, 1234, 98765, "1764400000123456789/1234/98765"},
		{-5, 0, 0, "-5/0/0"},
		{0, 1 << 62, 1<<64 - 1, "0/4611686018427387904/18446744073709551615"},
	} {
		if got := Version(c.mod, c.size, c.inode); got != c.want {
			t.Errorf("Version(%d, %d, %d) = %q, want %q", c.mod, c.size, c.inode, got, c.want)
		}
	}
}
