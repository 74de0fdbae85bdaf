package rerank

import (
	"cmp"
	"slices"
	"strings"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/query"
)

// A question asking what calls or uses a symbol ("what calls
// Cart.Total"; query.Analysis.Uses) is answered by the units that do:
// each file's units holding a use of it (a reference's From) come first
// in the file, with the use as their reason ("calls Cart.Total at line
// 5"), and lead the listing across files by the caller_weight part. The
// symbol's definition, which the question names, may follow them.

// maxCallerNames bounds the names of one question whose uses are looked
// up, as query.callers does by default.
const maxCallerNames = 4

// callerBonus is what a caller adds to its unit's score within its file:
// more than the name bonus and the match together can reach, so a file's
// callers come first under it.
const callerBonus = 4

// caller is the first use in a unit of a symbol the question asks about.
type caller struct {
	site core.UseSite
	name string // the definition's qualified name
}

// findCallers looks up the uses of the names the question asks the
// callers of, and keeps the first in each unit of each file.
func (p *profile) findCallers(facts core.Facts) error {
	names := facts.Analysis().Uses
	for _, name := range names[:min(len(names), maxCallerNames)] {
		u, err := facts.Uses(name)
		if err != nil {
			return err
		}
		for _, s := range u.Sites {
			if s.From == "" {
				continue
			}
			if p.callers == nil {
				p.callers = map[string]map[string]caller{}
			}
			in := p.callers[s.Path]
			if in == nil {
				in = map[string]caller{}
				p.callers[s.Path] = in
			}
			if old, ok := in[s.From]; !ok || s.Line < old.site.Line {
				in[s.From] = caller{site: s, name: u.Defs[s.Def].Name}
			}
		}
	}
	return nil
}

// markCallers marks the spans of the file at path that use a symbol the
// question asks about.
func (p *profile) markCallers(path string, spans []*unitSpan) {
	in := p.callers[path]
	if in == nil {
		return
	}
	for _, u := range spans {
		if c, ok := in[u.name]; ok {
			u.caller = 1
			u.score += callerBonus
			u.why = c.site.Why(c.name)
		}
	}
}

// The question's named symbols seed their neighbours through the
// references: a unit that calls one of the units a question names (a
// traceback's function, a name in backticks) or that one of them calls
// is where a fix often is, though the question never names it. Each is a
// part of the listing's score (calls_named_weight, named_calls_weight):
// the named unit's mention weight, shared among the definitions its name
// stands for.

// maxNamedUnits bounds the names of one question whose neighbours are
// looked up, the strongest mentions first.
const maxNamedUnits = 8

// unitKey is a unit of a file: its path and qualified name.
type unitKey struct{ path, name string }

// neighbour is what a unit's edge to a named unit weighs, and that
// unit's qualified name.
type neighbour struct {
	w    float64
	name string
}

// note keeps the heavier of a unit's edges.
func note(m map[unitKey]neighbour, k unitKey, w float64, name string) {
	if old, ok := m[k]; !ok || w > old.w {
		m[k] = neighbour{w, name}
	}
}

// findNeighbours looks up the callers and the callees of the units the
// question names.
func (p *profile) findNeighbours(facts core.Facts) error {
	an := facts.Analysis()
	type named struct {
		target string
		weight float64
	}
	var targets []named
	seen := map[string]bool{}
	add := func(t string, w float64) {
		if !seen[t] {
			seen[t] = true
			targets = append(targets, named{t, w})
		}
	}
	// A traceback's frames name their function in their own file.
	for _, m := range p.at {
		if m.Func == "" {
			continue
		}
		for tail := query.CleanPath(m.Text); tail != ""; {
			if _, ok := facts.File(tail); ok {
				add(tail+"::"+m.Func, m.Weight)
				break
			}
			_, rest, ok := strings.Cut(tail, "/")
			if !ok {
				break
			}
			tail = rest
		}
	}
	var ms []query.Mention
	for _, m := range an.Mentions {
		if m.Kind != query.KindPath {
			ms = append(ms, m)
		}
	}
	slices.SortStableFunc(ms, func(a, b query.Mention) int { return cmp.Compare(b.Weight, a.Weight) })
	for _, m := range ms {
		add(m.Text, m.Weight)
	}
	for _, t := range targets[:min(len(targets), maxNamedUnits)] {
		u, err := facts.Uses(t.target)
		if err != nil {
			return err
		}
		if len(u.Defs) == 0 {
			continue
		}
		w := t.weight / float64(len(u.Defs))
		for _, s := range u.Sites {
			if s.From != "" {
				note(p.callsNamed, unitKey{s.Path, s.From}, w, u.Defs[s.Def].Name)
			}
		}
		for _, d := range u.Defs {
			calls, err := facts.Calls(d.Path, d.Name)
			if err != nil {
				return err
			}
			for _, c := range calls {
				note(p.namedCalls, unitKey{c.Path, c.Name}, w, d.Name)
			}
		}
	}
	return nil
}

// markNeighbours sets the neighbour parts of the spans of the file at
// path.
func (p *profile) markNeighbours(path string, spans []*unitSpan) {
	if len(p.callsNamed) == 0 && len(p.namedCalls) == 0 {
		return
	}
	for _, u := range spans {
		k := unitKey{path, u.name}
		in, out := p.callsNamed[k], p.namedCalls[k]
		u.callsNamed, u.namedCalls = in.w, out.w
		switch {
		case u.why != "" && !strings.HasPrefix(u.why, "matches "):
		case in.w > 0:
			u.why = "calls " + in.name + ", named in the question"
		case out.w > 0:
			u.why = "called by " + out.name + ", named in the question"
		}
	}
}
