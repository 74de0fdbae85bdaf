package ppr

import "fmt"

// explainer writes Hit.Reason: which match a document is connected to,
// and how, in words.
type explainer struct {
	st     *state
	seeds  map[int]float64
	scores []float64
	dist   []int32 // hops from the nearest seed, computed on first need
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
	dist := e.distances()
	if dist[v] < 0 {
		return "connected to the matches"
	}
	u, rel, ok := e.strongest(v, func(u int) bool { return dist[u] >= 0 && dist[u] < dist[v] })
	if !ok {
		return "connected to the matches"
	}
	head := phrase(rel, e.st.name(u))
	if s, srel, ok := e.strongest(u, func(s int) bool { _, ok := e.seeds[s]; return ok }); ok {
		return head + ", which " + clause(srel, e.st.name(s))
	}
	return fmt.Sprintf("%s, %d steps from the matches", head, dist[v])
}

// strongest returns the neighbour u of v, among those keep accepts, whose
// share of score flowing into v is the largest: score(u)·w(u,v)/out(u).
// The graph is symmetric, so v's out-edges list its in-neighbours too.
func (e *explainer) strongest(v int, keep func(u int) bool) (int, uint8, bool) {
	g := e.st.g
	to, w := g.Out(v)
	best, bestFlow := -1, -1.0
	var bestRel uint8
	for k, u32 := range to {
		u := int(u32)
		if !keep(u) {
			continue
		}
		// Neighbours come sorted, so ties go to the lower index and the
		// reason is deterministic.
		if flow := e.scores[u] * w[k] / g.OutWeight(u); flow > bestFlow {
			best, bestFlow, bestRel = u, flow, e.st.relation(v, k)
		}
	}
	return best, bestRel, best >= 0
}

// distances runs a breadth-first search from the seeds.
func (e *explainer) distances() []int32 {
	if e.dist != nil {
		return e.dist
	}
	g := e.st.g
	dist := make([]int32, g.Len())
	for i := range dist {
		dist[i] = -1
	}
	queue := make([]int32, 0, len(e.seeds))
	for i := range g.Len() { // index order keeps the search deterministic
		if _, ok := e.seeds[i]; ok {
			dist[i] = 0
			queue = append(queue, int32(i))
		}
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		to, _ := g.Out(int(u))
		for _, t := range to {
			if dist[t] < 0 {
				dist[t] = dist[u] + 1
				queue = append(queue, t)
			}
		}
	}
	e.dist = dist
	return dist
}

// phrase describes the relation of a document to the neighbour called
// name, for the start of a reason. When two documents are linked several
// ways, the most specific relation wins.
func phrase(rel uint8, name string) string {
	switch {
	case rel&relImports != 0:
		return "imports " + name
	case rel&relImportedBy != 0:
		return "imported by " + name
	case rel&relInModule != 0:
		return "in module " + name
	case rel&relContains != 0:
		return "contains " + name
	}
	return "linked to " + name
}

// clause is phrase as a relative clause: "which imports x", "which is
// imported by x".
func clause(rel uint8, name string) string {
	if rel&relImports != 0 || rel&(relImportedBy|relInModule) == 0 && rel&relContains != 0 {
		return phrase(rel, name)
	}
	return "is " + phrase(rel, name)
}
