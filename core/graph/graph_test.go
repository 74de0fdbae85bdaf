package graph

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

type edge struct {
	from, to string
	w        float64
}

func build(nodes []string, edges []edge) *Graph {
	b := NewBuilder()
	for _, n := range nodes {
		b.Node(n)
	}
	for _, e := range edges {
		b.AddEdge(e.from, e.to, e.w)
	}
	return b.Build()
}

func score(t *testing.T, g *Graph, r []float64, id string) float64 {
	t.Helper()
	i, ok := g.Index(id)
	if !ok {
		t.Fatalf("no node %q", id)
	}
	return r[i]
}

func sum(r []float64) float64 {
	s := 0.0
	for _, v := range r {
		s += v
	}
	return s
}

// checkFixedPoint verifies r = (1-d)·p + d·(Mᵀr + dangling·p), the defining
// equation, independently of the power iteration's code.
func checkFixedPoint(t *testing.T, g *Graph, r, p []float64, d float64) {
	t.Helper()
	n := g.Len()
	dangling := 0.0
	for i := range n {
		if g.OutWeight(i) == 0 {
			dangling += r[i]
		}
	}
	want := make([]float64, n)
	for i := range n {
		want[i] = (1-d)*p[i] + d*dangling*p[i]
	}
	for i := range n {
		to, w := g.Out(i)
		for k, j := range to {
			want[j] += d * r[i] * w[k] / g.OutWeight(i)
		}
	}
	for i := range n {
		if math.Abs(want[i]-r[i]) > 1e-8 {
			t.Errorf("node %s: score %.10f, fixed point wants %.10f", g.ID(i), r[i], want[i])
		}
	}
}

func uniform(n int) []float64 {
	p := make([]float64, n)
	for i := range p {
		p[i] = 1 / float64(n)
	}
	return p
}

func TestPageRankStar(t *testing.T) {
	// Four leaves point at the centre, which is dangling.
	g := build([]string{"c", "l1", "l2", "l3", "l4"}, []edge{
		{"l1", "c", 1}, {"l2", "c", 1}, {"l3", "c", 1}, {"l4", "c", 1},
	})
	r := g.PageRank(Options{})
	// By hand, with a = (1-d)/n: r_l = a + d·r_c/n and
	// r_c = a + 4d·r_l + d·r_c/n, so r_c = a(1+4d) / (1 - 4d²/n - d/n).
	d, n := 0.85, 5.0
	a := (1 - d) / n
	wantC := a * (1 + 4*d) / (1 - 4*d*d/n - d/n)
	wantL := a + d*wantC/n
	if got := score(t, g, r, "c"); math.Abs(got-wantC) > 1e-9 {
		t.Errorf("centre = %.10f, want %.10f", got, wantC)
	}
	for _, l := range []string{"l1", "l2", "l3", "l4"} {
		if got := score(t, g, r, l); math.Abs(got-wantL) > 1e-9 {
			t.Errorf("%s = %.10f, want %.10f", l, got, wantL)
		}
	}
	if s := sum(r); math.Abs(s-1) > 1e-12 {
		t.Errorf("sum = %v", s)
	}
}

func TestPageRankChain(t *testing.T) {
	g := build(nil, []edge{{"a", "b", 1}, {"b", "c", 1}})
	r := g.PageRank(Options{})
	a, b, c := score(t, g, r, "a"), score(t, g, r, "b"), score(t, g, r, "c")
	if !(a < b && b < c) {
		t.Errorf("chain scores a=%v b=%v c=%v, want increasing", a, b, c)
	}
	checkFixedPoint(t, g, r, uniform(3), 0.85)
}

func TestPageRankCycleAndSymmetric(t *testing.T) {
	g := build(nil, []edge{{"a", "b", 1}, {"b", "c", 1}, {"c", "a", 1}})
	for i, v := range g.PageRank(Options{}) {
		if math.Abs(v-1.0/3) > 1e-12 {
			t.Errorf("cycle node %s = %v, want 1/3", g.ID(i), v)
		}
	}
	b := NewBuilder()
	b.AddUndirected("x", "y", 2)
	for i, v := range b.Build().PageRank(Options{}) {
		if math.Abs(v-0.5) > 1e-12 {
			t.Errorf("pair node %d = %v, want 1/2", i, v)
		}
	}
}

