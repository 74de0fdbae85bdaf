package python

import (
	"slices"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/refs"
)

// refsOf resolves every name a module uses. A name is a use unless the
// statement binds it (an assignment's or a loop's target, a parameter,
// the name after `as`, a def's or a class's own name, a keyword
// argument) or it is an import statement's, which the import graph
// already holds.
func (st *state) refsOf(m *module) []refs.Ref {
	x := m.x
	from := m.enclosing()
	var out []refs.Ref
	skip := make([]bool, len(x.toks))
	shadow := map[string]bool{}
	var sc *scope
	emitAt := func(off int, v val, call bool) {
		if v.tgt == nil || !st.has(v.tgt) {
			return
		}
		line, col := x.posOf(off)
		out = append(out, refs.Ref{Line: line, Col: col, Path: v.tgt.path, Name: v.tgt.name, From: from.at(line), Call: call})
	}
	emit := func(i int, v val) { emitAt(int(x.toks[i].a), v, x.op(i+1, '(')) }
	for k, s := range x.stmts {
		a := s.a
		if x.is(a, "async") {
			a++
		}
		if x.is(a, "import") || x.is(a, "from") || x.is(a, "global") || x.is(a, "nonlocal") {
			continue
		}
		if len(shadow) > 0 {
			clear(shadow)
		}
		sc = m.stmtScope[k]
		m.bindingSites(s, a, skip, shadow)
		for i := s.a; i < s.b; i++ {
			if x.toks[i].kind == tStr && m.annotation(s, a, i) {
				for _, q := range quoted(m, i) {
					v := unknown
					for k, p := range q.parts {
						if k == 0 {
							v = st.lookup(sc, []byte(p), 0)
						} else {
							v = st.attr(v, []byte(p), 0)
						}
						emitAt(q.offs[k], v, false)
					}
				}
				continue
			}
			if !x.isName(i) || skip[i] || x.keyword(i) || x.op(i-1, '.') {
				continue
			}
			if len(shadow) > 0 && shadow[string(x.name(i))] {
				continue
			}
			st.chain(sc, i, s.b, 0, emit)
		}
	}
	return out
}

// bindingSites marks the names statement s binds rather than uses, and
// the names only this statement binds (lambda parameters, comprehension
// targets), which stand for nothing of the scope's here.
func (m *module) bindingSites(s stmt, a int, skip []bool, shadow map[string]bool) {
	x := m.x
	targets := func(a, b int) {
		for i := a; i < b; i++ {
			if (x.op(i, '(') || x.op(i, '[')) && i > a && (x.isName(i-1) || x.op(i-1, ')') || x.op(i-1, ']')) {
				i = x.close(i, b)
				continue
			}
			if x.isName(i) && !x.op(i-1, '.') && !x.op(i+1, '.') && !x.op(i+1, '(') && !x.op(i+1, '[') {
				skip[i] = true
			}
		}
	}
	switch {
	case x.is(a, "def") && a+1 < s.b:
		skip[a+1] = true
		open := a + 2
		if x.op(open, '[') {
			open = x.close(open, s.b) + 1
		}
		if x.op(open, '(') {
			for _, r := range x.split(open+1, x.close(open, s.b), ',') {
				i := r[0]
				for i < r[1] && (x.op(i, '*') || x.is(i, "**")) {
					i++
				}
				if i < r[1] {
					skip[i] = true
				}
			}
		}
	case x.is(a, "class") && a+1 < s.b:
		skip[a+1] = true
	case x.is(a, "for"):
		for i := a + 1; i < s.b && !x.is(i, "in"); i++ {
			skip[i] = x.isName(i)
		}
	case s.eq:
		x.buf = x.splitInto(x.buf[:0], s.a, s.b, '=')
		parts := x.buf
		for _, t := range parts[:len(parts)-1] {
			e := t[1]
			for i := t[0]; i < t[1]; i++ {
				if x.op(i, ':') {
					e = i
					break
				}
			}
			targets(t[0], e)
		}
	default:
		if x.isName(s.a) && (x.op(s.a+1, ':') || s.a+1 < s.b && x.toks[s.a+1].kind == tOp && x.code[x.toks[s.a+1].end()-1] == '=') {
			skip[s.a] = true // x: T, x += 1
		}
	}
	depth := 0
	for i := s.a; i < s.b; i++ {
		switch {
		case x.op(i, '(') || x.op(i, '[') || x.op(i, '{'):
			depth++
		case x.op(i, ')') || x.op(i, ']') || x.op(i, '}'):
			depth--
		case x.is(i, "as") && i+1 < s.b && x.isName(i+1):
			skip[i+1] = true
		case x.is(i, ":=") && x.isName(i-1):
			skip[i-1] = true
		case x.isName(i) && depth > 0 && x.op(i+1, '=') && (x.op(i-1, '(') || x.op(i-1, ',')):
			skip[i] = true // a keyword argument
		case x.is(i, "lambda"):
			for j := i + 1; j < s.b && !x.op(j, ':'); j++ {
				if x.isName(j) {
					skip[j] = true
					shadow[x.text(j)] = true
				}
			}
		case x.is(i, "for") && depth > 0:
			// A comprehension's targets.
			for j := i + 1; j < s.b && !x.is(j, "in"); j++ {
				if x.isName(j) {
					skip[j] = true
					shadow[x.text(j)] = true
				}
			}
		}
	}
}

