package neighbours

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
)

// ruleRank is the package doc's rule written as plainly as it reads, with
// a map of every id: what Rank must give, hit for hit and bit for bit.
func ruleRank(st *state, s Settings, q core.Query) []core.Hit {
	whole := func(id string) bool { return slices.Contains(s.Kinds, kindOf(id)) }
	if len(q.Seeds) == 0 || s.Questions == "notes" && !q.MemoryOnly() || !slices.ContainsFunc(s.Kinds, q.AcceptsKind) {
		return nil
	}
	own := map[string]float64{}
	for _, l := range q.Seeds {
		best := 0.0
		for _, h := range l.Hits[:min(len(l.Hits), s.Candidates)] {
			if best == 0 && h.Score > 0 {
				best = h.Score
			}
			if _, held := st.find(h.ID); best == 0 || h.Score <= 0 || !held || !q.AcceptsKind(kindOf(h.ID)) {
				continue
			}
			w := l.Weight
			if w <= 0 {
				w = 1
			}
			own[h.ID] += w * h.Score / best
		}
	}
	if len(own) == 0 {
		return nil
	}
	score := map[string]float64{}
	from := map[string]string{}
	gave := map[string]float64{}
	add := func(id, src string, v float64) {
		if v <= 0 {
			return
		}
		score[id] += v
		if v > gave[id] || v == gave[id] && src < from[id] {
			from[id], gave[id] = src, v
		}
	}
	for _, id := range slices.Sorted(maps.Keys(own)) {
		m := own[id]
		score[id] += s.Own * m
		d, _ := st.find(id)
		for j := word(st.after, d); j < word(st.after, d+1); j++ {
			i := word(st.afterEdges, j)
			add(st.id(word(st.later, i)), id, s.Previous*st.edgeWeight(i)*m)
		}
		for i := word(st.before, d); i < word(st.before, d+1); i++ {
			add(st.id(word(st.earlier, i)), id, s.Next*st.edgeWeight(i)*m)
		}
	}
	if s.Sitting > 0 {
		best := map[int]float64{}
		for id, m := range own {
			d, _ := st.find(id)
			if n := word(st.sitting, d); n != none {
				best[n] = max(best[n], m)
			}
		}
		for _, n := range slices.Sorted(maps.Keys(best)) {
			for j := word(st.members, n); j < word(st.members, n+1); j++ {
				score[st.id(word(st.memberDocs, j))] += s.Sitting * best[n]
			}
		}
	}
	var hits []core.Hit
	for id, v := range score {
		if !q.AcceptsKind(kindOf(id)) {
			continue
		}
		if !whole(id) {
			v = s.Own * own[id]
		}
		if v <= 0 {
			continue
		}
		h := core.Hit{ID: id, Score: v}
		switch src, ok := from[id]; {
		case !whole(id):
			h.Reason = "matches the question"
		case ok && gave[id] >= s.Own*own[id]:
			h.Reason = "written next to " + src
		case own[id] > 0:
			h.Reason = "matches the question"
		default:
			h.Reason = "written in a sitting that matches the question"
		}
		hits = append(hits, h)
	}
	slices.SortFunc(hits, func(a, b core.Hit) int { return cmp.Or(cmp.Compare(b.Score, a.Score), strings.Compare(a.ID, b.ID)) })
	if q.Limit > 0 && len(hits) > q.Limit {
		hits = hits[:q.Limit]
	}
	return hits
}

// Rank gives what the rule gives, on random notes and chunks in random
// sessions (edges between a note and a chunk too, which the index never
// makes but a plugin's corpus may), random lists of matches and every
// setting that changes what is summed: the same hits in the same order
// with the same scores to the last bit and the same reasons.
func TestRankIsTheRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 41))
	for round := range 300 {
		var docs []core.Document
		n := 2 + rng.IntN(60)
		for i := range n {
			kind := core.DocNode
			if rng.IntN(2) == 0 {
				kind = core.DocChunk
			}
			docs = append(docs, core.Document{ID: fmt.Sprintf("%s:%03d", kind, i), Kind: kind})
		}
		var edges []core.Edge
		for range rng.IntN(3 * n) {
			a, b := docs[rng.IntN(n)].ID, docs[rng.IntN(n)].ID
			w := []float64{1, 0.5, 0.25 + rng.Float64()}[rng.IntN(3)]
			edges = append(edges, core.Edge{From: a, To: b, Kind: core.EdgeSession, Weight: w})
		}
		kinds := [][]string{{core.DocNode}, {core.DocChunk}, {core.DocNode, core.DocChunk}}[rng.IntN(3)]
		s := Settings{Previous: float64(rng.IntN(4)), Next: float64(rng.IntN(3)), Sitting: float64(rng.IntN(5)),
			Own: float64(rng.IntN(3)), Candidates: 1 + rng.IntN(40), Kinds: kinds, Questions: "notes"}
		raw, _ := json.Marshal(map[string]any{"previous": s.Previous, "next": s.Next, "sitting": s.Sitting,
			"own": s.Own, "candidates": s.Candidates, "kinds": s.Kinds, "questions": s.Questions})
		r := New()
		if err := r.Configure(context.Background(), core.Setup{Settings: raw}); err != nil {
			t.Fatal(err)
		}
		if err := r.Index(context.Background(), &core.Corpus{Full: true, Documents: docs, Edges: edges}); err != nil {
			t.Fatal(err)
		}
		q := core.Query{Text: "q", Limit: rng.IntN(30), Kinds: [][]string{{core.DocNode, core.DocChunk}, {core.DocNode}, {core.DocChunk}}[rng.IntN(3)]}
		for l := range 1 + rng.IntN(3) {
			list := core.RankedList{Stage: fmt.Sprint("r", l), Weight: []float64{0, 1, 2.5}[rng.IntN(3)]}
			for range rng.IntN(50) {
				id := docs[rng.IntN(n)].ID
				if rng.IntN(8) == 0 {
					id = "file:x.go"
				}
				list.Hits = append(list.Hits, core.Hit{ID: id, Score: math.Round(rng.Float64()*8) / 2})
			}
			slices.SortStableFunc(list.Hits, func(a, b core.Hit) int { return cmp.Compare(b.Score, a.Score) })
			q.Seeds = append(q.Seeds, list)
		}
		got, err := r.Rank(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		want := ruleRank(r.state, s, q)
		if len(got) != len(want) {
			t.Fatalf("round %d: %d hits, the rule gives %d:\n%v\n%v", round, len(got), len(want), got, want)
		}
		for i := range got {
			if got[i].ID != want[i].ID || math.Float64bits(got[i].Score) != math.Float64bits(want[i].Score) || got[i].Reason != want[i].Reason {
				t.Fatalf("round %d, hit %d: %+v, the rule gives %+v", round, i, got[i], want[i])
			}
		}
	}
}
