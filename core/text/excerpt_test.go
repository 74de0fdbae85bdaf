package text

import (
	"runtime"
	"strings"
	"testing"
)

func TestWriteExcerpt(t *testing.T) {
	for _, c := range []struct {
		name, body string
		limit      int
		want       string
	}{
		{"short, lines indented, blanks dropped", "  first line\n\n   second  \n", 400, "\n  first line\n  second"},
		{"exactly the limit is whole", "abcde", 5, "\n  abcde"},
		{"cut in runes, not bytes", "ção é já", 4, "\n  ção …"},
		{"cut at a line's end", "one\ntwo", 4, "\n  one\n  …"},
		{"empty", " \n ", 10, ""},
	} {
		var b strings.Builder
		WriteExcerpt(&b, c.body, c.limit)
		if got := b.String(); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// A body of a megabyte is shown by its start, without being converted
// whole (which allocates four bytes a rune).
func TestWriteExcerptOfALongBody(t *testing.T) {
	body := strings.Repeat("é", 1<<20)
	var b strings.Builder
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 10 {
		b.Reset()
		WriteExcerpt(&b, body, 400)
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 256<<10 {
		t.Errorf("10 excerpts of a 1 MiB body allocated %d KiB, want a few", n>>10)
	}
	if want := "\n  " + strings.Repeat("é", 400) + "…"; b.String() != want {
		t.Errorf("got %d bytes, want %d", b.Len(), len(want))
	}
}
