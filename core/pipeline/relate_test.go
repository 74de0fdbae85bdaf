package pipeline

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/memory"
)

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
	res, err := e.Retrieve(context.Background(), answer.Query{Text: "what happened to the old bicycle in the garage", Kinds: []string{core.DocChunk}})
	if err != nil {
		t.Fatal(err)
	}
	want := core.DocID(core.DocChunk, saved[1].ID)
	k := slices.IndexFunc(res.Items, func(it answer.Item) bool { return it.ID == want })
	if k < 0 || k > 2 {
		t.Fatalf("the answer is at %d of %v", k, ids(res))
	}
	if !slices.ContainsFunc(res.Items[k].Reasons, func(r string) bool { return strings.Contains(r, "same session as") }) {
		t.Errorf("reasons %q do not say the session", res.Items[k].Reasons)
	}

	// Off, the chunks are not linked.
	e.cfg.Index.LinkSessions = false
	index(t, e)
	res, _ = e.Retrieve(context.Background(), answer.Query{Text: "what happened to the old bicycle in the garage", Kinds: []string{core.DocChunk}})
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
	res, err := e.Retrieve(context.Background(), answer.Query{Text: "who should I ask about the payment retry budget", Kinds: []string{core.DocNode}})
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
		res, err := e.Retrieve(context.Background(), answer.Query{Text: tt.q, Kinds: []string{core.DocChunk}})
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
	res, _ := e.Retrieve(context.Background(), answer.Query{Text: "When did we go camping in June?", Kinds: []string{core.DocChunk}})
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
	want := core.DocID(core.DocChunk, saved[1].ID)
	found := func() bool {
		index(t, e)
		res, err := e.Retrieve(context.Background(), answer.Query{Text: "How long have Mel and her husband been married?", Kinds: []string{core.DocChunk}})
		if err != nil {
			t.Fatal(err)
		}
		return slices.ContainsFunc(res.Items, func(it answer.Item) bool { return it.ID == want })
	}
	if !found() {
		t.Error("the answer is not found by the words of the question before it")
	}
	e.cfg.Index.SessionContext = false
	if found() {
		t.Error("session_context = false, yet the answer is found by words it does not hold")
	}
}
