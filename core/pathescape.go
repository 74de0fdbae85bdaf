package core

import (
	"strings"
	"unicode/utf8"
)

// EscapePath returns p as valid UTF-8, reversibly, for the outputs that
// must be UTF-8 (JSON: `rubi graph --json`, the index's symbols file). A
// file name is any bytes: one that is not UTF-8 would otherwise reach JSON
// as U+FFFD, and no program could find the file again. A path that is
// UTF-8 and holds no backslash comes back unchanged; in any other, each
// backslash is doubled and each byte that is not UTF-8 is written \xHH.
// UnescapePath undoes it.
func EscapePath(p string) string {
	if utf8.ValidString(p) && !strings.Contains(p, `\`) {
		return p
	}
	const hex = "0123456789abcdef"
	var b strings.Builder
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRuneInString(p[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteString(`\x`)
			b.WriteByte(hex[p[i]>>4])
			b.WriteByte(hex[p[i]&15])
		case r == '\\':
			b.WriteString(`\\`)
		default:
			b.WriteString(p[i : i+size])
		}
		i += size
	}
	return b.String()
}

// UnescapePath returns the path EscapePath made s from; ok is false when s
// is no path EscapePath writes.
func UnescapePath(s string) (p string, ok bool) {
	if !strings.Contains(s, `\`) {
		return s, utf8.ValidString(s)
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		switch {
		case i+1 < len(s) && s[i+1] == '\\':
			b.WriteByte('\\')
			i++
		case i+3 < len(s) && s[i+1] == 'x' && isHex(s[i+2]) && isHex(s[i+3]):
			b.WriteByte(unhex(s[i+2])<<4 | unhex(s[i+3]))
			i += 3
		default:
			return "", false
		}
	}
	return b.String(), true
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' }

func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c - 'a' + 10
}
