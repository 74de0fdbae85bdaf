package text

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Folding goes rune by rune instead of through a transform.Chain: a chain
// allocates per call, and almost every rune of source code is ASCII and
// never reaches this file.

// latinFold returns the folded forms of U+0080..U+024F (Latin-1 Supplement
// and Latin Extended-A/B), where nearly all accented letters of the
// languages rubi cares about live, so the common case needs no
// normalization at run time. An empty entry means the rune is not a letter
// or digit. The table is built on first use, not at init: normalizing
// some 400 letters costs every process over a millisecond at start, though
// most text is ASCII and never needs it.
var latinFold = sync.OnceValue(func() *[0x250 - 0x80]string {
	var t [0x250 - 0x80]string
	for r := rune(0x80); r < 0x250; r++ {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			t[r-0x80] = foldRune(r)
		}
	}
	return &t
})

// noDecomposition lists letters that NFKD leaves alone but a reader
// considers accented forms of ASCII letters.
var noDecomposition = map[rune]string{
	'ß': "ss", 'ẞ': "SS", 'æ': "ae", 'Æ': "AE", 'œ': "oe", 'Œ': "OE",
	'ø': "o", 'Ø': "O", 'ł': "l", 'Ł': "L", 'đ': "d", 'Đ': "D", 'ı': "i",
}

// foldRune returns the folded form of the letter or digit r: its NFKD
// decomposition without combining marks, keeping only letters and digits.
// Case is kept, because the camelCase split runs after folding.
func foldRune(r rune) string {
	if s, ok := noDecomposition[r]; ok {
		return s
	}
	var in [utf8.UTFMax]byte
	dec := norm.NFKD.Append(make([]byte, 0, 8), in[:utf8.EncodeRune(in[:], r)]...)
	var out []byte
	for _, d := range string(dec) {
		if unicode.IsLetter(d) || unicode.IsDigit(d) {
			out = utf8.AppendRune(out, d)
		}
	}
	return string(out)
}

// foldable reports whether r is folded: letters of the Latin, Greek and
// Cyrillic alphabets, where an accent is a diacritic that people often
// leave out, and digits. Elsewhere marks and decompositions are part of
// the letter (kana voicing marks, Indic viramas, Hangul syllables, which
// NFKD would break into jamo), so those letters are kept as they are.
func foldable(r rune) bool {
	return r < 0x250 || unicode.In(r, unicode.Latin, unicode.Greek, unicode.Cyrillic) || unicode.IsDigit(r)
}

// folded returns the folded form of the foldable letter or digit r.
func folded(r rune) string {
	if r >= 0x80 && r < 0x250 {
		return latinFold()[r-0x80]
	}
	return foldRune(r)
}

// Fold lowercases s and removes its accents, without splitting it into
// words: "Ação Élève" → "acao eleve". It folds like Tokenize; characters
// that are neither letters nor digits are kept, except the combining
// accents of folded letters.
func Fold(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	latin := false // whether the previous rune was folded
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Mn, r) && latin:
			continue
		case (unicode.IsLetter(r) || unicode.IsDigit(r)) && foldable(r):
			for _, f := range folded(r) {
				b.WriteRune(unicode.ToLower(f))
			}
			latin = true
			continue
		}
		b.WriteRune(unicode.ToLower(r))
		latin = r < utf8.RuneSelf
	}
	return b.String()
}
