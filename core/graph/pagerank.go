package graph

import (
	"fmt"
	"math"
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
