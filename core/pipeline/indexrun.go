package pipeline

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
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
//  2. readAndParse: the files read and parsed where they changed, each
//     file's record made, and which documents changed or went;
//  3. readNotes: the knowledge nodes and conversation chunks, their
//     documents and edges, against the notes' state; readSources: the
//     items of the sources (core.Source) that changed, against theirs;
//  4. rankersCurrent: whether each ranker holds what it was given with
//     this configuration; with nothing changed the run keeps what stands;
//  5. buildGraph: modules, imports resolved project-wide, centrality;
//  6. indexRankers: each ranker given its corpus, the maps written beside;
//  7. save: the manifest, then the sources' states, the notes' state and
//     stamp.
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

	notes runNotes
	// sources are the sources' states, as the last run left them and as
	// this one reads them.
	sources []*sourceRun

	fps   map[string]string // each ranker's fingerprint
	paths []string          // next's files, sorted
	edges []core.Edge       // the imports, resolved
	dirty map[string]bool   // the modules whose documents changed
}

// runNotes is what a run reads of the notes and chunks.
type runNotes struct {
	// stamp and stampedAt are the notes' folders' stamp, taken before
	// they are read.
	stamp     string
	stampedAt time.Time
	nodeDocs  []core.Document
	nodeEdges []core.Edge
	// prev is the notes' state the last run left (nil when missing or for
	// a full run), next this run's.
	prev, next *notesState
	// snapshot fills next's snapshot, for a state that is written.
	snapshot func()
	// related links the notes and chunks that belong together; made once,
	// when a corpus is.
	related func() []core.Edge
}

