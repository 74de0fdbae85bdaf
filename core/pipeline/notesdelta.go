package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/host"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/store"
)

// errNoDelta says the notes cannot be brought up to date as a delta: a
// ranker takes only whole corpora, or the notes' state is missing.
var errNoDelta = errors.New("the notes' part cannot be indexed as a delta")

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
// state was written, and nothing else: the code's manifest is read as a
// query reads it (the few records the changed notes name), neither
// decoded whole nor written, and each ranker is given a corpus scoped to
// the notes (core.Corpus.Scope) holding only the documents that changed,
// with every edge from a note (links between notes follow the whole set:
// relate reads only the texts that changed, the others' names are in the
// state). What it costs grows with the notes, not with the project: a
// hook can afford it.
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
	notesStamp, _ := e.notesStamp()
	stampedAt := time.Now()
	e.reserveDeltaHeap() // before the scan's goroutines: it collects
	scan := e.startScan()

	// Read as a query reads it, and kept for the query that follows: the
	// delta leaves it as it is.
	m, err := e.currentManifest()
	switch {
	case errors.Is(err, manifest.ErrNoIndex):
		return nil, ErrNoIndex
	case err != nil:
		return nil, fmt.Errorf("%w: %v", ErrIndexOutdated, err)
	}
	lap("manifest")
	prevNotes := loadNotesState(e.indexDir(), e.oneShot)
	if prevNotes == nil {
		return nil, errNoDelta
	}
	lap("notes' state")
	var rankers []core.Ranker
	var names []string
	for _, st := range e.cfg.Enabled(core.KindRanker) {
		if m.Rankers[st.Name] != e.stageFingerprint(st) || m.Stateful[st.Name] && !e.hasState(st.Name) {
			return nil, ErrIndexOutdated // a ranker to rebuild reads every file
		}
		stage, err := e.open(ctx, st)
		if err != nil {
			return nil, err
		}
		r, ok := stage.(core.Ranker)
		if !ok || !stage.Info().Scoped {
			return nil, errNoDelta
		}
		rankers, names = append(rankers, r), append(names, st.Name)
	}
	lap("rankers opened")

	stats := &IndexStats{Root: e.cfg.Root, Languages: map[string]int{}, Rankers: map[string]string{}}
	if done, err := e.notesEdited(ctx, m, prevNotes, scan, rankers, names, stats); err != nil {
		return nil, err
	} else if done {
		e.saveNotesStamp(notesStamp, stampedAt)
		lap("edited notes")
		return e.finish(stats, start), nil
	}
	nodes, problems := e.nodes.All(deferredParses)
	lap("nodes")
	stats.Warnings = append(stats.Warnings, problems...)
	changedNode := func(id, stamp string) bool { return prevNotes.stamps[id] != stamp }
	nodeDocs, nodeEdges, stamps := nodeDocs(m, nodes, changedNode)
	stats.Nodes = len(stamps)
	if err := e.nodes.WriteCritical(nodes); err != nil {
		return nil, err
	}
	lap("node documents")
	chunkFiles, listed := e.scanChunks()
	chunkDocs, chunkEdges, chunkStamps, chunkItems, chunkProblems, err := e.chunkDocs(m)
	if err != nil {
		return nil, err
	}
	stats.Warnings = append(stats.Warnings, chunkProblems...)
	for id, stamp := range chunkStamps {
		stamps[id] = stamp
	}
	lap("chunks")

	corpus := &core.Corpus{Scope: core.NotesScope}
	for _, d := range append(nodeDocs, chunkDocs...) {
		if prevNotes.stamps[d.ID] != stamps[d.ID] {
			corpus.Documents = append(corpus.Documents, d)
			corpus.Changed = append(corpus.Changed, d.ID)
		}
	}
	for id := range prevNotes.stamps {
		if _, ok := stamps[id]; !ok {
			corpus.Removed = append(corpus.Removed, id)
		}
	}
	slices.Sort(corpus.Removed)
	next := newNotesState()
	next.stamps = stamps
	if listed {
		next.snap = e.snapshot(chunkFiles, nodes, nodeEdges, chunkItems, chunkEdges)
	}
	if len(corpus.Documents) == 0 && len(corpus.Removed) == 0 {
		for _, name := range names {
			stats.Rankers[name] = "up to date"
		}
		if err := e.saveNotesState(prevNotes, next); err != nil {
			return nil, err
		}
		e.saveNotesStamp(notesStamp, stampedAt)
		return e.finish(stats, start), nil
	}
	items := append(nodeItems(nodes), chunkItems...)
	for i := range items {
		items[i].stamp = stamps[items[i].id]
	}
	next.withMentions(prevNotes, items)
	lap("names")
	corpus.Edges = append(e.visibleEdges(m, append(nodeEdges, chunkEdges...)), relatedEdges(items, e.cfg.Index.LinkSessions, e.cfg.Index.LinkEntities)...)
	lap("delta")

	if err := e.indexScoped(ctx, rankers, names, corpus, stats, prevNotes, next); err != nil {
		return nil, err
	}
	lap("rankers and notes' state")
	e.saveNotesStamp(notesStamp, stampedAt)
	lap("stamp saved")
	return e.finish(stats, start), nil
}

