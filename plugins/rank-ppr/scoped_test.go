package ppr

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codec"
	"github.com/rubi-dev/rubi/core/store"
)

// project is the model a scoped delta and a whole corpus are both made
// of: code that stays, and notes and chunks that change, each with the
// edges it makes (about a file, a link to another note, session and
// mentions edges with their words), listed note by note in the order
// notes were first written, as the pipeline lists them alike in a delta
// and in a whole corpus.
type project struct {
	rng   *rand.Rand
	code  *core.Corpus
	files []string
	order []string // note ids, in the order their edges are listed
	notes map[string]core.Document
	edges map[string][]core.Edge
	fresh int // the number of the next new note
}

// newProject makes the code of a project of files in directories, with
// modules, imports (some of them twice, with other weights), and a few
// labelled links between files.
func newProject(seed uint64, files, imports int) *project {
	p := &project{rng: rand.New(rand.NewPCG(seed, 1)), notes: map[string]core.Document{}, edges: map[string][]core.Edge{}}
	for i := range files {
		p.files = append(p.files, fmt.Sprintf("pkg%02d/f%04d.go", i%(files/12+1), i))
	}
	var pairs [][2]string
	for range imports {
		pairs = append(pairs, [2]string{p.pick(p.files), p.files[int(float64(len(p.files))*p.rng.Float64()*p.rng.Float64())]})
	}
	var extra []core.Edge
	for range files / 20 {
		extra = append(extra, core.Edge{From: "file:" + p.pick(p.files), To: "file:" + p.pick(p.files), Kind: core.EdgeImports, Weight: 0.25 + p.rng.Float64()})
		extra = append(extra, core.Edge{From: "file:" + p.pick(p.files), To: "file:" + p.pick(p.files), Kind: "links", Weight: 0.5, Label: "see also"})
	}
	p.code = corpusOf(p.files, true, pairs, extra...)
	return p
}

func (p *project) pick(from []string) string { return from[p.rng.IntN(len(from))] }

// addNote writes a new note or chunk, with an id that sorts anywhere
// among the others.
func (p *project) addNote() string {
	p.fresh++
	id := fmt.Sprintf("node:%c%04d", 'a'+p.rng.IntN(26), p.fresh)
	if p.rng.IntN(2) == 0 {
		id = fmt.Sprintf("chunk:s%d/%04d", p.rng.IntN(5), p.fresh)
	}
	p.order = append(p.order, id)
	p.writeNote(id)
	p.relink(id)
	return id
}

// writeNote gives a note a new version: its name may change or not.
func (p *project) writeNote(id string) {
	kind, _, _ := core.SplitDocID(id)
	if p.rng.IntN(5) == 0 {
		kind = "" // the kind of the id
	}
	d := core.Document{ID: id, Kind: kind, Body: fmt.Sprintf("body %d", p.rng.IntN(1000))}
	switch p.rng.IntN(4) {
	case 0:
		d.Path = fmt.Sprintf(".rubi/notes/%s-%d.md", id[strings.IndexByte(id, ':')+1:], p.rng.IntN(3))
	case 1:
		d.Title = fmt.Sprintf("Title %d", p.rng.IntN(3))
	case 2:
		if old, ok := p.notes[id]; ok {
			d.Path, d.Title = old.Path, old.Title // a body edit
		}
	}
	p.notes[id] = d
}

