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
	stats, err := newNotesRun(e).run(ctx, IndexOptions{notesOnly: true, notesMaps: true})
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
	stats, err := newNotesRun(e).run(ctx, IndexOptions{notesOnly: true})
	if errors.Is(err, ErrNoIndex) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("refresh the notes' index: %w", err)
	}
	return stats, true, nil
}

// notesRun is one refresh of the notes' part of the index: as a delta
// (notesindex.Delta) when every ranker takes one and the maps need no
// curated summary woven in, else through a notes-only index run, which
// builds the whole corpus from the code's records. A delta feeds the
// rankers (each with its name) a corpus scoped to the notes, fills the
// stats and times its phases.
type notesRun struct {
	e       *Engine
	start   time.Time
	rankers []namedRanker
	stats   *IndexStats
	lap     func(phase string)
	// vaultNow writes the vault's pages in the delta (IndexNotes) rather
	// than leaving them to the next index run (RefreshNotes, a recall's).
	vaultNow bool
}

// namedRanker is a ranker with the name rubi.hcl gives it.
type namedRanker struct {
	name string
	core.Ranker
}

func newNotesRun(e *Engine) *notesRun {
	return &notesRun{e: e, start: time.Now(), stats: &IndexStats{Root: e.cfg.Root, Languages: map[string]int{}, Rankers: map[string]string{}}}
}

// run brings the notes' part of the index up to date, as a delta when it
// can be one (opts.notesMaps: unless a curated summary is newer than the
// maps, which the delta does not write).
func (r *notesRun) run(ctx context.Context, opts IndexOptions) (*IndexStats, error) {
	e := r.e
	r.vaultNow = opts.notesMaps
	if !opts.notesMaps || r.mapsCurrent() {
		stats, err := r.delta(ctx)
		if !errors.Is(err, errNoDelta) {
			return stats, err
		}
	}
	return newIndexRun(e, opts).run(ctx)
}

// mapsCurrent reports whether the maps hold every curated summary written
// so far (false also when that cannot be told).
func (r *notesRun) mapsCurrent() bool {
	m, err := r.e.folder.current()
	return err == nil && !r.e.maps.stale(m)
}

// delta indexes the notes and chunks that changed since the notes' state
// was written, and nothing else (notesindex.Delta): the code's manifest
// is read as a query reads it and kept for the query that follows, and
// each ranker is given a corpus scoped to the notes.
func (r *notesRun) delta(ctx context.Context) (*IndexStats, error) {
	e := r.e
	unlock, err := e.folder.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	lap := stopwatch(e.logger, "notes delta")
	r.lap = lap
	// The stamp first: a change after it is seen by the scan, or makes
	// the next stamp differ. The scan of the notes' files, which the
	// common delta (notes edited) compares with the snapshot, then runs
	// beside the reading of the state and the opening of the rankers.
	stamp := e.notes.TakeStamp()
	reserveDeltaHeap(e.oneShot, e.notes.StateSize()) // before the scan's goroutines: it collects
	delta := e.notes.StartDelta()

	m, err := e.folder.current()
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
	if err := r.openRankers(ctx, m); err != nil {
		return nil, err
	}
	lap("rankers opened")

	code := notesindex.Code{Manifest: m, Stamp: e.folder.fileStamp(), Visible: func(edges []core.Edge) []core.Edge { return e.roles.visible(m, edges) }}
	change, err := delta.Edited(code)
	if err == nil && change == nil {
		change, err = delta.All(code)
	}
	if err != nil {
		return nil, err
	}
	if err := r.apply(ctx, change); err != nil {
		return nil, err
	}
	if err := r.vault(m, change); err != nil {
		return nil, err
	}
	lap("vault")
	e.notes.SaveStamp(stamp)
	lap("stamp saved")
	return r.stats.finish(e.Problems(), r.start), nil
}

// vault brings the vault's file pages and the modules' links up to date
// with a change that added, removed or moved a note of the project, or
// changed the files it is about (a change of texts alone, or of chunks
// alone, leaves them as they are). A recall's refresh leaves the write to
// the next index run (Engine.markVaultBehind): building the pages costs
// the size of the project, which a hook does not pay. A command that
// wrote a note (IndexNotes) writes them now.
func (r *notesRun) vault(m *manifest.Manifest, ch *notesindex.Change) error {
	if ch.Corpus == nil || ch.Corpus.TextsOnly || !touchesNodes(ch.Corpus) {
		return nil
	}
	if !r.vaultNow {
		return r.e.markVaultBehind()
	}
	edges, _, err := m.ImportEdgeSeq()
	if err != nil {
		return r.e.markVaultBehind()
	}
	return r.e.writeVault(m, edges, false)
}

// touchesNodes reports whether a notes' delta holds a knowledge node
// added, changed or removed, or an edge from one.
func touchesNodes(c *core.Corpus) bool {
	for _, d := range c.Documents {
		if kind, _, err := core.SplitDocID(d.ID); err == nil && kind == core.DocNode {
			return true
		}
	}
	for _, id := range c.Removed {
		if kind, _, err := core.SplitDocID(id); err == nil && kind == core.DocNode {
			return true
		}
	}
	return false
}

// openRankers opens the rankers the index holds something of, for a
// delta: errNoDelta when one takes only whole corpora, ErrIndexOutdated
// when one must be rebuilt first (which reads every file).
func (r *notesRun) openRankers(ctx context.Context, m *manifest.Manifest) error {
	e := r.e
	for _, st := range e.stages.indexedRankers() {
		if m.Rankers[st.Name] != e.stages.fingerprint(st) || m.Stateful[st.Name] && !e.folder.hasState(st.Name) {
			return ErrIndexOutdated
		}
		stage, err := e.stages.open(ctx, st)
		if err != nil {
			return err
		}
		rk, ok := stage.(core.Ranker)
		if !ok || !stage.Info().Scoped {
			return errNoDelta
		}
		r.rankers = append(r.rankers, namedRanker{st.Name, rk})
	}
	return nil
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
