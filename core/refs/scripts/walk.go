package scripts

import (
	"slices"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/refs"
)

// refsOf resolves every name a module uses. A name is a use unless it is
// declared there (a declaration's name, a parameter, an import's or an
// export's list, a class member, an object literal's key or method, a
// label) or reached through a member access, which the expression it
// starts resolves.
func (st *state) refsOf(m *module) []refs.Ref {
	x := m.x
	from := m.enclosing()
	var out []refs.Ref
	emit := func(i int, v val) {
		if v.tgt == nil || !st.has(v.tgt) {
			return
		}
		line, col := x.posOf(int(x.toks[i].a))
		out = append(out, refs.Ref{Line: line, Col: col, Path: v.tgt.path, Name: v.tgt.name, From: from.at(line), Call: x.op(i+1, '(')})
	}
	n := len(x.toks)
	for i := 0; i < n; i++ {
		if !x.isName(i) || m.skip[i] || x.dot(i-1) {
			continue
		}
		if w := string(x.name(i)); keywords[w] && w != "this" && w != "super" {
			continue
		}
		switch {
		case x.op(i+1, ':'):
			continue // a key, a label, a parameter's name
		case x.op(i-1, '/') && !x.spaced(i) && regexFlags(x.name(i)):
			continue
		case x.op(i+1, '('):
			// name(params) { or name(params): T: a method, declared.
			if cl := x.close(i+1, n); x.op(cl+1, '{') || x.op(cl+1, ':') {
				continue
			}
		}
		sc := m.scopeAt[i]
		if sc == nil {
			sc = m.top
		}
		st.chain(sc, i, n, 0, emit)
	}
	return out
}

// regexFlags reports whether a name could be a regular expression's
// flags, glued to its closing slash.
func regexFlags(b []byte) bool {
	for _, c := range b {
		switch c {
		case 'd', 'g', 'i', 'm', 's', 'u', 'v', 'y':
		default:
			return false
		}
	}
	return true
}

// enclosing tells, line after line in increasing order, the innermost
// function, method or class of a module's facts whose lines hold the
// line.
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