func TestPageRankDangling(t *testing.T) {
	// No edges at all: every node is dangling and the result is uniform.
	g := build([]string{"a", "b", "c", "d"}, nil)
	for _, v := range g.PageRank(Options{}) {
		if math.Abs(v-0.25) > 1e-12 {
			t.Fatalf("isolated nodes: %v, want 0.25 each", g.PageRank(Options{}))
		}
	}
	// a → b, c isolated: dangling mass of b and c is spread uniformly.
	g = build([]string{"a", "b", "c"}, []edge{{"a", "b", 1}})
	r := g.PageRank(Options{})
	checkFixedPoint(t, g, r, uniform(3), 0.85)
	if math.Abs(score(t, g, r, "a")-score(t, g, r, "c")) > 1e-12 {
		t.Errorf("a and c have no in-edges and should tie: %v", r)
	}
	if math.Abs(sum(r)-1) > 1e-12 {
		t.Errorf("sum = %v", sum(r))
	}
	if got := build(nil, nil).PageRank(Options{}); len(got) != 0 {
		t.Errorf("empty graph: %v", got)
	}
}

func TestPageRankWeights(t *testing.T) {
	// a sends three quarters of its score to b and one quarter to c.
	// The graph is bipartite, so the iteration oscillates and its error
	// only shrinks like d^k: run it to full precision for the check.
	g := build(nil, []edge{{"a", "b", 3}, {"a", "c", 1}, {"b", "a", 1}, {"c", "a", 1}})
	r := g.PageRank(Options{MaxIterations: 1000})
	checkFixedPoint(t, g, r, uniform(3), 0.85)
	if !(score(t, g, r, "b") > score(t, g, r, "c")) {
		t.Errorf("heavier edge should win: %v", r)
	}
	// Parallel edges merge by summing: two a→b edges of weight 1 and 2
	// equal one of weight 3.
	g2 := build(nil, []edge{{"a", "b", 1}, {"a", "b", 2}, {"a", "c", 1}, {"b", "a", 1}, {"c", "a", 1}, {"c", "c", 5}})
	if g2.Edges() != 4 {
		t.Errorf("edges = %d, want 4 (parallel merged, self-loop dropped)", g2.Edges())
	}
	if r2 := g2.PageRank(Options{MaxIterations: 1000}); !slices.Equal(r, r2) {
		t.Errorf("merged parallel edges: %v, want %v", r2, r)
	}
	// A missing (zero) weight counts as 1.
	g3 := build(nil, []edge{{"a", "b", 0}, {"b", "a", 1}})
	if to, w := g3.Out(0); len(to) != 1 || w[0] != 1 {
		t.Errorf("zero weight stored as %v", w)
	}
}

func TestDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var edges []edge
	for range 300 {
		edges = append(edges, edge{fmt.Sprint(rng.IntN(60)), fmt.Sprint(rng.IntN(60)), rng.Float64() + 0.1})
	}
	nodes := make([]string, 60)
	for i := range nodes {
		nodes[i] = fmt.Sprint(i)
	}
	g1 := build(nodes, edges)
	shuffled := slices.Clone(edges)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	g2 := build(nodes, shuffled)
	r1, r2 := g1.PageRank(Options{}), g2.PageRank(Options{})
	if !slices.Equal(r1, r2) {
		t.Error("edge insertion order changed the scores")
	}
	if math.Abs(sum(r1)-1) > 1e-12 {
		t.Errorf("sum = %v", sum(r1))
	}
	checkFixedPoint(t, g1, r1, uniform(60), 0.85)
	seeds := map[int]float64{3: 1, 17: 2, 40: 0.5}
	p1, p2 := g1.Personalized(seeds, Options{}), g2.Personalized(seeds, Options{})
	if !slices.Equal(p1, p2) {
		t.Error("personalized scores differ between identical graphs")
	}
}

func TestConvergence(t *testing.T) {
	g := build(nil, []edge{{"a", "b", 1}, {"b", "c", 1}, {"c", "a", 1}, {"a", "c", 1}})
	_, iters := g.pageRank(Options{})
	if iters >= DefaultMaxIterations {
		t.Errorf("small graph did not converge in %d iterations", iters)
	}
	_, iters = g.pageRank(Options{MaxIterations: 3})
	if iters != 3 {
		t.Errorf("MaxIterations 3 ran %d", iters)
	}
}

