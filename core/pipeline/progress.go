package pipeline

import "sync"

// Phase is a step of an index run as a progress display names it, in the
// order a run takes them (indexRun). A run that finds nothing changed
// goes from PhaseNotes to PhaseWrite; a run of the notes alone reports
// nothing.
type Phase int

const (
	// PhaseWalk lists the project's files; Done counts those found so
	// far, Total is 0 (unknown until the walk ends).
	PhaseWalk Phase = iota + 1
	// PhaseRead reads the files whose size or time changed, and
	// PhaseParse parses those whose content changed. Both count the files
	// the run indexes (IndexStats.Files.Indexed when the run ends): Done
	// the files whose record is made (unchanged, read and found the same,
	// of no parsed language, parsed), Total the files the walk listed less
	// those found binary or unreadable on reading. A run with nothing to
	// parse has no PhaseParse; the last of the two ends with Done == Total.
	PhaseRead
	PhaseParse
	// PhaseNotes reads the notes (knowledge nodes, conversation chunks)
	// and the items of the configured sources that changed.
	PhaseNotes
	// PhaseImports assigns modules and resolves the imports project-wide.
	PhaseImports
	// PhaseReferences finds the references between definitions.
	PhaseReferences
	// PhaseRank ranks the files by centrality (PageRank).
	PhaseRank
	// PhaseRankers gives each ranker its corpus, the maps written beside;
	// Done counts the rankers that are through, of Total.
	PhaseRankers
	// PhaseWrite saves the manifest and each document source's state.
	PhaseWrite
)

// Phases is the number of phases, PhaseWrite's.
const Phases = int(PhaseWrite)

// Progress is what an index run tells IndexOptions.Progress: the phase it
// is in and, for a phase that counts (PhaseWalk, PhaseRead, PhaseParse,
// PhaseRankers), how far it is. Done and Total are 0 in the others.
type Progress struct {
	Phase       Phase
	Done, Total int
}

// progress reports a run's progress to IndexOptions.Progress, one call at
// a time whichever goroutine reports; with no Progress set it does
// nothing, and costs a nil check.
type progress struct {
	fn func(Progress)
	mu sync.Mutex
	p  Progress
}

func newProgress(fn func(Progress)) *progress {
	if fn == nil {
		return nil
	}
	return &progress{fn: fn}
}

// phase enters ph with the given counts. A phase that counts files after
// another that counted them (PhaseRead, then PhaseParse) passes them on.
func (p *progress) phase(ph Phase, done, total int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.p = Progress{Phase: ph, Done: done, Total: total}
	p.fn(p.p)
}

// enter enters ph, keeping the counts when ph counts what the phase
// before it counted (the files, from PhaseRead to PhaseParse), and
// clearing them otherwise.
func (p *progress) enter(ph Phase) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.p.Phase == ph {
		return
	}
	if !(p.p.Phase == PhaseRead && ph == PhaseParse) {
		p.p.Done, p.p.Total = 0, 0
	}
	p.p.Phase = ph
	p.fn(p.p)
}

// add moves the current phase's counts by done and total.
func (p *progress) add(done, total int) {
	if p == nil || done == 0 && total == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.p.Done += done
	p.p.Total += total
	p.fn(p.p)
}
