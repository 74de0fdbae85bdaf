package pipeline

import (
	"context"
	"errors"
	"sort"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/manifest"
)

// codeSource is the code as a docSource: the project's files, read and
// parsed where they changed (each file's document made of its record),
// and the modules they make. Its state is the manifest, which the run
// reads before any source (previous) and writes before any source's
// state (save); the imports between its files are the run's graph
// (buildGraph), which the other sources' edges point into.
type codeSource struct{}

func (*codeSource) name() string { return "code" }

// read reads and parses what changed, makes next's records, and lists
// the files' documents that changed or went. A run of the notes alone
// takes the records as the last run left them.
func (*codeSource) read(ctx context.Context, r *indexRun) error {
	e, prev, next, stats := r.e, r.prev, r.next, r.stats
	next.Parsers = e.stages.parserFingerprints()
	// A full run writes the symbols as each window of files is parsed
	// (readAndParse), and lets them go: none of the later steps holds
	// the whole tree's.
	writeSymbols := r.opts.Full && !r.opts.notesOnly
	if writeSymbols {
		sw, err := manifest.NewSymbolsWriter(e.folder.dir)
		if err != nil {
			return err
		}
		r.symbols = sw
		defer func() {
			if r.symbols != nil {
				r.symbols.Abort()
				r.symbols = nil
			}
		}()
	}
	if r.opts.notesOnly {
		// The files were parsed by the parsers of the last index: a
		// parser changed since is the next full refresh's to apply.
		next.Parsers = prev.Parsers
	} else if err := r.scan(ctx); err != nil {
		return err
	}
	// The contents were for the parsers, and are gone (readAndParse):
	// the rankers read them again one at a time (fileBodies), so that no
	// step holds the tree's bytes.
	r.lap("read and parse")
	// r.files are in path order (the walk's, or the last run's records'):
	// next's records are set in it, and no path is hashed or sorted
	// (manifest.SetRecords).
	recs := make([]*manifest.Record, 0, len(r.files))
	// Files come in runs of one language: each run is counted once.
	lang, run := "", 0
	for _, s := range r.files {
		if s.skip != "" {
			stats.Files.Skipped[s.skip]++
			continue
		}
		recs = append(recs, s.rec)
		if s.changed {
			stats.Parsed++
			s.rec.Role = codemap.RoleOf(s.rec.Path, s.rec.Language, r.attrs, s.rec.Generated)
			if e.roles.hides(s.rec) {
				// No document: rankers drop the one it may have had.
				r.removedIDs = append(r.removedIDs, r.ids.of(s.rec.Path))
			} else {
				r.changedIDs = append(r.changedIDs, r.ids.of(s.rec.Path))
			}
		} else {
			stats.Unchanged++
		}
		if s.rec.Language != lang {
			if run > 0 {
				stats.Languages[langOrOther(lang)] += run
			}
			lang, run = s.rec.Language, 0
		}
		run++
		stats.Symbols += s.rec.Symbols
		stats.Imports += s.rec.ImportCount()
	}
	if run > 0 {
		stats.Languages[langOrOther(lang)] += run
	}
	next.SetRecords(recs, prev)
	if r.opts.Full {
		// What a full run asks of the walk's list from here is its
		// binary files (saveBinaryFiles): the list, a hundred bytes a
		// file, was held to the end (36 MB at 200,000 files).
		r.files = onlyBinary(r.files)
	}
	for _, p := range missing(prev.SortedPaths(), next.SortedPaths()) {
		stats.Removed++
		r.removedIDs = append(r.removedIDs, core.DocID(core.DocFile, p))
	}
	sort.Strings(r.removedIDs)
	stats.Files.Indexed = next.Len()
	if writeSymbols {
		// The symbols are written, and let go: each later step reads
		// back those it needs, and none holds the whole tree's from the
		// parse to the manifest.
		sw := r.symbols
		r.symbols = nil
		if err := sw.Finish(next); err != nil {
			return err
		}
	}
	return nil
}

// missing returns the paths of was not in now, both in increasing order.
func missing(was, now []string) []string {
	if len(was) == len(now) && (len(was) == 0 || &was[0] == &now[0]) {
		return nil // the same list (manifest.SetRecords kept the last one's)
	}
	var out []string
	k := 0
	for _, p := range was {
		for k < len(now) && now[k] < p {
			k++
		}
		if k == len(now) || now[k] != p {
			out = append(out, p)
		}
	}
	return out
}

// documents adds the files' and modules' documents, with bodies (and
// symbols) where something changed, or everywhere in full, and the
// import and reference edges between what is not hidden.
func (*codeSource) documents(r *indexRun, full bool, c *core.Corpus) error {
	e, next, dirty := r.e, r.next, r.dirty
	dg := r.symbolDigests()
	if err := dg.read(func(p string) bool { return full || dirty[next.Records()[p].Module] }); err != nil {
		return err
	}
	// Bodies: every file's in full, else those of the files this run
	// read (changed, or touched and found the same).
	read := map[string]bool{}
	if !full {
		for _, s := range r.files {
			if s.read {
				read[s.rec.Path] = true
			}
		}
	}
	var recs []*manifest.Record
	for _, p := range r.paths {
		if rec := next.Records()[p]; !e.roles.hides(rec) {
			recs = append(recs, rec)
		}
	}
	for _, rec := range recs {
		c.Documents = append(c.Documents, fileDocument(rec, dg, r.ids))
	}
	bodies, err := r.fileBodies(recs, dg, func(p string) bool { return full || read[p] })
	if err != nil {
		return err
	}
	c.DeferBodies(bodies)
	modDocs, modEdges := moduleDocuments(next, func(mod string) bool { return full || dirty[mod] }, e.roles.hides, dg, r.ids)
	for _, d := range modDocs {
		if full || dirty[d.Path] {
			c.Changed = append(c.Changed, d.ID)
		}
	}
	c.Documents = append(c.Documents, modDocs...)
	// The code's edges go in by number (core.Corpus.Link), ahead of
	// every other source's, which add theirs to c.Edges: now, or, when
	// the rankers index while the references are resolved, once they are
	// (earlyRankers), between the documents made so far.
	if c.EdgeCount() > 0 {
		return errors.New("the code's edges must be the corpus's first")
	}
	docs := c.Documents[:len(c.Documents):len(c.Documents)]
	add := func() error {
		// The import edges, decoded as they are linked: the run keeps
		// them numbered in the manifest from the resolution on
		// (CompactEdges).
		imports, err := r.importSeq()
		if err != nil {
			return err
		}
		// The references are visible already (referenceEdges); read
		// again when the run has let them go.
		refEdges := r.refEdges
		if r.refEdgesLetGo && e.referencesOn() {
			if refEdges, err = r.referenceEdges(); err != nil {
				return err
			}
		}
		c.GrowLinks(len(refEdges))
		at := make(map[string]int, len(docs))
		for k := range docs {
			at[docs[k].ID] = k
		}
		linkGraphEdges(c, at, e.roles, next, imports)
		for k := range modEdges {
			c.Link(&modEdges[k], placeOf(at, modEdges[k].From), placeOf(at, modEdges[k].To))
		}
		linkGraphEdges(c, at, roles{}, next, codemap.All(refEdges))
		return nil
	}
	if r.early.later(c, add) {
		return nil
	}
	return add()
}

// save keeps the list of the files found binary: the code's state is
// otherwise the manifest, which the run has written.
func (*codeSource) save(r *indexRun, _ bool) error { return r.saveBinaryFiles() }
