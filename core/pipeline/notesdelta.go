package pipeline

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/host"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/notesindex"
	"github.com/rubi-dev/rubi/core/store"
)

// The notes' part of the index (knowledge nodes, project and personal, and
// the conversation memory's chunks) is kept fresh apart from the code's:
// notes arrive outside rubi's own writes (a git pull of a teammate's
// .rubi/knowledge/, another agent, a note saved by an editor), and a
// recall must see them without waiting for the next full refresh. What
// the index remembers of them, and what a change to them gives the
// rankers, is core/notesindex's; the engine runs it: it takes the lock,
// opens the rankers and gives them the corpus.

// ErrIndexOutdated is RefreshNotes' answer when the notes cannot be
// brought up to date alone: the configuration of a ranker changed since
// the last index, or a ranker's state asks for a full rebuild. A full
// index (SessionStart's, `rubi index`, `rubi context`) repairs it.
var ErrIndexOutdated = errors.New("the index must be refreshed in full first (rubi index)")

// errNoDelta says the notes cannot be brought up to date as a delta: a
// ranker takes only whole corpora, or the notes' state is missing.
var errNoDelta = errors.New("the notes' part cannot be indexed as a delta")

// NotesChanged reports whether the notes' folders may have changed since
// the last index run read them: a stat of each folder
// (notesindex.Index.MayHaveChanged).
func (e *Engine) NotesChanged() bool { return e.notes.MayHaveChanged() }

// IndexNotes brings the notes' part of the index up to date now, as
// RefreshNotes does but whatever the stamp says: for a command that has
// just written a note, a chunk or a curated summary (which the stamp does
// not cover; the maps weave it in). Before the project has an index it
// does nothing.
func (e *Engine) IndexNotes(ctx context.Context) (*IndexStats, error) {
	if !e.HasIndex() {
		return nil, nil
	}
	stats, err := e.indexNotes(ctx, IndexOptions{notesOnly: true, notesMaps: true})
	if errors.Is(err, ErrNoIndex) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("index the notes: %w", err)
	}
	return stats, nil
}

// RefreshNotes brings the notes' part of the index up to date with the
// folders as they are, when they changed since the last index run read
// them: the nodes and chunks added, edited or removed are indexed again,
// the code's part is kept as the last index left it (no walk, no file of
// the code is read). It reports whether it indexed. Before the project
// has an index it does nothing: the first index reads the notes. ctx
// bounds the whole run, the wait for another process's index included.
func (e *Engine) RefreshNotes(ctx context.Context) (*IndexStats, bool, error) {
	if !e.HasIndex() || !e.NotesChanged() {
		return nil, false, nil
	}
	stats, err := e.indexNotes(ctx, IndexOptions{notesOnly: true})
	if errors.Is(err, ErrNoIndex) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("refresh the notes' index: %w", err)
	}
	return stats, true, nil
}

// indexNotes brings the notes' part of the index up to date: as a delta
// (notesDelta) when every ranker takes one and the maps need no curated
// summary woven in, else through a notes-only index run, which builds the
// whole corpus from the code's records.
func (e *Engine) indexNotes(ctx context.Context, opts IndexOptions) (*IndexStats, error) {
	if !opts.notesMaps || !e.summariesNewer() {
		stats, err := e.notesDelta(ctx)
		if !errors.Is(err, errNoDelta) {
			return stats, err
		}
	}
	return e.index(ctx, opts)
}

// notesDelta indexes the notes and chunks that changed since the notes'
// state was written, and nothing else (notesindex.Delta): the code's
// manifest is read as a query reads it and kept for the query that
// follows, and each ranker is given a corpus scoped to the notes.
func (e *Engine) notesDelta(ctx context.Context) (*IndexStats, error) {
	start := time.Now()
	if err := e.ensureDataDir(); err != nil {
		return nil, err
	}
	e.indexMu.Lock()
	defer e.indexMu.Unlock()
	lock, err := store.LockDir(ctx, e.indexDir())
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	lap := e.stopwatch("notes delta")
	// The stamp first: a change after it is seen by the scan, or makes
	// the next stamp differ. The scan of the notes' files, which the
	// common delta (notes edited) compares with the snapshot, then runs
	// beside the reading of the state and the opening of the rankers.
	stamp := e.notes.TakeStamp()
	reserveDeltaHeap(e.oneShot, e.notes.StateSize()) // before the scan's goroutines: it collects
	delta := e.notes.StartDelta()

	m, err := e.currentManifest()
	switch {
	case errors.Is(err, manifest.ErrNoIndex):
		return nil, ErrNoIndex
	case err != nil:
		return nil, fmt.Errorf("%w: %v", ErrIndexOutdated, err)
	}
	lap("manifest")
	if !delta.Load() {
		return nil, errNoDelta
	}
	lap("notes' state")
	run, err := e.scopedRankers(ctx, m)
	if err != nil {
		return nil, err
	}
	run.lap = lap
	lap("rankers opened")

	code := notesindex.Code{Manifest: m, Stamp: e.manifestStamp(), Visible: func(edges []core.Edge) []core.Edge { return e.visibleEdges(m, edges) }}
	change, err := delta.Edited(code)
	if err == nil && change == nil {
		change, err = delta.All(code)
	}
	if err != nil {
		return nil, err
	}
	if err := run.apply(ctx, change); err != nil {
		return nil, err
	}
	e.notes.SaveStamp(stamp)
	lap("stamp saved")
	return e.finish(run.stats, start), nil
}

