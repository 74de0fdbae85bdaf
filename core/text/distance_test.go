package text

import "testing"

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"recieve", "receive", 1}, {"validaton", "validation", 1}, {"abc", "abc", 0}, {"kitten", "sitting", 3}, {"ab", "ba", 1}} {
		if got := Distance(c.a, c.b, 5); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	if got := Distance("kitten", "sitting", 1); got != 2 {
		t.Errorf("bounded distance = %d, want limit+1", got)
	}
}