// A notes' delta allocates about deltaHeapShare times the size of the
// notes' state: 6 times for an edit, 25 for a note added, on kubernetes
// with 2,000 notes.
const deltaHeapShare = 32

// reserveDeltaHeap readies the heap of a one-shot process (a hook's, which
// never collects) for what a notes' delta allocates, in huge pages: in 4
// KiB pages each is a page fault, and on virtual machines those were a
// quarter of what a hook after an edited note cost (75 ms against 58 on
// kubernetes with 2,000 notes). A long-running process reuses its heap,
// and a hook that finds nothing changed allocates too little to gain:
// neither reserves.
func (e *Engine) reserveDeltaHeap() {
	if !e.oneShot {
		return
	}
	fi, err := os.Stat(filepath.Join(e.indexDir(), notesStateFile))
	if err != nil {
		return
	}
	store.ReserveHugeHeap(int(min(max(deltaHeapShare*fi.Size(), 8<<20), hugeHeapMax)))
}

// indexScoped gives each ranker the scoped corpus, at once, and meanwhile
// writes the notes' state that says they hold it (next, against prev)
// beside its file: it is put in place once every ranker took the corpus.
// A ranker that cannot take it leaves the notes' state as it was: the
// next run sends the same delta again, or the full index repairs the
// ranker.
func (e *Engine) indexScoped(ctx context.Context, rankers []core.Ranker, names []string, corpus *core.Corpus, stats *IndexStats, prev, next *notesState) error {
	errs := make([]error, len(rankers))
	var wg sync.WaitGroup
	for i, r := range rankers {
		wg.Go(func() {
			t := time.Now()
			errs[i] = r.Index(ctx, corpus)
			e.logger.Debug("ranker indexed", "ranker", names[i], "scoped", true, "ms", ms(time.Since(t)))
		})
	}
	staged, serr := e.stageNotesState(prev, next)
	wg.Wait()
	if err := rankersIndexed(ctx, names, errs, stats); err != nil {
		if staged != nil {
			staged.abort()
		}
		return err
	}
	if serr != nil || staged == nil {
		return serr
	}
	return staged.commit()
}

// rankersIndexed reads the rankers' answers to a scoped corpus.
func rankersIndexed(ctx context.Context, names []string, errs []error, stats *IndexStats) error {
	for i, err := range errs {
		switch {
		case err == nil:
			stats.Rankers[names[i]] = "incremental"
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.Is(err, core.ErrFullIndexNeeded), errors.Is(err, host.ErrUnavailable):
			return fmt.Errorf("%w: %s: %v", ErrIndexOutdated, names[i], err)
		default:
			return fmt.Errorf("ranker %s could not index the notes: %w", names[i], err)
		}
	}
	return nil
}

// summariesNewer reports whether the maps may lack a curated summary
// written since they were (or whether that cannot be told).
func (e *Engine) summariesNewer() bool {
	m, err := e.currentManifest()
	return err != nil || e.mapsStale(m)
}
