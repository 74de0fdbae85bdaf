package bm25

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/rankertest"
	"github.com/rubi-dev/rubi/core/store"
)

// noteWords are the words notes are written in: some shared with the
// synthetic files (so that a note's change moves the files' scores
// through the document count, frequencies and average length), some
// of notes alone.
var noteWords = strings.Fields(`payment error store cache session decision
	because we chose retry timeout user account config index query plugin
	rollback migration deadline review agreed rejected incident latency`)

// noteDoc makes a note (core.DocNode) or a conversation chunk
// (core.DocChunk) as the pipeline does, its body a few sentences of
// noteWords around word.
func noteDoc(rng *rand.Rand, kind, key, word string) core.Document {
	var body strings.Builder
	for range 3 + rng.IntN(20) {
		for range 4 + rng.IntN(8) {
			body.WriteString(noteWords[rng.IntN(len(noteWords))])
			body.WriteByte(' ')
		}
		body.WriteString(". ")
	}
	body.WriteString(word)
	title := noteWords[rng.IntN(len(noteWords))] + " " + noteWords[rng.IntN(len(noteWords))]
	return core.Document{
		ID: core.DocID(kind, key), Kind: kind, Title: title,
		Path:  ".rubi/" + kind + "s/" + key + ".md",
		Names: []string{key, noteWords[rng.IntN(len(noteWords))]},
		Body:  body.String(),
	}
}

// smallProject returns the files and notes of a small project, for the
// tests of what a scoped delta refuses.
func smallProject() []core.Document {
	rng := rand.New(rand.NewPCG(1, 1))
	docs := synthCorpus(100)
	for i := range 20 {
		docs = append(docs, noteDoc(rng, core.DocNode, fmt.Sprintf("n%d", i), rankertest.UniqueWord(i)))
	}
	return docs
}

// A scoped delta that cannot be applied asks for a full corpus, and
// leaves the index as it was: when there is no index to apply it to,
// when it says it is full (it holds the notes alone), when it names a
// document outside its scope, or when the stemmer changed.
func TestScopedNeedsFull(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	note := noteDoc(rng, core.DocNode, "fresh", "brandnew")
	empty := newRanker(t, "")
	err := empty.Index(context.Background(), &core.Corpus{Scope: core.NotesScope, Documents: []core.Document{note}, Changed: []string{note.ID}})
	if !errors.Is(err, core.ErrFullIndexNeeded) {
		t.Errorf("scoped Index without an index = %v, want ErrFullIndexNeeded", err)
	}
	if _, err := os.Stat(empty.listPath()); !errors.Is(err, os.ErrNotExist) {
		t.Error("a refused scoped Index wrote an index")
	}
	if err := empty.Index(context.Background(), &core.Corpus{Scope: core.NotesScope}); !errors.Is(err, core.ErrFullIndexNeeded) {
		t.Errorf("empty scoped Index without an index = %v, want ErrFullIndexNeeded", err)
	}

	dir := t.TempDir()
	build(t, newRanker(t, "", dir), &core.Corpus{Full: true, Documents: smallProject()})
	cases := map[string]struct {
		settings string
		corpus   core.Corpus
	}{
		"full":              {"", core.Corpus{Full: true, Scope: core.NotesScope, Documents: []core.Document{note}}},
		"file in Documents": {"", core.Corpus{Scope: core.NotesScope, Documents: []core.Document{note, fileDoc("a/new.go", nil, "brandnew")}}},
		"file in Removed":   {"", core.Corpus{Scope: core.NotesScope, Documents: []core.Document{note}, Removed: []string{"file:" + smallProject()[0].Path}}},
		"another stemmer":   {`{"stemmer": "french"}`, core.Corpus{Scope: core.NotesScope, Documents: []core.Document{note}}},
	}
	before := currentList(dir)
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := newRanker(t, tc.settings, dir)
			if err := r.Index(context.Background(), &tc.corpus); !errors.Is(err, core.ErrFullIndexNeeded) {
				t.Errorf("Index = %v, want ErrFullIndexNeeded", err)
			}
			if currentList(dir) != before {
				t.Error("a refused scoped Index changed the index")
			}
		})
	}
	if hits := rank(t, newRanker(t, "", dir), core.Query{Text: "brandnew", Limit: 5}); len(hits) != 0 {
		t.Errorf("a refused delta was indexed: %v", ids(hits))
	}
}

