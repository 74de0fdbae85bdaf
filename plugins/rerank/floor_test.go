package rerank

import (
	"context"
	"slices"
	"testing"

	"github.com/rubi-dev/rubi/core"
)

// In a question about the memory alone, a note of a type with a floor of
// its own (type_floors) is held to that floor; a note of any other type,
// and every note when the engine's facts are not given, to floor. A
// conversation's turn saved as a note (type note) that holds little of
// the question's weight stays in the answer; a design note that holds as
// little stays out. In a question about the code too, every note is held
// to floor.
func TestFloorByNoteType(t *testing.T) {
	facts := &unitFacts{types: map[string]string{"turn": "note", "design": "decision", "strong": "note"}}
	lists := []core.RankedList{{Stage: "rank.bm25", Weight: 1, Hits: []core.Hit{
		{ID: "node:strong", Score: 3, Match: 0.6},
		{ID: "node:turn", Score: 2, Match: 0.1},
		{ID: "node:design", Score: 1, Match: 0.1},
	}}}
	rr := core.Rerank{Query: core.Query{Kinds: []string{core.DocNode}}, Lists: lists, Hits: lists[0].Hits}
	kept := func(settings string, rr core.Rerank, facts core.Facts) ([]string, map[string]core.Effect) {
		t.Helper()
		f := NewFloor()
		if err := f.Configure(context.Background(), core.Setup{Settings: []byte(settings)}); err != nil {
			t.Fatal(err)
		}
		out, err := f.RerankFacts(context.Background(), rr, facts)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, h := range out.Hits {
			ids = append(ids, h.ID)
		}
		return ids, out.Effects
	}
	for _, c := range []struct {
		settings string
		facts    core.Facts
		want     []string
	}{
		{`{"floor": 0.3, "type_floors": {"note": 0.05}}`, facts, []string{"node:strong", "node:turn"}},
		{`{"floor": 0.3, "type_floors": {}}`, facts, []string{"node:strong"}},
		// The default: notes of type note have no floor.
		{`{}`, facts, []string{"node:strong", "node:turn"}},
		{`{"floor": 0.3, "type_floors": {"note": 0.05}}`, nil, []string{"node:strong"}},
		// A type's floor may be stricter than floor, too.
		{`{"floor": 0.05, "type_floors": {"note": 0.7}}`, facts, []string{"node:design"}},
	} {
		if got, _ := kept(c.settings, rr, c.facts); !slices.Equal(got, c.want) {
			t.Errorf("%s (facts given: %v): kept %v, want %v", c.settings, c.facts != nil, got, c.want)
		}
	}
	for _, kinds := range [][]string{nil, {core.DocNode, core.DocFile}} {
		mixed := rr
		mixed.Query.Kinds = kinds
		if got, _ := kept(`{}`, mixed, facts); !slices.Equal(got, []string{"node:strong"}) {
			t.Errorf("a question of kinds %q kept %v: every note is held to floor there", kinds, got)
		}
	}
	// A caller that keeps every hit gets the design note marked weak.
	rr.Keep = true
	ids, eff := kept(`{"floor": 0.3, "type_floors": {"note": 0.05}}`, rr, facts)
	if len(ids) != 3 || !eff["node:design"].Weak || eff["node:turn"].Weak {
		t.Errorf("kept %v, effects %v: want all three, the design note alone weak", ids, eff)
	}
	if err := NewFloor().Configure(context.Background(), core.Setup{Settings: []byte(`{"type_floors": {"note": 1.5}}`)}); err == nil {
		t.Error("a type's floor of 1.5 was accepted")
	}
}
