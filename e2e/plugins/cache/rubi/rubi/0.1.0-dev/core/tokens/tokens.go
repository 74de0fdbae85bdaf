// Package tokens is rubi's one token estimator. Every budget (context,
// recall, map) and every "~N tokens" rubi prints is counted with Estimate,
// so the numbers agree with each other everywhere.
//
// rubi does not ship a model tokenizer: the agents it serves use different
// ones and none is available offline as a Go library. Estimate counts
// characters instead, at 3.5 runes per token. That ratio sits between what
// BPE tokenizers of current models give on English prose (about 4) and on
// source code (about 3), erring on the side of overcounting so a budget is
// not overrun.
package tokens

import "unicode/utf8"

// RunesPerToken is the ratio Estimate uses, times ten.
const runesPerTokenX10 = 35

// Estimate returns the estimated number of tokens in s (0 for "").
func Estimate(s string) int {
	n := utf8.RuneCountInString(s)
	return (n*10 + runesPerTokenX10 - 1) / runesPerTokenX10
}