// newIndexRun begins a run that started at start (before it waited for
// the index's lock).
func (e *Engine) newIndexRun(opts IndexOptions, start time.Time) *indexRun {
	return &indexRun{
		e: e, opts: opts, start: start, lap: e.stopwatch("index"),
		stats: &IndexStats{Root: e.cfg.Root, Languages: map[string]int{}, Rankers: map[string]string{}},
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
		m, err := manifest.Load(e.indexDir(), true)
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

// readAndParse reads and parses what changed, makes next's records, and
// lists the files' documents that changed or went.
func (r *indexRun) readAndParse(ctx context.Context) error {
	e, prev, next, stats := r.e, r.prev, r.next, r.stats
	next.Parsers = e.parserFingerprints()
	if r.opts.notesOnly {
		// The files were parsed by the parsers of the last index: a
		// parser changed since is the next full refresh's to apply.
		next.Parsers = prev.Parsers
	} else if err := e.scan(ctx, r.files, prev, next, r.opts); err != nil {
		return err
	}
	r.lap("read and parse")
	for _, s := range r.files {
		if s.skip != "" {
			stats.Files.Skipped[s.skip]++
			continue
		}
		next.Records()[s.rec.Path] = s.rec
		if s.changed {
			stats.Parsed++
			s.rec.Role = codemap.RoleOf(s.rec.Path, s.rec.Language, r.attrs, s.rec.Generated)
			if e.hidden(s.rec) {
				// No document: rankers drop the one it may have had.
				r.removedIDs = append(r.removedIDs, core.DocID(core.DocFile, s.rec.Path))
			} else {
				r.changedIDs = append(r.changedIDs, core.DocID(core.DocFile, s.rec.Path))
			}
		} else {
			stats.Unchanged++
		}
		stats.Languages[langOrOther(s.rec.Language)]++
		stats.Symbols += s.rec.Symbols
		stats.Imports += s.rec.ImportCount()
	}
	for p := range prev.Records() {
		if _, ok := next.File(p); !ok {
			stats.Removed++
			r.removedIDs = append(r.removedIDs, core.DocID(core.DocFile, p))
		}
	}
	sort.Strings(r.removedIDs)
	stats.Files.Indexed = len(next.Records())
	return nil
}

// readNotes makes the documents of the knowledge nodes (a malformed one is
// reported and skipped) and of the conversation memory's chunks, and lists
// those that changed or went since the notes' state. The stamp of their
// folders is taken before they are read: a note that changes while they
// are read changes the stamp again, and the next check indexes it.
func (r *indexRun) readNotes() error {
	e, n := r.e, &r.notes
	n.stamp, _ = e.notesStamp()
	n.stampedAt = time.Now()
	nodes, problems := e.nodes.All(1)
	r.stats.Warnings = append(r.stats.Warnings, problems...)
	nodeDocs, nodeEdges, stamps := nodeDocs(r.next, nodes, nil)
	if err := e.nodes.WriteCritical(nodes); err != nil {
		return err
	}
	chunkFiles, listed := e.scanChunks()
	chunkDocs, chunkEdges, chunkStamps, chunkItems, chunkProblems, err := e.chunkDocs(r.next)
	if err != nil {
		return err
	}
	r.stats.Warnings = append(r.stats.Warnings, chunkProblems...)
	n.nodeDocs, n.nodeEdges = append(nodeDocs, chunkDocs...), append(nodeEdges, chunkEdges...)
	for id, stamp := range chunkStamps {
		stamps[id] = stamp
	}
	// The notes' state says which versions the rankers hold; without it
	// (a first run, a damaged file) every note is sent again, in a whole
	// corpus that drops whatever it does not hold.
	n.prev = loadNotesState(e.indexDir())
	if r.opts.Full {
		n.prev = nil
	}
	n.next = newNotesState()
	n.next.stamps = stamps
	// The snapshot is made only for a state that is written: the common
	// refresh, which changed nothing, writes none.
	n.snapshot = func() {
		if listed {
			n.next.snap = e.snapshot(chunkFiles, nodes, nodeEdges, chunkItems, chunkEdges)
		}
	}
	// Notes and chunks that belong together are linked (relate.go) when
	// the rankers get a corpus: a refresh that changed nothing reads no
	// note's text.
	n.related = sync.OnceValue(func() []core.Edge {
		items := append(nodeItems(nodes), chunkItems...)
		for i := range items {
			items[i].stamp = stamps[items[i].id]
		}
		n.next.withMentions(n.prev, items)
		return relatedEdges(items, e.cfg.Index.LinkSessions, e.cfg.Index.LinkEntities)
	})
	r.lap("knowledge nodes")
	r.stats.Nodes = len(n.nodeDocs)
	var prevStamps map[string]string
	if n.prev != nil {
		prevStamps = n.prev.stamps
	}
	for id, stamp := range stamps {
		if prevStamps[id] != stamp {
			r.changedIDs = append(r.changedIDs, id)
		}
	}
	for id := range prevStamps {
		if _, ok := stamps[id]; !ok {
			r.removedIDs = append(r.removedIDs, id)
		}
	}
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
// rankers and their state all still hold. A run without a notes' state
// writes one, so that the next need not send every note again.
func (r *indexRun) keep() (*IndexStats, error) {
	n := r.notes
	kept, err := r.e.keep(r.prev, r.next, r.files, r.stats, r.start)
	if err == nil {
		err = r.saveSources()
	}
	if err == nil && n.prev == nil {
		n.snapshot()
		err = r.e.saveNotesState(nil, n.next)
	}
	if err == nil {
		r.e.saveNotesStamp(n.stamp, n.stampedAt)
	}
	return kept, err
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

// corpus builds what the rankers index: in full, every document with its
// body; otherwise bodies (and symbols) only where something changed.
func (r *indexRun) corpus(full bool) (*core.Corpus, error) {
	e, prev, next, dirty := r.e, r.prev, r.next, r.dirty
	if full && r.opts.notesOnly {
		return nil, ErrIndexOutdated
	}
	if err := e.loadSymbols(prev, next, func(p string) bool { return full || dirty[next.Records()[p].Module] }); err != nil {
		return nil, err
	}
	if full {
		e.readAll(r.files)
	}
	// Each corpus gets its own lists: module ids are appended below.
	c := &core.Corpus{Full: full, Changed: slices.Clone(r.changedIDs), Removed: slices.Clone(r.removedIDs)}
	byPath := map[string][]byte{}
	for _, s := range r.files {
		if s.content != nil {
			byPath[s.rec.Path] = s.content
		}
	}
	modDocs, modEdges := moduleDocuments(next, func(mod string) bool { return full || dirty[mod] }, e.hidden)
	nodeDocs, nodeEdges, related := r.notes.nodeDocs, r.notes.nodeEdges, r.notes.related()
	srcDocs, srcEdges := r.sourceDocuments()
	// Sized once: documents are large and a project has thousands.
	c.Documents = make([]core.Document, 0, len(r.paths)+len(modDocs)+len(nodeDocs)+len(srcDocs))
	for _, p := range r.paths {
		if rec := next.Records()[p]; !e.hidden(rec) {
			c.Documents = append(c.Documents, fileDocument(rec, byPath[p]))
		}
	}
	for _, d := range modDocs {
		if full || dirty[d.Path] {
			c.Changed = append(c.Changed, d.ID)
		}
	}
	c.Documents = append(append(append(c.Documents, modDocs...), nodeDocs...), srcDocs...)
	c.Edges = make([]core.Edge, 0, len(r.edges)+len(modEdges)+len(nodeEdges)+len(related)+len(srcEdges))
	c.Edges = append(append(append(append(append(c.Edges, graphEdges(e.visibleEdges(next, r.edges))...), modEdges...), e.visibleEdges(next, nodeEdges)...), related...), srcEdges...)
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

// save writes the manifest, then the notes' state and stamp: a state
// never says the rankers hold what a manifest left unwritten.
func (r *indexRun) save() (*IndexStats, error) {
	e, n := r.e, r.notes
	r.next.IndexedAt = time.Now().UTC()
	if err := r.next.Save(e.indexDir(), r.prev); err != nil {
		return nil, err
	}
	r.lap("manifest")
	e.setManifest(r.next)
	if err := r.saveSources(); err != nil {
		return nil, err
	}
	n.snapshot()
	if err := e.saveNotesState(n.prev, n.next); err != nil {
		return nil, err
	}
	e.saveNotesStamp(n.stamp, n.stampedAt)
	return e.finish(r.stats, r.start), nil
}
