package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// Limits on a configuration file, checked before the HCL parser sees it.
// The parser recurses once per nesting level: a cloned repository's
// rubi.hcl of 200 KB of "[[[…" would overflow the stack of every rubi
// program (a fatal error no recover can catch), so depth is counted
// first, by a scanner that does not recurse.
const (
	// MaxFileSize is the largest configuration file read.
	MaxFileSize = 1 << 20
	// MaxNesting is how deep brackets, braces, parentheses and template
	// interpolations may nest; rubi's own settings need 3.
	MaxNesting = 64
)

// CheckShape reports a file too large or nested too deep, with the line
// where the limit is passed. name is how diagnostics name the file.
func CheckShape(name string, src []byte) hcl.Diagnostics {
	if len(src) > MaxFileSize {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Configuration file too large",
			Detail:   fmt.Sprintf("%s is %d bytes; rubi reads configuration files of up to %d. A rubi.hcl needs a few hundred bytes: check what it holds.", name, len(src), MaxFileSize),
			Subject:  &hcl.Range{Filename: name, Start: hcl.InitialPos, End: hcl.InitialPos},
		}}
	}
	line, col, ok := nestedTooDeep(src)
	if ok {
		return nil
	}
	pos := hcl.Pos{Line: line, Column: col}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Configuration nested too deep",
		Detail:   fmt.Sprintf("Brackets, braces and interpolations nest more than %d deep here. No rubi setting needs that: check what the file holds.", MaxNesting),
		Subject:  &hcl.Range{Filename: name, Start: pos, End: pos},
	}}
}

// nestedTooDeep scans HCL source for its nesting depth. It follows
// quoted strings (with their escapes) and heredocs as templates, whose
// ${…} and %{…} open expressions that nest again, counts runs of unary
// operators ("!!!!x") as nesting too, and skips comments, so
// that neither a bracket in a string nor one in a comment counts, and a
// closing bracket in a string cannot hide an open one. It returns ok, or
// the 1-based line and column where MaxNesting is passed.
func nestedTooDeep(src []byte) (line, col int, ok bool) {
	// stack holds what is open: '{', '[', '(' in expressions, '"' a
	// quoted string, 'h' a heredoc (its marker in markers), 't' a
	// template interpolation.
	var stack []byte
	var markers [][]byte
	line, lineStart := 1, 0
	unary := 0 // the length of a run of ! and - (the parser recurses per operator)
	top := func() byte {
		if len(stack) == 0 {
			return 0
		}
		return stack[len(stack)-1]
	}
	pop := func() {
		if top() == 'h' {
			markers = markers[:len(markers)-1]
		}
		stack = stack[:len(stack)-1]
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '\n' {
			line, lineStart = line+1, i+1
		}
		opened := byte(0)
		switch top() {
		case '"', 'h':
			switch {
			case top() == '"' && c == '\\':
				i++ // the escaped byte
			case top() == '"' && c == '"':
				pop()
			case top() == '"' && c == '\n':
				pop() // unterminated: the parser reports it
			case top() == 'h' && c == '\n':
				if heredocEnds(src[i+1:], markers[len(markers)-1]) {
					pop()
				}
			case (c == '$' || c == '%') && i+1 < len(src) && src[i+1] == '{':
				i++
				opened = 't'
			case (c == '$' || c == '%') && i+1 < len(src) && src[i+1] == c:
				i++ // $$ and %% are literals: $${ is no interpolation
			}
		default:
			switch c {
			case '!', '-':
				if unary++; unary > MaxNesting {
					return line, i - lineStart + 1, false
				}
			case ' ', '\t', '\r', '\n':
			default:
				unary = 0
			}
			switch c {
			case '"', '{', '[', '(':
				opened = c
			case '}':
				if t := top(); t == '{' || t == 't' {
					pop()
				}
			case ']':
				if top() == '[' {
					pop()
				}
			case ')':
				if top() == '(' {
					pop()
				}
			case '#':
				i = skipLine(src, i)
			case '/':
				switch {
				case i+1 < len(src) && src[i+1] == '/':
					i = skipLine(src, i)
				case i+1 < len(src) && src[i+1] == '*':
					end := i + 2
					for end+1 < len(src) && (src[end] != '*' || src[end+1] != '/') {
						if src[end] == '\n' {
							line, lineStart = line+1, end+1
						}
						end++
					}
					i = end + 1
				}
			case '<':
				if marker, next := heredocStart(src, i); marker != nil {
					markers = append(markers, marker)
					opened = 'h'
					i = next - 1 // the line end, read next as the heredoc's
				}
			}
		}
		if opened != 0 {
			stack = append(stack, opened)
			if len(stack) > MaxNesting {
				return line, i - lineStart + 1, false
			}
		}
	}
	return 0, 0, true
}

// skipLine returns the index just before the line end at or after i, so
// the scan goes on with the line end (and counts the line).
func skipLine(src []byte, i int) int {
	for i < len(src) && src[i] != '\n' {
		i++
	}
	return i - 1
}

// heredocStart recognizes a heredoc opening "<<EOT" or "<<-EOT" at i,
// returning its marker and the index of the line end that follows it.
func heredocStart(src []byte, i int) (marker []byte, next int) {
	if i+1 >= len(src) || src[i+1] != '<' {
		return nil, 0
	}
	j := i + 2
	if j < len(src) && src[j] == '-' {
		j++
	}
	start := j
	for j < len(src) && (src[j] == '_' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= '0' && src[j] <= '9') {
		j++
	}
	if j < len(src) && src[j] == '\r' {
		j++
	}
	if j == start || j >= len(src) || src[j] != '\n' {
		return nil, 0
	}
	return src[start:j], j
}

// heredocEnds reports whether a heredoc's line (rest, after its line
// end) is the closing marker, indented or not.
func heredocEnds(rest, marker []byte) bool {
	k := 0
	for k < len(rest) && (rest[k] == ' ' || rest[k] == '\t') {
		k++
	}
	marker = []byte(strings.TrimSuffix(string(marker), "\r"))
	if len(rest)-k < len(marker) || string(rest[k:k+len(marker)]) != string(marker) {
		return false
	}
	e := k + len(marker)
	return e == len(rest) || rest[e] == '\n' || rest[e] == '\r'
}