// damagePostings spoils the postings of the segment file named name, as
// TestDamagedPostings does: the tables, which a query checks at load,
// stay sound.
func damagePostings(t *testing.T, dir, name string) {
	t.Helper()
	path := filepath.Join(dir, name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	seg, err := decodeSegment(name, data, true)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(data) - 8 - len(seg.postings); i < len(data)-8; i++ {
		data[i] = 0xff
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A scoped delta reads the postings of the segments it merges, so it
// checks them, and damage there asks for a full corpus, which rebuilds
// the index; the segments it keeps it names only by id, and leaves
// unread: that is what makes it cost what it changes.
func TestScopedDamagedSegment(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	notes := func(from, n int) []core.Document {
		var out []core.Document
		for i := from; i < from+n; i++ {
			out = append(out, noteDoc(rng, core.DocNode, fmt.Sprintf("m%d", i), rankertest.UniqueWord(1000+i)))
		}
		return out
	}
	t.Run("first segment", func(t *testing.T) {
		dir := t.TempDir()
		build(t, newRanker(t, "", dir), &core.Corpus{Full: true, Documents: smallProject()})
		names, _, err := readList(dir)
		if err != nil {
			t.Fatal(err)
		}
		r := newRanker(t, "", dir) // a fresh process, as the hook is
		build(t, r, &core.Corpus{Scope: core.NotesScope, Documents: notes(0, 1)})
		if len(r.view.segs) != 2 || r.view.segs[0].verified.Load() {
			t.Fatalf("a one-note delta checked the postings of the segment it keeps (%d segments)", len(r.view.segs))
		}

		damagePostings(t, dir, names[0])
		// Enough notes that the delta merges everything.
		burst := notes(1, 40)
		err = newRanker(t, "", dir).Index(context.Background(), &core.Corpus{Scope: core.NotesScope, Documents: burst})
		if !errors.Is(err, core.ErrFullIndexNeeded) || !strings.Contains(err.Error(), "checksum") {
			t.Fatalf("a delta merging a damaged segment = %v, want ErrFullIndexNeeded", err)
		}
		full := newRanker(t, "", dir)
		build(t, full, &core.Corpus{Full: true, Documents: append(smallProject(), burst...)})
		if hits := rank(t, newRanker(t, "", dir), core.Query{Text: rankertest.UniqueWord(1039), Limit: 5}); len(hits) != 1 {
			t.Errorf("after the rebuild: %v", ids(hits))
		}
	})
	t.Run("later segment", func(t *testing.T) {
		dir := t.TempDir()
		build(t, newRanker(t, "", dir), &core.Corpus{Full: true, Documents: smallProject()})
		for i := 1; i < maxSegments; i++ {
			build(t, newRanker(t, "", dir), &core.Corpus{Scope: core.NotesScope, Documents: notes(i, 1)})
		}
		names, _, err := readList(dir)
		if err != nil || len(names) != maxSegments {
			t.Fatalf("%d segments (%v), want %d", len(names), err, maxSegments)
		}
		damagePostings(t, dir, names[len(names)-1])
		err = newRanker(t, "", dir).Index(context.Background(), &core.Corpus{Scope: core.NotesScope, Documents: notes(100, 1)})
		if !errors.Is(err, core.ErrFullIndexNeeded) || !strings.Contains(err.Error(), "checksum") {
			t.Fatalf("a delta merging a damaged later segment = %v, want ErrFullIndexNeeded", err)
		}
	})
}

// A delta that changes nothing for the index (no document, removals of
// documents it does not hold or no longer holds, edges only) writes
// nothing: the hook runs it often.
func TestScopedEmptyDeltaWritesNothing(t *testing.T) {
	dir := t.TempDir()
	docs := smallProject()
	build(t, newRanker(t, "", dir), &core.Corpus{Full: true, Documents: docs})
	listing := func() string {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, e := range entries {
			info, err := e.Info()
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s %d %v\n", e.Name(), info.Size(), info.ModTime())
		}
		return b.String()
	}
	r := newRanker(t, "", dir)
	build(t, r, &core.Corpus{Scope: core.NotesScope, Removed: []string{"node:n5"}})
	before := listing()
	for _, c := range []core.Corpus{
		{Scope: core.NotesScope},
		{Scope: core.NotesScope, Removed: []string{"node:never-indexed", "chunk:never-indexed"}},
		{Scope: core.NotesScope, Removed: []string{"node:n5"}}, // removed already
		{Scope: core.NotesScope, Edges: []core.Edge{{From: "node:n1", To: "node:n2", Kind: core.EdgeMentions}}},
	} {
		build(t, r, &c)
		if after := listing(); after != before {
			t.Fatalf("%+v wrote:\n%s\nwas:\n%s", c, after, before)
		}
	}
	if hits := rank(t, r, core.Query{Text: rankertest.UniqueWord(3), Limit: 5}); len(hits) != 1 || hits[0].ID != "node:n3" {
		t.Errorf("a note after empty deltas: %v", ids(hits))
	}
	if hits := rank(t, r, core.Query{Text: rankertest.UniqueWord(5), Limit: 5}); len(hits) != 0 {
		t.Errorf("a removed note after empty deltas: %v", ids(hits))
	}
}

// mergeFromByVisit is the merge policy as it was first written, bulk
// segments added: it visits every live document of the later segments to
// count them. mergeFrom must decide the same from its counts alone.
func mergeFromByVisit(v *view, gone map[int]bool, added int) int {
	stored := v.total
	liveAfter := v.n - len(gone) + added
	dead := stored - v.n + len(gone)
	b := 1
	for b < len(v.segs) && 2*v.segs[b-1].ndocs >= segmentDocs && 2*v.segs[b].ndocs >= segmentDocs {
		b++
	}
	later := added
	for i := b; i < len(v.segs); i++ {
		for d := range v.segs[i].ndocs {
			if g := v.base[i] + d; v.live(g) && !gone[g] {
				later++
			}
		}
	}
	switch {
	case dead*mergeShare > stored, b == 1 && later*mergeShare > liveAfter:
		return 0
	case b > 1 && 2*later >= segmentDocs, len(v.segs)-b >= maxSegments-1:
		return b
	}
	return len(v.segs)
}

// The merge policy counts the live documents of the later segments
// from the view's per-segment counts: whatever the segments, their
// deletions and the update, it decides as visiting them would.
func TestMergeFromCounts(t *testing.T) {
	t.Run("one bulk segment", func(t *testing.T) { checkMergeFromCounts(t, 200) })
	t.Run("bulk segments", func(t *testing.T) {
		withSegmentDocs(t, 32)
		checkMergeFromCounts(t, 200)
	})
}

// checkMergeFromCounts updates an index of n documents step by step and
// compares the policy's decisions with mergeFromByVisit's on random
// updates; each of its three outcomes must come up.
func checkMergeFromCounts(t *testing.T, n int) {
	rng := rand.New(rand.NewPCG(6, 6))
	docs := synthCorpus(n)
	r := newRanker(t, "")
	build(t, r, &core.Corpus{Full: true, Documents: docs})
	decisions := map[string]int{}
	for step := range 3 * maxSegments {
		var changed []string
		for range 1 + rng.IntN(3) {
			i := rng.IntN(len(docs))
			docs[i].Body = fmt.Sprintf("step %d", step)
			changed = append(changed, docs[i].ID)
		}
		build(t, r, &core.Corpus{Documents: withoutBodies(docs, changed), Changed: changed})
		v := r.view
		if v == nil { // bulk segments written: the view is loaded by the next query
			rank(t, r, core.Query{Text: "step", Limit: 1})
			v = r.view
		}
		var live []int
		for g := range v.total {
			if v.live(g) {
				live = append(live, g)
			}
		}
		for range 50 {
			gone := map[int]bool{}
			for range rng.IntN(40) {
				gone[live[rng.IntN(len(live))]] = true
			}
			added := rng.IntN(60)
			got, want := v.mergeFrom(gone, added), mergeFromByVisit(v, gone, added)
			if got != want {
				t.Fatalf("step %d, %d segments, %d deleted, %d added: merge from %d, want %d", step, len(v.segs), len(gone), added, got, want)
			}
			switch {
			case want == 0:
				decisions["everything"]++
			case want == len(v.segs):
				decisions["nothing"]++
			default:
				decisions["the later segments"]++
			}
		}
	}
	if len(decisions) < 3 {
		t.Errorf("decisions %v: the policy's three outcomes went untested", decisions)
	}
}

// benchProject is a project of 10,000 files of realistic size and 2,000
// notes, indexed in full once; each benchmark gets a copy of its index.
var benchProject struct {
	once  sync.Once
	docs  []core.Document
	files map[string][]byte // the state directory's files
}

// benchState returns a state directory holding the index of
// benchProject, and its documents.
func benchState(b *testing.B) (string, []core.Document) {
	benchProject.once.Do(func() {
		rng := rand.New(rand.NewPCG(9, 9))
		docs := synthCorpus(10000)
		for i := range 2000 {
			docs = append(docs, noteDoc(rng, core.DocNode, fmt.Sprintf("n%04d", i), rankertest.UniqueWord(i)))
		}
		dir := b.TempDir()
		build(b, newRanker(b, "", dir), &core.Corpus{Full: true, Documents: docs})
		entries, err := os.ReadDir(dir)
		if err != nil {
			b.Fatal(err)
		}
		files := map[string][]byte{}
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), store.WrittenSuffix) {
				continue // of the original files; benchState records its copies
			}
			if data, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil {
				files[e.Name()] = data
			}
		}
		benchProject.docs, benchProject.files = docs, files
	})
	if benchProject.files == nil {
		b.Fatal("the benchmark project was not indexed")
	}
	dir := b.TempDir()
	for name, data := range benchProject.files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			b.Fatal(err)
		}
		// As the index run that wrote them records them: a process
		// loading them skips the tables' checksum, as it would have.
		if strings.HasPrefix(name, segPrefix) {
			store.RecordVerified(filepath.Join(dir, name))
		}
	}
	return dir, benchProject.docs
}