// relink draws the edges of a note again: about files and modules, links
// to notes (gone ones too, and itself), session and mentions edges with
// their words, a pair linked twice, an edge to nothing.
func (p *project) relink(id string) {
	var es []core.Edge
	for range p.rng.IntN(4) {
		es = append(es, core.Edge{From: id, To: "file:" + p.pick(p.files), Kind: "about", Weight: 1})
	}
	for range p.rng.IntN(3) {
		to := p.pick(p.order) // notes removed since, and id itself, too
		switch p.rng.IntN(4) {
		case 0:
			es = append(es, core.Edge{From: id, To: to, Kind: "links", Weight: 1})
		case 1:
			es = append(es, core.Edge{From: id, To: to, Kind: core.EdgeSession, Weight: 0.5 * float64(1+p.rng.IntN(2)), Label: "same session as"})
		case 2:
			es = append(es, core.Edge{From: id, To: to, Kind: core.EdgeMentions, Weight: 1 / float64(1+p.rng.IntN(7)), Label: fmt.Sprintf("both mention %q with", p.pick([]string{"Sweden", "parseConfig", "PROJ-42"}))})
		case 3:
			es = append(es, core.Edge{From: id, To: to, Kind: "links", Weight: 0.1 + p.rng.Float64()},
				core.Edge{From: id, To: to, Kind: core.EdgeMentions, Weight: 1.0 / 3, Label: `both mention "Oslo" with`})
		}
	}
	if to := p.pick(p.order); p.rng.IntN(3) == 0 && to != id {
		if _, ok := p.notes[to]; ok {
			es = append(es, core.Edge{From: id, To: to, Kind: "links"}) // of weight 1
		}
	}
	switch p.rng.IntN(6) {
	case 0:
		es = append(es, core.Edge{From: id, To: "module:pkg01", Kind: "about", Weight: 2})
	case 1:
		es = append(es, core.Edge{From: id, To: "file:no/such.go", Kind: "about", Weight: 1})
	}
	p.edges[id] = es
}

// noteEdges lists the edges from the notes that exist.
func (p *project) noteEdges() []core.Edge {
	var es []core.Edge
	for _, id := range p.order {
		if _, ok := p.notes[id]; ok {
			es = append(es, p.edges[id]...)
		}
	}
	return es
}

// step changes the notes at random and returns the scoped delta that
// says so: notes added, rewritten (with their edges drawn again or not),
// removed, and notes whose edges alone changed.
func (p *project) step() *core.Corpus {
	delta := &core.Corpus{Scope: slices.Clone(core.NotesScope)}
	if p.rng.IntN(2) == 0 {
		slices.Reverse(delta.Scope)
	}
	sent := map[string]bool{}
	send := func(id string) {
		if !sent[id] {
			sent[id] = true
			delta.Changed = append(delta.Changed, id)
		}
	}
	live := slices.Sorted(maps.Keys(p.notes))
	for range p.rng.IntN(4) {
		send(p.addNote())
	}
	for range p.rng.IntN(3) {
		if len(live) > 0 {
			id := p.pick(live)
			p.writeNote(id)
			if p.rng.IntN(2) == 0 {
				p.relink(id)
			}
			send(id)
		}
	}
	for range p.rng.IntN(3) {
		if len(live) > 0 {
			p.relink(p.pick(live))
		}
	}
	for range p.rng.IntN(3) {
		if len(live) == 0 {
			break
		}
		if id := p.pick(live); !sent[id] {
			if _, ok := p.notes[id]; ok {
				delete(p.notes, id)
				delta.Removed = append(delta.Removed, id)
			}
		}
	}
	for _, id := range delta.Changed {
		delta.Documents = append(delta.Documents, p.notes[id]) // as the step leaves it
	}
	delta.Edges = p.noteEdges()
	return delta
}

// whole is the corpus a full index gets for the project as it stands:
// the notes among the code's documents anywhere, their edges among the
// code's, each part in its own order.
func (p *project) whole() *core.Corpus {
	c := &core.Corpus{Full: true}
	notes := slices.Collect(maps.Values(p.notes))
	p.rng.Shuffle(len(notes), func(i, j int) { notes[i], notes[j] = notes[j], notes[i] })
	c.Documents = interleave(p.rng, p.code.Documents, notes)
	c.Edges = interleave(p.rng, p.code.Edges, p.noteEdges())
	return c
}

