package pipeline

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/knowledge"
)

// Notes registered minutes apart in one sitting are neighbours: asked of
// the notes alone (as the recall hook asks), the note registered right
// after the one the question's words match — the decision after the note
// that raised the question, mostly in words of its own — comes second,
// before the notes of other days that name the question's word "upload"
// more than it does (rank.neighbours). Without the stage it does not.
func TestTheNoteRegisteredAfterTheMatchingOneIsFound(t *testing.T) {
	ctx := context.Background()
	e := engine(t, shop(t))
	at := func(d time.Duration) *time.Time {
		x := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC).Add(d)
		return &x
	}
	notes := []knowledge.Input{
		{Type: knowledge.TypeNote, Title: "Importer retries a failed upload forever", Body: "The importer's retries never stop on a failed upload.", Created: at(0)},
		{Type: knowledge.TypeNote, Title: "Settled: five attempts, then skip", Body: "Five attempts at it, then the file is logged and skipped, the upload with it, and the next file goes.", Created: at(3 * time.Minute)},
		{Type: knowledge.TypeNote, Title: "Cart totals round half up", Body: "Totals round half up at checkout.", Created: at(6 * time.Minute)},
	}
	// Notes of other days that name uploads more than the decision does.
	for i, what := range []string{"size is capped", "lands in the bucket", "is scanned", "gets a thumbnail", "is hashed", "is renamed", "is compressed", "is tagged"} {
		notes = append(notes, knowledge.Input{Type: knowledge.TypeNote, Title: "Upload " + what, Body: "An upload " + what + ".", Created: at(-time.Duration(i+1) * 24 * time.Hour)})
	}
	res, err := e.project.Knowledge().Register(ctx, notes)
	if err != nil {
		t.Fatal(err)
	}
	id := func(i int) string { return core.DocID(core.DocNode, res[i].ID) }
	index(t, e)
	ask := func() []string {
		t.Helper()
		r, err := e.Retrieve(ctx, answer.Query{Text: "what happens to the importer's retries of a failed upload?", Kinds: []string{core.DocNode, core.DocChunk}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, it := range r.Items {
			got = append(got, it.ID)
		}
		return got
	}
	place := func(got []string, id string) int {
		if i := slices.Index(got, id); i >= 0 {
			return i
		}
		return len(got)
	}
	got := ask()
	if place(got, id(1)) != 1 {
		t.Errorf("the decision registered after the matching note is not second: %v (decision %s)", got, id(1))
	}
	setStage(t, e, "ranker", "rank.neighbours", "enabled", "false")
	if got := ask(); place(got, id(1)) <= 1 {
		t.Errorf("without rank.neighbours the decision is second already: %v; the test shows nothing", got)
	}
}
