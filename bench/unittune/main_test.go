package main

import "testing"

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
