package pipeline

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/host"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/refs"
	"github.com/rubi-dev/rubi/core/resolve"
	"github.com/rubi-dev/rubi/core/walk"
)

// indexRun is one index run, in the order its steps take (run):
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
//  4. buildGraph: modules, imports resolved project-wide; references
//     (references.go) between definitions, found by the resolvers; rank:
//     the files' centrality over both;
//  5. indexRankers: each ranker given its corpus, which every docSource
//     adds its documents to, and the maps written beside;
//  6. save: the manifest, then each docSource's own state.
//
// Each step leaves what it learned in the run for the next. The engine
// makes a run for each Index, and for a refresh of the notes that cannot
// be a delta (notesRun); the run holds the index's lock throughout.
type indexRun struct {
	e     *Engine
	opts  IndexOptions
	start time.Time
	lap   func(phase string)
	stats *IndexStats
	// progress tells opts.Progress where the run is (nil: nobody asked).
	progress *progress

	files []*scanned
	// binaries are the files the last run found binary, as it saw them
	// (binaryFiles), read by scan, which sets scanned.
	binaries binaryFiles
	scanned  bool
	attrs    *codemap.Attributes
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

	// rankers are the rankers the index holds something of
	// (stageSet.indexedRankers), fps their fingerprints.
	rankers []*config.Stage
	fps     map[string]string
	paths   []string    // next's files, sorted
	edges   []core.Edge // the imports, resolved, until compacted (edgesCompacted)
	// reused says the imports are the last run's (reuseResolution);
	// refEdges are the references between files (referenceEdges), until
	// the corpora are built (refEdgesLetGo).
	reused        bool
	refEdges      []core.Edge
	refEdgesLetGo bool
	dirty         map[string]bool // the modules whose documents changed
	// edgesCompacted says the import edges are the manifest's, numbered
	// (manifest.CompactEdges), no longer edges: from the resolution on
	// (run); importEdges, importSeq and importPairs decode them.
	edgesCompacted bool
	// ids are the files' document ids, one string a file, until the
	// corpora are built.
	ids docIDs
	// symbols writes a full run's symbols file as the files are parsed
	// (manifest.SymbolsWriter), until the code's records are made.
	symbols *manifest.SymbolsWriter
	// digests are the files' symbols as the maps and the corpora take
	// them, until the corpora are built (symbolDigests).
	digests *symbolDigests
	// problems are the run's own (a resolver of references that
	// failed), beside the stages' (Engine.Problems).
	problems []string
	// spills are the files the run keeps on disk rather than in memory
	// (spill), until it ends.
	spills []spilled
	// importsSpilled says spillImports has run.
	importsSpilled bool
	// early are the rankers indexing while the references are resolved
	// (rankEarly); nil when they are given their corpora after.
	early *earlyRankers
	// rankersMu guards rankersDone, the rankers done with the run
	// (rankerDone), and rankersShown, whether their phase is entered.
	rankersMu    sync.Mutex
	rankersDone  int
	rankersShown bool
}

// symbolDigests are the run's digests of its files' symbols, made when
// first asked for.
func (r *indexRun) symbolDigests() *symbolDigests {
	if r.digests == nil {
		r.digests = newSymbolDigests(r.e.folder.dir, r.prev, r.next, r.spill)
	}
	return r.digests
}

// newIndexRun readies a run as opts say; it starts when it is run.
func newIndexRun(e *Engine, opts IndexOptions) *indexRun {
	return &indexRun{e: e, opts: opts, start: time.Now(), progress: newProgress(opts.Progress)}
}

