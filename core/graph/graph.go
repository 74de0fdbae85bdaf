// Package graph holds rubi's project graph: a compact, immutable, weighted
// directed graph over string ids (document ids in practice) and the
// centrality measures computed on it, classic PageRank and Personalized
// PageRank.
//
// Nodes are dense integer indexes in insertion order; adjacency is stored in
// compressed sparse row form in both directions, so a power iteration is a
// tight loop over flat slices. Every computation is deterministic: the same
// graph built in the same order gives bit-identical scores.
package graph

import (
	"fmt"
	"math"
	"slices"
)

// Builder accumulates nodes and edges; Build freezes them into a Graph.
// The zero value is not usable: call NewBuilder.
type Builder struct {
	ids   []string
	index map[string]int32
	edges []rawEdge
}

type rawEdge struct {
	from, to int32
	w        float64
}

// NewBuilder returns an empty builder.
func NewBuilder() *Builder {
	return &Builder{index: map[string]int32{}}
}

// Node returns the index of id, adding it when it is new. Indexes are dense
// and follow insertion order.
func (b *Builder) Node(id string) int {
	if i, ok := b.index[id]; ok {
		return int(i)
	}
	i := int32(len(b.ids))
	b.ids = append(b.ids, id)
	b.index[id] = i
	return int(i)
}

// AddEdge adds a directed edge, adding missing nodes. A weight that is not
// positive and finite counts as 1, matching core.Edge where an omitted
// weight is zero. Parallel edges are merged by summing their weights;
// self-loops are dropped because they only trap a random walk in place.
func (b *Builder) AddEdge(from, to string, weight float64) {
	f, t := b.Node(from), b.Node(to)
	b.AddEdgeIndex(f, t, weight)
}

// AddEdgeIndex is AddEdge for nodes already added with Node.
func (b *Builder) AddEdgeIndex(from, to int, weight float64) {
	if from < 0 || from >= len(b.ids) || to < 0 || to >= len(b.ids) {
		panic(fmt.Sprintf("graph: edge %d→%d out of range (%d nodes)", from, to, len(b.ids)))
	}
	if from == to {
		return
	}
	if !(weight > 0) || math.IsInf(weight, 0) {
		weight = 1
	}
	b.edges = append(b.edges, rawEdge{int32(from), int32(to), weight})
}

// AddUndirected adds the edge in both directions with the same weight.
func (b *Builder) AddUndirected(a, c string, weight float64) {
	b.AddEdge(a, c, weight)
	b.AddEdge(c, a, weight)
}

// Build freezes the builder into a Graph. The builder may be reused
// afterwards; the graph does not share its slices.
func (b *Builder) Build() *Graph {
	n := len(b.ids)
	edges := slices.Clone(b.edges)
	// Sorting makes adjacency order, and so floating-point summation
	// order, independent of the order edges were added in.
	slices.SortFunc(edges, func(x, y rawEdge) int {
		if x.from != y.from {
			return int(x.from - y.from)
		}
		return int(x.to - y.to)
	})
	merged := edges[:0]
	for _, e := range edges {
		if k := len(merged) - 1; k >= 0 && merged[k].from == e.from && merged[k].to == e.to {
			merged[k].w += e.w
			continue
		}
		merged = append(merged, e)
	}
	edges = merged

	g := &Graph{
		ids:      slices.Clone(b.ids),
		index:    make(map[string]int32, n),
		outStart: make([]int32, n+1),
		outTo:    make([]int32, len(edges)),
		outW:     make([]float64, len(edges)),
		inStart:  make([]int32, n+1),
		inFrom:   make([]int32, len(edges)),
		inW:      make([]float64, len(edges)),
		inNorm:   make([]float64, len(edges)),
		outSum:   make([]float64, n),
	}
	for id, i := range b.index {
		g.index[id] = i
	}
	for k, e := range edges {
		g.outStart[e.from+1]++
		g.inStart[e.to+1]++
		g.outTo[k] = e.to
		g.outW[k] = e.w
		g.outSum[e.from] += e.w
	}
	for i := range n {
		g.outStart[i+1] += g.outStart[i]
		g.inStart[i+1] += g.inStart[i]
	}
	// Edges are sorted by source, so filling the in-lists in edge order
	// leaves each one sorted by source as well.
	next := slices.Clone(g.inStart[:n])
	for _, e := range edges {
		k := next[e.to]
		next[e.to]++
		g.inFrom[k] = e.from
		g.inW[k] = e.w
		g.inNorm[k] = e.w / g.outSum[e.from]
	}
	return g
}

// Graph is an immutable weighted directed graph. It is safe for concurrent
// use.
type Graph struct {
	ids   []string
	index map[string]int32
	// Out-edges of node i are outTo/outW[outStart[i]:outStart[i+1]],
	// in-edges inFrom/inW[inStart[i]:inStart[i+1]], both sorted by the
	// other end.
	outStart []int32
	outTo    []int32
	outW     []float64
	inStart  []int32
	inFrom   []int32
	inW      []float64
	// inNorm[k] is inW[k] divided by the source's total out-weight: the
	// transition probability, precomputed for the power iteration.
	inNorm []float64
	outSum []float64 // total out-weight per node; 0 marks a dangling node
}

// Len returns the number of nodes.
func (g *Graph) Len() int { return len(g.ids) }

// Edges returns the number of distinct directed edges.
func (g *Graph) Edges() int { return len(g.outTo) }

// ID returns the id of node i.
func (g *Graph) ID(i int) string { return g.ids[i] }

// Index returns the node index of id.
func (g *Graph) Index(id string) (int, bool) {
	i, ok := g.index[id]
	return int(i), ok
}

// Out returns the targets and weights of node i's out-edges, sorted by
// target. The slices belong to the graph: do not modify them.
func (g *Graph) Out(i int) (to []int32, weight []float64) {
	s, e := g.outStart[i], g.outStart[i+1]
	return g.outTo[s:e], g.outW[s:e]
}

// In returns the sources and weights of node i's in-edges, sorted by
// source. The slices belong to the graph: do not modify them.
func (g *Graph) In(i int) (from []int32, weight []float64) {
	s, e := g.inStart[i], g.inStart[i+1]
	return g.inFrom[s:e], g.inW[s:e]
}

// InDegree returns the number of distinct nodes with an edge to i.
func (g *Graph) InDegree(i int) int { return int(g.inStart[i+1] - g.inStart[i]) }

// OutDegree returns the number of distinct nodes i has an edge to.
func (g *Graph) OutDegree(i int) int { return int(g.outStart[i+1] - g.outStart[i]) }

// OutWeight returns the total weight of node i's out-edges: the share of
// i's score that flows to a neighbour j is weight(i→j)/OutWeight(i).
func (g *Graph) OutWeight(i int) float64 { return g.outSum[i] }
