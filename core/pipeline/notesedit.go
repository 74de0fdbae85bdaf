package pipeline

import (
	"context"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/notes"
)

// The common change to the notes is an edit: a teammate's pull that
// rewrites a few notes, an agent or a user fixing one. The notes' delta
// then need not read the thousands of notes that did not change: the
// snapshot in the notes' state (notesSnap) holds what their documents
// contribute (edges, links, names, times), and the notes' files, listed
// with a stat each, tell which changed. notesEdited is that path; any
// other change (a note added, removed or renamed, a note that now holds
// another id, a chunk) goes through the delta that reads every note.

// maxEdited is the most edited notes notesEdited reads one by one; a pull
// that rewrites more reads them all, through the node cache.
const maxEdited = 64

// scanChunks lists the chunks' files with their versions (nil and false
// when the folder cannot be listed). Taken before the chunks are read, a
// chunk written meanwhile is new to the next comparison, and read then.
func (e *Engine) scanChunks() ([]snapFile, bool) {
	vs, ok := e.chunks.Scan()
	if !ok {
		return nil, false
	}
	out := make([]snapFile, len(vs))
	for i, v := range vs {
		out[i] = snapFile{path: v.Path, version: v.Version}
	}
	return out, true
}

// notesScan is the notes' files as a delta found them: the node files and
// the chunks' (ok false when the chunks' folder could not be listed).
type notesScan struct {
	nodes    []notes.FileVersion
	nodesErr error
	chunks   []snapFile
	chunksOK bool
}

// startScan lists the notes' files with their versions in the background
// and returns the wait for them: a stat per file, most of what finding an
// edited note costs, done while the state is read. Started after the
// notes' stamp is taken, it sees every change the stamp missed.
func (e *Engine) startScan() func() notesScan {
	done := make(chan notesScan, 1)
	go func() {
		var s notesScan
		s.chunks, s.chunksOK = e.scanChunks()
		s.nodes, s.nodesErr = e.nodes.Scan()
		done <- s
	}()
	return sync.OnceValue(func() notesScan { return <-done })
}

// snapshot records the notes as a run read them: the node files with
// their versions (as the knowledge store read them) and documents, each
// node's own edges (nodeEdges, sorted as nodeDocs sorts them) and what
// relate reads of it, and the chunks with theirs (chunkFiles, listed
// before they were read; nil when they could not be, and no snapshot is
// made). The manifest it was made against is stamped when the state is
// saved.
func (e *Engine) snapshot(chunkFiles []snapFile, nodes []*notes.Note, nodeEdges []core.Edge, chunkItems []memItem, chunkEdges []core.Edge) *notesSnap {
	if chunkFiles == nil {
		return nil
	}
	sn := &notesSnap{chunkFiles: chunkFiles}
	docOf := make(map[string]string, len(nodes))
	for _, n := range nodes {
		docOf[n.Path] = n.ID
	}
	for _, v := range e.nodes.Versions() {
		sn.files = append(sn.files, snapFile{path: v.Path, version: v.Version, doc: docOf[v.Path]})
	}
	edgesFrom := groupEdges(nodeEdges)
	sn.nodes = make([]snapNode, 0, len(nodes))
	for _, n := range nodes {
		sn.nodes = append(sn.nodes, snapNodeOf(n, edgesFrom[n.ID]))
	}
	chunkFrom := groupEdges(chunkEdges)
	for _, it := range chunkItems {
		sn.chunks = append(sn.chunks, snapChunk{doc: it.id, session: it.session, created: it.at.UnixNano(), edges: chunkFrom[it.id]})
	}
	return sn
}

func snapNodeOf(n *notes.Note, edges []core.Edge) snapNode {
	return snapNode{doc: n.ID, id: n.Key, active: n.Active, critical: n.Critical, created: n.Created.UnixNano(), edges: edges}
}

// groupEdges groups edges by the document they are from, keeping their
// order.
func groupEdges(edges []core.Edge) map[string][]core.Edge {
	out := map[string][]core.Edge{}
	for _, ed := range edges {
		out[ed.From] = append(out[ed.From], ed)
	}
	return out
}