// run takes the index's lock and brings the index up to date, in the
// steps indexRun lists.
func (r *indexRun) run(ctx context.Context) (*IndexStats, error) {
	e := r.e
	unlock, err := e.folder.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	defer r.closeSpills()
	if e.limitMemory != nil {
		defer e.limitMemory(e.cfg.Index.MemoryLimit)()
	}
	r.lap = stopwatch(e.logger, "index")
	r.stats = &IndexStats{Root: e.cfg.Root, Languages: map[string]int{}, Rankers: map[string]string{}}
	r.docs = r.docSources()
	r.sourceKinds = map[string]string{}
	r.ids = docIDs{}
	if err := r.previous(ctx); err != nil {
		return nil, err
	}
	if err := r.read(ctx); err != nil {
		return nil, err
	}
	current := r.rankersCurrent(ctx)
	switch {
	case r.opts.notesOnly && !current:
		return nil, ErrIndexOutdated // a ranker to rebuild reads every file
	case !r.opts.Full && current && len(r.changedIDs) == 0 && len(r.removedIDs) == 0:
		return r.keep(ctx)
	}
	r.working()
	if err := r.readInFull(); err != nil {
		return nil, err
	}
	r.progress.enter(PhaseImports)
	if err := r.buildGraph(); err != nil {
		return nil, err
	}
	// The imports are resolved: each file's are kept encoded from here
	// (the resolvers of references read them decoded, a file at a time),
	// and so are the edges, by number, which each later step decodes
	// for itself (importEdges). At 200,000 files the two took 170 MB
	// of the references' step's peak, the largest of the run.
	r.next.CompactImports()
	if err := r.next.CompactEdges(); err != nil {
		return nil, err
	}
	r.edges, r.edgesCompacted = nil, true
	r.progress.enter(PhaseReferences)
	if err := r.rankEarly(ctx); err != nil {
		return nil, err
	}
	defer r.early.abandon()
	if err := r.references(ctx); err != nil {
		return nil, err
	}
	r.lap("references")
	if err := r.spillImports(); err != nil {
		return nil, err
	}
	r.giveBack()
	r.progress.enter(PhaseRank)
	if err := r.rank(); err != nil {
		return nil, err
	}
	if err := r.indexRankers(ctx); err != nil {
		return nil, err
	}
	edges, err := r.importSeq()
	if err != nil {
		return nil, err
	}
	if err := e.writeVault(r.next, edges, r.opts.Full); err != nil {
		return nil, err
	}
	return r.save()
}