// interleave merges b into a at random places, each keeping its order.
func interleave[T any](rng *rand.Rand, a, b []T) []T {
	out := make([]T, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		if len(b) == 0 || len(a) > 0 && rng.IntN(len(a)+len(b)) < len(a) {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return out
}

func readGraph(t *testing.T, dir string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, stateFile))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// A sequence of scoped deltas leaves the graph a full build of the same
// project makes, to the byte of its file, in the process that applied
// them and in a ranker without a state directory, whose graph lives in
// memory alone. (That it ranks as a full build does is
// rankertest.Contract's.)
func TestScopedUpdateIsAFullBuild(t *testing.T) {
	ctx := context.Background()
	p := newProject(1, 300, 900)
	for range 40 {
		p.addNote()
	}
	dir := t.TempDir()
	scoped := configured(t, dir, "")
	memory := configured(t, "", "")
	for _, r := range []*Ranker{scoped, memory} {
		if err := r.Index(ctx, p.whole()); err != nil {
			t.Fatal(err)
		}
	}
	var removed, added int
	for step := range 60 {
		delta := p.step()
		removed += len(delta.Removed)
		added += len(delta.Documents)
		for _, r := range []*Ranker{scoped, memory} {
			if err := r.Index(ctx, delta); err != nil {
				t.Fatalf("step %d: %v", step, err)
			}
		}
		full := sameAsFull(t, fmt.Sprint("step ", step), p.whole(), dir, memory)
		if n := full.state.g.Len(); n <= len(p.code.Documents) || n != len(p.code.Documents)+len(p.notes) {
			t.Fatalf("step %d: %d nodes for %d documents and %d notes", step, n, len(p.code.Documents), len(p.notes))
		}
	}
	if removed == 0 || added == 0 {
		t.Fatalf("the deltas removed %d notes and sent %d: not a test of either", removed, added)
	}
}

// sameAsFull checks that the graph in dir, and the one in memory, are
// the graph a full build of whole makes, to the byte of its file, and
// returns the ranker of that build.
func sameAsFull(t *testing.T, what string, whole *core.Corpus, dir string, memory *Ranker) *Ranker {
	t.Helper()
	fullDir := t.TempDir()
	full := configured(t, fullDir, "")
	if err := full.Index(context.Background(), whole); err != nil {
		t.Fatal(err)
	}
	want := readGraph(t, fullDir)
	if got := readGraph(t, dir); !bytes.Equal(got, want) {
		t.Fatalf("%s: the updated graph.bin (%d bytes) differs from a full build's (%d bytes)%s", what, len(got), len(want), firstDiff(got, want))
	}
	if got := memory.state.encode(); !bytes.Equal(got, want) {
		t.Fatalf("%s: the graph updated in memory differs from a full build's%s", what, firstDiff(got, want))
	}
	return full
}

// firstDiff says where two graph files first differ.
func firstDiff(got, want []byte) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf(" from byte %d", i)
		}
	}
	return " in length"
}