// notesEdited brings in the notes edited since the snapshot, reading only
// their files, when that is all that changed: the same node files (a stat
// of each), the chunks' folder and the code's manifest as the snapshot
// saw them, each changed file still a node of the same id, and no more
// than maxEdited of them. It reports whether it applied; when it did
// not, nothing was written and the caller reads every note.
func (e *Engine) notesEdited(ctx context.Context, m *manifest.Manifest, prev *notesState, found func() notesScan, rankers []core.Ranker, names []string, stats *IndexStats) (bool, error) {
	sn := prev.snap
	if sn == nil || sn.manifest != e.manifestStamp() {
		return false, nil
	}
	lap := e.stopwatch("edited notes")
	files := found()
	lap("scan")
	if !files.chunksOK || !slices.Equal(files.chunks, sn.chunkFiles) {
		return false, nil // a chunk written, changed or gone: read them all
	}
	scan := files.nodes
	if files.nodesErr != nil || len(scan) != len(sn.files) {
		return false, nil
	}
	var changed []int
	for i, f := range scan {
		old := sn.files[i]
		if f.Path != old.path {
			return false, nil // a node file added, removed or renamed
		}
		if f.Version != old.version {
			if old.doc == "" || f.Version == "" {
				return false, nil // a file that gave no node, or cannot be statted
			}
			changed = append(changed, i)
		}
	}
	if len(changed) > maxEdited {
		return false, nil
	}
	lap("compared")
	at := make(map[string]int, len(sn.nodes)) // document → its node in sn.nodes
	for i, n := range sn.nodes {
		at[n.doc] = i
	}
	edited := map[string]*notes.Note{}
	for _, i := range changed {
		n, ok := e.nodes.File(scan[i].Path)
		if !ok || n.ID != sn.files[i].doc {
			return false, nil // unreadable now, or another id: the full read says why
		}
		if _, ok := at[sn.files[i].doc]; !ok {
			return false, nil
		}
		edited[sn.files[i].doc] = n
	}
	for _, c := range sn.chunks {
		if _, ok := prev.mentions[c.doc]; !ok && e.cfg.Index.LinkEntities > 1 {
			return false, nil // a chunk's names were never read: only its text has them
		}
	}

	lap("read")
	// The next state: the snapshot with the edited files' versions, and
	// the edited nodes' stamps, flags and edges.
	next := &notesState{stamps: maps.Clone(prev.stamps), mentions: map[string][]mention{}}
	snap := *sn
	snap.files = slices.Clone(sn.files)
	snap.nodes = slices.Clone(sn.nodes)
	next.snap = &snap
	for _, i := range changed {
		snap.files[i].version = scan[i].Version
	}
	active := make(map[string]string, len(sn.nodes)) // node id → document, as nodeDocs maps them
	for _, n := range sn.nodes {
		active[n.id] = n.doc
	}
	corpus := &core.Corpus{Scope: core.NotesScope}
	criticalChanged := false
	// textsOnly stays set while every edit keeps what relate and the graph
	// read of its note: its edges, its time, whether it is active, and the
	// names it holds. Then no edge of any note changes, and the rankers
	// are sent the texts alone (core.Corpus.TextsOnly).
	textsOnly := true
	for _, doc := range slices.Sorted(maps.Keys(edited)) {
		n := edited[doc]
		own := nodeEdges(m, n, active)
		sortEdges(own)
		old, now := snap.nodes[at[doc]], snapNodeOf(n, own)
		stamp := n.Stamp
		if stamp == prev.stamps[doc] && now.created == old.created {
			continue // touched, not changed (the stamp covers the rest)
		}
		snap.nodes[at[doc]] = now
		next.stamps[doc] = stamp
		corpus.Documents = append(corpus.Documents, n.Document())
		corpus.Changed = append(corpus.Changed, doc)
		criticalChanged = criticalChanged || old.critical || now.critical
		if textsOnly = textsOnly && sameGraph(old, now); textsOnly && now.active && e.cfg.Index.LinkEntities > 1 {
			had, ok := prev.mentions[doc]
			names := mentionsOf(memItem{id: doc, note: n})
			textsOnly = ok && slices.Equal(had, names)
			next.mentions[doc] = names
		}
	}
	// The state changes in the edited files' entries alone (their
	// versions, stamps, names and nodes): it is saved as edits of the
	// state file (notesEditsFile), not written whole.
	next.editsOnly = true
	for _, i := range changed {
		next.editedFiles = append(next.editedFiles, [2]int{i, at[sn.files[i].doc]})
	}
	if len(corpus.Documents) == 0 {
		for _, name := range names {
			stats.Rankers[name] = "up to date"
		}
		return true, e.saveNotesState(prev, next)
	}
	if textsOnly {
		lap("documents")
		corpus.TextsOnly = true
		return true, e.finishEdited(ctx, prev, next, edited, criticalChanged, rankers, names, corpus, stats, lap)
	}
	// Relate every note and chunk again, from the names the state keeps
	// and those of the edited notes; and every edge from a note, as
	// nodeDocs and chunkDocs order them.
	var items []memItem
	var edges []core.Edge
	for _, n := range snap.nodes {
		edges = append(edges, n.edges...)
		if !n.active {
			continue
		}
		it := memItem{id: n.doc, at: time.Unix(0, n.created), stamp: next.stamps[n.doc], note: edited[n.doc]}
		if _, ok := prev.mentions[n.doc]; !ok && it.note == nil && e.cfg.Index.LinkEntities > 1 {
			return false, nil // its names were never read: only its file has them
		}
		items = append(items, it)
	}
	sortEdges(edges)
	for _, c := range snap.chunks {
		edges = append(edges, c.edges...)
		items = append(items, memItem{id: c.doc, session: c.session, at: time.Unix(0, c.created), stamp: next.stamps[c.doc]})
	}
	lap("documents and edges")
	next.withMentions(prev, items)
	corpus.Edges = append(e.visibleEdges(m, edges), relatedEdges(items, e.cfg.Index.LinkSessions, e.cfg.Index.LinkEntities)...)
	lap("related")
	return true, e.finishEdited(ctx, prev, next, edited, criticalChanged, rankers, names, corpus, stats, lap)
}

// sameGraph says whether a note's edit keeps what its document gives the
// graph and relate besides its names: its edges, its time, and whether it
// is active.
func sameGraph(old, now snapNode) bool {
	return old.active == now.active && old.created == now.created && slices.Equal(old.edges, now.edges)
}

// finishEdited ends notesEdited: the critical notes rewritten if one of
// them changed, the corpus given to the rankers and the state saved.
func (e *Engine) finishEdited(ctx context.Context, prev, next *notesState, edited map[string]*notes.Note, criticalChanged bool, rankers []core.Ranker, names []string, corpus *core.Corpus, stats *IndexStats, lap func(string)) error {
	if criticalChanged {
		if err := e.nodes.RewriteCritical(edited); err != nil {
			return err
		}
	}
	if err := e.indexScoped(ctx, rankers, names, corpus, stats, prev, next); err != nil {
		return err
	}
	lap("rankers and state")
	e.editedDeltas.Add(1)
	if corpus.TextsOnly {
		e.textDeltas.Add(1)
	}
	return nil
}