func TestPersonalizedConcentrates(t *testing.T) {
	// Two dense clusters joined by one bridge edge.
	b := NewBuilder()
	for _, c := range []string{"A", "B"} {
		for i := range 6 {
			for j := i + 1; j < 6; j++ {
				b.AddUndirected(fmt.Sprint(c, i), fmt.Sprint(c, j), 1)
			}
		}
	}
	b.AddUndirected("A0", "B0", 1)
	g := b.Build()
	seed, _ := g.Index("A3")
	r := g.Personalized(map[int]float64{seed: 1}, Options{})
	p := make([]float64, g.Len())
	p[seed] = 1
	checkFixedPoint(t, g, r, p, 0.85)
	massA := 0.0
	for i, v := range r {
		if g.ID(i)[0] == 'A' {
			massA += v
		}
	}
	if massA < 0.9 {
		t.Errorf("seed cluster holds %.3f of the mass, want > 0.9", massA)
	}
	if top := slices.Index(r, slices.Max(r)); g.ID(top) != "A3" {
		t.Errorf("top node %s, want the seed", g.ID(top))
	}
	// On a ring, where every node has the same degree, score falls with
	// distance from the seed.
	b = NewBuilder()
	for i := range 20 {
		b.AddUndirected(fmt.Sprint(i), fmt.Sprint((i+1)%20), 1)
	}
	g = b.Build()
	r = g.Personalized(map[int]float64{0: 1}, Options{})
	for i := 1; i <= 10; i++ {
		if !(r[i] < r[i-1]) {
			t.Errorf("ring: node %d (%v) not below node %d (%v)", i, r[i], i-1, r[i-1])
		}
		if math.Abs(r[i]-r[20-i]) > 1e-12 {
			t.Errorf("ring: nodes %d and %d should tie: %v %v", i, 20-i, r[i], r[20-i])
		}
	}
}

func TestPersonalizedSeeds(t *testing.T) {
	g := build(nil, []edge{{"a", "b", 1}, {"c", "d", 1}})
	if r := g.Personalized(nil, Options{}); r != nil {
		t.Errorf("no seeds: %v, want nil", r)
	}
	if r := g.Personalized(map[int]float64{-1: 1, 9: 1, 0: 0, 1: math.NaN()}, Options{}); r != nil {
		t.Errorf("only invalid seeds: %v, want nil", r)
	}
	// a → b, b dangling: dangling mass returns to the seed, so nothing
	// leaks to the unrelated c → d component.
	r := g.Personalized(map[int]float64{0: 1}, Options{})
	if score(t, g, r, "c") != 0 || score(t, g, r, "d") != 0 {
		t.Errorf("mass leaked out of the seed's component: %v", r)
	}
	// Seed weights are relative.
	r1 := g.Personalized(map[int]float64{0: 1, 2: 3}, Options{})
	r2 := g.Personalized(map[int]float64{0: 10, 2: 30}, Options{})
	for i := range r1 {
		if math.Abs(r1[i]-r2[i]) > 1e-15 {
			t.Fatalf("scaling seed weights changed scores: %v vs %v", r1, r2)
		}
	}
	if !(score(t, g, r1, "c") > score(t, g, r1, "a")) {
		t.Errorf("heavier seed should score higher: %v", r1)
	}
}

func TestDegreesAndAccessors(t *testing.T) {
	g := build(nil, []edge{{"a", "c", 1}, {"b", "c", 2}, {"c", "a", 1}})
	c, _ := g.Index("c")
	if g.InDegree(c) != 2 || g.OutDegree(c) != 1 {
		t.Errorf("c: in %d out %d", g.InDegree(c), g.OutDegree(c))
	}
	from, w := g.In(c)
	if len(from) != 2 || g.ID(int(from[0])) != "a" || w[1] != 2 {
		t.Errorf("in-edges of c: %v %v", from, w)
	}
	if _, ok := g.Index("zz"); ok {
		t.Error("unknown id found")
	}
	defer func() {
		if recover() == nil {
			t.Error("damping 1 did not panic")
		}
	}()
	g.PageRank(Options{Damping: 1})
}

// synthetic builds a random graph with a skewed in-degree, roughly like an
// import graph: a few files are imported by many.
func synthetic(nodes, edges int) *Graph {
	rng := rand.New(rand.NewPCG(42, 7))
	b := NewBuilder()
	for i := range nodes {
		b.Node(fmt.Sprintf("file:pkg%d/f%d.go", i/20, i))
	}
	for range edges {
		from := rng.IntN(nodes)
		to := int(float64(nodes) * math.Pow(rng.Float64(), 2))
		b.AddEdgeIndex(from, to, 1)
	}
	return b.Build()
}

