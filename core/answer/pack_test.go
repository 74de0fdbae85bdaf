package answer

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/notes"
)

// notesShelf shows knowledge notes "n0".."nN" and records how each was
// asked for; every note's code changed since it was written.
type notesShelf struct {
	asked map[string][]notes.Showing
}

func (s *notesShelf) Symbols(*manifest.Record) error { return nil }

func (s *notesShelf) Note(key string, _ notes.Filter, how notes.Showing) (notes.Shown, bool) {
	s.asked[key] = append(s.asked[key], how)
	sh := notes.Shown{Path: ".rubi/knowledge/" + key + ".md", Title: "note " + key, Text: "decision: note " + key}
	if how == notes.Check {
		sh.Stale = []string{"Checkout changed (shop/cart.go L1-9)"}
		sh.Text += "\n  ⚠ " + sh.Stale[0]
	}
	return sh, true
}

func (s *notesShelf) Chunk(string, notes.Filter) (notes.Shown, bool) { return notes.Shown{}, false }

func (s *notesShelf) SourceItem(string, string) (*core.SourceDocument, bool) { return nil, false }

// A caller that admits items itself (the recall hook) weighs many notes
// to admit a few: only the admitted are checked against the code, a check
// reading and scanning every file a note is about; the others are read
// and rendered, no more. An answer without Admit checks what it shows.
func TestOnlyAdmittedNotesAreCheckedAgainstTheCode(t *testing.T) {
	var hits []core.Hit
	for i := range 40 {
		hits = append(hits, core.Hit{ID: core.DocID(core.DocNode, fmt.Sprintf("n%d", i)), Score: 1 / float64(i+1)})
	}
	shelf := &notesShelf{asked: map[string][]notes.Showing{}}
	a := &Answer{Hits: hits, Query: Query{Text: "checkout", Kinds: MemoryKinds, Budget: 2000, Limit: 6,
		Admit: func(it *Item, strong bool) bool {
			if strings.Contains(it.Text, "⚠") {
				t.Errorf("%s was checked against the code before it was admitted", it.ID)
			}
			return it.ID == "node:n7" || it.ID == "node:n31"
		}}}
	res, err := a.Pack(shelf)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) != 2 || res.Items[0].ID != "node:n7" || res.Items[1].ID != "node:n31" {
		t.Fatalf("items: %+v", res.Items)
	}
	for _, it := range res.Items {
		if len(it.Stale) != 1 || !strings.Contains(it.Text, "⚠ Checkout changed") {
			t.Errorf("%s is shown without what changed in its code: %+v", it.ID, it)
		}
	}
	for key, hows := range shelf.asked {
		if checked := slices.Contains(hows, notes.Check); checked != (key == "n7" || key == "n31") {
			t.Errorf("%s: asked %v", key, hows)
		}
	}
	if len(shelf.asked) != 40 {
		t.Errorf("%d notes weighed, want all 40 (two admitted of the limit's six)", len(shelf.asked))
	}

	shelf.asked = map[string][]notes.Showing{}
	a.Query.Admit = nil
	if res, err = a.Pack(shelf); err != nil {
		t.Fatal(err)
	}
	if len(res.Items) != 6 {
		t.Fatalf("without Admit: %d items, want the limit's 6", len(res.Items))
	}
	for _, it := range res.Items {
		if len(it.Stale) != 1 {
			t.Errorf("without Admit, %s is shown unchecked", it.ID)
		}
	}
	for key, hows := range shelf.asked {
		if slices.Contains(hows, notes.Check) != slices.ContainsFunc(res.Items, func(it Item) bool { return it.ID == "node:"+key }) {
			t.Errorf("without Admit, %s: asked %v", key, hows)
		}
	}
}
