package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/knowledge"
)

// The notes' state reads back as written, and a file damaged anywhere (a
// byte changed, cut short, another file's bytes) is refused whole.
func TestNotesStateRoundTripAndDamage(t *testing.T) {
	st := newNotesState()
	st.stamps["node:coupon"] = "active/1/abc"
	st.stamps["chunk:20260101-x"] = "deadbeef"
	st.stamps["node:old"] = "superseded/2/def"
	st.mentions["node:coupon"] = []mention{{"maria", "Maria", true}, {"sweden", "Sweden", false}}
	st.mentions["chunk:20260101-x"] = []mention{}
	data := st.encode()
	got, err := decodeNotesState(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, st) {
		t.Errorf("read back %+v, wrote %+v", got, st)
	}
	if _, ok := got.mentions["node:old"]; ok {
		t.Error("a document never scanned reads back as scanned")
	}
	for i := range data {
		bad := append([]byte(nil), data...)
		bad[i] ^= 0x20
		if _, err := decodeNotesState(bad); err == nil {
			t.Fatalf("a change of byte %d is not noticed", i)
		}
	}
	for n := range len(data) {
		if _, err := decodeNotesState(data[:n]); err == nil {
			t.Fatalf("the state cut to %d bytes is read", n)
		}
	}
}

// Names read from a version of a note are kept for it and only for it:
// relating with the state's names gives the same links as reading every
// text again, and a note whose text changed is read again.
func TestNotesStateKeepsNamesPerVersion(t *testing.T) {
	items := []memItem{
		{id: "node:a", stamp: "1", text: "Maria went to Sweden with PROJ-42."},
		{id: "node:b", stamp: "1", text: "The PROJ-42 ticket: Maria again."},
		{id: "node:c", stamp: "1", text: "Nothing to see in Lisbon."},
	}
	first := newNotesState()
	for _, it := range items {
		first.stamps[it.id] = it.stamp
	}
	first.withMentions(nil, items)
	want := relatedEdges(items, false, 8)

	again := make([]memItem, len(items))
	for i, it := range items {
		again[i] = memItem{id: it.id, stamp: it.stamp, text: "not read"} // a text the state must stand for
	}
	kept := newNotesState()
	kept.withMentions(first, again)
	if got := relatedEdges(again, false, 8); !reflect.DeepEqual(got, want) {
		t.Errorf("the kept names link\n%v\nreading the texts links\n%v", got, want)
	}

	// A new version of c names Maria: it is read, and linked.
	again[2] = memItem{id: "node:c", stamp: "2", text: "Maria flew to Lisbon."}
	kept = newNotesState()
	kept.withMentions(first, again)
	if ms := kept.mentions["node:c"]; len(ms) == 0 || ms[0].key != "maria" {
		t.Errorf("the changed note's names are %v", ms)
	}
}

// A notes' state that is lost or damaged costs one run that sends every
// note again in a whole corpus: a note deleted meanwhile is gone from
// the answers, and the state is written anew.
func TestNotesStateLostOrDamaged(t *testing.T) {
	for _, damage := range []func(path string) error{
		os.Remove,
		func(path string) error { return os.WriteFile(path, []byte("rubi-notes\n\x01garbage"), 0o644) },
	} {
		root, e := notesProject(t, twoNotes...)
		ctx := context.Background()
		state := filepath.Join(root, ".rubi", "index", notesStateFile)
		if loadNotesState(filepath.Dir(state), false) == nil {
			t.Fatal("an index run wrote no notes' state")
		}
		if err := damage(state); err != nil {
			t.Fatal(err)
		}
		deleteNote(t, e.project.Knowledge(), "Zebra importer stalls")
		if _, _, err := e.RefreshNotes(ctx); err != nil {
			t.Fatal(err)
		}
		res, err := e.Retrieve(ctx, Query{Text: "coupon applied twice, zebra importer", Kinds: []string{core.DocNode}})
		if err != nil {
			t.Fatal(err)
		}
		if text := res.Text(false); strings.Contains(text, "Zebra importer stalls") || !strings.Contains(text, "Coupon applied twice") {
			t.Errorf("after the state was lost, the notes answered are:\n%s", text)
		}
		st := loadNotesState(filepath.Dir(state), false)
		if st == nil || len(st.stamps) != 1 {
			t.Errorf("the state written again is %+v", st)
		}
	}
}

