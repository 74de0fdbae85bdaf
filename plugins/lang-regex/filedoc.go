package regex

import (
	"bytes"

	"github.com/rubi-dev/rubi/core"
)

// topDoc says, per language, which comments at the top of a file describe
// the file. Go is absent: its package comment is read by extractGo, and
// Python's module docstring by fileDoc.
var topDoc = map[string]docStyle{
	core.LangJavaScript: {line: "//", block: "/*"},
	core.LangTypeScript: {line: "//", block: "/*"},
	core.LangRust:       {line: "//!", block: "/*"},
	core.LangJava:       {line: "//", block: "/*"},
	core.LangKotlin:     {line: "//", block: "/*"},
	core.LangPHP:        {line: "//", block: "/*"},
	core.LangC:          {line: "//", block: "/*"},
	core.LangCPP:        {line: "//", block: "/*"},
	core.LangCSS:        {line: "//", block: "/*"},
	core.LangDart:       {line: "///", block: "/*"},
	core.LangRuby:       {line: "#"},
	core.LangPython:     {line: "#"},
}

// licenseWords mark a top comment as a license header, which says nothing
// about the file.
var licenseWords = [][]byte{[]byte("copyright"), []byte("license"), []byte("spdx-"), []byte("all rights reserved")}

// fileDoc sets the file's own description when its extractor did not: a
// Python module docstring, or the first comment block at the top of the
// file that is not a license header.
func (f *file) fileDoc(lang string) {
	if f.facts.Doc != "" {
		return
	}
	st, ok := topDoc[lang]
	if !ok {
		return
	}
	n := f.lines()
	for i := 0; i < n; {
		switch {
		case f.blank(i) && !f.commentOnly(i):
			i++ // an empty line
		case f.commentOnly(i):
			end := i
			for end+1 < n && f.commentOnly(end+1) {
				end++
			}
			start := i
			for start <= end && pragma(f.srcLine(start)) {
				start++
			}
			if start <= end && !license(f, start, end) {
				f.facts.Doc = f.commentText(start, end, st)
				return
			}
			i = end + 1
		default:
			if lang == core.LangPython {
				f.facts.Doc = f.pyStringDoc(i)
			}
			return
		}
	}
}

func license(f *file, a, b int) bool {
	for k := a; k <= b && k < a+6; k++ {
		low := bytes.ToLower(f.srcLine(k))
		for _, w := range licenseWords {
			if bytes.Contains(low, w) {
				return true
			}
		}
	}
	return false
}

// pragma reports a comment line meant for a tool, not a reader: a
// shebang, an encoding or frozen-string declaration, a linter directive.
func pragma(line []byte) bool {
	t := bytes.TrimSpace(line)
	if bytes.HasPrefix(t, []byte("#!")) {
		return true
	}
	for _, w := range []string{"coding:", "coding=", "frozen_string_literal", "-*-", "eslint", "@ts-", "prettier-ignore", "jshint", "global "} {
		if bytes.Contains(t, []byte(w)) {
			return true
		}
	}
	return false
}

// commentText is the first line of prose of the comment on lines a..b.
func (f *file) commentText(a, b int, st docStyle) string {
	t := bytes.TrimSpace(f.srcLine(a))
	if st.block != "" && bytes.HasPrefix(t, []byte("/*")) {
		// A block comment: docAbove reads it from the line after it ends.
		end := a
		for end < b && !bytes.Contains(f.srcLine(end), []byte("*/")) {
			end++
		}
		return f.docAbove(end+1, st)
	}
	for k := a; k <= b; k++ {
		t := bytes.TrimSpace(f.srcLine(k))
		t = bytes.TrimLeft(t, "/#!")
		if t = bytes.TrimSpace(t); len(t) > 0 {
			return Clip(t)
		}
	}
	return ""
}
