package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/knowledge"
)

// benchNotes is how many notes the recall benchmarks' project holds.
const benchNotes = 2000

// benchProject is the shop project with benchNotes notes, indexed.
func benchProject(b *testing.B) *project {
	b.Helper()
	notes := make([]knowledge.Input, 0, benchNotes)
	for i := range benchNotes {
		notes = append(notes, knowledge.Input{
			Type: knowledge.TypeNote, Title: fmt.Sprintf("Ledger rule %d for region %d", i, i%37),
			Body: fmt.Sprintf("Invoices of batch %d round per line; the export job %d reads them after the nightly close.", i, i%91),
		})
	}
	notes = append(notes, couponNote)
	p := newProject(b)
	for i := 0; i < len(notes); i += 500 {
		p.register(notes[i:min(i+500, len(notes))]...)
	}
	p.recallOf(couponPrompt) // the first hook of a project makes its state folder
	settle(b, p)
	return p
}

// BenchmarkRecall is a recall hook with nothing changed since the index:
// the notes' stamp is checked (a stat of each notes folder) and the prompt
// ranked.
func BenchmarkRecall(b *testing.B) {
	p := benchProject(b)
	payload := p.payload("claude-code/UserPromptSubmit.json", map[string]any{"prompt": couponPrompt})
	for b.Loop() {
		if a := p.hook(UserPromptSubmit, payload); !strings.Contains(a.Specific.Context, "Coupon applied twice") {
			b.Fatalf("not recalled: %q", a.raw)
		}
	}
}

// BenchmarkRecallAfterANoteChanged is a recall hook after one note of
// benchNotes was edited (saved through a new file): the stamp differs, and the notes' part
// of the index is brought up to date before ranking.
func BenchmarkRecallAfterANoteChanged(b *testing.B) {
	p := benchProject(b)
	payload := p.payload("claude-code/UserPromptSubmit.json", map[string]any{"prompt": couponPrompt})
	path := filepath.Join(p.root, ".rubi", "knowledge", "gotcha-coupon-applied-twice.md")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	k := 0
	for b.Loop() {
		b.StopTimer()
		k++
		edited := strings.Replace(string(data), "counted twice", fmt.Sprintf("counted twice (seen %d times)", k), 1)
		// Saved through a new file, as vim or git write it.
		if err := os.WriteFile(path+".new", []byte(edited), 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.Rename(path+".new", path); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if a := p.hook(UserPromptSubmit, payload); !strings.Contains(a.Specific.Context, fmt.Sprintf("seen %d times", k)) {
			b.Fatalf("the edit is not recalled: %q", a.raw)
		}
	}
}