// A one-shot process (a hook) reads the notes' state mapped, not copied:
// it reads the same state, and a damaged one no more.
func TestNotesStateMappedInAOneShotProcess(t *testing.T) {
	root, _ := notesProject(t, twoNotes[0], knowledge.Input{Type: knowledge.TypeBug, Title: "Zebra importer stalls", Body: "The zebra importer stalls on batch three.", Files: []string{"internal/discount/discount.go"}})
	dir := filepath.Join(root, ".rubi", "index")
	copied := loadNotesState(dir, false)
	if copied == nil || copied.snap == nil {
		t.Fatal("an index run wrote no notes' state with a snapshot")
	}
	if mapped := loadNotesState(dir, true); !reflect.DeepEqual(mapped, copied) {
		t.Errorf("mapped, the state reads %+v; copied, %+v", mapped, copied)
	}
	path := filepath.Join(dir, notesStateFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x20
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if st := loadNotesState(dir, true); st != nil {
		t.Error("a damaged state mapped is read")
	}
}

// The notes' state is read from the project's .rubi/, which a clone may
// hold as anyone wrote it: whatever its bytes, reading it never fails
// but with an error, and what it reads writes back to the same state.
func FuzzNotesState(f *testing.F) {
	st := newNotesState()
	st.stamps["node:coupon"] = "active/1/abc"
	st.stamps["chunk:20260101-x"] = "deadbeef"
	st.mentions["node:coupon"] = []mention{{"maria", "Maria", true}, {"sweden", "sweden", false}}
	st.snap = &notesSnap{
		manifest:   "1/2",
		chunkFiles: []snapFile{{path: "/p/.rubi/sessions/20260101-x.md", version: "1/2/3"}},
		files:      []snapFile{{path: "/p/.rubi/knowledge/coupon.md", version: "4/5/6", doc: "node:coupon"}},
		nodes:      []snapNode{{doc: "node:coupon", id: "coupon", active: true, created: 7, edges: []core.Edge{{From: "node:coupon", To: "file:cart.go", Kind: edgeAbout, Weight: 1}}}},
		chunks:     []snapChunk{{doc: "chunk:20260101-x", session: "s1", created: 8}},
	}
	f.Add(st.encode())
	f.Add([]byte(notesStateMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := decodeNotesState(data)
		if err != nil {
			return
		}
		again, err := decodeNotesState(got.encode())
		if err != nil || !reflect.DeepEqual(again, got) {
			t.Fatalf("read back %+v (%v), wrote %+v", again, err, got)
		}
	})
}

// The names a saved state keeps are next's own, and prev's for the
// versions next did not scan again, whether next scanned a few (an edit)
// or many.
func TestKeptMentions(t *testing.T) {
	for _, rescanned := range []int{1, 30} {
		prev, next := newNotesState(), newNotesState()
		want := map[string][]mention{}
		for i := range 40 {
			id := fmt.Sprintf("node:n%02d", i)
			prev.stamps[id] = "v1"
			prev.mentions[id] = []mention{{key: id, display: id}}
			switch {
			case i == 39: // gone
			case i < rescanned: // a new version, scanned again
				next.stamps[id] = "v2"
				next.mentions[id] = []mention{{key: "new " + id, display: "new " + id}}
				want[id] = next.mentions[id]
			case i == 38: // a new version, not scanned: its old names are not its own
				next.stamps[id] = "v2"
			default:
				next.stamps[id] = "v1"
				want[id] = prev.mentions[id]
			}
		}
		next.stamps["node:added"] = "v1"
		next.mentions["node:added"] = []mention{}
		want["node:added"] = []mention{}
		if got := keptMentions(prev, next); !sameMentions(got, want) {
			t.Errorf("%d scanned again: kept %v, want %v", rescanned, got, want)
		}
	}
}

// Edits of notes are saved as edits of the state file, which stays as it
// was: read back with them, the state is the one a full index computes
// from the notes, whatever the edit changed (words, names, links, flags).
// Edits of another state file, or damaged ones, are not applied; past
// maxNotesEdits files, or after any other change, the state is written
// whole and the edits file goes.
func TestNotesEditsStandForTheState(t *testing.T) {
	root, e := notesProject(t, twoNotes...)
	ctx := context.Background()
	ks := e.project.Knowledge()
	dir := filepath.Join(root, ".rubi", "index")
	statePath, editsPath := filepath.Join(dir, notesStateFile), filepath.Join(dir, notesEditsFile)
	refresh := func() {
		t.Helper()
		if _, did, err := e.RefreshNotes(ctx); err != nil || !did {
			t.Fatalf("refresh: %v, indexed %v", err, did)
		}
	}
	other, err := ks.Get("Coupon applied twice")
	if err != nil {
		t.Fatal(err)
	}
	var edits []byte
	for _, r := range []struct {
		name   string
		change func()
	}{
		{"words", func() { editNote(t, ks, "Zebra importer stalls", "The zebra importer stalls on batch five.") }},
		{"names", func() {
			editNote(t, ks, "Zebra importer stalls", "Quillfeather saw the zebra importer stall on batch five.")
		}},
		{"a link", func() { rewriteNote(t, ks, "Zebra importer stalls", "type: bug", "type: bug\nlinks: ["+other.ID+"]") }},
		{"critical", func() { rewriteNote(t, ks, "Zebra importer stalls", "importance: medium", "importance: critical") }},
	} {
		state, err := os.ReadFile(statePath)
		if err != nil {
			t.Fatal(err)
		}
		r.change()
		refresh()
		if got, _ := os.ReadFile(statePath); !bytes.Equal(got, state) {
			t.Errorf("%s: an edit rewrote the state file", r.name)
		}
		if edits, err = os.ReadFile(editsPath); err != nil {
			t.Fatalf("%s: no edits file: %v", r.name, err)
		}
		// Indexed again with nothing changed, the edits stay as written.
		before, _ := os.Stat(editsPath)
		if _, err := e.IndexNotes(ctx); err != nil {
			t.Fatal(err)
		}
		if after, err := os.Stat(editsPath); err != nil || !os.SameFile(before, after) {
			t.Errorf("%s: the notes indexed again with nothing changed rewrote the edits: %v", r.name, err)
		}
		st := loadNotesState(dir, false)
		if st == nil || len(st.edits) == 0 {
			t.Fatalf("%s: read back with its edits, the state is %+v", r.name, st)
		}
		if _, err := e.Index(ctx, IndexOptions{Full: true}); err != nil {
			t.Fatal(err)
		}
		full := loadNotesState(dir, false)
		st.snap.manifest, full.snap.manifest = "", "" // a full index writes the manifest again
		if !maps.Equal(full.stamps, st.stamps) || !sameMentions(full.mentions, st.mentions) || !reflect.DeepEqual(full.snap, st.snap) {
			t.Errorf("%s: the state with its edits is\n%+v\na full index makes\n%+v", r.name, st, full)
		}
	}
	n, err := ks.Get("Zebra importer stalls")
	if err != nil {
		t.Fatal(err)
	}
	note, ok := e.nodes.File(n.Path)
	if !ok {
		t.Fatal("the note's file reads as no note")
	}
	if st := loadNotesState(dir, false); st == nil || st.stamps[note.ID] != note.Stamp {
		t.Fatalf("the state read back is %+v", st)
	}
	again := loadNotesState(dir, false)

	// Edits of the state file before, or damaged ones, are not applied.
	for name, data := range map[string][]byte{"of another state file": edits, "damaged": append(edits[:len(edits)-1:len(edits)-1], edits[len(edits)-1]^1)} {
		if err := os.WriteFile(editsPath, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := loadNotesState(dir, false); got == nil || got.edits != nil || !maps.Equal(got.stamps, again.stamps) {
			t.Errorf("edits %s were applied: %+v", name, got)
		}
	}
	if err := os.Remove(editsPath); err != nil {
		t.Fatal(err)
	}

	// A pile of edits is written whole once it passes maxNotesEdits files.
	var inputs []knowledge.Input
	for i := range maxNotesEdits + 1 {
		inputs = append(inputs, knowledge.Input{Type: knowledge.TypeConcept, Title: fmt.Sprintf("Batch %d", i), Body: "A batch the importer reads."})
	}
	if _, err := ks.Register(ctx, inputs); err != nil {
		t.Fatal(err)
	}
	index(t, e)
	for i := range maxNotesEdits {
		editNote(t, ks, fmt.Sprintf("Batch %d", i), fmt.Sprintf("A batch the importer reads, %d times.", i))
		refresh()
	}
	if st := loadNotesState(dir, false); st == nil || len(st.edits) != maxNotesEdits {
		t.Fatalf("after %d edits of texts alone the state holds %d edits", maxNotesEdits, len(st.edits))
	}
	editNote(t, ks, fmt.Sprintf("Batch %d", maxNotesEdits), "A batch the importer reads once more.")
	refresh()
	if _, err := os.Stat(editsPath); !os.IsNotExist(err) {
		t.Errorf("past %d edits, the edits file stayed: %v", maxNotesEdits, err)
	}
	if st := loadNotesState(dir, false); st == nil || st.edits != nil {
		t.Errorf("past %d edits, the state read back is %+v", maxNotesEdits, st)
	}
}

// The edits file is read from the project's .rubi/ as anyone wrote it:
// whatever its bytes, reading it never fails but with an error, and what
// it reads writes back the same.
func FuzzNotesEdits(f *testing.F) {
	f.Add(encodeEdits(notesBase{size: 1234, crc: 0xdeadbeef}, []notesEdit{
		{file: 2, node: 1, doc: "node:coupon", stamp: "active/1/abc", ver: "1/2/3", n: snapNode{doc: "node:coupon", active: true, critical: true, created: 7, edges: []core.Edge{{From: "node:coupon", To: "file:cart.go", Kind: edgeAbout, Weight: 1}}}, mentions: []mention{{"maria", "Maria", true}}, scanned: true},
		{file: 0, node: 0, doc: "node:old", stamp: "superseded/2/def", ver: "4/5/6", n: snapNode{doc: "node:old"}},
	}))
	f.Add([]byte(notesEditsMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		base, edits, err := decodeEdits(data)
		if err != nil {
			return
		}
		b2, e2, err := decodeEdits(encodeEdits(base, edits))
		if err != nil || b2 != base || !reflect.DeepEqual(e2, edits) {
			t.Fatalf("read back %v %+v (%v), wrote %v %+v", b2, e2, err, base, edits)
		}
	})
}
