package gate

import (
	"slices"
	"testing"

	"github.com/rubi-dev/rubi/bench/internal/sets"
	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
)

// A file question is ranked among the answer's files, so a note or a
// module shown first does not push its file down; a note question
// counts the notes.
func TestRankCountsTheKindsTheGoldNames(t *testing.T) {
	items := []answer.Item{
		{Kind: core.DocNode, Path: ".rubi/knowledge/decision-a.md"},
		{Kind: core.DocModule, Path: "pkg"},
		{Kind: core.DocFile, Path: "pkg/a.go"},
		{Kind: core.DocFile, Path: "pkg/b.go"},
		{Kind: core.DocNode, Path: ".rubi/knowledge/gotcha-b.md"},
	}
	for _, c := range []struct {
		gold []string
		want int
	}{
		{[]string{"pkg/b.go"}, 2},
		{[]string{"pkg/c.go", "pkg/a.go"}, 1},
		{[]string{"pkg/c.go"}, 0},
		{[]string{".rubi/knowledge/gotcha-b.md"}, 2},
		{[]string{".rubi/knowledge/gotcha-b.md", "pkg/b.go"}, 3},
	} {
		if got := Rank(items, c.gold); got != c.want {
			t.Errorf("Rank(%v) = %d, want %d", c.gold, got, c.want)
		}
	}
}

func TestScore(t *testing.T) {
	got := Score([]int{1, 2, 0, 6})
	want := Stats{Recall1: 0.25, Recall5: 0.5, MRR: (1 + 0.5 + 1.0/6) / 4}
	if got != want {
		t.Errorf("Score = %+v, want %+v", got, want)
	}
}

// A golden read back names each question that moved, and the sets and
// questions that came or went.
func TestMovesNamesWhatMoved(t *testing.T) {
	q := func(texts ...string) []sets.SelfQuestion {
		var out []sets.SelfQuestion
		for _, s := range texts {
			out = append(out, sets.SelfQuestion{Text: s})
		}
		return out
	}
	was := Golden([]Set{
		{Name: "a", About: "x", Questions: q("where is X", "how does Y work", "old one"), Ranks: []int{1, 3, 2}},
		{Name: "gone", About: "y", Questions: q("z"), Ranks: []int{1}},
	})
	now := Golden([]Set{
		{Name: "a", About: "x", Questions: q("where is X", "how does Y work", "new one"), Ranks: []int{1, 0, 4}},
	})
	got := Moves(was, now)
	want := []string{
		"set a: questions 3  recall@1 0.333  recall@5 0.667  MRR 0.417, was questions 3  recall@1 0.333  recall@5 1.000  MRR 0.611",
		`  a: "how does Y work" moved 3 → -`,
		`  a: new question "new one", rank 4`,
		`  a: question "old one" gone (was 2)`,
		"set gone: gone (was questions 1  recall@1 1.000  recall@5 1.000  MRR 1.000)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Moves:\n%q\nwant\n%q", got, want)
	}
	if m := Moves(now, now); len(m) != 0 {
		t.Errorf("Moves of a golden and itself: %q", m)
	}
}