// working tells IndexOptions.Working, once, that the run has work beyond
// confirming the index as it stands.
func (r *indexRun) working() {
	if r.opts.Working != nil {
		r.opts.Working()
		r.opts.Working = nil
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
		m, err := manifest.Load(e.folder.dir, true, e.oneShot)
		previous <- loaded{m, err}
	}()
	var (
		wstats walk.Stats
		err    error
	)
	if !opts.notesOnly {
		r.files, wstats, err = r.walk(ctx)
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
		r.attrs, rolesSig = attributes(e.cfg.Root, &e.cfg.Index, r.files)
	}
	if prev != nil && prev.Roles != rolesSig {
		opts.Full = true
	}
	if prev != nil && !opts.Full && !opts.notesOnly && !prev.SymbolsIntact(e.folder.dir) {
		// Truncated or gone: the unchanged files' symbols cannot be
		// copied from it, so every file is parsed again.
		r.stats.Warnings = append(r.stats.Warnings, "the symbols file "+manifest.SymbolsFile(e.folder.dir, prev.Generation)+" is damaged: every file is parsed again")
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
	r.rankers = e.stages.indexedRankers()
	r.fps = map[string]string{}
	current := true
	for _, st := range r.rankers {
		r.fps[st.Name] = e.stages.fingerprint(st)
		if prev.Stateful[st.Name] && !e.folder.hasState(st.Name) {
			// Its state was deleted: index it again, in full.
			delete(prev.Rankers, st.Name)
		}
		if prev.Rankers[st.Name] == r.fps[st.Name] && !r.opts.Full && !r.opts.notesOnly {
			if err := e.stages.verify(ctx, st); err != nil {
				// Damaged since (truncated, overwritten).
				r.stats.Warnings = append(r.stats.Warnings, fmt.Sprintf("%v; rebuilding it", err))
				delete(prev.Rankers, st.Name)
			}
		}
		current = current && prev.Rankers[st.Name] == r.fps[st.Name]
	}
	return current
}

// keep ends the common refresh, which changed no content: the previous
// graph and rankers stand, and the manifest is rewritten only if some
// file was touched (new mtime, same content), so the next run need not
// read it; the maps are written again when they are stale.
func (r *indexRun) keep(ctx context.Context) (*IndexStats, error) {
	e, prev, next, stats := r.e, r.prev, r.next, r.stats
	next.Rankers, next.Stateful, next.MapsFormat = prev.Rankers, prev.Stateful, prev.MapsFormat
	next.Roles = prev.Roles
	next.Resolution, stats.Resolution = prev.Resolution, prev.Resolution
	next.IndexedAt, next.Generation = prev.IndexedAt, prev.Generation
	// The references stand unless their table is damaged, missing or
	// another set of resolvers wrote it (rebuilt), or they were turned
	// off (dropped).
	r.paths = next.SortedPaths()
	r.progress.enter(PhaseReferences)
	if err := r.references(ctx); err != nil {
		return nil, err
	}
	r.progress.enter(PhaseWrite)
	for rec := range next.RecordsInOrder() {
		stats.Edges += rec.Importers
	}
	stats.Modules = e.maps.moduleCount(func(yield func(*manifest.Record) bool) {
		// next's records, in path order: this run's files (keep
		// replaces none).
		for _, s := range r.files {
			if s.skip == "" && !yield(s.rec) {
				return
			}
		}
	})
	for name := range next.Rankers {
		if st := e.cfg.Stage(core.KindRanker, name); st != nil && !stateless(st) {
			stats.Rankers[name] = "up to date"
		}
	}
	next.CarryEdges(prev)
	next.CarrySummaries(prev)
	written := false
	if e.maps.stale(next) {
		edges, err := prev.ImportEdges()
		if err != nil || !prev.HasEdges() {
			project, err := resolve.NewProject(e.cfg.Root, next.SortedPaths())
			if err != nil {
				return nil, err
			}
			edges = resolve.Edges(project, next.AllFacts())
			next.SetEdges(edges)
		}
		imports := edges
		if e.referencesOn() {
			// A table that cannot be read was rebuilt (references).
			if refEdges, err := referenceEdges(e.folder.dir, next, e.oneShot, nil); err == nil {
				edges = append(slices.Clip(edges), e.roles.visible(next, refEdges)...)
			}
		}
		if err := e.maps.write(prev, next, edges, nil, true); err != nil {
			return nil, err
		}
		if err := e.writeVault(next, codemap.All(imports), true); err != nil {
			return nil, err
		}
		written = true
	} else {
		written = slices.ContainsFunc(r.files, func(s *scanned) bool { return s.read })
		if e.vaultBehind() && prev.HasEdges() {
			// A recall's notes delta left the vault to this run.
			edges, _, err := prev.ImportEdgeSeq()
			if err != nil {
				return nil, err
			}
			if err := e.writeVault(next, edges, false); err != nil {
				return nil, err
			}
		}
	}
	written = written || next.References != prev.References
	if written {
		if err := next.Save(e.folder.dir, prev); err != nil {
			return nil, err
		}
		refs.RemoveStale(e.folder.dir, next.References)
	}
	e.folder.set(next)
	if err := r.saveSources(true); err != nil {
		return nil, err
	}
	if !e.nodes.ChecksSaved() {
		r.saveChecks()
	}
	return stats.finish(append(e.Problems(), r.problems...), r.start), nil
}

// saveChecks brings the notes' kept checks against the code up to date
// (notes.Nodes.SaveChecks) once the run's manifest is the current one: a
// cache, whose loss costs the next recall a reading of the notes' files.
func (r *indexRun) saveChecks() {
	// A check's verdict rests on the lines the parsers give the symbols.
	var basis strings.Builder
	for _, lang := range slices.Sorted(maps.Keys(r.next.Parsers)) {
		basis.WriteString(lang + "=" + r.next.Parsers[lang] + "\n")
	}
	if err := r.e.nodes.SaveChecks(basis.String()); err != nil {
		r.problems = append(r.problems, "could not save the notes' checks against the code: "+err.Error())
	}
	r.lap("checks")
}

// buildGraph assigns each file its module, resolves the imports project
// wide (or reuses the last run's resolution when no import can have
// changed) and ranks the files by centrality.
func (r *indexRun) buildGraph() error {
	e, prev, next, stats := r.e, r.prev, r.next, r.stats
	r.paths = next.SortedPaths()
	roots := codemap.Roots(r.paths, e.cfg.Index.ModuleRoots...)
	for _, p := range r.paths {
		rec := next.Records()[p]
		mod := codemap.ModuleOf(p, roots, e.cfg.Index.ModuleDepth)
		switch {
		case rec.Module == mod:
		case prev.Records()[p] == rec:
			// Copy: an unchanged record is shared with prev, which must
			// keep the old module for dirtyModules to see the move.
			moved := *rec
			moved.Module = mod
			next.Replace(&moved)
		default:
			// This run's own (every record of a full run): a copy would
			// leave the tree's records twice in memory.
			rec.Module = mod
		}
	}
	edges, reused := r.reuseResolution()
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
		r.lap("resolve")
	}
	next.SetEdges(edges)
	r.edges, r.reused = edges, reused
	stats.Edges = len(edges)
	r.dirty = dirtyModules(prev, next)
	stats.Modules = e.maps.moduleCount(maps.Values(next.Records()))
	r.removedIDs = append(r.removedIDs, removedModules(prev, next)...)
	return nil
}

