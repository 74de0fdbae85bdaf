package messages

import (
	"strings"
	"testing"
	"text/tabwriter"
)

// On ASCII, a Table writes what text/tabwriter writes; a wide character
// takes two columns.
func TestTable(t *testing.T) {
	for _, text := range []string{
		"  Share\t6.2%\n  Share of cost\t64%\t(1 of 3 sessions)\n  Sessions\t0\t(0% of the cost)\n  Context\t40k\n  Times\t1\t(in 1 sessions)\n",
		"  threshold\twindow switches\tsessions\tcost\tsaving\t\n  100k\t1\t1\t518k\t-12%\t██  ← recommended\n  250k\t0\t0\t462k\t0%\t\n",
		"  a\tb\n\n  ccc\td\te\n  f\n",
		"no tab\nat all",
	} {
		var want, got strings.Builder
		tw := tabwriter.NewWriter(&want, 0, 0, 2, ' ', 0)
		tw.Write([]byte(text))
		tw.Flush()
		tb := NewTable(&got)
		tb.Write([]byte(text))
		tb.Flush()
		if got.String() != want.String() {
			t.Errorf("got\n%s\nwant\n%s", got.String(), want.String())
		}
	}
	var b strings.Builder
	tb := NewTable(&b)
	tb.Write([]byte("  しきい値\tx\n  100k\ty\n"))
	tb.Flush()
	if want := "  しきい値  x\n  100k      y\n"; b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