func BenchmarkPageRank10k(b *testing.B) {
	g := synthetic(10_000, 50_000)
	b.ResetTimer()
	iters := 0
	for b.Loop() {
		_, iters = g.pageRank(Options{})
	}
	b.ReportMetric(float64(iters), "iters")
}

func BenchmarkPersonalized10k(b *testing.B) {
	g := synthetic(10_000, 50_000)
	seeds := map[int]float64{1: 1, 500: 0.5, 9000: 0.3}
	b.ResetTimer()
	iters := 0
	for b.Loop() {
		_, iters = g.personalized(seeds, Options{})
	}
	b.ReportMetric(float64(iters), "iters")
}

func BenchmarkBuild10k(b *testing.B) {
	for b.Loop() {
		synthetic(10_000, 50_000)
	}
}

// A graph rebuilt from its CSR form is the same graph: same edges both
// ways, same scores.
func TestCSRRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var nodes []string
	for i := range 200 {
		nodes = append(nodes, fmt.Sprintf("n%d", i))
	}
	var edges []edge
	for range 1000 {
		edges = append(edges, edge{nodes[rng.IntN(200)], nodes[rng.IntN(200)], 0.5 + rng.Float64()})
	}
	g := build(nodes, edges)
	start, to, w := g.CSR()
	ids := make([]string, g.Len())
	for i := range ids {
		ids[i] = g.ID(i)
	}
	h, err := FromCSR(ids, slices.Clone(start), slices.Clone(to), slices.Clone(w))
	if err != nil {
		t.Fatal(err)
	}
	for i := range g.Len() {
		a, aw := g.In(i)
		b, bw := h.In(i)
		if !slices.Equal(a, b) || !slices.Equal(aw, bw) || g.OutWeight(i) != h.OutWeight(i) {
			t.Fatalf("node %d: in-edges differ", i)
		}
	}
	seeds := map[int]float64{3: 1, 17: 0.5}
	if a, b := g.Personalized(seeds, Options{}), h.Personalized(seeds, Options{}); !slices.Equal(a, b) {
		t.Error("personalized scores differ after the round trip")
	}
	if a, b := g.PageRank(Options{}), h.PageRank(Options{}); !slices.Equal(a, b) {
		t.Error("PageRank differs after the round trip")
	}
}

func TestFromCSRRejectsDamage(t *testing.T) {
	ids := []string{"a", "b", "c"}
	cases := map[string]struct {
		ids   []string
		start []int32
		to    []int32
		w     []float64
	}{
		"sizes":      {ids, []int32{0, 1}, []int32{1}, []float64{1}},
		"target":     {ids, []int32{0, 1, 1, 1}, []int32{7}, []float64{1}},
		"unsorted":   {ids, []int32{0, 2, 2, 2}, []int32{2, 1}, []float64{1, 1}},
		"weight":     {ids, []int32{0, 1, 1, 1}, []int32{1}, []float64{-1}},
		"offsets":    {ids, []int32{0, 2, 1, 2}, []int32{1, 2}, []float64{1, 1}},
		"duplicate":  {[]string{"a", "a", "c"}, []int32{0, 0, 0, 0}, nil, nil},
		"first":      {ids, []int32{1, 1, 1, 1}, []int32{1}, []float64{1}},
		"nan weight": {ids, []int32{0, 1, 1, 1}, []int32{1}, []float64{math.NaN()}},
	}
	for name, c := range cases {
		if _, err := FromCSR(c.ids, c.start, c.to, c.w); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// Forward push agrees with the power iteration within its error bound, and
// ranks the neighbourhood of the seeds the same way.
func TestPersonalizedPush(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	b := NewBuilder()
	for i := range 2000 {
		b.Node(fmt.Sprintf("n%d", i))
	}
	for range 8000 {
		a, c := rng.IntN(2000), rng.IntN(2000)
		b.AddEdgeIndex(a, c, 1)
		b.AddEdgeIndex(c, a, 1)
	}
	b.Node("isolated")
	g := b.Build()
	iso, _ := g.Index("isolated")
	seeds := map[int]float64{7: 1, 42: 0.5, iso: 0.25}
	exact := g.Personalized(seeds, Options{})
	const eps = 1e-7
	push := g.PersonalizedPush(seeds, 0, eps)
	total := 0.0
	for i := range exact {
		total += push[i]
		bound := eps*float64(max(g.OutDegree(i), 1)) + 1e-9
		if push[i] > exact[i]+1e-9 || exact[i]-push[i] > 0.01*exact[i]+bound*50 {
			t.Fatalf("node %d: push %g, exact %g", i, push[i], exact[i])
		}
	}
	if total > 1+1e-9 || total < 0.99 {
		t.Errorf("push mass = %v", total)
	}
	top := func(s []float64) []int {
		idx := make([]int, len(s))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			if s[a] != s[b] {
				if s[a] > s[b] {
					return -1
				}
				return 1
			}
			return a - b
		})
		return idx[:10]
	}
	if a, b := top(exact), top(push); !slices.Equal(a, b) {
		t.Errorf("top 10 differ: exact %v, push %v", a, b)
	}
	if g.PersonalizedPush(map[int]float64{-1: 1, 5: math.Inf(1)}, 0, 0) != nil {
		t.Error("no valid seed should give nil")
	}
}