// rank reads the references between files from the run's table and
// ranks the files by centrality over the imports and the references
// (rankFiles), unless both are the last run's: the ranks then carry
// over. A table that cannot be read leaves the imports alone to rank,
// and says so.
func (r *indexRun) rank() error {
	e, prev, next := r.e, r.prev, r.next
	if e.referencesOn() {
		var err error
		if r.refEdges, err = r.referenceEdges(); err != nil {
			r.stats.Warnings = append(r.stats.Warnings, fmt.Sprintf("the references between files are left out of their ranks: %v", err))
		}
	}
	if r.reused && next.References == prev.References && !r.opts.Full {
		return nil
	}
	imports, err := r.importEdges()
	if err != nil {
		return err
	}
	rankFiles(next, e.roles.visible(next, imports), r.refEdges, e.cfg.Index.ReferenceEdges)
	r.lap("rank")
	return nil
}

// referenceEdges are the visible references between files, read from the
// run's table.
func (r *indexRun) referenceEdges() ([]core.Edge, error) {
	edges, err := referenceEdges(r.e.folder.dir, r.next, r.e.oneShot, r.ids)
	return r.e.roles.visible(r.next, edges), err
}

// corpus builds what the rankers index: every docSource's documents, in
// full with their bodies; otherwise bodies (and symbols) only where
// something changed. The files' bodies are read as a ranker asks for
// them (core.Corpus.DeferBodies, fileBodies).
func (r *indexRun) corpus(full bool) (*core.Corpus, error) {
	if full && r.opts.notesOnly {
		return nil, ErrIndexOutdated
	}
	// Each corpus gets its own lists; the documents' is sized once, as
	// documents are large and a project has thousands.
	c := &core.Corpus{Full: full, Changed: slices.Clone(r.changedIDs), Removed: slices.Clone(r.removedIDs)}
	if r.opts.Full {
		// A full run's links wait on disk while the rankers index
		// (core.Corpus.SpillLinks): at 200,000 files 42 MB, which most
		// rankers never read.
		f, err := r.spill()
		if err != nil {
			return nil, err
		}
		c.SpillLinks(f)
	}
	st := r.stats
	c.Documents = make([]core.Document, 0, st.Files.Indexed+st.Modules+st.Nodes+st.Sourced)
	// The code's edges, kept by number (codeSource: the imports, the
	// references between files and each file's module's), then about
	// one for each note and item: a list that outgrew its size would be
	// copied, at 200,000 files tens of megabytes held twice.
	c.GrowLinks(st.Edges + len(r.refEdges) + st.Files.Indexed)
	c.Edges = make([]core.Edge, 0, st.Nodes+st.Sourced)
	for _, s := range r.docs {
		if err := s.documents(r, full, c); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// indexRankers gives each ranker its corpus: in full when its
// configuration changed or it asks for it, incrementally otherwise, and
// not at all when nothing changed since it last indexed. The maps are
// written while they index. The maps need the symbols of the dirty
// modules, as the corpus does: each file's are read once, up front, and
// digested (symbolDigests) one file at a time; the maps and the corpora
// are built from the digests before the rankers start, which then index
// without any file's symbols beside them.
func (r *indexRun) indexRankers(ctx context.Context) error {
	e, prev, next, opts := r.e, r.prev, r.next, r.opts
	var maps func() error
	if opts.notesOnly && !opts.notesMaps {
		maps = func() error {
			next.MapsFormat = prev.MapsFormat
			return nil
		}
	} else {
		imports, err := r.importSeq()
		if err != nil {
			return err
		}
		built, err := e.maps.built(prev, next, chainEdges(imports, codemap.All(r.refEdges)), r.dirty, opts.Full, r.symbolDigests())
		if err != nil {
			return err
		}
		maps = built.write
	}
	r.showRankers()
	// On a large tree the maps are written, and what they were built of
	// let go, before the corpora are built; the rankers then index one
	// after the other.
	oneByOne := r.oneByOne()
	if oneByOne {
		err := maps()
		maps = nil
		if err != nil {
			return err
		}
		r.giveBack()
	}
	var (
		cs   *corpora
		jobs []*rankerJob
	)
	if r.early != nil {
		// The rankers have their corpora, which now get their links.
		cs, jobs = r.early.cs, r.early.jobs
		if err := r.early.link(); err != nil {
			return err
		}
	} else {
		cs = &corpora{r: r}
		var err error
		if jobs, err = r.rankerJobs(ctx, cs); err != nil {
			return err
		}
		next.ReleaseSymbols()
	}
	r.digests = nil
	// The corpora and the maps hold what they need of the references
	// between files: a corpus built after this (a ranker asking for a
	// full one) reads them again (codeSource), as it decodes the import
	// edges (kept numbered since the resolution, run).
	r.refEdges, r.refEdgesLetGo = nil, true
	r.ids = nil
	// The corpora are built (rankerJobs), one at a time; the rankers now
	// index, each reading them and writing only its own state: at once,
	// or one after the other on a large tree (rankersAtOnce).
	switch {
	case r.early != nil:
		var wg sync.WaitGroup
		var mapsErr error
		wg.Go(func() { mapsErr = maps() })
		for _, j := range r.early.late {
			wg.Go(func() { r.index(ctx, j, cs) })
		}
		wg.Wait()
		r.early.wait()
		// Their corpora's bodies are read no more.
		next.ReleaseSymbols()
		if mapsErr != nil {
			return mapsErr
		}
	case oneByOne:
		for _, j := range jobs {
			r.index(ctx, j, cs)
			r.giveBack()
		}
	default:
		var wg sync.WaitGroup
		var mapsErr error
		wg.Go(func() { mapsErr = maps() })
		for _, j := range jobs {
			wg.Go(func() { r.index(ctx, j, cs) })
		}
		wg.Wait()
		if mapsErr != nil {
			return mapsErr
		}
	}
	if err := r.rankersIndexed(ctx, jobs, cs); err != nil {
		return err
	}
	r.lap("rankers and maps")
	return nil
}

// spillImports keeps the files' imports and the import edges on disk
// (manifest.Spill) in a full run, once the resolvers of references, the
// last to read the imports, are done (or the references' step is, when
// it resolved none), to the manifest's save; the steps between read the
// edges from there, once each. In a full run every record holds its
// imports: at 200,000 files 33 MB, and the edges 16 MB, beside the peaks
// of the references' table and the rankers' step. An incremental run's
// records are mostly the last manifest's, and a refresh would write
// them all to spare a few. Once a run is done.
func (r *indexRun) spillImports() error {
	if !r.opts.Full || r.importsSpilled {
		return nil
	}
	f, err := r.spill()
	if err != nil {
		return err
	}
	r.importsSpilled = true
	return r.next.Spill(f)
}

// rankersAtOnce is the most files a project may have for its rankers to
// index side by side with the maps being written. Each holds its own
// index while it builds it (bm25's dictionaries and counts, rank.names'
// entries, rank.ppr's graph, the maps' file graph): on a large tree the
// sum of those, beside the corpus, is the index run's peak (six copies
// of kubernetes, 48,000 files: about 150 of 430 MB live; 200,000 files:
// about 400 of 900), while one after another they cost no more CPU time,
// only the wall time the cores would have saved. Below it, the rankers'
// indexes together are smaller than the references' step's peak.
const rankersAtOnce = 20_000

// giveBack returns to the system the memory the heap holds free, in a
// full run of a tree of more than rankersAtOnce files, once a step has
// let go of its working set (the references' table, the maps, each
// ranker's index): the runtime returns free memory slowly, and what the
// step held stayed resident beside the next one's, which then peaked at
// about two and a half times the live heap. It costs a collection
// (60-140 ms at 200,000 files, six a run; 1.8 s in all at 500,000): an
// incremental run, a hook's refresh among them, holds no working set
// worth one. The peak went from 1,205 to 1,078 MiB at 200,000 files,
// from 6.1-6.4 to 4.8-4.9 GiB on a synthetic tree of 500,000.
func (r *indexRun) giveBack() {
	if !r.opts.Full || r.next.Len() <= rankersAtOnce {
		return
	}
	t := time.Now()
	debug.FreeOSMemory()
	r.e.logger.Debug("memory given back", "ms", ms(time.Since(t)))
}

// index gives j's ranker its corpus.
func (r *indexRun) index(ctx context.Context, j *rankerJob, cs *corpora) {
	c, _ := cs.get(j.full)
	t := time.Now()
	j.err = j.ranker.Index(ctx, c)
	r.e.logger.Debug("ranker indexed", "ranker", j.st.Name, "full", c.Full, "ms", ms(time.Since(t)))
	r.rankerDone()
}

// oneByOne says the rankers index one after the other, the maps written
// first: a tree of more than rankersAtOnce files.
func (r *indexRun) oneByOne() bool {
	atOnce := rankersAtOnce
	if r.opts.rankersAtOnce > 0 {
		atOnce = r.opts.rankersAtOnce
	}
	return r.next.Len() > atOnce
}

// rankerDone counts a ranker done with the run, shown once their phase
// is entered (showRankers).
func (r *indexRun) rankerDone() {
	r.rankersMu.Lock()
	defer r.rankersMu.Unlock()
	r.rankersDone++
	if r.rankersShown {
		r.progress.add(1, 0)
	}
}

// showRankers enters the rankers' phase, with those done already.
func (r *indexRun) showRankers() {
	r.rankersMu.Lock()
	defer r.rankersMu.Unlock()
	r.rankersShown = true
	r.progress.phase(PhaseRankers, r.rankersDone, len(r.rankers))
}

// earlyRankers are the rankers of a run that index while its references
// are resolved (rankEarly): those whose Info says NoEdges, on the cores
// the resolution leaves idle (its start, the table's encoding, the
// ranking). The corpora are made for every ranker before the references
// between files are known and hold back their links
// (core.Corpus.LinksLater) until link adds them, once the files are
// ranked; then the others (late) index, as they would have.
type earlyRankers struct {
	// cs are the corpora, jobs every ranker's, late those that wait.
	cs         *corpora
	jobs, late []*rankerJob
	cancel     context.CancelFunc
	wg         sync.WaitGroup
	// release ends the cap on memory while they index (earlyMemoryCap).
	release func()
	// linking says link has run: a corpus made after (a ranker asking
	// for a full one) gets its links at once.
	linking bool
	// links add the code's links to a corpus (codeSource.documents) and
	// let its readers have them, in the order the corpora were made.
	links []func(err error) error
}

// rankEarly starts the rankers that read no edge before the references
// are resolved, in a run that resolves them on a tree whose rankers
// index at once (not oneByOne: at 20,000 files and more the run holds
// one step's working set at a time). It does nothing in a run of the
// notes alone.
func (r *indexRun) rankEarly(ctx context.Context) error {
	if !r.e.referencesOn() || r.opts.notesOnly || r.oneByOne() || r.next.Len() > earlyUpTo {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	early := &earlyRankers{cs: &corpora{r: r}, cancel: cancel}
	r.early = early
	jobs, err := r.rankerJobs(ctx, early.cs)
	if err != nil {
		early.abandon()
		r.early = nil
		return err
	}
	early.jobs = jobs
	// The cap is the process's: a process that answers once (rubi index,
	// a hook) takes it, a server, whose heap holds other projects too,
	// is left to the run's pacing.
	if l := r.e.limitMemory; l != nil && r.e.oneShot {
		early.release = l(earlyMemoryCap)
	}
	for _, j := range jobs {
		if !j.ranker.Info().NoEdges {
			early.late = append(early.late, j)
			continue
		}
		early.wg.Go(func() { r.index(ctx, j, early.cs) })
	}
	return nil
}

// later holds back add, the code's links of c, for link; it reports
// whether it did (a run whose rankers index early).
func (e *earlyRankers) later(c *core.Corpus, add func() error) bool {
	if e == nil || e.linking {
		return false
	}
	done := c.LinksLater()
	e.links = append(e.links, func(err error) error {
		if err == nil {
			err = add()
		}
		done(err)
		return err
	})
	return true
}

// link adds the links held back, the files ranked and the references
// between them known, and lets the rankers waiting for them go on.
func (e *earlyRankers) link() error {
	e.linking = true
	var first error
	for _, l := range e.links {
		if err := l(first); err != nil && first == nil {
			first = err
		}
	}
	e.links = nil
	return first
}

// earlyUpTo is the most files of a tree whose rankers index early, and
// earlyMemoryCap (MiB) the memory a one-shot process keeps to meanwhile
// (Options.LimitMemory; a lower index.memory_limit stays): bm25's
// working set beside the type checker's took kubernetes' peak (8,000
// files; 40-60 MB live through the references alone) from 172-203 MiB to
// 209-258, and under the cap to 197-211, no slower
// (bench/results/perf-2026-12-07-early-rankers.md). A larger tree's
// references alone hold more than the cap leaves room for.
const (
	earlyUpTo      = 10_000
	earlyMemoryCap = 192
)

// wait waits for the early rankers to be done.
func (e *earlyRankers) wait() {
	e.wg.Wait()
	if e.release != nil {
		e.release()
		e.release = nil
	}
}

// abandon stops the early rankers of a run that ends before its corpora
// got their links (an error, a cancelled run), and waits for them; after
// link and wait it does nothing. What an early ranker kept is what it
// would have kept given its corpus after the references: a run that fails
// once its rankers indexed leaves them so too, and the next run gives
// them the same changes again (core.Ranker.Index is idempotent). The
// rankers that read edges never started.
func (e *earlyRankers) abandon() {
	if e == nil {
		return
	}
	e.cancel()
	for _, l := range e.links {
		_ = l(errAbandoned)
	}
	e.links = nil
	e.wait()
}

// errAbandoned is the error of the links of a run that ended without
// them.
var errAbandoned = errors.New("the index run ended before the references between files were known")

// rankerJob is one ranker to give a corpus in this run.
type rankerJob struct {
	st     *config.Stage
	ranker core.Ranker
	full   bool
	err    error
}

// rankerJobs opens the rankers and builds the corpora they will take;
// a ranker that nothing concerns is noted up to date, one that failed to
// start failed.
func (r *indexRun) rankerJobs(ctx context.Context, cs *corpora) ([]*rankerJob, error) {
	prev, next, stats := r.prev, r.next, r.stats
	nothingChanged := len(r.changedIDs) == 0 && len(r.removedIDs) == 0
	var jobs []*rankerJob
	for _, st := range r.rankers {
		stage, err := r.e.stages.open(ctx, st)
		if err != nil {
			return nil, err
		}
		ranker, ok := stage.(core.Ranker)
		if !ok {
			stats.Rankers[st.Name] = "failed"
			r.rankerDone()
			continue
		}
		full := prev.Rankers[st.Name] != r.fps[st.Name]
		if !full && nothingChanged {
			next.Rankers[st.Name], next.Stateful[st.Name] = r.fps[st.Name], prev.Stateful[st.Name]
			stats.Rankers[st.Name] = "up to date"
			r.rankerDone()
			continue
		}
		if _, err := cs.get(full); err != nil {
			return nil, err
		}
		jobs = append(jobs, &rankerJob{st: st, ranker: ranker, full: full})
	}
	return jobs, nil
}

// rankersIndexed reads the rankers' answers: one that asks for a full
// corpus after an incremental one is given it now; one that failed keeps
// no fingerprint, so the next run gives it its corpus again.
func (r *indexRun) rankersIndexed(ctx context.Context, jobs []*rankerJob, cs *corpora) (err error) {
	next, stats := r.next, r.stats
	// A corpus whose spilled links could not be written or read gave
	// its rankers fewer edges than it holds: the run fails, before the
	// manifest would say they hold them all.
	defer func() {
		for _, c := range []*core.Corpus{cs.incremental, cs.full} {
			if c != nil && err == nil {
				err = c.Err()
			}
		}
	}()
	for _, j := range jobs {
		err := j.err
		if errors.Is(err, core.ErrFullIndexNeeded) && !j.full {
			j.full = true
			c, gerr := cs.get(true)
			if gerr != nil {
				return gerr
			}
			err = j.ranker.Index(ctx, c)
		}
		name := j.st.Name
		switch {
		case errors.Is(err, host.ErrUnavailable):
			stats.Rankers[name] = "failed"
			continue
		case err != nil:
			if ctx.Err() != nil {
				return ctx.Err()
			}
			stats.Rankers[name] = "failed"
			stats.Warnings = append(stats.Warnings, fmt.Sprintf("ranker %s could not index: %v", name, err))
			continue
		}
		next.Rankers[name] = r.fps[name]
		next.Stateful[name] = r.e.folder.hasState(name)
		if j.full {
			stats.Rankers[name] = "full"
		} else {
			stats.Rankers[name] = "incremental"
		}
	}
	return nil
}

// corpora are the run's two corpora, each built once, when a ranker
// first needs it: the incremental one, and the full one for a ranker
// whose configuration changed or that asks for it.
type corpora struct {
	r                 *indexRun
	incremental, full *core.Corpus
}

func (cs *corpora) get(full bool) (*core.Corpus, error) {
	var err error
	if full {
		if cs.full == nil {
			cs.full, err = cs.r.corpus(true)
		}
		return cs.full, err
	}
	if cs.incremental == nil {
		cs.incremental, err = cs.r.corpus(false)
	}
	return cs.incremental, err
}

// save writes the manifest, then each docSource's state: a state never
// says the rankers hold what a manifest left unwritten.
func (r *indexRun) save() (*IndexStats, error) {
	e := r.e
	r.progress.enter(PhaseWrite)
	r.next.IndexedAt = time.Now().UTC()
	if err := r.next.Save(e.folder.dir, r.prev); err != nil {
		return nil, err
	}
	// The manifest in hand is the project's from here (Engine.folder):
	// its records hold their imports again, and it its edges.
	if err := r.next.Unspill(); err != nil {
		return nil, err
	}
	refs.RemoveStale(e.folder.dir, r.next.References)
	r.lap("manifest")
	e.folder.set(r.next)
	if err := r.saveSources(false); err != nil {
		return nil, err
	}
	r.saveChecks()
	return r.stats.finish(append(e.Problems(), r.problems...), r.start), nil
}

// read asks each docSource, in turn, what it holds and what changed.
func (r *indexRun) read(ctx context.Context) error {
	for _, s := range r.docs {
		if _, code := s.(*codeSource); !code {
			r.progress.enter(PhaseNotes)
		}
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
