package ppr

import (
	"fmt"
	"slices"
)

// explainer writes Hit.Reason: which match a document is connected to,
// and how, in words.
type explainer struct {
	st     *state
	seeds  map[int]float64
	scores []float64
	// dist is the hops from the nearest seed, -1 until the breadth-first
	// search from the seeds, which runs only as far as a reason needs,
	// reaches the node; queue[head:] is what the search has yet to expand.
	dist  []int32
	queue []int32
	head  int
}

func (st *state) explainer(seeds map[int]float64, scores []float64) *explainer {
	return &explainer{st: st, seeds: seeds, scores: scores}
}

// reason names, for a document next to a match, the match that sent it
// the most score ("imported by core/stage.go"); for one further away, the
// neighbour on the way to the matches that did, and that neighbour's own
// link to a match when it has one.
func (e *explainer) reason(v int) string {
	if _, ok := e.seeds[v]; ok {
		// A seed is already explained by the ranker that matched it; say
		// only how it links to another match, if it does.
		if u, rel, ok := e.strongest(v, func(u int) bool { _, ok := e.seeds[u]; return ok && u != v }); ok {
			return phrase(rel, e.st.name(u))
		}
		return ""
	}
	if u, rel, ok := e.strongest(v, func(u int) bool { _, ok := e.seeds[u]; return ok }); ok {
		return phrase(rel, e.st.name(u))
	}
	dv := e.distance(v)
	if dv < 0 {
		return "connected to the matches"
	}
	// Every node nearer the seeds than v was reached before v was.
	u, rel, ok := e.strongest(v, func(u int) bool { return e.dist[u] >= 0 && e.dist[u] < dv })
	if !ok {
		return "connected to the matches"
	}
	head := phrase(rel, e.st.name(u))
	if s, srel, ok := e.strongest(u, func(s int) bool { _, ok := e.seeds[s]; return ok }); ok {
		if srel.label != "" {
			return head + "; " + phrase(srel, e.st.name(s))
		}
		return head + ", which " + clause(srel, e.st.name(s))
	}
	return fmt.Sprintf("%s, %d steps from the matches", head, dv)
}

// strongest returns the neighbour u of v, among those keep accepts, whose
// share of score flowing into v is the largest: score(u)·w(u,v)/out(u).
// The graph is symmetric, so v's out-edges list its in-neighbours too.
func (e *explainer) strongest(v int, keep func(u int) bool) (int, link, bool) {
	g := e.st.g
	to, w := g.Out(v)
	best, bestFlow := -1, -1.0
	var bestRel link
	for k, u32 := range to {
		u := int(u32)
		if !keep(u) {
			continue
		}
		// Neighbours come sorted, so ties go to the lower index and the
		// reason is deterministic.
		if flow := e.scores[u] * w[k] / g.OutWeight(u); flow > bestFlow {
			best, bestFlow, bestRel = u, flow, link{e.st.relation(v, k), e.st.label(v, k)}
		}
	}
	return best, bestRel, best >= 0
}

// distance is the hops from v to the nearest seed, -1 when no path leads
// there: the breadth-first search from the seeds goes on until it reaches
// v. Seeds start it in index order, which keeps it deterministic.
func (e *explainer) distance(v int) int32 {
	g := e.st.g
	if e.dist == nil {
		e.dist = make([]int32, g.Len())
		for i := range e.dist {
			e.dist[i] = -1
		}
		e.queue = make([]int32, 0, g.Len())
		for i := range e.seeds {
			e.queue = append(e.queue, int32(i))
		}
		slices.Sort(e.queue)
		for _, i := range e.queue {
			e.dist[i] = 0
		}
	}
	for e.dist[v] < 0 && e.head < len(e.queue) {
		u := e.queue[e.head]
		e.head++
		to, _ := g.Out(int(u))
		for _, t := range to {
			if e.dist[t] < 0 {
				e.dist[t] = e.dist[u] + 1
				e.queue = append(e.queue, t)
			}
		}
	}
	return e.dist[v]
}

// link is how a document relates to a neighbour: the relations, and the
// words of a labelled edge (core.Edge.Label).
type link struct {
	rel   uint8
	label string
}

// phrase describes the relation of a document to the neighbour called
// name, for the start of a reason. When two documents are linked several
// ways, the most specific relation wins; a labelled edge says its own
// words ("same session as …").
func phrase(l link, name string) string {
	rel := l.rel
	switch {
	case rel&relImports != 0:
		return "imports " + name
	case rel&relImportedBy != 0:
		return "imported by " + name
	case rel&relInModule != 0:
		return "in module " + name
	case rel&relContains != 0:
		return "contains " + name
	case l.label != "":
		return l.label + " " + name
	}
	return "linked to " + name
}

// clause is phrase as a relative clause: "which imports x", "which is
// imported by x".
func clause(l link, name string) string {
	if rel := l.rel; rel&relImports != 0 || rel&(relImportedBy|relInModule) == 0 && rel&relContains != 0 {
		return phrase(l, name)
	}
	return "is " + phrase(l, name)
}
