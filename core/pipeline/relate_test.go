package pipeline

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/memory"
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
	items := []memItem{
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
	var many []memItem
	for i := range 400 {
		text := fmt.Sprintf("note number %d", i)
		if i < 10 {
			text = fmt.Sprintf("Talked with Melanie about item %d.", i)
		}
		many = append(many, memItem{id: fmt.Sprintf("node:n%03d", i), text: text})
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
	items := []memItem{
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

// The turn of a conversation that answers a question holds none of its
// words: the index links it to the turn before it in its session, and
// the answer says why it is there.
func TestSessionChunksFoundThroughTheirNeighbours(t *testing.T) {
	root := t.TempDir()
	e := engine(t, root)
	at := time.Date(2023, 5, 8, 13, 0, 0, 0, time.UTC)
	lines := []string{
		"Ana: What did you end up doing with the old bicycle in the garage?",
		"Bo: Sold it to a neighbour for forty euros, finally some space.",
		"Ana: Nice. Are you still going to the pottery class on Tuesdays?",
		"Bo: Yes, we glazed bowls this week.",
	}
	var in []memory.Input
	for k, l := range lines {
		in = append(in, memory.Input{Content: l, Session: "sess-1", Created: at.Add(time.Duration(k) * time.Minute)})
	}
	for k := range 6 {
		in = append(in, memory.Input{Content: fmt.Sprintf("Cy: unrelated remark number %d about the weather and tea", k), Session: "sess-2", Created: at.Add(time.Hour + time.Duration(k)*time.Minute)})
	}
	saved, _, err := memory.Open(root).SaveAll(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	index(t, e)
	res, err := e.Retrieve(context.Background(), Query{Text: "what happened to the old bicycle in the garage", Kinds: []string{core.DocChunk}})
	if err != nil {
		t.Fatal(err)
	}
	answer := core.DocID(core.DocChunk, saved[1].ID)
	k := slices.IndexFunc(res.Items, func(it Item) bool { return it.ID == answer })
	if k < 0 || k > 2 {
		t.Fatalf("the answer is at %d of %v", k, ids(res))
	}
	if !slices.ContainsFunc(res.Items[k].Reasons, func(r string) bool { return strings.Contains(r, "same session as") }) {
		t.Errorf("reasons %q do not say the session", res.Items[k].Reasons)
	}

	// Off, the chunks are not linked.
	e.cfg.Index.LinkSessions = false
	index(t, e)
	res, _ = e.Retrieve(context.Background(), Query{Text: "what happened to the old bicycle in the garage", Kinds: []string{core.DocChunk}})
	for _, it := range res.Items {
		if slices.ContainsFunc(it.Reasons, func(r string) bool { return strings.Contains(r, "same session") }) {
			t.Errorf("link_sessions = false, yet %s says %q", it.ID, it.Reasons)
		}
	}
}

// Two notes that name the same rare person are linked, and the reason
// says so.
func TestNotesSharingARareNameAreLinked(t *testing.T) {
	root := t.TempDir()
	e := engine(t, root)
	long := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	in := []knowledge.Input{
		{Type: "note", Title: "Flaky checkout test", Body: "The checkout test fails when the payment mock times out."},
		{Type: "note", Title: "Who owns payments", Body: "Ask Priyanka before changing the payment retries."},
		{Type: "note", Title: "Retry budget", Body: "The budget was set with Priyanka in the March review."},
	}
	for i := range in {
		c := long.Add(time.Duration(i) * 24 * time.Hour) // days apart: no sitting
		in[i].Created = &c
	}
	if _, err := e.project.Knowledge().Register(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	index(t, e)
	res, err := e.Retrieve(context.Background(), Query{Text: "who should I ask about the payment retry budget", Kinds: []string{core.DocNode}})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range res.Items {
		if it.ID == "node:note-retry-budget" {
			if !slices.ContainsFunc(it.Reasons, func(r string) bool {
				return strings.HasPrefix(r, `both mention "Priyanka" with`) && strings.Contains(r, "note-who-owns-payments")
			}) {
				t.Errorf("reasons %q do not name the shared name", it.Reasons)
			}
			return
		}
	}
	t.Errorf("the note sharing the name is missing: %v", ids(res))
}

// BenchmarkRelate measures the linking pass over 2,000 notes of about a
// paragraph each: it runs on every index run that sees a note change.
func BenchmarkRelate(b *testing.B) {
	words := strings.Fields("the checkout flow applies the coupon before the total is recomputed and Priyanka asked to move the retry into parseConfig in core/when/when.go for PROJ-12 while Sweden ships")
	items := make([]memItem, 2000)
	at := time.Date(2023, 5, 8, 13, 0, 0, 0, time.UTC)
	for i := range items {
		var sb strings.Builder
		for k := range 120 {
			sb.WriteString(words[(i*7+k*13)%len(words)])
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "Name%d met Person%d.", i%300, i%170)
		items[i] = memItem{id: fmt.Sprintf("node:n%d", i), at: at.Add(time.Duration(i) * time.Minute), text: sb.String()}
	}
	b.ResetTimer()
	for range b.N {
		relatedEdges(items, true, 8)
	}
}

// A question that names a time prefers the chunks written then, and says
// so.
func TestDatedQuestionPrefersChunksOfThatDate(t *testing.T) {
	root := t.TempDir()
	e := engine(t, root)
	e.cfg.Index.LinkSessions, e.cfg.Index.LinkEntities = false, 0
	may := time.Date(2023, 5, 8, 13, 0, 0, 0, time.UTC)
	june := time.Date(2023, 6, 20, 13, 0, 0, 0, time.UTC)
	saved, _, err := memory.Open(root).SaveAll(context.Background(), []memory.Input{
		{Content: "We went camping by the lake with the kids, a great trip.", Created: may},
		{Content: "Camping again! This time in the mountains with the kids.", Created: june},
	})
	if err != nil {
		t.Fatal(err)
	}
	index(t, e)
	for _, tt := range []struct {
		q    string
		want string
		date string
	}{
		{"When did we go camping in June?", saved[1].ID, "dated 20 June 2023"},
		{"What camping trip did we take in May 2023?", saved[0].ID, "dated 8 May 2023"},
	} {
		res, err := e.Retrieve(context.Background(), Query{Text: tt.q, Kinds: []string{core.DocChunk}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Items) == 0 || res.Items[0].ID != core.DocID(core.DocChunk, tt.want) {
			t.Errorf("%q: %v, want %s first", tt.q, ids(res), tt.want)
			continue
		}
		if !slices.Contains(res.Items[0].Reasons, tt.date) {
			t.Errorf("%q: reasons %q lack %q", tt.q, res.Items[0].Reasons, tt.date)
		}
	}
	setStage(t, e, core.KindRanker, "query.time", "enabled", "false")
	res, _ := e.Retrieve(context.Background(), Query{Text: "When did we go camping in June?", Kinds: []string{core.DocChunk}})
	for _, it := range res.Items {
		if slices.ContainsFunc(it.Reasons, func(r string) bool { return strings.HasPrefix(r, "dated ") }) {
			t.Errorf("dated_questions = false, yet %s says %q", it.ID, it.Reasons)
		}
	}
}

// An answer holds none of the words of the question it answers; indexed
// with the chunk before it in its session, it is found by them.
func TestChunkIndexedWithTheOneBefore(t *testing.T) {
	root := t.TempDir()
	e := engine(t, root)
	e.cfg.Index.LinkSessions, e.cfg.Index.LinkEntities = false, 0
	at := time.Date(2023, 6, 9, 20, 0, 0, 0, time.UTC)
	saved, _, err := memory.Open(root).SaveAll(context.Background(), []memory.Input{
		{Content: "Caroline: What an amazing family pic! How long have you been married?", Session: "s", Created: at},
		{Content: "Melanie: 5 years already! Time flies.", Session: "s", Created: at.Add(time.Minute)},
		{Content: "Melanie: 5 years already? No, I meant the pottery class.", Session: "other", Created: at.Add(time.Hour)},
	})
	if err != nil {
		t.Fatal(err)
	}
	answer := core.DocID(core.DocChunk, saved[1].ID)
	found := func() bool {
		index(t, e)
		res, err := e.Retrieve(context.Background(), Query{Text: "How long have Mel and her husband been married?", Kinds: []string{core.DocChunk}})
		if err != nil {
			t.Fatal(err)
		}
		return slices.ContainsFunc(res.Items, func(it Item) bool { return it.ID == answer })
	}
	if !found() {
		t.Error("the answer is not found by the words of the question before it")
	}
	e.cfg.Index.SessionContext = false
	if found() {
		t.Error("session_context = false, yet the answer is found by words it does not hold")
	}
}
