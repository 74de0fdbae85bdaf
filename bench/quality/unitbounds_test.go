package main

import (
	"slices"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
)

// boundCase is an answer of three files: a.py first, its gold unit ranked
// fifth of its units; b.py second, two units, neither gold; c.py third,
// its gold unit known to the index but scored zero (not in its wide
// listing), and not in today's listing either.
func boundCase() boundInput {
	k := func(f string, names ...string) []string {
		var out []string
		for _, n := range names {
			out = append(out, unitKey(f, n))
		}
		return out
	}
	return boundInput{
		files: []string{"a.py", "b.py", "c.py"},
		today: map[string][]string{"a.py": k("a.py", "A1", "A2", "A3", "A4"), "b.py": k("b.py", "B1", "B2"), "c.py": k("c.py", "C1")},
		wide:  map[string][]string{"a.py": k("a.py", "A1", "A2", "A3", "A4", "Gold.a"), "b.py": k("b.py", "B1", "B2"), "c.py": k("c.py", "C1", "C2")},
		gold:  map[string][]string{"a.py": k("a.py", "Gold.a"), "c.py": k("c.py", "gold_c")},
	}
}

func fnGoldOf(b boundInput) []string {
	var out []string
	for _, f := range b.files {
		out = append(out, b.gold[f]...)
	}
	return out
}

func TestWithinOracle(t *testing.T) {
	b := boundCase()
	// Today's listing misses both gold units: a.py's is its fifth, past
	// the cap of 4; c.py's is not listed.
	today := fileByFile(b.files, b.today)
	if r := scoreSWE(b.files, b.files, today, fnGoldOf(b)); r.FnAcc != [2]bool{false, false} {
		t.Fatalf("today's listing scores %v, want no hit", r.FnAcc)
	}
	// Gold first within the first 2 files: a.py's gold comes first, but
	// c.py keeps today's units, so c.py's gold is still missing.
	got := withinOracle(b, 4, 2)
	want := []string{unitKey("a.py", "Gold.a"), unitKey("a.py", "A1"), unitKey("a.py", "A2"), unitKey("a.py", "A3"),
		unitKey("b.py", "B1"), unitKey("b.py", "B2"), unitKey("c.py", "C1")}
	if !slices.Equal(got, want) {
		t.Errorf("withinOracle(first 2) = %q, want %q", got, want)
	}
	// Every file: c.py's gold, known though scored zero, leads c.py at
	// the 7th place: in the top 10, not the top 5.
	got = withinOracle(b, 4, len(b.files))
	if i := slices.Index(got, unitKey("c.py", "gold_c")); i != 6 {
		t.Errorf("c.py's gold at %d in %q, want 6", i, got)
	}
	if r := scoreSWE(b.files, b.files, got, fnGoldOf(b)); r.FnAcc != [2]bool{false, true} {
		t.Errorf("oracle-within scores %v, want Acc@10 only", r.FnAcc)
	}
	// The cap holds: no file lists more than 4.
	if got := withinOracle(b, 1, len(b.files)); len(got) != 3 {
		t.Errorf("at most 1 a file lists %q", got)
	}
}

func TestMergedOracle(t *testing.T) {
	b := boundCase()
	got := mergedOracle(b, 10)
	if !slices.Equal(got[:2], []string{unitKey("a.py", "Gold.a"), unitKey("c.py", "gold_c")}) {
		t.Errorf("merged oracle starts %q, want both gold units", got[:2])
	}
	if r := scoreSWE(b.files, b.files, got, fnGoldOf(b)); r.FnAcc != [2]bool{true, true} {
		t.Errorf("merged oracle over 10 files scores %v, want both", r.FnAcc)
	}
	// Over the first 2 files only, c.py's gold is out of reach.
	got = mergedOracle(b, 2)
	if slices.Contains(got, unitKey("c.py", "gold_c")) || len(got) != 7 {
		t.Errorf("merged oracle over 2 files = %q", got)
	}
	if r := scoreSWE(b.files, b.files, got, fnGoldOf(b)); r.FnAcc != [2]bool{false, false} {
		t.Errorf("merged oracle over 2 files scores %v, want none", r.FnAcc)
	}
}

func TestInterleaved(t *testing.T) {
	b := boundCase()
	got := interleaved(b, 2)
	want := []string{unitKey("a.py", "A1"), unitKey("b.py", "B1"), unitKey("a.py", "A2"), unitKey("b.py", "B2"),
		unitKey("a.py", "A3"), unitKey("a.py", "A4"), unitKey("a.py", "Gold.a")}
	if !slices.Equal(got, want) {
		t.Errorf("interleaved(2) = %q, want %q", got, want)
	}
	// A zero-scored gold unit is in no wide listing: interleaving never
	// finds it, unlike the oracle.
	if slices.Contains(interleaved(b, 10), unitKey("c.py", "gold_c")) {
		t.Error("interleaved lists a unit rerank.units did not")
	}
}

func TestItemUnits(t *testing.T) {
	items := []answer.Item{
		{Kind: core.DocFile, Path: "a.py", Units: []core.Unit{{Name: "f"}, {Name: "C.m"}, {Name: "f"}}},
		{Kind: "note", Path: "n.md", Units: []core.Unit{{Name: "x"}}},
		{Kind: core.DocFile, Path: "b.py"},
		{Kind: core.DocFile, Path: "a.py", Units: []core.Unit{{Name: "g"}}},
	}
	files, units := itemUnits(items)
	if !slices.Equal(files, []string{"a.py", "b.py"}) {
		t.Errorf("files = %q", files)
	}
	if want := []string{unitKey("a.py", "f"), unitKey("a.py", "C.m")}; !slices.Equal(units["a.py"], want) {
		t.Errorf("a.py's units = %q, want %q (the first item's, once each)", units["a.py"], want)
	}
	if len(units["b.py"]) != 0 || units["n.md"] != nil {
		t.Errorf("units = %q", units)
	}
}

func TestTodayListings(t *testing.T) {
	b := boundCase()
	got := capped(b.files, b.today, 1)
	if want := []string{unitKey("a.py", "A1"), unitKey("b.py", "B1"), unitKey("c.py", "C1")}; !slices.Equal(got, want) {
		t.Errorf("capped(1) = %q, want %q", got, want)
	}
	if got := capped(b.files, b.today, 3); len(got) != 6 {
		t.Errorf("capped(3) = %q, want 3 + 2 + 1 units", got)
	}
	got = leadersFirst(b.files, b.today, 2)
	want := []string{unitKey("a.py", "A1"), unitKey("b.py", "B1"), unitKey("a.py", "A2"), unitKey("a.py", "A3"),
		unitKey("a.py", "A4"), unitKey("b.py", "B2"), unitKey("c.py", "C1")}
	if !slices.Equal(got, want) {
		t.Errorf("leadersFirst(2) = %q, want %q", got, want)
	}
}