// The kinds of the nodes are numbered by first appearance in node order
// in an update too: the notes' kinds go when their last note goes, come
// back after the code's, and a note of an odd kind takes the kind of the
// code it names.
func TestScopedKinds(t *testing.T) {
	ctx := context.Background()
	code := corpusOf([]string{"a/x.go", "b/y.go"}, true, [][2]string{{"a/x.go", "b/y.go"}})
	whole := func(notes ...core.Document) *core.Corpus {
		c := *code
		c.Documents = append(slices.Clone(code.Documents), notes...)
		return &c
	}
	chunk := core.Document{ID: "chunk:s/1", Kind: core.DocChunk, Title: "a turn"}
	nodeA := core.Document{ID: "node:a", Kind: core.DocNode}
	odd := core.Document{ID: "node:b", Kind: core.DocFile, Path: "b.md"}
	dir := t.TempDir()
	r, memory := configured(t, dir, ""), configured(t, "", "")
	for _, r := range []*Ranker{r, memory} {
		if err := r.Index(ctx, whole(chunk, nodeA)); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []struct {
		what  string
		delta core.Corpus
		now   []core.Document
	}{
		{"the chunk removed", core.Corpus{Removed: []string{chunk.ID}}, []core.Document{nodeA}},
		{"a node of the kind file", core.Corpus{Documents: []core.Document{odd}}, []core.Document{nodeA, odd}},
		{"the chunk back", core.Corpus{Documents: []core.Document{chunk}}, []core.Document{chunk, nodeA, odd}},
		{"every note removed", core.Corpus{Removed: []string{chunk.ID, nodeA.ID, odd.ID}}, nil},
		{"a note on an empty notes' part", core.Corpus{Documents: []core.Document{nodeA}}, []core.Document{nodeA}},
	} {
		s.delta.Scope = core.NotesScope
		for _, r := range []*Ranker{r, memory} {
			if err := r.Index(ctx, &s.delta); err != nil {
				t.Fatalf("%s: %v", s.what, err)
			}
		}
		sameAsFull(t, s.what, whole(s.now...), dir, memory)
	}
}

// A graph of notes alone, or of nothing at all, updates as one with code.
func TestScopedWithoutCode(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	r, memory := configured(t, dir, ""), configured(t, "", "")
	for _, r := range []*Ranker{r, memory} {
		if err := r.Index(ctx, &core.Corpus{Full: true}); err != nil {
			t.Fatal(err)
		}
	}
	var docs []core.Document
	for _, id := range []string{"chunk:a", "chunk:b", "chunk:c", "node:d"} {
		docs = append(docs, core.Document{ID: id, Title: strings.ToUpper(id[strings.IndexByte(id, ':')+1:])})
	}
	session := core.Edge{From: "chunk:b", To: "chunk:a", Kind: core.EdgeSession, Weight: 1, Label: "same session as"}
	mention := core.Edge{From: "chunk:c", To: "chunk:b", Kind: core.EdgeMentions, Weight: 0.5, Label: `both mention "Sweden" with`}
	back := core.Edge{From: "chunk:b", To: "chunk:c", Kind: "links"}
	about := core.Edge{From: "node:d", To: "file:gone.go", Kind: "about"}
	for _, s := range []struct {
		what  string
		delta core.Corpus
		now   core.Corpus
	}{
		{"notes on nothing", core.Corpus{Documents: docs, Edges: []core.Edge{session, mention, about}}, core.Corpus{Documents: docs, Edges: []core.Edge{session, mention, about}}},
		{"an edge back", core.Corpus{Edges: []core.Edge{back, session, mention}}, core.Corpus{Documents: docs, Edges: []core.Edge{back, session, mention}}},
		{"a note gone", core.Corpus{Removed: []string{"chunk:a"}, Edges: []core.Edge{back, session, mention}}, core.Corpus{Documents: docs[1:], Edges: []core.Edge{back, session, mention}}},
	} {
		s.delta.Scope = core.NotesScope
		for _, r := range []*Ranker{r, memory} {
			if err := r.Index(ctx, &s.delta); err != nil {
				t.Fatalf("%s: %v", s.what, err)
			}
		}
		full := sameAsFull(t, s.what, &s.now, dir, memory)
		q := seedQuery(0, "chunk:c")
		if got, want := rank(t, r, q), rank(t, full, q); !slices.Equal(got, want) {
			t.Errorf("%s: ranks\n%v\na full build ranks\n%v", s.what, got, want)
		}
	}
}

// A scoped delta needs a graph to update: without a stored one, with one
// damaged or of another format, with Full set or another scope than the
// notes', it asks for a full index, and leaves the state directory alone.
func TestScopedNeedsAFullIndex(t *testing.T) {
	ctx := context.Background()
	p := newProject(2, 40, 80)
	for range 5 {
		p.addNote()
	}
	delta := p.step()

	dir := t.TempDir()
	if err := configured(t, dir, "").Index(ctx, delta); !errors.Is(err, core.ErrFullIndexNeeded) {
		t.Errorf("no stored graph: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, stateFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed update wrote a graph: %v", err)
	}
	if err := configured(t, "", "").Index(ctx, delta); !errors.Is(err, core.ErrFullIndexNeeded) {
		t.Errorf("no graph in memory: %v", err)
	}

	indexer := configured(t, dir, "")
	if err := indexer.Index(ctx, p.whole()); err != nil {
		t.Fatal(err)
	}
	good := readGraph(t, dir)
	for name, c := range map[string]*core.Corpus{
		"full":         {Scope: core.NotesScope, Full: true, Documents: delta.Documents, Edges: delta.Edges},
		"chunks alone": {Scope: []string{core.DocChunk}, Edges: delta.Edges},
		"files":        {Scope: []string{core.DocNode, core.DocChunk, core.DocFile}, Edges: delta.Edges},
	} {
		if err := indexer.Index(ctx, c); !errors.Is(err, core.ErrFullIndexNeeded) {
			t.Errorf("%s: %v", name, err)
		}
	}
	for name, damage := range map[string]func([]byte) []byte{
		"flipped":   func(b []byte) []byte { b[len(b)/2] ^= 1; return b },
		"truncated": func(b []byte) []byte { return b[:len(b)-9] },
		"version":   func(b []byte) []byte { b[len(formatMagic)]--; return codec.Seal(b[:len(b)-4]) },
	} {
		if err := os.WriteFile(filepath.Join(dir, stateFile), damage(bytes.Clone(good)), 0o644); err != nil {
			t.Fatal(err)
		}
		store.RecordVerified(filepath.Join(dir, stateFile)) // checked anyway
		if err := configured(t, dir, "").Index(ctx, delta); !errors.Is(err, core.ErrFullIndexNeeded) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// indexedProject is a project of 40 files and notes notes, indexed whole
// by a ranker with a state directory.
func indexedProject(t *testing.T, seed uint64, notes int) (*project, string, *Ranker) {
	t.Helper()
	p := newProject(seed, 40, 80)
	for range notes {
		p.addNote()
	}
	dir := t.TempDir()
	r := configured(t, dir, "")
	if err := r.Index(context.Background(), p.whole()); err != nil {
		t.Fatal(err)
	}
	return p, dir, r
}

// A delta that leaves the graph as it is (nothing sent, or notes sent with
// a new body alone) writes nothing; one that changes an edge does.
func TestScopedUnchangedNotRewritten(t *testing.T) {
	ctx := context.Background()
	p, dir, r := indexedProject(t, 3, 8)
	file := filepath.Join(dir, stateFile)
	old := time.Unix(1, 0)
	if err := os.Chtimes(file, old, old); err != nil {
		t.Fatal(err)
	}
	id := p.order[0]
	body := p.notes[id]
	body.Body += " edited"
	for name, c := range map[string]*core.Corpus{
		"empty":     {Scope: core.NotesScope, Edges: p.noteEdges()},
		"body edit": {Scope: core.NotesScope, Documents: []core.Document{body}, Changed: []string{id}, Edges: p.noteEdges()},
	} {
		if err := configured(t, dir, "").Index(ctx, c); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if fi, _ := os.Stat(file); !fi.ModTime().Equal(old) {
			t.Errorf("%s: the unchanged graph was rewritten", name)
		}
	}
	if !store.Unchanged(file) {
		t.Error("the graph checked whole is not recorded as checked")
	}
	p.edges[id] = append(p.edges[id], core.Edge{From: id, To: "file:" + p.files[0], Kind: "about"})
	if err := r.Index(ctx, &core.Corpus{Scope: core.NotesScope, Edges: p.noteEdges()}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(file); fi.ModTime().Equal(old) {
		t.Error("a new edge did not rewrite the graph")
	}
}

// A delta of texts only leaves the graph as it is, unread: the graph
// holds no text. One that also sends edges or removes notes is not one.
func TestScopedTextsOnly(t *testing.T) {
	ctx := context.Background()
	p, dir, _ := indexedProject(t, 5, 6)
	file := filepath.Join(dir, stateFile)
	want := readGraph(t, dir)
	// A graph damaged on disk would fail any update that reads it.
	if err := os.WriteFile(file, append(slices.Clone(want), 'x'), 0o644); err != nil {
		t.Fatal(err)
	}
	id := p.order[1]
	doc := p.notes[id]
	doc.Body += " a sentence added"
	texts := &core.Corpus{Scope: core.NotesScope, TextsOnly: true, Documents: []core.Document{doc}, Changed: []string{id}}
	if err := configured(t, dir, "").Index(ctx, texts); err != nil {
		t.Fatalf("a delta of texts only: %v", err)
	}
	if got, _ := os.ReadFile(file); !bytes.Equal(got, append(slices.Clone(want), 'x')) {
		t.Error("a delta of texts only touched the graph")
	}
	for name, c := range map[string]*core.Corpus{
		"with edges":   {Scope: core.NotesScope, TextsOnly: true, Documents: []core.Document{doc}, Changed: []string{id}, Edges: p.noteEdges()},
		"with removed": {Scope: core.NotesScope, TextsOnly: true, Removed: []string{p.order[0]}},
	} {
		if err := configured(t, dir, "").Index(ctx, c); !errors.Is(err, core.ErrFullIndexNeeded) {
			t.Errorf("%s: %v, want a full index asked for", name, err)
		}
	}
}

// Every build numbers the notes after the code's documents, sorted by id,
// whatever their place in the corpus; the code's documents keep corpus
// order.
func TestNotesNumberedLast(t *testing.T) {
	c := &core.Corpus{Full: true, Documents: []core.Document{
		{ID: "node:b", Kind: core.DocNode}, {ID: "file:z.go", Kind: core.DocFile},
		{ID: "chunk:s/1", Kind: core.DocChunk}, {ID: "module:m", Kind: core.DocModule},
		{ID: "node:a", Kind: core.DocNode}, {ID: "file:a.go", Kind: core.DocFile}, {ID: "node:a", Title: "a second node:a"},
	}}
	st := newState(c)
	var got []string
	for i := range st.g.Len() {
		got = append(got, st.id(i)+" "+st.kind(i)+" "+st.name(i))
	}
	want := []string{"file:z.go file z.go", "module:m module m", "file:a.go file a.go", "chunk:s/1 chunk s/1", "node:a node a", "node:b node b"}
	if !slices.Equal(got, want) {
		t.Errorf("nodes\n%q\nwant\n%q", got, want)
	}
}

// kubernetesLike is a project the size of kubernetes (10,000 files, 400
// modules, 60,000 imports) with 2,000 notes about files and linked to one
// another.
func kubernetesLike() *project {
	p := &project{rng: rand.New(rand.NewPCG(5, 6)), notes: map[string]core.Document{}, edges: map[string][]core.Edge{}}
	for i := range 10_000 {
		p.files = append(p.files, fmt.Sprintf("pkg/%03d/file%05d.go", i/25, i))
	}
	var pairs [][2]string
	for range 60_000 {
		pairs = append(pairs, [2]string{p.pick(p.files), p.files[int(float64(len(p.files))*p.rng.Float64()*p.rng.Float64())]})
	}
	p.code = corpusOf(p.files, true, pairs)
	for range 2_000 {
		p.addNote()
	}
	return p
}

// BenchmarkIndexScopedOneNote times the index of a change to one note in
// a project the size of kubernetes, as a scoped delta applied to the
// stored graph and as an incremental corpus of the whole project: with a
// state directory (the graph file read, checked and written, with its
// sync), and in memory (the computation alone).
func BenchmarkIndexScopedOneNote(b *testing.B) {
	p := kubernetesLike()
	id := p.order[len(p.order)/2]
	versions := [2]core.Document{p.notes[id], p.notes[id]}
	versions[0].Title, versions[1].Title = "one title", "another title"
	edges := [2][]core.Edge{
		append(slices.Clone(p.edges[id]), core.Edge{From: id, To: "file:" + p.files[1], Kind: "about", Weight: 1}),
		append(slices.Clone(p.edges[id]), core.Edge{From: id, To: "file:" + p.files[2], Kind: "about", Weight: 1}),
	}
	at := func(k int) { p.notes[id], p.edges[id] = versions[k%2], edges[k%2] }
	for _, where := range []string{"file", "memory"} {
		for _, path := range []string{"scoped", "whole"} {
			b.Run(path+"/"+where, func(b *testing.B) {
				dir := ""
				if where == "file" {
					dir = b.TempDir()
				}
				r := configured(b, dir, "")
				at(0)
				if err := r.Index(context.Background(), p.whole()); err != nil {
					b.Fatal(err)
				}
				// Each run changes the note back and forth: an update
				// that changed nothing would write nothing.
				var corpora [2]*core.Corpus
				for k := range corpora {
					at(k + 1)
					c := &core.Corpus{Scope: core.NotesScope, Documents: []core.Document{p.notes[id]}, Changed: []string{id}, Edges: p.noteEdges()}
					if path == "whole" {
						c = p.whole()
						c.Full, c.Changed = false, []string{id}
					}
					corpora[k] = c
				}
				k := 0
				for b.Loop() {
					if err := r.Index(context.Background(), corpora[k%2]); err != nil {
						b.Fatal(err)
					}
					k++
				}
			})
		}
	}
}

// isNote is core.InScope of the notes' scope.
func TestIsNote(t *testing.T) {
	for _, id := range []string{"", "node", "node:", "node:a", ":node", "nodes:a", "chunk:s/1:2", "chunk", "file:node:a", "module:chunk", "Node:a"} {
		if got, want := isNote(id), core.InScope(core.NotesScope, id); got != want {
			t.Errorf("isNote(%q) = %v, core.InScope says %v", id, got, want)
		}
	}
}
