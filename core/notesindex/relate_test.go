package notesindex

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/notes"
)

func TestScanNames(t *testing.T) {
	got := map[string]bool{}
	scanNames("Thanks! I went to Sweden with Maria's sister. We saw the Pride Parade, then fixed PROJ-42 in core/when/when.go and parseConfig. I'm done. Yes, it was 2023.",
		func(key, _ string, strong bool) {
			if strong {
				got[key] = true
			} else if !got[key] {
				got[key] = false
			}
		})
	for _, want := range []string{"sweden", "maria", "pride parade", "pride", "parade", "proj-42", "core/when/when.go", "parseconfig"} {
		if !got[want] {
			t.Errorf("%q not found as a name: %v", want, got)
		}
	}
	// A sentence's first word is only a guess; stopwords, "I" and
	// numbers are no names.
	for _, guess := range []string{"thanks", "yes"} {
		if v, ok := got[guess]; !ok || v {
			t.Errorf("%q should be a guess (false), got %v, %v", guess, v, ok)
		}
	}
	for _, none := range []string{"i", "i'm", "we", "the", "2023", "then"} {
		if _, ok := got[none]; ok {
			t.Errorf("%q taken for a name", none)
		}
	}
}

func TestEntityEdges(t *testing.T) {
	at := time.Date(2023, 5, 8, 13, 0, 0, 0, time.UTC)
	items := []item{
		{id: "chunk:a", text: "Thanks! I loved the trip to Sweden last summer."},
		{id: "chunk:b", text: "Did you see the northern lights in Sweden?"},
		{id: "chunk:c", text: "Thanks, that was kind."},
		{id: "chunk:d", text: "Thanks for the book."},
		{id: "chunk:e", text: "Caroline said thanks to Caroline and Caroline"},
	}
	for i := range items {
		items[i].at = at
	}
	edges := entityEdges(items, 3)
	if len(edges) != 1 {
		t.Fatalf("edges = %+v, want the one between the two notes about Sweden", edges)
	}
	e := edges[0]
	if e.From != "chunk:b" || e.To != "chunk:a" || e.Kind != core.EdgeMentions || e.Label != `both mention "Sweden" with` {
		t.Errorf("edge = %+v", e)
	}

	// A name more notes share than the cap links none of them: no hubs.
	var many []item
	for i := range 400 {
		text := fmt.Sprintf("note number %d", i)
		if i < 10 {
			text = fmt.Sprintf("Talked with Melanie about item %d.", i)
		}
		many = append(many, item{id: fmt.Sprintf("node:n%03d", i), text: text})
	}
	if got := entityEdges(many, 8); len(got) != 0 {
		t.Errorf("a name of 10 notes linked them: %+v", got)
	}
	if got := entityEdges(many, 10); len(got) != 45 {
		t.Errorf("a name of 10 notes of 400 with a cap of 10: %d edges, want 45", len(got))
	}
	// Rare is relative to the collection: 10 of 40 notes is a quarter.
	if got := entityEdges(many[:40], 10); len(got) != 0 {
		t.Errorf("a name of 10 notes of 40 linked them: %d edges", len(got))
	}
}

func TestSessionEdges(t *testing.T) {
	at := time.Date(2023, 5, 8, 13, 0, 0, 0, time.UTC)
	items := []item{
		{id: "chunk:3", session: "s1", at: at.Add(3 * time.Minute)},
		{id: "chunk:1", session: "s1", at: at.Add(time.Minute)},
		{id: "chunk:2", session: "s1", at: at.Add(2 * time.Minute)},
		{id: "chunk:x", session: "s2", at: at.Add(90 * time.Second)},
		// Notes: two minutes apart, then hours later, then a bulk import.
		{id: "node:a", at: at},
		{id: "node:b", at: at.Add(2 * time.Minute)},
		{id: "node:c", at: at.Add(5 * time.Hour)},
		{id: "node:d", at: at.Add(5 * time.Hour)},
	}
	var got []string
	for _, e := range sessionEdges(items) {
		got = append(got, fmt.Sprintf("%s-%s %v %s", e.From, e.To, e.Weight, e.Label))
	}
	want := []string{
		"chunk:2-chunk:1 1 same session as",
		"chunk:3-chunk:1 0.5 same session as",
		"chunk:3-chunk:2 1 same session as",
		"node:b-node:a 1 written minutes after",
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("session edges\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// BenchmarkRelate measures the linking pass over 2,000 notes of about a
// paragraph each: it runs on every index run that sees a note change.
func BenchmarkRelate(b *testing.B) {
	words := strings.Fields("the checkout flow applies the coupon before the total is recomputed and Priyanka asked to move the retry into parseConfig in core/when/when.go for PROJ-12 while Sweden ships")
	items := make([]item, 2000)
	at := time.Date(2023, 5, 8, 13, 0, 0, 0, time.UTC)
	for i := range items {
		var sb strings.Builder
		for k := range 120 {
			sb.WriteString(words[(i*7+k*13)%len(words)])
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "Name%d met Person%d.", i%300, i%170)
		items[i] = item{id: fmt.Sprintf("node:n%d", i), at: at.Add(time.Duration(i) * time.Minute), text: sb.String()}
	}
	b.ResetTimer()
	for range b.N {
		relatedEdges(items, true, 8)
	}
}

// Chunks of one session saved in the same second are linked in the order
// they were saved (their place in the session), not by their ids.
func TestSessionEdgesOfOneSecond(t *testing.T) {
	at := time.Date(2023, 5, 8, 13, 0, 0, 0, time.UTC)
	var items []item
	for seq, id := range []string{"chunk:c", "chunk:a", "chunk:b"} {
		items = append(items, item{id: id, session: "s1", at: chunkMoment(&notes.Note{ID: id, Created: at, Session: "s1", Seq: seq + 1})})
	}
	var got []string
	for _, e := range sessionEdges(items) {
		got = append(got, fmt.Sprintf("%s-%s %v", e.From, e.To, e.Weight))
	}
	slices.Sort(got)
	if want := []string{"chunk:a-chunk:c 1", "chunk:b-chunk:a 1", "chunk:b-chunk:c 0.5"}; !slices.Equal(got, want) {
		t.Errorf("session edges %q, want %q", got, want)
	}
}
