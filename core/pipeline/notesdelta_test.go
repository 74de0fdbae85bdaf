package pipeline

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/memory"
	"github.com/rubi-dev/rubi/core/notesindex"
)

// deltaQueries are asked of the index a delta left and of one built in
// full from the same files: the answers must be the same, word for word.
var deltaQueries = []answer.Query{
	{Text: "coupon discount applied twice at checkout"},
	{Text: "zebra importer batch stalls", Kinds: []string{core.DocNode, core.DocChunk}},
	{Text: "why does the payment retry budget run out"},
	{Text: "Maria Sweden trip", Kinds: []string{core.DocNode, core.DocChunk}},
	{Text: "discount"},
}

// A note edited, added or deleted outside rubi is brought into the index
// by the notes' delta alone: the code's manifest is not rewritten, and
// what every query answers is exactly what an index built in full from
// the same files answers, rank for rank and reason for reason, round
// after round of changes.
func TestNotesDeltaAnswersAsAFullIndex(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	// The full index is built in a copy of the project, at another root,
	// where no note is the user's (knowledge/own.go keys its record by
	// the root): with no record at all, both mark every note alike.
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "")
	ctx := context.Background()
	ks := e.project.Knowledge()
	if _, err := ks.Register(ctx, []knowledge.Input{
		{Type: knowledge.TypeGotcha, Title: "Coupon applied twice", Body: "The discount ran before the total at checkout.", Files: []string{"internal/discount/discount.go"}},
		{Type: knowledge.TypeDecision, Title: "Payment retries are capped", Body: "The retry budget is three attempts; Maria chose it after the Sweden outage.", Tags: []string{"payments"}},
		{Type: knowledge.TypeConcept, Title: "Order totals", Body: "A total is computed once, after every discount.", Links: []knowledge.Link{{Rel: "related", Target: "Coupon applied twice"}}},
		{Type: knowledge.TypeBug, Title: "Zebra importer stalls", Body: "The zebra importer stalls on batch three when Maria runs it."},
	}); err != nil {
		t.Fatal(err)
	}
	mem := memory.Open(root)
	for _, text := range []string{"Maria asked about the Sweden trip budget.", "The zebra importer log shows batch three.", "We capped the retry budget at three."} {
		if _, err := mem.Save(ctx, memory.Input{Content: text, Summary: text[:20], Session: "s1"}); err != nil {
			t.Fatal(err)
		}
	}
	index(t, e)

	mfPath := filepath.Join(root, ".rubi", "index", manifest.FileName)
	type round struct {
		change func()
		edits  bool // only notes edited: the delta reads only them
		texts  bool // and only their texts: the rankers get texts alone
	}
	rounds := []round{
		{edits: true, change: func() { // two edits through new files, a name dropped; the chunks' folder written, no chunk
			write(t, root, ".rubi/sessions/usage.json", `{"reads":{}}`)
			editNote(t, ks, "Payment retries are capped", "The retry budget is four attempts now; Maria raised it.")
			editNote(t, ks, "Zebra importer stalls", "The zebra importer stalls on batch five, never on three.")
		}},
		{edits: true, texts: true, change: func() { // a note made critical, by hand
			rewriteNote(t, ks, "Order totals", "importance: medium", "importance: critical")
		}},
		{edits: true, texts: true, change: func() { // words changed, the same names
			editNote(t, ks, "Zebra importer stalls", "The zebra importer stalls on batch five, never on three, and retries it.")
		}},
		{edits: true, change: func() { // a link in a note's header: its edges change, not its names
			to, err := ks.Get("Payment retries are capped")
			if err != nil {
				t.Fatal(err)
			}
			rewriteNote(t, ks, "Zebra importer stalls", "type: bug", "type: bug\nlinks: ["+to.ID+"]")
		}},
		{edits: true, change: func() { // a file named in a note's header: its edges and names change
			rewriteNote(t, ks, "Zebra importer stalls", "type: bug", "type: bug\nfiles: [internal/discount/discount.go]")
		}},
		{change: func() { // an edit through a new file, a new note, a deleted one
			editNote(t, ks, "Coupon applied twice", "The discount ran twice: once in the cart, once at checkout.")
			if _, err := ks.Register(ctx, []knowledge.Input{{Type: knowledge.TypeHowto, Title: "Replay a stalled zebra batch", Body: "Run the zebra importer with --from the stalled batch.", Files: []string{"internal/discount/discount.go"}}}); err != nil {
				t.Fatal(err)
			}
			deleteNote(t, ks, "Order totals")
		}},
		{change: func() { // a chunk added, a note linked to another
			if _, err := mem.Save(ctx, memory.Input{Content: "Maria booked the Sweden trip for May.", Summary: "Sweden trip booked", Session: "s1"}); err != nil {
				t.Fatal(err)
			}
			if _, err := ks.Register(ctx, []knowledge.Input{{Type: knowledge.TypeConcept, Title: "Retry budget", Body: "How many attempts a payment gets.", Links: []knowledge.Link{{Rel: "related", Target: "Payment retries are capped"}}}}); err != nil {
				t.Fatal(err)
			}
		}},
		{change: func() { // every note but one gone
			deleteNote(t, ks, "Zebra importer stalls")
			deleteNote(t, ks, "Retry budget")
			deleteNote(t, ks, "Replay a stalled zebra batch")
		}},
	}
	for round, r := range rounds {
		before, err := os.ReadFile(mfPath)
		if err != nil {
			t.Fatal(err)
		}
		edited, texts := e.editedDeltas.Load(), e.textDeltas.Load()
		r.change()
		stats, did, err := e.RefreshNotes(ctx)
		if err != nil || !did {
			t.Fatalf("round %d: refresh: %v, indexed %v", round, err, did)
		}
		for name, how := range stats.Rankers {
			if how != "incremental" {
				t.Errorf("round %d: %s was indexed %q, not as a delta", round, name, how)
			}
		}
		if after, _ := os.ReadFile(mfPath); !bytes.Equal(before, after) {
			t.Errorf("round %d: the notes' delta rewrote the code's manifest", round)
		}
		if got := e.editedDeltas.Load() > edited; got != r.edits {
			t.Errorf("round %d: the delta read only the edited notes: %v, want %v", round, got, r.edits)
		}
		if got := e.textDeltas.Load() > texts; got != r.texts {
			t.Errorf("round %d: the rankers were sent texts alone: %v, want %v", round, got, r.texts)
		}
		full := copyProject(t, root)
		ef := engine(t, full)
		if _, err := ef.Index(ctx, IndexOptions{Full: true}); err != nil {
			t.Fatal(err)
		}
		critical, err := e.Notes().Critical()
		if err != nil {
			t.Fatal(err)
		}
		wantCritical, err := ef.Notes().Critical()
		if err != nil {
			t.Fatal(err)
		}
		if g, w := titles(critical), titles(wantCritical); !slices.Equal(g, w) {
			t.Errorf("round %d: critical notes %v, a full index has %v", round, g, w)
		}
		for _, q := range deltaQueries {
			got, err := e.Retrieve(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			want, err := ef.Retrieve(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := got.Text(true), want.Text(true); g != w {
				t.Errorf("round %d, %q: the delta's index answers\n%s\nthe full index answers\n%s", round, q.Text, g, w)
			}
		}
	}
}

// A ranker that cannot take the notes' delta leaves the notes' state as it
// was, with no file of it half written beside it: the next run, once the
// ranker is repaired, sends the same notes again.
func TestNotesDeltaKeepsTheStateWhenARankerFails(t *testing.T) {
	root, e := notesProject(t, twoNotes...)
	ctx := context.Background()
	ks := e.project.Knowledge()
	indexDir := filepath.Join(root, ".rubi", "index")
	state, err := os.ReadFile(filepath.Join(indexDir, notesindex.StateFile))
	if err != nil {
		t.Fatal(err)
	}
	names := filepath.Join(indexDir, "rank.names", "notes.idx")
	if err := os.WriteFile(names, []byte("not an index"), 0o644); err != nil {
		t.Fatal(err)
	}
	editNote(t, ks, "Zebra importer stalls", "The zebra importer stalls on batch five.")
	if _, _, err := e.RefreshNotes(ctx); !errors.Is(err, ErrIndexOutdated) {
		t.Fatalf("refresh with a damaged ranker: %v, want ErrIndexOutdated", err)
	}
	if got, _ := os.ReadFile(filepath.Join(indexDir, notesindex.StateFile)); !bytes.Equal(got, state) {
		t.Error("the notes' state was rewritten though a ranker did not take the delta")
	}
	entries, _ := os.ReadDir(indexDir)
	for _, de := range entries {
		if strings.Contains(de.Name(), ".tmp-") {
			t.Errorf("%s left in the index", de.Name())
		}
	}
	index(t, e)
	res, err := e.Retrieve(ctx, answer.Query{Text: "zebra batch five", Kinds: []string{core.DocNode}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) == 0 || !strings.Contains(res.Items[0].Title, "Zebra") {
		t.Errorf("after a full index, the edited note is not found:\n%s", res.Text(true))
	}
}

// twoNotes are two notes of the shop project that share no name.
var twoNotes = []knowledge.Input{
	{Type: knowledge.TypeGotcha, Title: "Coupon applied twice", Body: "Maria saw the discount run before the total at checkout."},
	{Type: knowledge.TypeBug, Title: "Zebra importer stalls", Body: "The zebra importer stalls on batch three."},
}

// notesProject is the shop project with the notes in registered, indexed.
func notesProject(t *testing.T, in ...knowledge.Input) (string, *Engine) {
	t.Helper()
	root := shop(t)
	e := engine(t, root)
	if _, err := e.project.Knowledge().Register(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	index(t, e)
	return root, e
}

// editNote rewrites a node's body as an editor that saves through a new
// file does.
func editNote(t *testing.T, ks *knowledge.Store, title, body string) {
	t.Helper()
	n, err := ks.Get(title)
	if err != nil {
		t.Fatal(err)
	}
	rewriteNote(t, ks, title, strings.TrimSpace(n.Body), body)
}

// rewriteNote replaces old with new in a node's file, as an editor that
// saves through a new file does.
func rewriteNote(t *testing.T, ks *knowledge.Store, title, old, new string) {
	t.Helper()
	n, err := ks.Get(title)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(n.Path)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), old, new, 1)
	if text == string(data) {
		t.Fatalf("no %q to replace in\n%s", old, data)
	}
	if err := os.WriteFile(n.Path+".swp", []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(n.Path+".swp", n.Path); err != nil {
		t.Fatal(err)
	}
}

// deleteNote removes a node's file, as a git checkout does.
func deleteNote(t *testing.T, ks *knowledge.Store, title string) {
	t.Helper()
	n, err := ks.Get(title)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(n.Path); err != nil {
		t.Fatal(err)
	}
}

// copyProject copies the project at root, its .rubi/ folder but not its
// index, into a new folder.
func copyProject(t *testing.T, root string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "copy")
	if err := os.CopyFS(dst, os.DirFS(root)); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dst, ".rubi", "index")); err != nil {
		t.Fatal(err)
	}
	return dst
}

func titles(nodes []*knowledge.Node) []string {
	out := make([]string, len(nodes))
	for i, n := range nodes {
		out[i] = n.Title
	}
	return out
}
