package main

import (
	"math"
	"slices"
	"testing"
)

func TestWords(t *testing.T) {
	got := words("Caroline's LGBTQ support-group, 8 May 2023: newClient()")
	want := []string{"caroline", "s", "lgbtq", "support", "group", "8", "may", "2023", "newclient"}
	if !slices.Equal(got, want) {
		t.Errorf("words = %q, want %q", got, want)
	}
}

func TestBaselineRanking(t *testing.T) {
	x := newBaseline()
	x.add("pets", "Melanie: we adopted a dog and a cat last week")
	x.add("art", "Caroline: I painted a sunrise over the lake")
	x.add("dog", "Melanie: the dog loves the lake, the dog swims every day")
	x.add("empty", "")

	if got := x.search("when did Melanie paint the lake", 10); got[0] != "art" && got[0] != "dog" {
		t.Errorf("search = %v: a document matching the rare words should lead", got)
	}
	// "dog" occurs twice in the third document: term frequency wins.
	if got := x.search("dog", 10); !slices.Equal(got, []string{"dog", "pets"}) {
		t.Errorf("search(dog) = %v, want [dog pets]", got)
	}
	if got := x.search("dog", 1); len(got) != 1 {
		t.Errorf("k = 1 returned %d ids", len(got))
	}
	if got := x.search("zebra", 10); len(got) != 0 {
		t.Errorf("no match returned %v", got)
	}
	if got := newBaseline().search("dog", 10); got != nil {
		t.Errorf("empty index returned %v", got)
	}
}

// TestBaselineScore checks scores against the formula worked by hand.
func TestBaselineScore(t *testing.T) {
	x := newBaseline()
	x.add("a", "apple apple pear")
	x.add("b", "pear plum")
	// N = 2, avgdl = 2.5. "apple": n = 1, idf = ln(1 + 1.5/1.5) = ln 2;
	// in a: tf = 2, dl = 3. A repeated query word counts once, a word
	// that matches nothing adds nothing.
	norm := 1.2 * (1 - 0.75 + 0.75*3/2.5)
	want := math.Log(2) * 2 * 2.2 / (2 + norm)
	for _, q := range []string{"apple", "Apple apple", "apple kiwi"} {
		s := x.scores(q)
		if len(s) != 1 || math.Abs(s[0]-want) > 1e-12 {
			t.Errorf("scores(%q) = %v, want {0: %v}", q, s, want)
		}
	}
	// "pear": n = 2, idf = ln(1 + 0.5/2.5); b is shorter than a.
	s := x.scores("pear")
	idf := math.Log(1 + 0.5/2.5)
	wantA := idf * 2.2 / (1 + 1.2*(1-0.75+0.75*3/2.5))
	wantB := idf * 2.2 / (1 + 1.2*(1-0.75+0.75*2/2.5))
	if math.Abs(s[0]-wantA) > 1e-12 || math.Abs(s[1]-wantB) > 1e-12 {
		t.Errorf("scores(pear) = %v, want {0: %v, 1: %v}", s, wantA, wantB)
	}
	if got := x.search("pear", 5); !slices.Equal(got, []string{"b", "a"}) {
		t.Errorf("search(pear) = %v, want the shorter document first", got)
	}
	// Ties go to the document added first.
	y := newBaseline()
	y.add("first", "same words")
	y.add("second", "same words")
	if got := y.search("same", 2); !slices.Equal(got, []string{"first", "second"}) {
		t.Errorf("tie order = %v", got)
	}
}
