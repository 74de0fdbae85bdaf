package main

import (
	"slices"
	"testing"
)

// A setting lists an instance's units by its weighted parts: the gold
// unit of the second file leads when its text weighs more than the first
// file's standing, and falls out of the first five when only the
// standing counts (the first file's six units come first). Acc@k wants
// every gold unit in the first k.
func TestScoreListsByTheWeightedParts(t *testing.T) {
	x := &instance{gold: 1}
	for i := range 6 {
		x.cands = append(x.cands, cand{key: i, place: 0, text: 0.1, within: 0.5})
	}
	x.cands = append(x.cands, cand{key: 6, place: 1, text: 1, within: 1, gold: true})
	if a5, a10 := score(x, setting{files: 5, decay: 1, file: 0.5, text: 1}); !a5 || !a10 {
		t.Errorf("text weighed: Acc@5 %v, Acc@10 %v, want both", a5, a10)
	}
	if a5, a10 := score(x, setting{files: 5, decay: 1, file: 1}); a5 || !a10 {
		t.Errorf("the standing alone: Acc@5 %v, Acc@10 %v, want the gold unit 7th", a5, a10)
	}
	if a5, a10 := score(x, setting{files: 1, decay: 1, file: 0.5, text: 1}); a5 || a10 {
		t.Errorf("the first file's units alone: Acc@5 %v, Acc@10 %v, want neither", a5, a10)
	}
	// Two gold units: both must be in; of tied units, the first read
	// comes first.
	x.gold = 2
	x.cands[5].gold = true
	if a5, a10 := score(x, setting{files: 5, decay: 1, file: 0.5, text: 1}); a5 || !a10 {
		t.Errorf("two gold units, 1st and 7th: Acc@5 %v, Acc@10 %v, want Acc@10 alone", a5, a10)
	}
}

// A class that scored nothing of its own is listed for its method when
// class_methods_weight counts, and a file past the reading budget lists
// nothing: the budget stops at the first file it does not hold, or, with
// skipBig, passes over it.
func TestScoreLendsAndBudgets(t *testing.T) {
	x := &instance{gold: 2, sizes: []int64{400, 300, 100}}
	for i := range 9 {
		x.cands = append(x.cands, cand{key: i, place: 0, text: 0.5})
	}
	x.cands = append(x.cands, cand{key: 9, place: 0, text: 0.6, gold: true, parent: 12}) // its class, cands[11]
	x.cands = append(x.cands, cand{key: 10, place: 2, text: 0.1})
	x.cands = append(x.cands, cand{key: 11, place: 0, class: true, gold: true})
	if _, a10 := score(x, setting{files: 10, decay: 1, file: 0.5, text: 1}); a10 {
		t.Errorf("unlent: the class is listed")
	}
	if _, a10 := score(x, setting{files: 10, decay: 1, file: 0.5, text: 1, cm: 1}); !a10 {
		t.Errorf("lent: the class is not listed beside its method")
	}
	for _, c := range []struct {
		budget int64
		skip   bool
		want   []int
	}{{0, false, []int{0, 1, 2}}, {500, false, []int{0, -1, -1}}, {500, true, []int{0, -1, 1}}} {
		skipBig = c.skip
		x.placeMemo = nil
		if got := x.places(c.budget)[:3]; !slices.Equal(got, c.want) {
			t.Errorf("budget %d, skip %v: places %v, want %v", c.budget, c.skip, got, c.want)
		}
	}
	skipBig = false
}
