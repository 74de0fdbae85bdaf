package text

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape makes a string a repository supplied (a file's path, a note's
// title, a module's or a symbol's name) safe to print as part of one line
// of rubi's text output, on the terminal or in what a hook injects: a line
// break would let it start a line that reads as rubi's own ("   why: …"),
// and an ANSI or OSC escape would drive the terminal (clear the screen,
// write the clipboard). Line breaks, tabs, other control characters and
// the Unicode line and paragraph separators are written as Go escapes
// (\n, \t, \x1b, \u2028), and so is each byte of invalid UTF-8 (\xff);
// everything else, and a string with none of them, is left as it is.
func Escape(s string) string {
	if !needsEscape(s, false) {
		return s
	}
	return escape(s, false)
}

// EscapeLines is Escape for text of several lines (a note's body): its
// line breaks are kept, everything else Escape escapes is escaped.
func EscapeLines(s string) string {
	if !needsEscape(s, true) {
		return s
	}
	return escape(s, true)
}

func needsEscape(s string, lines bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && !(lines && c == '\n') || c == 0x7f {
			return true
		}
		if c >= 0x80 {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 || escaped(r) {
				return true
			}
			i += size - 1
		}
	}
	return false
}

// escaped reports whether a rune past ASCII is written as an escape: C1
// controls (0x9b is a CSI of its own on some terminals) and the separators
// that editors and models read as line breaks.
func escaped(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
}

func escape(s string, lines bool) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' && lines:
			b.WriteByte('\n')
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && escaped(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Quote marks text a repository supplied (a teammate's note, a committed
// handoff or map) as a quotation where rubi shows it: every line starts
// with "> " (">" when blank) and what Escape escapes is escaped, so none
// of it can start a line of rubi's own: a note's "</system-reminder>" or
// "rubi: critical notes (always apply):" stays visibly inside the quote.
func Quote(s string) string {
	lines := strings.Split(EscapeLines(s), "\n")
	for i, l := range lines {
		if l == "" {
			lines[i] = ">"
		} else {
			lines[i] = "> " + l
		}
	}
	return strings.Join(lines, "\n")
}
