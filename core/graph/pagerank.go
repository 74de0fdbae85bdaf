package graph

import (
	"fmt"
	"math"
	"slices"
)

// Defaults of Options.
const (
	DefaultDamping       = 0.85
	DefaultTolerance     = 1e-9
	DefaultMaxIterations = 100
)

// Options tunes a PageRank computation. The zero value means the defaults.
type Options struct {
	// Damping is the probability of following an edge rather than
	// teleporting; it must lie in (0, 1). Zero means DefaultDamping.
	Damping float64
	// Tolerance stops the iteration once the L1 distance between two
	// successive score vectors falls below it. Zero means
	// DefaultTolerance.
	Tolerance float64
	// MaxIterations bounds the iteration whether or not it converged.
	// Zero means DefaultMaxIterations.
	MaxIterations int
}

func (o Options) withDefaults() Options {
	if o.Damping == 0 {
		o.Damping = DefaultDamping
	}
	if o.Tolerance <= 0 {
		o.Tolerance = DefaultTolerance
	}
	if o.MaxIterations <= 0 {
		o.MaxIterations = DefaultMaxIterations
	}
	if !(o.Damping > 0 && o.Damping < 1) {
		// Callers validate user settings; reaching here is a bug.
		panic(fmt.Sprintf("graph: damping %v outside (0, 1)", o.Damping))
	}
	return o
}

// PageRank returns the classic PageRank of every node, indexed like the
// graph and summing to 1. Edge weights split a node's score among its
// out-edges proportionally; the score of dangling nodes (no out-edges) is
// redistributed uniformly, as is the teleport mass. An empty graph gives
// an empty slice.
func (g *Graph) PageRank(o Options) []float64 {
	r, _ := g.pageRank(o)
	return r
}

func (g *Graph) pageRank(o Options) ([]float64, int) {
	n := g.Len()
	if n == 0 {
		return []float64{}, 0
	}
	p := make([]float64, n)
	for i := range p {
		p[i] = 1 / float64(n)
	}
	return g.iterate(p, o.withDefaults())
}

// Personalized returns Personalized PageRank: the stationary distribution
// of a walk that restarts at the seeds, each chosen with probability
// proportional to its weight. seeds maps node indexes to weights; indexes
// out of range and weights that are not positive and finite are ignored.
// Dangling mass returns to the seeds rather than spreading over the whole
// graph, so scores stay local to the seeds' neighbourhood. The result sums
// to 1; it is nil when no seed is valid.
func (g *Graph) Personalized(seeds map[int]float64, o Options) []float64 {
	r, _ := g.personalized(seeds, o)
	return r
}

func (g *Graph) personalized(seeds map[int]float64, o Options) ([]float64, int) {
	n := g.Len()
	p := make([]float64, n)
	valid := false
	for i, w := range seeds {
		if i < 0 || i >= n || !(w > 0) || math.IsInf(w, 0) {
			continue
		}
		p[i] = w
		valid = true
	}
	if !valid {
		return nil, 0
	}
	// Sum in index order: summing in map order would make the result
	// depend on Go's randomized map iteration.
	sum := 0.0
	for _, w := range p {
		sum += w
	}
	for i := range p {
		p[i] /= sum
	}
	return g.iterate(p, o.withDefaults())
}

// iterate runs the power iteration r ← (1-d)·p + d·(Mᵀr + dangling·p)
// starting from p, where p is both the teleport and the dangling
// distribution. It pulls along in-edges so each node's new score is
// written once, in a fixed order, which keeps the result deterministic.
func (g *Graph) iterate(p []float64, o Options) ([]float64, int) {
	n := g.Len()
	d := o.Damping
	r := make([]float64, n)
	copy(r, p)
	next := make([]float64, n)
	iters := 0
	for iters < o.MaxIterations {
		iters++
		dangling := 0.0
		for i, s := range g.outSum {
			if s == 0 {
				dangling += r[i]
			}
		}
		diff := 0.0
		for j := range n {
			acc := 0.0
			for k := g.inStart[j]; k < g.inStart[j+1]; k++ {
				acc += r[g.inFrom[k]] * g.inNorm[k]
			}
			v := (1-d)*p[j] + d*(acc+dangling*p[j])
			diff += math.Abs(v - r[j])
			next[j] = v
		}
		r, next = next, r
		if diff < o.Tolerance {
			break
		}
	}
	// Rounding drifts the total by a few ulps per iteration; renormalize
	// so callers can rely on the sum.
	sum := 0.0
	for _, v := range r {
		sum += v
	}
	if sum > 0 {
		for i := range r {
			r[i] /= sum
		}
	}
	return r, iters
}

// DefaultPushEpsilon is PersonalizedPush's default residual threshold.
const DefaultPushEpsilon = 1e-6

// PersonalizedPush approximates Personalized (same walk, same seeds, same
// handling of dangling nodes) by forward push (Andersen, Chung and Lang,
// 2006): mass moves out from the seeds only while a node's residual
// exceeds epsilon times its out-degree, so the work depends on the
// neighbourhood the walk reaches, not on the size of the graph. Each score
// is below the exact one by at most epsilon times the node's degree
// (scaled by the damping), and the scores sum to at most 1. Nodes are
// processed in a fixed order, so the result is deterministic. epsilon ≤ 0
// means DefaultPushEpsilon.
func (g *Graph) PersonalizedPush(seeds map[int]float64, damping, epsilon float64) []float64 {
	if epsilon <= 0 {
		epsilon = DefaultPushEpsilon
	}
	o := Options{Damping: damping}.withDefaults()
	n := g.Len()
	teleport := make([]float64, n)
	// The seeds in node order, as the walk takes them: a few, out of a
	// graph that may hold a hundred thousand nodes.
	seedList := make([]int, 0, len(seeds))
	for i, w := range seeds {
		if 0 <= i && i < n && w > 0 && !math.IsInf(w, 0) {
			seedList = append(seedList, i)
		}
	}
	slices.Sort(seedList)
	sum := 0.0
	for _, i := range seedList {
		teleport[i] = seeds[i]
		sum += seeds[i]
	}
	if len(seedList) == 0 {
		return nil
	}
	p := make([]float64, n)
	r := make([]float64, n)
	// A node is in the queue at most once (queued), so a ring of n slots
	// holds it: the queue never grows, however long the push runs.
	queued := make([]bool, n)
	ring := make([]int32, n)
	head, size := 0, 0
	push := func(i int) {
		queued[i] = true
		ring[(head+size)%n] = int32(i)
		size++
	}
	for _, i := range seedList {
		teleport[i] /= sum
		r[i] = teleport[i]
		push(i)
	}
	over := func(u int) bool { return r[u] > epsilon*float64(max(g.OutDegree(u), 1)) }
	for size > 0 {
		u := int(ring[head])
		head, size = (head+1)%n, size-1
		queued[u] = false
		ru := r[u]
		if !over(u) {
			continue
		}
		r[u] = 0
		p[u] += (1 - o.Damping) * ru
		spread := o.Damping * ru
		if g.outSum[u] == 0 {
			// A dangling node sends its walk back to the seeds.
			for _, s := range seedList {
				r[s] += spread * teleport[s]
				if !queued[s] && over(s) {
					push(s)
				}
			}
			continue
		}
		for k := g.outStart[u]; k < g.outStart[u+1]; k++ {
			v := int(g.outTo[k])
			r[v] += spread * g.outW[k] / g.outSum[u]
			if !queued[v] && over(v) {
				push(v)
			}
		}
	}
	return p
}
