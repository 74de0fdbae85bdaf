package pipeline

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/resolve"
	"github.com/rubi-dev/rubi/core/walk"
)

// indexRun is one index run, in the order its steps take (Engine.index):
//
//  1. previous: the last run's manifest, read while the project is walked;
//  2. read, for each docSource (docsource.go) in turn: the code's files
//     read and parsed where they changed, each file's record made; the
//     notes (knowledge nodes and conversation chunks) against their
//     state; the items of each configured source (core.Source) that
//     changed, against its state. Each lists which of its documents
//     changed or went;
//  3. rankersCurrent: whether each ranker holds what it was given with
//     this configuration; with nothing changed the run keeps what stands;
//  4. buildGraph: modules, imports resolved project-wide, centrality;
//  5. indexRankers: each ranker given its corpus, which every docSource
//     adds its documents to, and the maps written beside;
//  6. save: the manifest, then each docSource's own state.
//
// Each step leaves what it learned in the run for the next.
type indexRun struct {
	e     *Engine
	opts  IndexOptions
	start time.Time
	lap   func(phase string)
	stats *IndexStats

	files []*scanned
	attrs *codemap.Attributes
	// prev is the last run's manifest (an empty one for a full run), next
	// this run's.
	prev, next *manifest.Manifest
	// changedIDs and removedIDs are the documents the rankers must take
	// again and drop.
	changedIDs, removedIDs []string

	// docs are the origins of the run's documents (docSources).
	docs []docSource
	// sourceKinds maps the document kinds the configured sources took so
	// far to their names: a second source of a kind is left out.
	sourceKinds map[string]string

	fps   map[string]string // each ranker's fingerprint
	paths []string          // next's files, sorted
	edges []core.Edge       // the imports, resolved
	dirty map[string]bool   // the modules whose documents changed
}

// newIndexRun begins a run that started at start (before it waited for
// the index's lock).
func (e *Engine) newIndexRun(opts IndexOptions, start time.Time) *indexRun {
	return &indexRun{
		e: e, opts: opts, start: start, lap: e.stopwatch("index"),
		stats:       &IndexStats{Root: e.cfg.Root, Languages: map[string]int{}, Rankers: map[string]string{}},
		docs:        e.docSources(),
		sourceKinds: map[string]string{},
	}
}

// previous reads the last run's manifest while the project is walked
// (neither needs the other), or, for a run of the notes alone, takes the
// last run's records as this run's files. It decides whether the run is
// full: asked for, no usable manifest, the roles' rules changed, or the
// symbols file damaged.
func (r *indexRun) previous(ctx context.Context) error {
	e, opts := r.e, &r.opts
	type loaded struct {
		m   *manifest.Manifest
		err error
	}
	previous := make(chan loaded, 1)
	go func() {
		m, err := manifest.Load(e.indexDir(), true, e.oneShot)
		previous <- loaded{m, err}
	}()
	var (
		wstats walk.Stats
		err    error
	)
	if !opts.notesOnly {
		r.files, wstats, err = e.walk(ctx)
	}
	last := <-previous
	if err != nil {
		return err
	}
	prev := last.m
	if opts.notesOnly {
		// The code stays as the last index left it: its records are this
		// run's files, unchanged.
		switch {
		case errors.Is(last.err, manifest.ErrNoIndex):
			return ErrNoIndex
		case last.err != nil:
			return fmt.Errorf("%w: %v", ErrIndexOutdated, last.err)
		}
		opts.Full = false
		wstats.Skipped = map[string]int{}
		for _, p := range prev.SortedPaths() {
			rec := prev.Records()[p]
			r.files = append(r.files, &scanned{file: walk.File{Path: p, Size: rec.Size}, rec: rec})
		}
		wstats.Seen = len(r.files)
	}
	if last.err != nil && !errors.Is(last.err, manifest.ErrNoIndex) {
		r.stats.Warnings = append(r.stats.Warnings, last.err.Error())
	}
	// Roles follow the .gitattributes files and index.hidden_roles: when
	// those change, every file's role and documents are made again.
	var rolesSig string
	if opts.notesOnly {
		rolesSig = prev.Roles
	} else {
		r.attrs, rolesSig = e.attributes(r.files)
	}
	if prev != nil && prev.Roles != rolesSig {
		opts.Full = true
	}
	if prev != nil && !opts.Full && !opts.notesOnly && !prev.SymbolsIntact(e.indexDir()) {
		// Truncated or gone: the unchanged files' symbols cannot be
		// copied from it, so every file is parsed again.
		r.stats.Warnings = append(r.stats.Warnings, "the symbols file "+manifest.SymbolsFile(e.indexDir(), prev.Generation)+" is damaged: every file is parsed again")
		opts.Full = true
	}
	if prev == nil || opts.Full {
		prev = manifest.New()
		opts.Full = true
	}
	r.prev = prev
	r.next = manifest.New()
	r.next.Roles = rolesSig
	r.lap("manifest and walk")
	r.stats.Files = FileCounts{Seen: wstats.Seen, Skipped: wstats.Skipped}
	return nil
}

