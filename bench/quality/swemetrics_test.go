package main

import (
	"slices"
	"testing"
)

func TestAccAt(t *testing.T) {
	ranked := []string{"a", "b", "c", "d", "e"}
	tests := []struct {
		gold []string
		k    int
		want bool
	}{
		{[]string{"a"}, 1, true},
		{[]string{"b"}, 1, false},
		{[]string{"b"}, 3, true},
		{[]string{"e"}, 5, true},
		{[]string{"e"}, 3, false},
		{[]string{"x"}, 5, false},
		// Every gold file in the top k.
		{[]string{"a", "c"}, 3, true},
		{[]string{"a", "d"}, 3, false},
		{[]string{"a", "x"}, 5, false},
		// More gold than k: the top k all gold.
		{[]string{"a", "b", "z"}, 1, true},
		{[]string{"a", "b", "z"}, 2, true},
		{[]string{"b", "c", "z"}, 1, false},
		{[]string{"a", "c", "z"}, 2, false},
		{nil, 5, false},
	}
	for _, tt := range tests {
		if got := accAt(ranked, tt.gold, tt.k); got != tt.want {
			t.Errorf("accAt(%v, %v, %d) = %v, want %v", ranked, tt.gold, tt.k, got, tt.want)
		}
	}
	// Fewer answers than k, more gold than k: not all k positions are gold.
	if accAt([]string{"a"}, []string{"a", "b", "c"}, 2) {
		t.Error("one answer cannot fill the top 2")
	}
}

func TestScoreSWE(t *testing.T) {
	files := []string{"x.py", "a.py", "y.py", "b.py", "a.py", "z.py", "c.py"}
	// Two gold files at ranks 2 and 4 (the repeated a.py counts once).
	r := scoreSWE(files, []string{"a.py", "b.py"}, nil, nil)
	if want := [4]bool{false, false, true, true}; r.Acc != want {
		t.Errorf("Acc = %v, want %v", r.Acc, want)
	}
	if r.R5 != 1 || r.RR != 0.5 {
		t.Errorf("R5, RR = %v, %v; want 1, 0.5", r.R5, r.RR)
	}
	if r.Fn {
		t.Error("no function gold, yet scored at function level")
	}
	// Three gold files, one of them past the top 5: R@5 is 2/3; Acc@1
	// holds since the first answer is gold and there are more gold files
	// than 1.
	r = scoreSWE([]string{"a.py", "x.py", "b.py", "y.py", "z.py", "w.py", "c.py"}, []string{"a.py", "b.py", "c.py"}, nil, nil)
	if want := [4]bool{true, false, false, true}; r.Acc != want {
		t.Errorf("Acc = %v, want %v", r.Acc, want)
	}
	if r.R5 != 2.0/3 || r.RR != 1 {
		t.Errorf("R5, RR = %v, %v; want 2/3, 1", r.R5, r.RR)
	}
	// Nothing found.
	r = scoreSWE([]string{"x.py"}, []string{"a.py"}, nil, nil)
	if r != (sweResult{}) {
		t.Errorf("nothing found scored %+v", r)
	}

	// Function level: imports and the other pseudo-spans drop out.
	fnGold := goldUnits(map[string][]string{
		"a.py": {"imports", "Session.send", "docstring"},
		"b.py": {"helper", "impl:3"},
		"c.py": {"imports"},
	})
	if want := []string{unitKey("a.py", "Session.send"), unitKey("b.py", "helper")}; !slices.Equal(fnGold, want) {
		t.Fatalf("goldUnits = %q, want %q", fnGold, want)
	}
	units := []string{unitKey("a.py", "Session"), unitKey("b.py", "helper"), unitKey("a.py", "x"), unitKey("a.py", "y"), unitKey("a.py", "z"), unitKey("a.py", "Session.send")}
	r = scoreSWE(files, []string{"a.py", "b.py"}, units, fnGold)
	if !r.Fn || r.FnAcc != [2]bool{false, true} {
		t.Errorf("function scores %v %v, want true [false true]", r.Fn, r.FnAcc)
	}
	// A class span matches the class, not its methods.
	r = scoreSWE(files, []string{"a.py"}, []string{unitKey("a.py", "Session.send")}, goldUnits(map[string][]string{"a.py": {"Session"}}))
	if r.FnAcc[1] {
		t.Error("the method matched its class's span")
	}
	if len(goldUnits(map[string][]string{"a.py": {"imports"}, "b.py": {}})) != 0 {
		t.Error("an instance with only pseudo-spans has function gold")
	}

	var sum sweSum
	sum.add(scoreSWE([]string{"a.py"}, []string{"a.py"}, []string{unitKey("a.py", "f")}, []string{unitKey("a.py", "f")}))
	sum.add(scoreSWE([]string{"x.py", "a.py"}, []string{"a.py"}, nil, nil))
	s := sum.scores()
	if s.N != 2 || s.Acc1 != 50 || s.Acc3 != 100 || s.MRR != 0.75 || s.Recall5 != 100 || s.FnN != 1 || s.FnAcc5 != 100 {
		t.Errorf("scores = %+v", s)
	}
}

func TestIsFunctionSpan(t *testing.T) {
	for s, want := range map[string]bool{
		"func": true, "Class.method": true, "A.B.__ne__": true, "_private": true,
		"imports": false, "docstring": false, "impl:3": false, "": false, "a b": false, "a..b": false,
	} {
		if got := isFunctionSpan(s); got != want {
			t.Errorf("isFunctionSpan(%q) = %v, want %v", s, got, want)
		}
	}
}
