// Package pipeline runs rubi over one project, as rubi.hcl declares it:
// it keeps the project's index up to date and answers from it.
//
//	index:    walk → read and parse (by language) → resolve imports →
//	          references → graph and PageRank → documents → each
//	          ranker's Index (those that read no edge from the
//	          references on), the maps beside → .rubi/index/
//	retrieve: query + terms → rankers in parallel (seeded rankers after
//	          the others) → fuser → rerankers → the answer, packed
//	          within the token budget with its reasons (core/answer)
//
// The Engine is the package's face. It holds what lives as long as a
// process uses the project: the configuration, the host and the stages
// it opened (stageSet: each opened once, on first use, so a query that
// finds the index fresh never starts a parser), the index folder with
// the manifest in hand (indexFolder), the notes, the maps (codeMaps).
// Each call goes to the type whose job it is: Index to an indexRun,
// RefreshNotes and IndexNotes to a notesRun, Retrieve to a retrieval
// (retrieve.go), whose answer core/answer packs; MapText, Graph and
// Status read what the index wrote.
//
// # An index run
//
// An indexRun (indexrun.go) takes the index's lock and runs its steps in
// order, each a method that leaves what it learned in the run for the
// next:
//
//  1. previous: the last run's manifest (core/manifest), read while the
//     project is walked (core/walk, as the index block says). The run is
//     full when asked, when no manifest can be used, when what decides
//     roles changed (.gitattributes, index.hidden_roles, the module
//     rules) or when the symbols file is damaged.
//  2. read: each document source (below) says what it holds now and
//     which of its documents changed or went. For the code, a file whose
//     size and modification time match its record is not opened; the
//     others are read a window of readWindow bytes at a time, in
//     parallel, into an arena, sniffed for binary content and hashed (the
//     same hash: touched, not changed), and the changed ones go to the
//     parser of their language in batches of about core.ChunkSize, a
//     worker per core, while the next window is read into a second
//     arena. A window's contents go once parsed: no step holds the
//     tree's contents. A full run writes the symbols of each window as
//     it is parsed (manifest.SymbolsWriter), and lets them go.
//  3. rankersCurrent: each ranker's fingerprint (its block in rubi.hcl,
//     the index settings every corpus depends on, a built-in's version;
//     computed without starting anything) against the manifest's, and
//     Verify for a built-in that keeps state. With no document changed
//     and every ranker current, keep ends the run: a refresh costs the
//     walk and one small file read, and the maps are written again only
//     when stale.
//  4. buildGraph: each file's module (core/codemap) and the imports
//     resolved project-wide (core/resolve; the last run's resolution is
//     reused when no changed file can change it).
//  5. references (references.go): the resolvers of references
//     (core/refs) answer for the files that changed and those they
//     affect, into the run's table; then rank: each file's PageRank over
//     the imports and those references.
//  6. indexRankers: each ranker is given a corpus, in full when its
//     fingerprint changed or it answers core.ErrFullIndexNeeded,
//     incrementally otherwise (bodies only where something changed, each
//     read again as its document is made), or
//     not at all when nothing it holds changed. The rankers index at
//     once, and the maps are written meanwhile: .rubi/map.md within
//     budgets.map and the pages of the modules that changed. Where
//     references are resolved, the corpora are made before step 5
//     (rankEarly) and the rankers whose Info says NoEdges index then, on
//     the cores the resolution leaves idle; the corpora's links
//     (core.Corpus.LinksLater) are added once the files are ranked, and
//     the other rankers index then. On a
//     tree of more than rankersAtOnce files, nothing starts early: the
//     maps are written first and then one ranker after another, so that
//     their indexes in the making are not all held at once, the heap's
//     free memory given back between steps (giveBack).
//  7. save: the symbols (unless written as parsed), then the manifest,
//     which is the run's commit point, then each document source's own
//     state.
//
// What would grow with the tree waits on disk rather than in memory: the
// symbols file, the resolvers' spills, the bodies' heads past
// headsInMemory (bodyHeads), a full run's imports and import edges from
// the references on (manifest.Spill) and its corpora's links
// (core.Corpus.SpillLinks), the references table and the manifest,
// written as they are encoded. A spill (spillFile) is made in the locked
// index folder and unlinked at once, so a crash leaves nothing behind.
//
// A ranker whose Info says Stateless (query.paths, notes.files,
// query.time rank from what the engine holds already) is given no corpus
// and leaves no fingerprint: adding one, or changing its settings, never
// makes an index outdated.
//
// A refresh of the notes alone (a hook's, after a note changed) is a
// notesRun: a delta of the notes that core/notesindex computes, given to
// every ranker at once, when each takes one (core.Info.Scoped); else an
// index run that takes the code's records as they stand, neither walking
// nor reading the code, and answers ErrIndexOutdated when a ranker must
// be rebuilt in full.
//
// # Document sources
//
// The run knows no kind of document. Its documents come from a list of
// docSources (docsource.go), each asked to read, to add its documents and
// edges to a corpus, and to save its state after the manifest, so that
// no state says the rankers hold what they were not given:
//
//   - the code (codeSource): a document per file and per module; its
//     state is the manifest;
//   - the notes (noteSource): a document per knowledge node and
//     conversation chunk (core/notes), with the links between those that
//     belong together (core/notesindex); their state is core/notesindex's.
//     A run whose stat of each note's file finds them as the state's
//     snapshot lists them reads none (notesindex.Index.Quick), unless it
//     goes on to give the rankers a corpus (a deferredReader);
//   - each source block (sourceRun, a core.Source): a document per item,
//     read again only when its stamp changed; a source that fails keeps
//     what it held, and one taken out of rubi.hcl stays in the list one
//     more run, to drop its documents and state. A run of the notes alone
//     does not call the sources.
//
// # Locking
//
// One run at a time writes the index: an engine's runs wait for each
// other, and runs of other processes for the lock file
// .rubi/index/.lock (core/store.LockDir), ctx bounding the wait. Queries
// take no lock: the manifest is replaced atomically, the symbols file of
// its generation is only appended to, and a query that finds its
// generation gone reads the new manifest and packs again.
//
// # What is kept where
//
// In .rubi/index/ (host.StateDir), derived and left out of git:
//
//   - manifest.bin and symbols-<generation>.jsonl: each file's record
//     and symbols (core/manifest documents both);
//   - notes.bin, notes.edits and notes.stamp: the notes' part of the
//     index (core/notesindex); nodes.bin, checks.bin and critical.json:
//     the nodes, their checks against the code and the critical ones, as
//     core/notes caches them;
//   - sources/<name>.json: each source's items, with their stamps;
//   - <stage>/: the folder of each stage that keeps state (rank.bm25,
//     rank.names, rank.ppr, a plugin's); a stateless stage has none;
//   - map.md.written: the record of the map.md an index wrote, which a
//     session start injects as rubi's own only while it is that file;
//   - .lock.
//
// Beside them, .rubi/map.md and .rubi/modules/<module>.md are the maps,
// rewritten only when their text changes, with the curated summaries of
// .rubi/summaries/ woven in. `rubi index --log-level debug` logs the
// milliseconds of each step, and IndexOptions.Progress is told the step a
// run is in (Phase, progress.go) and what it counts: the files found, the
// files indexed of those to index, the rankers through.
package pipeline
