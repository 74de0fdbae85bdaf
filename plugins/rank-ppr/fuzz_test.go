package ppr

import (
	"bytes"
	"context"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/internal/rubitest"
)

// stateSeeds are real graphs: files with modules and imports, a link of
// another kind, and one of a single file.
func stateSeeds() [][]byte {
	files := []string{"api/handler.go", "store/db.go", "store/cache.go", "ui/page.go", "ui/widget.go", "docs/gen.go"}
	imports := [][2]string{{"api/handler.go", "store/db.go"}, {"ui/page.go", "ui/widget.go"}, {"store/cache.go", "store/db.go"}}
	link := core.Edge{From: "file:docs/gen.go", To: "file:api/handler.go", Kind: "mentions", Weight: 0.5}
	notes := corpusOf([]string{"a.go", "b.go"}, true, [][2]string{{"a.go", "b.go"}},
		core.Edge{From: "node:b", To: "file:a.go", Kind: "about"},
		core.Edge{From: "node:c", To: "node:b", Kind: core.EdgeMentions, Label: `both mention "Oslo" with`})
	notes.Documents = append(notes.Documents, core.Document{ID: "node:b", Kind: core.DocNode}, core.Document{ID: "node:c", Kind: core.DocNode, Path: "c.md"})
	return [][]byte{
		newState(corpusOf(files, true, imports, link)).encode(),
		newState(corpusOf([]string{"a.go", "b.go", "c.go"}, false, [][2]string{{"a.go", "b.go"}, {"b.go", "c.go"}})).encode(),
		newState(corpusOf([]string{"main.go"}, false, nil)).encode(),
		newState(notes).encode(),
	}
}

// exerciseState reads every node and edge of a decoded graph as reasons
// do, and ranks from a few of its nodes, as the seeds of a query. It
// reports whether ranking succeeded with hits; a damaged graph may rank
// nothing, never panic or hang.
func exerciseState(t *testing.T, st *state) bool {
	n := st.g.Len()
	for i := range n {
		st.kind(i)
		st.name(i)
		if j, ok := st.g.Index(st.id(i)); !ok || j != i {
			t.Fatalf("node %d (%q) is found as %d, %v", i, st.id(i), j, ok)
		}
		to, _ := st.g.Out(i)
		for k := range to {
			st.relation(i, k)
		}
		st.g.In(i)
	}
	var ids []string
	for i := 0; i < n && i < 4; i++ {
		ids = append(ids, st.id(i))
	}
	r := &Ranker{settings: DefaultSettings(), state: st} // no state directory: the graph in memory
	ok := true
	for _, q := range []core.Query{seedQuery(10, ids...), seedQuery(0, ids...), {Text: "q", Seeds: []core.RankedList{{Weight: 2, Hits: []core.Hit{{ID: "file:no/such.go"}}}}}} {
		q.Kinds = nil
		hits, err := r.Rank(context.Background(), q)
		if err != nil || len(ids) > 0 && q.Limit != 0 && len(hits) == 0 && n > 1 && st.g.Edges() > 0 {
			ok = false
		}
		for _, h := range hits {
			if _, known := st.g.Index(h.ID); !known || !(h.Score > 0) {
				t.Fatalf("hit %+v", h)
			}
		}
	}
	return ok
}

// The graph (.rubi/index/rank.ppr/graph.bin) is read as the cloned
// repository holds it. Decoding it, with or without its checksum checked
// (a query skips it for the very file an index run wrote), never panics,
// and neither does anything done with what it accepts: reasons read its
// nodes, relations and edges, and a walk from seeds ends.
func FuzzState(f *testing.F) {
	for _, data := range stateSeeds() {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer rubitest.Bound(rubitest.FuzzBound, "FuzzState")()
		for _, verify := range []bool{true, false} {
			// The state aliases its bytes, which an iteration must not
			// share with the next.
			if st, err := decodeState(bytes.Clone(data), verify); err == nil {
				exerciseState(t, st)
				// A scoped update builds on what decoding accepts.
				if next, err := st.update(fuzzDelta); err == nil {
					exerciseState(t, next)
				}
			}
		}
	})
}

// fuzzDelta is a scoped delta to apply to the graphs FuzzState decodes:
// notes added and removed, linked to files, modules and one another.
var fuzzDelta = &core.Corpus{
	Scope: core.NotesScope,
	Documents: []core.Document{
		{ID: "node:a", Kind: core.DocNode, Title: "A"},
		{ID: "chunk:s/1", Kind: core.DocChunk},
	},
	Removed: []string{"node:b"},
	Edges: []core.Edge{
		{From: "node:a", To: "file:store/db.go", Kind: "about"},
		{From: "node:a", To: "module:store", Kind: "about", Weight: 2},
		{From: "node:a", To: "file:a.go", Kind: "about"},
		{From: "chunk:s/1", To: "node:a", Kind: core.EdgeSession, Weight: 0.5, Label: "same session as"},
	},
}

// With its checksum checked, a graph with any byte changed is refused, or
// ranks as the original does.
func TestFlippedStateByte(t *testing.T) {
	for _, seed := range stateSeeds() {
		data := bytes.Clone(seed)
		for i := range data {
			data[i] ^= 0x01
			if st, err := decodeState(bytes.Clone(data), true); err == nil && !exerciseState(t, st) {
				t.Fatalf("byte %d flipped: accepted, and ranking fails", i)
			}
			data[i] = seed[i]
		}
	}
}
