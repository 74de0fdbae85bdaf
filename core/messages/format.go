package messages

import (
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/text/width"
)

// Key names a message of the catalog.
type Key uint16

// text is a message in each language: a fmt format when the message takes
// arguments.
type text struct{ en, pt, fr, ja string }

func (t *text) in(l Lang) string {
	switch l {
	case Portuguese:
		return t.pt
	case French:
		return t.fr
	case Japanese:
		return t.ja
	}
	return t.en
}

// Get returns the message k in l, as written (a message that takes
// arguments is a format: use Format).
func (l Lang) Get(k Key) string { return catalog[k].in(l) }

// Format returns the message k in l with args in its verbs. The verbs of
// every language take the same arguments (a test holds them to it); a
// language may take them in another order, with explicit indexes
// (%[2]s).
func (l Lang) Format(k Key, args ...any) string {
	return fmt.Sprintf(catalog[k].in(l), args...)
}

// Noun names a counted noun of the catalog: "%d file" and "%d files".
type Noun uint16

// forms are a counted noun's two forms in each language, one and other.
// In the whole numbers rubi prints, English and Brazilian Portuguese take
// the one form for 1 only ("0 arquivos", as Brazilians write it, though
// CLDR files 0 under one for Portuguese), French for 0 and 1 ("0
// fichier"), and Japanese has no plural.
type forms struct{ en, pt, fr, ja [2]string }

func (f *forms) in(l Lang) [2]string {
	switch l {
	case Portuguese:
		return f.pt
	case French:
		return f.fr
	case Japanese:
		return f.ja
	}
	return f.en
}

// Count writes n with the noun w in l: "1 file", "3 files", "0 fichier",
// "5 ファイル".
func (l Lang) Count(n int, w Noun) string {
	fs := nouns[w].in(l)
	return fmt.Sprintf(fs[l.plural(n)], n)
}

// Number writes n with its digits grouped in threes as l writes them:
// 5,614 (English, Japanese), 5.614 (Portuguese), 5 614 (French, with a
// narrow no-break space).
func (l Lang) Number(n int) string {
	sep := ","
	switch l {
	case Portuguese:
		sep = "."
	case French:
		sep = "\u202f"
	}
	digits := strconv.Itoa(n)
	sign := ""
	if n < 0 {
		sign, digits = "-", digits[1:]
	}
	var b strings.Builder
	b.WriteString(sign)
	for i, d := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(d)
	}
	return b.String()
}

// Quantity is Count with n's digits grouped (Number): "5,614 files".
func (l Lang) Quantity(n int, w Noun) string {
	fs := nouns[w].in(l)
	return fmt.Sprintf(strings.Replace(fs[l.plural(n)], "%d", "%s", 1), l.Number(n))
}

// plural is the index of n's form in l: 0 (one) or 1 (other).
func (l Lang) plural(n int) int {
	switch l {
	case Japanese:
		return 1
	case French:
		if n == 0 || n == 1 {
			return 0
		}
		return 1
	}
	if n == 1 {
		return 0
	}
	return 1
}

// Pad fills s with spaces to n columns of a terminal, where a wide
// character (Japanese) takes two: a table's column in every language.
func Pad(s string, n int) string {
	if c := Columns(s); c < n {
		return s + strings.Repeat(" ", n-c)
	}
	return s
}

// Columns is how many columns of a terminal s takes.
func Columns(s string) int {
	n := 0
	for _, r := range s {
		switch width.LookupRune(r).Kind() {
		case width.EastAsianWide, width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}
