package main

import (
	"regexp"
	"strings"
)

// pyUnit is a function, method or class of a Python file, as the
// function-level baseline splits it.
type pyUnit struct {
	// Name is qualified by the enclosing classes and functions:
	// "Session.send", "Outer.Inner.method".
	Name string
	// Line and EndLine are 1-based and inclusive.
	Line, EndLine int
	// Text is the unit's lines, from its def or class line on.
	Text string
}

var pyDef = regexp.MustCompile(`^[ \t]*(?:async[ \t]+)?(def|class)[ \t]+([A-Za-z_][A-Za-z0-9_]*)`)

// pyUnits splits Python source into units: each def and class at any
// indentation, its body the lines up to the next line at the same or a
// smaller indentation that is not blank or a comment (trailing blank and
// comment lines left out). Lines that continue a bracket or a
// triple-quoted string are part of what they continue: they neither end
// a unit nor start one.
func pyUnits(src string) []pyUnit {
	lines := strings.Split(src, "\n")
	type open struct {
		name   string
		indent int
		line   int
		last   int // the last line that belongs to it, 1-based
	}
	var stack []open
	var out []pyUnit
	closeUnit := func(o open) {
		out = append(out, pyUnit{Name: o.name, Line: o.line, EndLine: o.last, Text: strings.Join(lines[o.line-1:o.last], "\n")})
	}
	var sc pyScanner
	for i, l := range lines {
		n := i + 1
		continued := sc.inside()
		code := sc.scan(l)
		if continued {
			// The rest of a statement, a bracket or a string.
			for j := range stack {
				stack[j].last = n
			}
			continue
		}
		if !code {
			continue
		}
		ind := indentOf(l)
		for len(stack) > 0 && stack[len(stack)-1].indent >= ind {
			closeUnit(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
		}
		for j := range stack {
			stack[j].last = n
		}
		if m := pyDef.FindStringSubmatch(l); m != nil {
			name := m[2]
			if len(stack) > 0 {
				name = stack[len(stack)-1].name + "." + name
			}
			stack = append(stack, open{name: name, indent: ind, line: n, last: n})
		}
	}
	for len(stack) > 0 {
		closeUnit(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
	}
	// Units close innermost first; put them back in source order.
	sortUnits(out)
	return out
}

func sortUnits(us []pyUnit) {
	// Insertion sort: the slice is nearly sorted (nested units come
	// before their parents).
	for i := 1; i < len(us); i++ {
		for j := i; j > 0 && us[j].Line < us[j-1].Line; j-- {
			us[j], us[j-1] = us[j-1], us[j]
		}
	}
}

// indentOf is the width of a line's leading whitespace, a tab going to
// the next multiple of eight as Python reads it.
func indentOf(l string) int {
	w := 0
	for _, c := range l {
		switch c {
		case ' ':
			w++
		case '\t':
			w = w/8*8 + 8
		case '\f':
			w = 0
		default:
			return w
		}
	}
	return w
}

// pyScanner follows, line by line, the brackets and triple-quoted strings
// Python source leaves open, roughly: enough to tell a line of code from
// one that continues an expression or a string.
type pyScanner struct {
	depth int
	// quote is the open triple quote, "" outside one.
	quote string
	// backslash says the previous line ended with a line continuation.
	backslash bool
}

// inside reports whether the next line continues something: a bracket, a
// triple-quoted string or a backslash continuation.
func (s *pyScanner) inside() bool { return s.depth > 0 || s.quote != "" || s.backslash }

// scan reads one line and reports whether it holds code (it is not blank
// and not only a comment).
func (s *pyScanner) scan(l string) bool {
	code := false
	s.backslash = false
	for i := 0; i < len(l); i++ {
		c := l[i]
		if s.quote != "" {
			if c == '\\' {
				i++
				continue
			}
			if strings.HasPrefix(l[i:], s.quote) {
				s.quote = ""
				i += 2
			}
			continue
		}
		switch c {
		case ' ', '\t', '\f', '\r':
			continue
		case '#':
			return code
		}
		code = true
		switch c {
		case '(', '[', '{':
			s.depth++
		case ')', ']', '}':
			if s.depth > 0 {
				s.depth--
			}
		case '\\':
			if i == len(l)-1 {
				s.backslash = true
			}
		case '"', '\'':
			q := l[i : i+1]
			if strings.HasPrefix(l[i:], strings.Repeat(q, 3)) {
				s.quote = strings.Repeat(q, 3)
				i += 2
				continue
			}
			// A one-line string: skip to its end (or the line's).
			for i++; i < len(l) && l[i] != c; i++ {
				if l[i] == '\\' {
					i++
				}
			}
		}
	}
	return code
}
