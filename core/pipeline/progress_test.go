package pipeline

import (
	"context"
	"slices"
	"sync"
	"testing"
)

// indexProgress runs an index of e and returns what it told Progress.
func indexProgress(t *testing.T, e *Engine, full bool) ([]Progress, *IndexStats) {
	t.Helper()
	var (
		mu     sync.Mutex
		events []Progress
	)
	stats, err := e.Index(context.Background(), IndexOptions{Full: full, Progress: func(p Progress) {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, p)
	}})
	if err != nil {
		t.Fatal(err)
	}
	return events, stats
}

// phasesOf lists the phases of events in the order they came, each once.
func phasesOf(events []Progress) []Phase {
	var out []Phase
	for _, p := range events {
		if len(out) == 0 || out[len(out)-1] != p.Phase {
			out = append(out, p.Phase)
		}
	}
	return out
}

// lastOf is the last event of phase ph.
func lastOf(t *testing.T, events []Progress, ph Phase) Progress {
	t.Helper()
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Phase == ph {
			return events[i]
		}
	}
	t.Fatalf("no event of phase %d in %v", ph, events)
	return Progress{}
}

// firstOf is the first event of phase ph.
func firstOf(t *testing.T, events []Progress, ph Phase) Progress {
	t.Helper()
	for _, p := range events {
		if p.Phase == ph {
			return p
		}
	}
	t.Fatalf("no event of phase %d in %v", ph, events)
	return Progress{}
}

// An index run reports every phase it goes through, in order, and counts
// the files it indexes: the files of the reading and parsing end at the
// files indexed, the binary ones the walk found left out of the count.
func TestIndexProgress(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	events, stats := indexProgress(t, e, false)
	want := []Phase{PhaseWalk, PhaseRead, PhaseParse, PhaseNotes, PhaseImports, PhaseReferences, PhaseRank, PhaseRankers, PhaseWrite}
	if got := phasesOf(events); !slices.Equal(got, want) {
		t.Fatalf("phases %v, want %v", got, want)
	}
	// data/orders.dat is found binary on reading (assets/logo.png by the
	// walk, by its name).
	walked := lastOf(t, events, PhaseWalk)
	if walked.Done != stats.Files.Indexed+1 {
		t.Errorf("the walk counted %d files, want the %d indexed and data/orders.dat", walked.Done, stats.Files.Indexed)
	}
	if first := firstOf(t, events, PhaseRead); first.Done != 0 || first.Total != walked.Done {
		t.Errorf("the reading started at %d/%d, want 0/%d", first.Done, first.Total, walked.Done)
	}
	for _, p := range events {
		if (p.Phase == PhaseRead || p.Phase == PhaseParse) && (p.Done > p.Total || p.Total > walked.Done || p.Total < stats.Files.Indexed) {
			t.Errorf("%+v: counts outside the files walked (%d) and indexed (%d)", p, walked.Done, stats.Files.Indexed)
		}
	}
	if last := lastOf(t, events, PhaseParse); last.Done != stats.Files.Indexed || last.Total != stats.Files.Indexed {
		t.Errorf("the parsing ended at %d/%d, want the %d files indexed", last.Done, last.Total, stats.Files.Indexed)
	}
	if last := lastOf(t, events, PhaseRankers); last.Total == 0 || last.Done != last.Total {
		t.Errorf("the rankers ended at %d/%d", last.Done, last.Total)
	}

	// A file changed: every file counts, the unchanged done from the start
	// (data/orders.dat, known binary at the same size and time, is passed
	// unread and out of the count).
	edit(t, root, "internal/checkout/checkout.go", "", "\n// Refund reverses a checkout.\nfunc Refund() {}\n")
	events, stats = indexProgress(t, e, false)
	if got := phasesOf(events); !slices.Equal(got, want) {
		t.Fatalf("after an edit: phases %v, want %v", got, want)
	}
	if first := firstOf(t, events, PhaseRead); first.Done != stats.Files.Indexed-1 || first.Total != stats.Files.Indexed {
		t.Errorf("after an edit the reading started at %d/%d, want %d/%d", first.Done, first.Total, stats.Files.Indexed-1, stats.Files.Indexed)
	}
	if last := lastOf(t, events, PhaseParse); last.Done != stats.Files.Indexed || last.Total != stats.Files.Indexed {
		t.Errorf("after an edit the parsing ended at %d/%d, want %d", last.Done, last.Total, stats.Files.Indexed)
	}

	// Nothing changed: the run keeps what stands, and says it writes.
	events, stats = indexProgress(t, e, false)
	if got, want := phasesOf(events), []Phase{PhaseWalk, PhaseRead, PhaseNotes, PhaseReferences, PhaseWrite}; !slices.Equal(got, want) {
		t.Fatalf("nothing changed: phases %v, want %v", got, want)
	}
	if last := lastOf(t, events, PhaseRead); last.Done != stats.Files.Indexed || last.Total != stats.Files.Indexed {
		t.Errorf("nothing changed: the reading ended at %d/%d, want %d", last.Done, last.Total, stats.Files.Indexed)
	}
}