// rankersCurrent fingerprints each ranker and reports whether every one
// holds what this configuration gave it. A ranker whose state was deleted
// or found damaged is rebuilt in full, without waiting for --full.
func (r *indexRun) rankersCurrent(ctx context.Context) bool {
	e, prev := r.e, r.prev
	r.fps = map[string]string{}
	current := true
	for _, st := range e.cfg.Enabled(core.KindRanker) {
		r.fps[st.Name] = e.stageFingerprint(st)
		if prev.Stateful[st.Name] && !e.hasState(st.Name) {
			// Its state was deleted: index it again, in full.
			delete(prev.Rankers, st.Name)
		}
		if prev.Rankers[st.Name] == r.fps[st.Name] && !r.opts.Full && !r.opts.notesOnly {
			if err := e.verifyRanker(ctx, st); err != nil {
				// Damaged since (truncated, overwritten).
				r.stats.Warnings = append(r.stats.Warnings, fmt.Sprintf("%v; rebuilding it", err))
				delete(prev.Rankers, st.Name)
			}
		}
		current = current && prev.Rankers[st.Name] == r.fps[st.Name]
	}
	return current
}

// keep ends the common refresh, which changed no content: the graph, the
// rankers and their state all still hold.
func (r *indexRun) keep() (*IndexStats, error) {
	kept, err := r.e.keep(r.prev, r.next, r.files, r.stats, r.start)
	if err != nil {
		return nil, err
	}
	if err := r.saveSources(true); err != nil {
		return nil, err
	}
	return kept, nil
}

// buildGraph assigns each file its module, resolves the imports project
// wide (or reuses the last run's resolution when no import can have
// changed) and ranks the files by centrality.
func (r *indexRun) buildGraph() error {
	e, prev, next, stats := r.e, r.prev, r.next, r.stats
	r.paths = next.SortedPaths()
	roots := codemap.Roots(r.paths, e.cfg.Index.ModuleRoots...)
	for _, p := range r.paths {
		if rec := next.Records()[p]; rec.Module != codemap.ModuleOf(p, roots, e.cfg.Index.ModuleDepth) {
			// Copy: an unchanged record is shared with prev, which must
			// keep the old module for dirtyModules to see the move.
			moved := *rec
			moved.Module = codemap.ModuleOf(p, roots, e.cfg.Index.ModuleDepth)
			next.Records()[p] = &moved
		}
	}
	edges, reused := e.reuseResolution(prev, next, r.files, r.opts.Full)
	if reused {
		stats.Resolution, next.Resolution = prev.Resolution, prev.Resolution
		next.ReuseEdges(prev)
		r.lap("resolution reused")
	} else {
		project, err := resolve.NewProject(e.cfg.Root, r.paths)
		if err != nil {
			return err
		}
		for _, w := range project.Warnings() {
			stats.Warnings = append(stats.Warnings, w.String())
		}
		var rs resolve.Stats
		edges, rs = resolve.Analyze(project, next.AllFacts())
		stats.Resolution = Resolution{Resolved: rs.Resolved, Unresolved: rs.Unresolved, External: rs.External}
		next.Resolution = stats.Resolution
		rankFiles(next, e.visibleEdges(next, edges))
		r.lap("resolve and rank")
	}
	next.SetEdges(edges)
	r.edges = edges
	stats.Edges = len(edges)
	r.dirty = dirtyModules(prev, next)
	stats.Modules = len(e.mapModules(next))
	r.removedIDs = append(r.removedIDs, removedModules(prev, next)...)
	return nil
}

