package regex

import (
	"bytes"

	"github.com/rubi-dev/rubi/core"
)

// Vue and Svelte components are read as JavaScript or TypeScript: every
// <script> block (<script setup lang="ts">, Svelte's context="module")
// keeps its text and lines, and everything else is blanked.
func init() {
	register(&language{
		names:   []string{core.LangVue, core.LangSvelte},
		syntax:  syntax{lineComment: "//", blockComment: true, template: true, regexLit: true}, // as JavaScript's
		extract: extractJS,
		prepare: scriptBlocks,
	})
}

// scriptBlocks appends to dst a copy of src in which only the contents of
// <script> elements are left; HTML comments are skipped when looking for
// them. Like the HTML parser, it ends a script at the first </script,
// whatever the script holds.
func scriptBlocks(dst, src []byte) []byte {
	start := len(dst)
	dst = append(dst, src...)
	out := dst[start:]
	keep := 0 // everything before keep is dealt with
	blank := func(a, b int) {
		for k := a; k < b; k++ {
			if out[k] != '\n' {
				out[k] = ' '
			}
		}
	}
	for i := 0; i < len(src); {
		k := bytes.IndexByte(src[i:], '<')
		if k < 0 {
			break
		}
		i += k
		if bytes.HasPrefix(src[i:], []byte("<!--")) {
			e := bytes.Index(src[i+4:], []byte("-->"))
			if e < 0 {
				break
			}
			i += 4 + e + 3
			continue
		}
		if !tagAt(src, i, "<script") {
			i++
			continue
		}
		end := tagEnd(src, i+7)
		if end < 0 {
			break
		}
		blank(keep, end)
		keep = end
		if src[end-2] == '/' { // <script src="x" />
			i = end
			continue
		}
		c := end
		for {
			k := bytes.IndexByte(src[c:], '<')
			if k < 0 {
				return dst // the script runs to the end of the file
			}
			c += k
			if tagAt(src, c, "</script") {
				break
			}
			c++
		}
		keep, i = c, c
	}
	blank(keep, len(src))
	return dst
}

// tagAt reports whether src holds the tag name at i, in any case,
// followed by a blank, '>' or '/'.
func tagAt(src []byte, i int, tag string) bool {
	e := i + len(tag)
	if e > len(src) || !bytes.EqualFold(src[i:e], []byte(tag)) {
		return false
	}
	return e == len(src) || isSpace(src[e]) || src[e] == '>' || src[e] == '/'
}

// tagEnd returns the offset after the '>' closing the tag whose attributes
// start at i; quoted attribute values may hold '>'.
func tagEnd(src []byte, i int) int {
	var q byte
	for ; i < len(src); i++ {
		switch c := src[i]; {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '>':
			return i + 1
		}
	}
	return -1
}
