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
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
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

// Index returns the index of id if it was added.
func (b *Builder) Index(id string) (int, bool) {
	i, ok := b.index[id]
	return int(i), ok
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
	// order, independent of the order edges were added in: parallel edges
	// are summed lightest first, so their total is the same to the last
	// bit whatever order they came in, and a graph updated in part (see
	// FromUndirected) can weigh them as one built whole does.
	slices.SortFunc(edges, func(x, y rawEdge) int {
		if x.from != y.from {
			return int(x.from - y.from)
		}
		if x.to != y.to {
			return int(x.to - y.to)
		}
		return cmp.Compare(x.w, y.w)
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
		ids:      StringIDs(slices.Clone(b.ids)),
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

// IDs gives the ids of a graph's nodes by node number. A graph loaded
// from a file can read them where they lie instead of making a string of
// each.
type IDs interface {
	Len() int
	At(i int) string
}

// StringIDs is IDs held in a slice.
type StringIDs []string

func (s StringIDs) Len() int        { return len(s) }
func (s StringIDs) At(i int) string { return s[i] }

// Graph is an immutable weighted directed graph. It is safe for concurrent
// use.
type Graph struct {
	ids IDs
	// index maps ids to nodes; a graph from FromTables has byID instead:
	// the nodes sorted by id, searched in O(log n).
	index map[string]int32
	byID  []int32
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
func (g *Graph) Len() int { return g.ids.Len() }

// Edges returns the number of distinct directed edges.
func (g *Graph) Edges() int { return len(g.outTo) }

// ID returns the id of node i.
func (g *Graph) ID(i int) string { return g.ids.At(i) }

// Index returns the node index of id.
func (g *Graph) Index(id string) (int, bool) {
	if g.index == nil {
		k, ok := slices.BinarySearchFunc(g.byID, id, func(i int32, id string) int { return strings.Compare(g.ids.At(int(i)), id) })
		if !ok {
			return 0, false
		}
		return int(g.byID[k]), true
	}
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

// CSR returns the graph's out-edges in compressed sparse row form: the
// out-edges of node i are to[start[i]:start[i+1]] with weights
// weight[start[i]:start[i+1]], sorted by target. With the ids, it is all
// FromCSR needs to rebuild the graph, so a graph can be stored and loaded
// without sorting its edges again. The slices belong to the graph.
func (g *Graph) CSR() (start, to []int32, weight []float64) {
	return g.outStart, g.outTo, g.outW
}

// FromCSR rebuilds a graph from the ids of its nodes and its out-edges as
// CSR returns them, checking everything: the input usually comes from a
// file. The graph keeps the slices.
func FromCSR(ids []string, start, to []int32, weight []float64) (*Graph, error) {
	n, m := len(ids), len(to)
	if len(start) != n+1 || len(weight) != m || start[0] != 0 || int(start[n]) != m {
		return nil, errors.New("graph: inconsistent sizes")
	}
	g := &Graph{
		ids:      StringIDs(ids),
		index:    make(map[string]int32, n),
		outStart: start,
		outTo:    to,
		outW:     weight,
		inStart:  make([]int32, n+1),
		inFrom:   make([]int32, m),
		inW:      make([]float64, m),
		inNorm:   make([]float64, m),
		outSum:   make([]float64, n),
	}
	for i, id := range ids {
		if _, dup := g.index[id]; dup {
			return nil, fmt.Errorf("graph: node %q twice", id)
		}
		g.index[id] = int32(i)
	}
	for i := range n {
		s, e := start[i], start[i+1]
		if s > e || int(e) > m {
			return nil, errors.New("graph: edge offsets out of order")
		}
		for k := s; k < e; k++ {
			t, w := to[k], weight[k]
			if t < 0 || int(t) >= n || k > s && t <= to[k-1] || !(w > 0) || math.IsInf(w, 0) {
				return nil, fmt.Errorf("graph: bad edge from node %d", i)
			}
			g.outSum[i] += w
			g.inStart[t+1]++
		}
	}
	for i := range n {
		g.inStart[i+1] += g.inStart[i]
	}
	next := slices.Clone(g.inStart[:n])
	for i := range n {
		for k := start[i]; k < start[i+1]; k++ {
			t := to[k]
			j := next[t]
			next[t]++
			g.inFrom[j] = int32(i)
			g.inW[j] = weight[k]
			g.inNorm[j] = weight[k] / g.outSum[i]
		}
	}
	return g, nil
}

// Tables is everything a Graph computes from its edges, as flat tables:
// the out-edge CSR (as CSR returns it), the in-edge CSR with the
// transition probabilities, each node's total out-weight, and the nodes in
// the order of their ids. A graph stored as its tables loads with
// FromTables without computing anything.
type Tables struct {
	OutStart, OutTo []int32
	OutW            []float64
	InStart, InFrom []int32
	InW, InNorm     []float64
	OutSum          []float64
	ByID            []int32
}

// Tables returns the graph's tables. They belong to the graph, except
// ByID, which a graph made by a Builder computes at each call.
func (g *Graph) Tables() Tables {
	byID := g.byID
	if byID == nil {
		byID = make([]int32, g.ids.Len())
		for i := range byID {
			byID[i] = int32(i)
		}
		slices.SortFunc(byID, func(a, b int32) int { return strings.Compare(g.ids.At(int(a)), g.ids.At(int(b))) })
	}
	return Tables{g.outStart, g.outTo, g.outW, g.inStart, g.inFrom, g.inW, g.inNorm, g.outSum, byID}
}

// FromUndirected makes a graph of the ids of its nodes and its out-edges,
// as tables this program computed for an undirected graph: every edge
// i→j has its reverse j→i, of the very same weight (Build gives both the
// same weight to the bit when they are added alike, see AddUndirected).
// Its in-edges are then its out-edges: the graph shares OutStart, OutTo
// and OutW as InStart, InFrom and InW, and computes only the transition
// probabilities, in one pass in CSR order, as Build computes them. It
// keeps all the tables, OutSum (each node's out-weights summed in CSR
// order, as Build sums them) and ByID included, and checks nothing: it is
// for a graph updated in part from one Build made (rank.ppr applies a
// change of the notes to its stored graph without sorting every edge
// again), which must come out as the graph Build would make of the same
// edges, in time linear in its size and without a transposition's
// scattered writes.
func FromUndirected(ids IDs, t Tables) *Graph {
	t.InStart, t.InFrom, t.InW = t.OutStart, t.OutTo, t.OutW
	t.InNorm = make([]float64, len(t.OutTo))
	for k, from := range t.OutTo {
		t.InNorm[k] = t.OutW[k] / t.OutSum[from]
	}
	return withTables(ids, t)
}

// FromTables makes a graph of the ids of its nodes and the tables Tables
// returned, and keeps them all. It checks what indexing relies on (sizes,
// offsets, node numbers, the order of the ids, which must be distinct) and
// what a walk relies on to end (weights positive and finite, each node's
// out-weight the sum of its edges', the in-edges the out-edges reversed,
// with their transition probabilities), so damaged tables give an error
// rather than a panic or a walk that never ends, in time linear in the
// size of the graph. A checksum does not make a file's tables right: the
// file may come from anyone.
func FromTables(ids IDs, t Tables) (*Graph, error) {
	return fromTables(ids, t, true)
}

// FromOwnTables is FromTables for tables this program wrote and that no
// one has changed since (see store.Unchanged, which also lets their
// file's checksum go unread). It checks all FromTables does but whether
// the in-edges are the out-edges reversed with their weights, the one
// check that reads every edge of both directions in no order: most of
// the time a query spent loading a large graph. A walk still ends, since
// each node's out-edges are checked to weigh its out-weight; only what
// the in-edges say (sources in range and in order, weights), which a
// query does not read, could be off.
func FromOwnTables(ids IDs, t Tables) (*Graph, error) {
	return fromTables(ids, t, false)
}

func fromTables(ids IDs, t Tables, reversed bool) (*Graph, error) {
	n, m := ids.Len(), len(t.OutTo)
	if len(t.OutW) != m || len(t.InFrom) != m || len(t.InW) != m || len(t.InNorm) != m ||
		len(t.OutSum) != n || len(t.ByID) != n {
		return nil, errors.New("graph: inconsistent sizes")
	}
	for _, c := range []struct{ start, end []int32 }{{t.OutStart, t.OutTo}, {t.InStart, t.InFrom}} {
		if err := checkCSR(c.start, c.end, n); err != nil {
			return nil, err
		}
	}
	for k, i := range t.ByID {
		if i < 0 || int(i) >= n || k > 0 && ids.At(int(t.ByID[k-1])) >= ids.At(int(i)) {
			return nil, errors.New("graph: ids out of order or repeated")
		}
	}
	if err := checkWeights(t, n, reversed); err != nil {
		return nil, err
	}
	return withTables(ids, t), nil
}

// checkWeights checks the weights of tables whose adjacency checkCSR
// passed, against what Build computes from the same edges, in the same
// order of summation: equal to the last bit. With reversed, the in-edges
// too: the out-edges reversed, with the same weights and transition
// probabilities.
func checkWeights(t Tables, n int, reversed bool) error {
	var next []int32 // node → its next in-edge
	if reversed {
		next = slices.Clone(t.InStart[:n])
	}
	for i := range n {
		sum := 0.0
		for k := t.OutStart[i]; k < t.OutStart[i+1]; k++ {
			w, to := t.OutW[k], t.OutTo[k]
			if !(w > 0) || math.IsInf(w, 0) {
				return fmt.Errorf("graph: edge %d→%d weighs %v", i, to, w)
			}
			sum += w
			if !reversed {
				continue
			}
			j := next[to]
			next[to]++
			if j >= t.InStart[to+1] || t.InFrom[j] != int32(i) || t.InW[j] != w || t.InNorm[j] != w/t.OutSum[i] {
				return fmt.Errorf("graph: the in-edges of node %d are not its out-edges reversed", to)
			}
		}
		if sum != t.OutSum[i] || math.IsInf(sum, 0) {
			return fmt.Errorf("graph: the out-weight of node %d is %v, its edges weigh %v", i, t.OutSum[i], sum)
		}
	}
	return nil
}

// checkCSR checks one direction's adjacency: offsets from 0 to len(other)
// in order, and each list of other ends in range and strictly increasing.
func checkCSR(start, other []int32, n int) error {
	m := len(other)
	if len(start) != n+1 || start[0] != 0 || int(start[n]) != m {
		return errors.New("graph: inconsistent sizes")
	}
	for i := range n {
		s, e := start[i], start[i+1]
		if s > e || int(e) > m {
			return errors.New("graph: edge offsets out of order")
		}
		prev := int32(-1)
		for _, t := range other[s:e] {
			if t <= prev || int(t) >= n {
				return fmt.Errorf("graph: bad edge of node %d", i)
			}
			prev = t
		}
	}
	return nil
}

// withTables is the graph of ids over tables already checked or built.
func withTables(ids IDs, t Tables) *Graph {
	return &Graph{
		ids:      ids,
		byID:     t.ByID,
		outStart: t.OutStart,
		outTo:    t.OutTo,
		outW:     t.OutW,
		inStart:  t.InStart,
		inFrom:   t.InFrom,
		inW:      t.InW,
		inNorm:   t.InNorm,
		outSum:   t.OutSum,
	}
}
