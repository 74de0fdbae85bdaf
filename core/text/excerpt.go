package text

import (
	"strings"
	"unicode/utf8"
)

// WriteExcerpt writes the start of body to b as a result shows a
// document's text: its first limit runes (and "…" when there is more),
// each non-blank line on a line of its own, indented by two spaces. A
// long body is not converted whole: only the runes shown are counted.
func WriteExcerpt(b *strings.Builder, body string, limit int) {
	body = strings.TrimSpace(body)
	cut := len(body)
	for i, n := 0, 0; i < len(body); n++ {
		if n == limit {
			cut = i
			break
		}
		_, size := utf8.DecodeRuneInString(body[i:])
		i += size
	}
	shown := body[:cut]
	if cut < len(body) {
		shown += "…"
	}
	for line := range strings.SplitSeq(shown, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			b.WriteString("\n  " + line)
		}
	}
}