// A graph made of its own tables is the same graph: same edges both ways,
// same node numbers by id, same scores.
func TestTablesRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var nodes []string
	for range 200 {
		nodes = append(nodes, fmt.Sprintf("n%d", rng.IntN(1000))) // repeats are one node
	}
	var edges []edge
	for range 1000 {
		edges = append(edges, edge{nodes[rng.IntN(200)], nodes[rng.IntN(200)], 0.5 + rng.Float64()})
	}
	g := build(nodes, edges)
	ids := make([]string, g.Len())
	for i := range ids {
		ids[i] = g.ID(i)
	}
	h, err := FromTables(StringIDs(ids), g.Tables())
	if err != nil {
		t.Fatal(err)
	}
	for i := range g.Len() {
		a, aw := g.In(i)
		b, bw := h.In(i)
		if !slices.Equal(a, b) || !slices.Equal(aw, bw) || g.OutWeight(i) != h.OutWeight(i) {
			t.Fatalf("node %d: in-edges differ", i)
		}
		if j, ok := h.Index(ids[i]); !ok || j != i {
			t.Fatalf("Index(%q) = %d, %v; want %d", ids[i], j, ok, i)
		}
	}
	for _, id := range []string{"", "n", "n9999", "zz"} {
		if _, ok := h.Index(id); ok {
			t.Errorf("Index(%q) found a node", id)
		}
	}
	seeds := map[int]float64{3: 1, 17: 0.5}
	if a, b := g.PersonalizedPush(seeds, 0.85, 1e-6), h.PersonalizedPush(seeds, 0.85, 1e-6); !slices.Equal(a, b) {
		t.Error("pushed scores differ after the round trip")
	}
	if a, b := g.PageRank(Options{}), h.PageRank(Options{}); !slices.Equal(a, b) {
		t.Error("PageRank differs after the round trip")
	}
}

func TestFromTablesRejectsDamage(t *testing.T) {
	ids := []string{"a", "b", "c"}
	g := build(ids, []edge{{"a", "b", 1}, {"b", "c", 1}, {"c", "a", 2}, {"a", "c", 1}})
	for name, damage := range map[string]func(*Tables, []string){
		"sizes":       func(t *Tables, _ []string) { t.InW = t.InW[1:] },
		"target":      func(t *Tables, _ []string) { t.OutTo[0] = 7 },
		"source":      func(t *Tables, _ []string) { t.InFrom[1] = -1 },
		"unsorted":    func(t *Tables, _ []string) { t.OutTo[0], t.OutTo[1] = t.OutTo[1], t.OutTo[0] },
		"offsets":     func(t *Tables, _ []string) { t.InStart[1], t.InStart[2] = t.InStart[2], t.InStart[1] },
		"first":       func(t *Tables, _ []string) { t.OutStart[0] = 1 },
		"id order":    func(t *Tables, _ []string) { t.ByID[0], t.ByID[1] = t.ByID[1], t.ByID[0] },
		"node number": func(t *Tables, _ []string) { t.ByID[2] = 3 },
		"duplicate":   func(_ *Tables, ids []string) { ids[1] = "a" },
		"weight":      func(t *Tables, _ []string) { t.OutW[0] = -1 },
		"infinite":    func(t *Tables, _ []string) { t.OutW[0] = math.Inf(1) },
		"out-weight":  func(t *Tables, _ []string) { t.OutSum[0] /= 10 }, // a walk gaining mass never ends
		"in-weight":   func(t *Tables, _ []string) { t.InW[0] *= 2 },
		"in-source":   func(t *Tables, _ []string) { t.InFrom[0], t.InFrom[1] = t.InFrom[1], t.InFrom[0] },
		"transition":  func(t *Tables, _ []string) { t.InNorm[0] = math.NaN() },
	} {
		tb := g.Tables()
		tb = Tables{slices.Clone(tb.OutStart), slices.Clone(tb.OutTo), slices.Clone(tb.OutW), slices.Clone(tb.InStart),
			slices.Clone(tb.InFrom), slices.Clone(tb.InW), slices.Clone(tb.InNorm), slices.Clone(tb.OutSum), slices.Clone(tb.ByID)}
		ids := slices.Clone(ids)
		if _, err := FromTables(StringIDs(ids), tb); err != nil {
			t.Fatalf("%s: intact tables refused: %v", name, err)
		}
		damage(&tb, ids)
		if _, err := FromTables(StringIDs(ids), tb); err == nil {
			t.Errorf("%s: accepted", name)
		}
		// Tables this program wrote skip only the check that the
		// in-edges are the out-edges reversed: no query reads those
		// weights, and a walk still ends.
		_, err := FromOwnTables(StringIDs(ids), tb)
		if unread := name == "in-weight" || name == "transition" || name == "in-source"; unread != (err == nil) {
			t.Errorf("%s: FromOwnTables gives %v", name, err)
		}
	}
}

