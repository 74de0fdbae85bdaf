package regex

import (
	"bytes"
	"testing"
)

// MaskComments blanks comments and keeps everything else byte for byte,
// strings holding comment markers included; Python string statements
// (docstrings) are blanked, strings that are operands are not.
func TestMaskComments(t *testing.T) {
	cases := []struct{ lang, src, want string }{
		{"go", "x := \"a // b\" // c\n/* d\ne */ y := `/* f */`\n", "x := \"a // b\"     \n    \n     y := `/* f */`\n"},
		{"rust", "a /* b /* c */ d */ e // f\nlet s = \"// g\";\n", "a                   e     \nlet s = \"// g\";\n"},
		{"python", "def f():\n    \"\"\"Doc\n    more.\"\"\"\n    s = '# x'  # y\n    g(\n        'kept'\n    )\n", "def f():\n          \n            \n    s = '# x'     \n    g(\n        'kept'\n    )\n"},
		{"ruby", "x = \"#{y} # z\" # w\n", "x = \"#{y} # z\"    \n"},
		{"javascript", "const r = /\\/\\/ x/; // y\n", "const r = /\\/\\/ x/;     \n"},
	}
	for _, c := range cases {
		got, ok := MaskComments(c.lang, []byte(c.src))
		if !ok || string(got) != c.want {
			t.Errorf("%s: got\n%q\nwant\n%q", c.lang, got, c.want)
		}
		if len(got) != len(c.src) || bytes.Count(got, []byte("\n")) != bytes.Count([]byte(c.src), []byte("\n")) {
			t.Errorf("%s: length or lines changed", c.lang)
		}
	}
	if _, ok := MaskComments("markdown", []byte("# x")); ok {
		t.Error("a language the parser does not lex was masked")
	}
}

// MaskCode blanks comments and string contents, keeping quotes, prefixes,
// line breaks and template expressions, so that only code is left.
func TestMaskCode(t *testing.T) {
	cases := []struct{ lang, src, want string }{
		{"python", "x = f'a # b' + \"\"\"c\nd\"\"\"  # e\ng(\"h\\\"i\")\n", "x = f'     ' + \"\"\" \n \"\"\"     \ng(\"    \")\n"},
		{"typescript", "const s = `a ${b(\"c\")} d`; // e\n", "const s = `  ${b(\" \")}  `;     \n"},
	}
	for _, c := range cases {
		got, ok := MaskCode(c.lang, []byte(c.src))
		if !ok || string(got) != c.want {
			t.Errorf("%s: got\n%q\nwant\n%q", c.lang, got, c.want)
		}
	}
	if _, ok := MaskCode("markdown", []byte("# x")); ok {
		t.Error("a language the parser does not lex was masked")
	}
}
