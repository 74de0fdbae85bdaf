package tokens

import "testing"

func TestEstimate(t *testing.T) {
	cases := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"a", 1},
		{"abcdefg", 2},  // 7 runes / 3.5
		{"abcdefgh", 3}, // rounds up
		{"ação", 2},     // runes, not bytes
		{string(make([]byte, 350)), 100},
	}
	for _, c := range cases {
		if got := Estimate(c.in); got != c.want {
			t.Errorf("Estimate(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}