// Parallel edges weigh the same to the last bit whatever order they were
// added in: their sum is taken lightest first.
func TestParallelEdgesOrderFree(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var edges []edge
	for range 400 {
		// Few nodes and weights of many magnitudes: most pairs repeat, and
		// a sum's rounding depends on the order of its terms.
		edges = append(edges, edge{fmt.Sprint(rng.IntN(6)), fmt.Sprint(rng.IntN(6)), math.Ldexp(1+rng.Float64(), rng.IntN(60)-30)})
	}
	nodes := []string{"0", "1", "2", "3", "4", "5"}
	want := build(nodes, edges).Tables()
	for range 20 {
		rng.Shuffle(len(edges), func(i, j int) { edges[i], edges[j] = edges[j], edges[i] })
		if got := build(nodes, edges).Tables(); !tablesEqual(got, want) {
			t.Fatal("the order edges were added in changed the graph's tables")
		}
	}
}

func tablesEqual(a, b Tables) bool {
	return slices.Equal(a.OutStart, b.OutStart) && slices.Equal(a.OutTo, b.OutTo) && slices.Equal(a.OutW, b.OutW) &&
		slices.Equal(a.InStart, b.InStart) && slices.Equal(a.InFrom, b.InFrom) && slices.Equal(a.InW, b.InW) &&
		slices.Equal(a.InNorm, b.InNorm) && slices.Equal(a.OutSum, b.OutSum) && slices.Equal(a.ByID, b.ByID)
}

// An undirected graph made of its out-edge tables alone has the in-edges
// Build gives: every table the same to the last bit.
func TestFromUndirected(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, size := range []struct{ nodes, edges int }{{0, 0}, {1, 0}, {5, 3}, {300, 2000}} {
		nodes := make([]string, size.nodes)
		for i := range nodes {
			nodes[i] = fmt.Sprintf("n%03d", rng.IntN(1000)) // repeats are one node
		}
		b := NewBuilder()
		for _, n := range nodes {
			b.Node(n)
		}
		for range size.edges {
			// Parallel edges, of weights whose sum rounds differently
			// in another order.
			b.AddUndirected(nodes[rng.IntN(len(nodes))], nodes[rng.IntN(len(nodes))], math.Ldexp(1+rng.Float64(), rng.IntN(40)-20))
		}
		g := b.Build()
		ids := make([]string, g.Len())
		for i := range ids {
			ids[i] = g.ID(i)
		}
		want := g.Tables()
		h := FromUndirected(StringIDs(ids), Tables{OutStart: want.OutStart, OutTo: want.OutTo, OutW: want.OutW, OutSum: want.OutSum, ByID: want.ByID})
		if !tablesEqual(h.Tables(), want) {
			t.Errorf("%d nodes, %d edges: the derived tables differ from Build's", size.nodes, size.edges)
		}
		if _, err := FromTables(StringIDs(ids), h.Tables()); err != nil {
			t.Errorf("%d nodes, %d edges: %v", size.nodes, size.edges, err)
		}
	}
}
