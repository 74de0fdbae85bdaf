package tokens

import (
	"strings"
	"testing"
)

func TestEstimate(t *testing.T) {
	cases := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"a", 1},
		{"abcdefg", 2},  // 7 runes / 3.5
		{"abcdefgh", 3}, // rounds up
		{"ação", 2},     // runes, not bytes; accented Latin letters are Latin
		{string(make([]byte, 350)), 100},
		// CJK: a token a character.
		{"日本語", 3},
		{"ひらがなカタカナ", 8},
		{"한국어", 3},
		{"。、「」", 4},               // CJK punctuation
		{"ＡＢＣｱｲｳ", 6},             // full- and half-width forms
		{"rubiは地図を持ちます。", 11},     // "rubi" 2 tokens, 9 characters 1 each
		{"context（terms）", 4 + 2}, // 12 Latin runes, 2 full-width brackets
		{"Привет", 2},             // Cyrillic is counted like Latin
	}
	for _, c := range cases {
		if got := Estimate(c.in); got != c.want {
			t.Errorf("Estimate(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

// A text without CJK is counted as before: the budgets and goldens of
// every other language do not move.
func TestEstimateLatinUnchanged(t *testing.T) {
	for _, s := range []string{"fix the coupon", strings.Repeat("é", 7), "naïve café — 100 %", "\x00\xff broken"} {
		n := len([]rune(s))
		if got, want := Estimate(s), (n*10+34)/35; got != want {
			t.Errorf("Estimate(%q) = %d, want %d (3.5 runes a token)", s, got, want)
		}
	}
}

func BenchmarkEstimate(b *testing.B) {
	s := strings.Repeat("func (r *Result) Text(explain bool) string { // render\n", 40)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Estimate(s)
	}
}