// notesRun is one notes' delta as the engine runs it: the rankers it
// feeds, each with its name, the stats it fills and its lap timer.
type notesRun struct {
	e       *Engine
	rankers []namedRanker
	stats   *IndexStats
	lap     func(phase string)
}

// namedRanker is a ranker with the name rubi.hcl gives it.
type namedRanker struct {
	name string
	core.Ranker
}

// scopedRankers opens the enabled rankers for a delta: errNoDelta when
// one takes only whole corpora, ErrIndexOutdated when one must be rebuilt
// first (which reads every file).
func (e *Engine) scopedRankers(ctx context.Context, m *manifest.Manifest) (*notesRun, error) {
	run := &notesRun{e: e, stats: &IndexStats{Root: e.cfg.Root, Languages: map[string]int{}, Rankers: map[string]string{}}}
	for _, st := range e.cfg.Enabled(core.KindRanker) {
		if m.Rankers[st.Name] != e.stageFingerprint(st) || m.Stateful[st.Name] && !e.hasState(st.Name) {
			return nil, ErrIndexOutdated
		}
		stage, err := e.open(ctx, st)
		if err != nil {
			return nil, err
		}
		r, ok := stage.(core.Ranker)
		if !ok || !stage.Info().Scoped {
			return nil, errNoDelta
		}
		run.rankers = append(run.rankers, namedRanker{st.Name, r})
	}
	return run, nil
}

// apply gives each ranker the change's corpus, at once, and meanwhile
// writes the notes' state that says they hold it beside its file: it is
// put in place once every ranker took the corpus. A ranker that cannot
// take it leaves the notes' state as it was: the next run sends the same
// delta again, or the full index repairs the ranker. A change with no
// corpus saves the state alone.
func (r *notesRun) apply(ctx context.Context, ch *notesindex.Change) error {
	r.stats.Nodes = ch.Nodes
	r.stats.Warnings = append(r.stats.Warnings, ch.Warnings...)
	if ch.Corpus == nil {
		for _, rk := range r.rankers {
			r.stats.Rankers[rk.name] = "up to date"
		}
		return ch.Save()
	}
	errs := make([]error, len(r.rankers))
	var wg sync.WaitGroup
	for i, rk := range r.rankers {
		wg.Go(func() {
			t := time.Now()
			errs[i] = rk.Index(ctx, ch.Corpus)
			r.e.logger.Debug("ranker indexed", "ranker", rk.name, "scoped", true, "ms", ms(time.Since(t)))
		})
	}
	staged, serr := ch.Stage()
	wg.Wait()
	if err := r.indexed(ctx, errs); err != nil {
		if staged != nil {
			staged.Abort()
		}
		return err
	}
	if serr != nil {
		return serr
	}
	if staged != nil {
		if err := staged.Commit(); err != nil {
			return err
		}
	}
	r.lap("rankers and notes' state")
	if ch.Edited {
		r.e.editedDeltas.Add(1)
		if ch.Corpus.TextsOnly {
			r.e.textDeltas.Add(1)
		}
	}
	return nil
}

// indexed reads the rankers' answers to a scoped corpus.
func (r *notesRun) indexed(ctx context.Context, errs []error) error {
	for i, err := range errs {
		name := r.rankers[i].name
		switch {
		case err == nil:
			r.stats.Rankers[name] = "incremental"
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.Is(err, core.ErrFullIndexNeeded), errors.Is(err, host.ErrUnavailable):
			return fmt.Errorf("%w: %s: %v", ErrIndexOutdated, name, err)
		default:
			return fmt.Errorf("ranker %s could not index the notes: %w", name, err)
		}
	}
	return nil
}

// A notes' delta allocates about deltaHeapShare times the size of the
// notes' state: 6 times for an edit, 25 for a note added, on kubernetes
// with 2,000 notes.
const deltaHeapShare = 32

// reserveDeltaHeap readies the heap of a one-shot process (a hook's, which
// never collects) for what a notes' delta allocates, in huge pages, given
// the size of the notes' state (0 when there is none): in 4 KiB pages each
// is a page fault, and on virtual machines those were a quarter of what a
// hook after an edited note cost (75 ms against 58 on kubernetes with
// 2,000 notes). A long-running process reuses its heap, and a hook that
// finds nothing changed allocates too little to gain: neither reserves.
func reserveDeltaHeap(oneShot bool, stateSize int64) {
	if !oneShot || stateSize == 0 {
		return
	}
	store.ReserveHugeHeap(int(min(max(deltaHeapShare*stateSize, 8<<20), hugeHeapMax)))
}

// summariesNewer reports whether the maps may lack a curated summary
// written since they were (or whether that cannot be told).
func (e *Engine) summariesNewer() bool {
	m, err := e.currentManifest()
	return err != nil || e.mapsStale(m)
}