// benchOneNote times the edit of one note among benchProject's, each
// iteration a new version of it, in the indexing process itself and in
// a fresh process each time (the hook's case: it loads the index first).
// corpus makes the corpus of an edit from the edited note.
func benchOneNote(b *testing.B, corpus func(docs []core.Document, note int) *core.Corpus) {
	for _, fresh := range []bool{false, true} {
		name := "same-process"
		if fresh {
			name = "fresh-process"
		}
		b.Run(name, func(b *testing.B) {
			dir, docs := benchState(b)
			docs = slices.Clone(docs)
			note := len(docs) - 1000
			body := docs[note].Body
			r := newRanker(b, "", dir)
			edit := 0
			for b.Loop() {
				edit++
				docs[note].Body = fmt.Sprintf("%s\nedit %d", body, edit)
				if fresh {
					r = newRanker(b, "", dir)
				}
				build(b, r, corpus(docs, note))
			}
		})
	}
}

// One note edited, as a scoped delta: what rubi's hook sends.
func BenchmarkIndexScopedOneNote(b *testing.B) {
	benchOneNote(b, func(docs []core.Document, note int) *core.Corpus {
		return &core.Corpus{Scope: core.NotesScope, Documents: docs[note : note+1], Changed: []string{docs[note].ID}}
	})
}

// The same edit as a whole incremental corpus: every document listed,
// the edited one with its body, the others without.
func BenchmarkIndexIncrementalOneNote(b *testing.B) {
	var listed []core.Document
	benchOneNote(b, func(docs []core.Document, note int) *core.Corpus {
		if listed == nil {
			listed = withoutBodies(docs, nil)
		}
		listed[note].Body = docs[note].Body
		return &core.Corpus{Documents: listed, Changed: []string{docs[note].ID}}
	})
}