// corpus builds what the rankers index: every docSource's documents, in
// full with their bodies; otherwise bodies (and symbols) only where
// something changed.
func (r *indexRun) corpus(full bool) (*core.Corpus, error) {
	if full && r.opts.notesOnly {
		return nil, ErrIndexOutdated
	}
	// Each corpus gets its own lists; the documents' is sized once, as
	// documents are large and a project has thousands.
	c := &core.Corpus{Full: full, Changed: slices.Clone(r.changedIDs), Removed: slices.Clone(r.removedIDs)}
	st := r.stats
	c.Documents = make([]core.Document, 0, st.Files.Indexed+st.Modules+st.Nodes+st.Sourced)
	// The imports, and about one edge for each file (its module's), note
	// and item besides.
	c.Edges = make([]core.Edge, 0, len(r.edges)+st.Files.Indexed+st.Nodes+st.Sourced)
	for _, s := range r.docs {
		if err := s.documents(r, full, c); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// indexRankers gives each ranker its corpus, and writes the maps while
// they index: the maps need the symbols of the dirty modules, as the
// corpus does, so they are read once, up front, and neither touches the
// records the other reads.
func (r *indexRun) indexRankers(ctx context.Context) error {
	e, prev, next, opts := r.e, r.prev, r.next, r.opts
	maps := func() error { return e.writeMaps(prev, next, r.edges, r.dirty, opts.Full) }
	if opts.notesOnly && !opts.notesMaps {
		maps = func() error {
			next.MapsFormat = prev.MapsFormat
			return nil
		}
	} else if err := e.loadSymbols(prev, next, func(p string) bool {
		return opts.Full || prev.MapsFormat != mapsFormat || r.dirty[next.Records()[p].Module]
	}); err != nil {
		return err
	}
	nothingChanged := len(r.changedIDs) == 0 && len(r.removedIDs) == 0
	if err := e.indexRankers(ctx, prev, next, r.fps, r.stats, nothingChanged, r.corpus, maps); err != nil {
		return err
	}
	r.lap("rankers and maps")
	return nil
}

// save writes the manifest, then each docSource's state: a state never
// says the rankers hold what a manifest left unwritten.
func (r *indexRun) save() (*IndexStats, error) {
	e := r.e
	r.next.IndexedAt = time.Now().UTC()
	if err := r.next.Save(e.indexDir(), r.prev); err != nil {
		return nil, err
	}
	r.lap("manifest")
	e.setManifest(r.next)
	if err := r.saveSources(false); err != nil {
		return nil, err
	}
	return e.finish(r.stats, r.start), nil
}

// read asks each docSource, in turn, what it holds and what changed.
func (r *indexRun) read(ctx context.Context) error {
	for _, s := range r.docs {
		if err := s.read(ctx, r); err != nil {
			return err
		}
	}
	return nil
}

// saveSources has each docSource keep its state, after the manifest.
// kept: the run changed nothing and left the rankers as they stood.
func (r *indexRun) saveSources(kept bool) error {
	for _, s := range r.docs {
		if err := s.save(r, kept); err != nil {
			return fmt.Errorf("%s: %w", s.name(), err)
		}
	}
	return nil
}
