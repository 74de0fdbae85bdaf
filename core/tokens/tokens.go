// Package tokens is rubi's one token estimator. Every budget (context,
// recall, map) and every "~N tokens" rubi prints is counted with Estimate,
// so the numbers agree with each other everywhere.
//
// rubi does not ship a model tokenizer: the agents it serves use different
// ones and none is available offline as a Go library. Estimate counts
// characters instead. Most text is counted at 3.5 runes per token: that
// ratio sits between what BPE tokenizers of current models give on
// English prose (about 4) and on source code (about 3), erring on the side
// of overcounting so a budget is not overrun. Chinese, Japanese and Korean
// text is counted at one token per character (ideographs, kana, Hangul
// syllables, CJK punctuation and full-width forms): those tokenizers spend
// about one token on each, so at 3.5 characters a token a Japanese text
// would be counted at a third of its cost.
package tokens

import (
	"unicode"
	"unicode/utf8"
)

// RunesPerToken is the ratio Estimate uses, times ten.
const runesPerTokenX10 = 35

// Estimate returns the estimated number of tokens in s (0 for ""): one
// for each CJK character, and the other runes at 3.5 a token, rounded up.
func Estimate(s string) int {
	other, wide := 0, 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			other++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if Wide(r) {
			wide++
		} else {
			other++
		}
	}
	return wide + (other*10+runesPerTokenX10-1)/runesPerTokenX10
}

// Wide reports a character that Estimate counts as a token of its own: a
// Han ideograph, a kana, a Hangul syllable or jamo, CJK punctuation
// (U+3000–U+303F) or a full- or half-width form (U+FF00–U+FFEF).
func Wide(r rune) bool {
	switch {
	case r < 0x1100:
		return false
	case r >= 0x3000 && r <= 0x303F, r >= 0xFF00 && r <= 0xFFEF:
		return true
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}