// annotation reports whether the string token i of statement s is an
// annotation: a parameter's or a return's in a def, a variable's.
func (m *module) annotation(s stmt, a, i int) bool {
	x := m.x
	switch {
	case x.is(i-1, "->"):
		return x.is(a, "def")
	case !x.op(i-1, ':') || !(x.op(i+1, '=') || x.op(i+1, ',') || x.op(i+1, ')') || i+1 == s.b):
		return false
	case x.is(a, "def"):
		return x.isName(i-2) && (x.op(i-3, '(') || x.op(i-3, ',') || x.op(i-3, '*') || x.is(i-3, "**"))
	}
	return i == s.a+2 && x.isName(s.a) && !x.keyword(s.a)
}

// enclosing tells, line after line in increasing order, the innermost
// function, method or class of a module's facts whose lines hold the
// line: the From of a use there, named as the facts name units.
type enclosing struct {
	syms  []core.Symbol
	next  int
	stack []open
}

type open struct {
	end int
	key string
}

func (m *module) enclosing() *enclosing {
	e := &enclosing{}
	for _, s := range m.facts.Symbols {
		switch s.Kind {
		case core.SymbolFunction, core.SymbolMethod, core.SymbolClass:
			if s.Line > 0 && s.EndLine >= s.Line {
				e.syms = append(e.syms, s)
			}
		}
	}
	cmp := func(a, b core.Symbol) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return b.EndLine - a.EndLine
	}
	if !slices.IsSortedFunc(e.syms, cmp) {
		slices.SortStableFunc(e.syms, cmp)
	}
	return e
}

// at returns the From of line, which is no smaller than the last asked.
func (e *enclosing) at(line int) string {
	for len(e.stack) > 0 && e.stack[len(e.stack)-1].end < line {
		e.stack = e.stack[:len(e.stack)-1]
	}
	for e.next < len(e.syms) && e.syms[e.next].Line <= line {
		s := e.syms[e.next]
		e.next++
		if s.EndLine < line {
			continue
		}
		for len(e.stack) > 0 && e.stack[len(e.stack)-1].end < s.Line {
			e.stack = e.stack[:len(e.stack)-1]
		}
		e.stack = append(e.stack, open{s.EndLine, symKey(s)})
	}
	if len(e.stack) == 0 {
		return ""
	}
	return e.stack[len(e.stack)-1].key
}
