package hooks

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core/knowledge"
)

// recallOf runs the recall hook with a prompt and returns what it injected.
func (p *project) recallOf(prompt string) string {
	p.t.Helper()
	return p.hook(UserPromptSubmit, p.payload("claude-code/UserPromptSubmit.json", map[string]any{"prompt": prompt})).Specific.Context
}

// register writes notes as another process would (the command line of an
// older rubi, a second agent): to the files, without touching the index.
func (p *project) register(notes ...knowledge.Input) {
	p.t.Helper()
	eng := p.engine()
	defer eng.Close()
	res, err := eng.Project().Knowledge().Register(context.Background(), notes)
	if err != nil {
		p.t.Fatal(err)
	}
	for _, r := range res {
		if r.Action == knowledge.ActionError {
			p.t.Fatalf("register %+v", r)
		}
	}
}

const couponPrompt = "why is the coupon discount applied twice at checkout?"

// A note written after the last index, by anything but this hook, is
// recalled by the next prompt: the hook notices the knowledge folder
// changed and indexes the notes (issue 21).
func TestRecallSeesANoteWrittenSinceTheIndex(t *testing.T) {
	p := newProject(t)
	if ctx := p.recallOf(couponPrompt); ctx != "" {
		t.Fatalf("recalled before any note:\n%s", ctx)
	}
	p.register(couponNote)
	if ctx := p.recallOf(couponPrompt); !strings.Contains(ctx, "Coupon applied twice") {
		t.Errorf("the note registered since the index is not recalled: %q", ctx)
	}
}

// A hand edit of a node's text (its time left as it was, as an editor
// leaves it) is what the next recall ranks and shows; a deleted node is
// gone from it.
func TestRecallFollowsHandEditsAndDeletions(t *testing.T) {
	p := newProject(t, couponNote)
	path := filepath.Join(p.root, ".rubi", "knowledge", "gotcha-coupon-applied-twice.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const ledger = "why does the refund ledger drift on partial returns?"
	if ctx := p.recallOf(ledger); ctx != "" {
		t.Fatalf("recalled before the edit:\n%s", ctx)
	}
	// Saved as vim, Emacs and JetBrains' safe write save: a new file
	// renamed over the old one.
	edited := strings.Replace(string(data), couponNote.Body, "The refund ledger drifts on a partial return: the coupon share is refunded twice.", 1)
	if edited == string(data) {
		t.Fatalf("the body is not in the file:\n%s", data)
	}
	if err := os.WriteFile(path+".swp", []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".swp", path); err != nil {
		t.Fatal(err)
	}
	ctx := p.recallOf(ledger)
	if !strings.Contains(ctx, "Coupon applied twice") || !strings.Contains(ctx, "coupon share is refunded twice") {
		t.Errorf("the edited text is not recalled: %q", ctx)
	}
	// Written in place (the folder unchanged): a recall that finds the
	// note shows its text as it is now.
	inPlace := strings.Replace(edited, "refunded twice.", "refunded twice; the coupon is applied twice at checkout too.", 1)
	if err := os.WriteFile(path, []byte(inPlace), 0o644); err != nil {
		t.Fatal(err)
	}
	if ctx := p.recallOf(ledger); !strings.Contains(ctx, "applied twice at checkout too") {
		t.Errorf("the text written in place is not what the recall shows: %q", ctx)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if ctx := p.recallOf(ledger); ctx != "" {
		t.Errorf("a deleted note is recalled:\n%s", ctx)
	}
}

// A git checkout that swaps .rubi/knowledge/ for another branch's: the
// next recall knows the new set, and not the old.
func TestRecallFollowsASwappedKnowledgeFolder(t *testing.T) {
	p := newProject(t, couponNote)
	dir := filepath.Join(p.root, ".rubi", "knowledge")
	// The other branch's folder, written aside and swapped in whole.
	other := newProject(t, knowledge.Input{
		Type: knowledge.TypeGotcha, Title: "Refund ledger drifts",
		Body: "A partial return refunds the coupon share twice.",
	})
	if err := os.Rename(dir, dir+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(other.root, ".rubi", "knowledge"), dir); err != nil {
		t.Fatal(err)
	}
	if ctx := p.recallOf("why does the refund ledger drift on partial returns?"); !strings.Contains(ctx, "Refund ledger drifts") {
		t.Errorf("the new branch's note is not recalled: %q", ctx)
	}
	if ctx := p.recallOf(couponPrompt); strings.Contains(ctx, "Coupon applied twice") {
		t.Errorf("the old branch's note is still recalled:\n%s", ctx)
	}
}

// With nothing changed since the index, a recall indexes nothing: the
// index's files stay as they were.
func TestRecallWithNothingChangedWritesNothing(t *testing.T) {
	p := newProject(t, couponNote)
	p.recallOf(couponPrompt) // the first hook of a project makes its state folder
	settle(t, p)
	eng := p.engine()
	changed := eng.NotesChanged()
	eng.Close()
	if changed {
		t.Fatal("an index run leaves the notes' stamp out of date")
	}
	index := filepath.Join(p.root, ".rubi", "index")
	before := snapshot(t, index)
	time.Sleep(10 * time.Millisecond) // a rewrite would show a new time
	if ctx := p.recallOf(couponPrompt); !strings.Contains(ctx, "Coupon applied twice") {
		t.Fatalf("not recalled: %q", ctx)
	}
	if after := snapshot(t, index); after != before {
		t.Errorf("a recall with nothing changed rewrote the index:\n%s\nthen\n%s", before, after)
	}
}

// snapshot lists the files under dir with their sizes and times.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		b.WriteString(p + " " + fi.ModTime().String() + " " + string(rune('0'+fi.Size()%10)) + "\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// settle ages the notes' folders as a project's are between sessions (a
// stamp is trusted a second after its folders changed), and indexes.
func settle(t testing.TB, p *project) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	for _, dir := range []string{filepath.Join(p.root, ".rubi", "knowledge"), filepath.Join(p.root, ".rubi", "sessions")} {
		os.MkdirAll(dir, 0o755)
		if err := os.Chtimes(dir, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.index(); err != nil {
		t.Fatal(err)
	}
}
