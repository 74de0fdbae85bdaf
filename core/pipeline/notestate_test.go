package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/notesindex"
)

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
		state := filepath.Join(root, ".rubi", "index", notesindex.StateFile)
		if e.notes.Load() == nil {
			t.Fatal("an index run wrote no notes' state")
		}
		if err := damage(state); err != nil {
			t.Fatal(err)
		}
		deleteNote(t, e.project.Knowledge(), "Zebra importer stalls")
		if _, _, err := e.RefreshNotes(ctx); err != nil {
			t.Fatal(err)
		}
		res, err := e.Retrieve(ctx, answer.Query{Text: "coupon applied twice, zebra importer", Kinds: []string{core.DocNode}})
		if err != nil {
			t.Fatal(err)
		}
		if text := res.Text(false); strings.Contains(text, "Zebra importer stalls") || !strings.Contains(text, "Coupon applied twice") {
			t.Errorf("after the state was lost, the notes answered are:\n%s", text)
		}
		st := e.notes.Load()
		if st == nil || st.Len() != 1 {
			t.Errorf("the state written again is %+v", st)
		}
	}
}

// Edits of notes are saved as edits of the state file, which stays as it
// was: read back with them, the state is the one a full index computes
// from the notes, whatever the edit changed (words, names, links, flags).
// Edits of another state file, or damaged ones, are not applied; past
// notesindex.MaxEdits files, or after any other change, the state is written
// whole and the edits file goes.
func TestNotesEditsStandForTheState(t *testing.T) {
	root, e := notesProject(t, twoNotes...)
	ctx := context.Background()
	ks := e.project.Knowledge()
	dir := filepath.Join(root, ".rubi", "index")
	statePath, editsPath := filepath.Join(dir, notesindex.StateFile), filepath.Join(dir, notesindex.EditsFile)
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
		st := e.notes.Load()
		if st == nil || st.Edits() == 0 {
			t.Fatalf("%s: read back with its edits, the state is %+v", r.name, st)
		}
		if _, err := e.Index(ctx, IndexOptions{Full: true}); err != nil {
			t.Fatal(err)
		}
		// A full index writes the manifest again: the snapshots differ in
		// its stamp alone.
		if full := e.notes.Load(); full == nil || !full.SameNotes(st) {
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
	if st := e.notes.Load(); st == nil || st.Stamp(note.ID) != note.Stamp {
		t.Fatalf("the state read back is %+v", st)
	}
	again := e.notes.Load()

	// Edits of the state file before, or damaged ones, are not applied.
	for name, data := range map[string][]byte{"of another state file": edits, "damaged": append(edits[:len(edits)-1:len(edits)-1], edits[len(edits)-1]^1)} {
		if err := os.WriteFile(editsPath, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := e.notes.Load(); got == nil || got.Edits() != 0 || !got.SameNotes(again) {
			t.Errorf("edits %s were applied: %+v", name, got)
		}
	}
	if err := os.Remove(editsPath); err != nil {
		t.Fatal(err)
	}

	// A pile of edits is written whole once it passes notesindex.MaxEdits files.
	var inputs []knowledge.Input
	for i := range notesindex.MaxEdits + 1 {
		inputs = append(inputs, knowledge.Input{Type: knowledge.TypeConcept, Title: fmt.Sprintf("Batch %d", i), Body: "A batch the importer reads."})
	}
	if _, err := ks.Register(ctx, inputs); err != nil {
		t.Fatal(err)
	}
	index(t, e)
	for i := range notesindex.MaxEdits {
		editNote(t, ks, fmt.Sprintf("Batch %d", i), fmt.Sprintf("A batch the importer reads, %d times.", i))
		refresh()
	}
	if st := e.notes.Load(); st == nil || st.Edits() != notesindex.MaxEdits {
		t.Fatalf("after %d edits of texts alone the state holds %+v", notesindex.MaxEdits, st)
	}
	editNote(t, ks, fmt.Sprintf("Batch %d", notesindex.MaxEdits), "A batch the importer reads once more.")
	refresh()
	if _, err := os.Stat(editsPath); !os.IsNotExist(err) {
		t.Errorf("past %d edits, the edits file stayed: %v", notesindex.MaxEdits, err)
	}
	if st := e.notes.Load(); st == nil || st.Edits() != 0 {
		t.Errorf("past %d edits, the state read back is %+v", notesindex.MaxEdits, st)
	}
}
