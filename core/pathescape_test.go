package core

import (
	"testing"
	"unicode/utf8"
)

// EscapePath leaves UTF-8 paths without a backslash alone, makes every
// other one valid UTF-8, and UnescapePath gives the bytes back.
func TestEscapePath(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"src/main.go", "src/main.go"},
		{"docs/café.md", "docs/café.md"},
		{"bad\xff.go", `bad\xff.go`},
		{"d\xfe/x\xc3.go", `d\xfe/x\xc3.go`},
		{`a\b`, `a\\b`},
		{`lit\xff.go`, `lit\\xff.go`},
		{"\xff\\", `\xff\\`},
	} {
		got := EscapePath(c.in)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("EscapePath(%q) = %q, want %q", c.in, got, c.want)
		}
		if back, ok := UnescapePath(got); !ok || back != c.in {
			t.Errorf("UnescapePath(%q) = %q, %v; want %q", got, back, ok, c.in)
		}
	}
	for _, bad := range []string{`a\`, `a\q`, `a\xZZ`} {
		if _, ok := UnescapePath(bad); ok {
			t.Errorf("UnescapePath(%q) is ok", bad)
		}
	}
}

func FuzzEscapePath(f *testing.F) {
	f.Add("bad\xff.go")
	f.Add(`a\\xff`)
	f.Fuzz(func(t *testing.T, p string) {
		e := EscapePath(p)
		if !utf8.ValidString(e) {
			t.Fatalf("EscapePath(%q) = %q is not UTF-8", p, e)
		}
		if back, ok := UnescapePath(e); !ok || back != p {
			t.Fatalf("round trip of %q: %q, %v", p, back, ok)
		}
	})
}
