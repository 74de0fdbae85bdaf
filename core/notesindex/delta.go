package notesindex

import (
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/notes"
)

// A delta brings a change to the notes alone into the index: each ranker
// is given a corpus scoped to the notes (core.Corpus.Scope) holding only
// the documents that changed, those removed, and every edge from a note
// (links between notes follow the whole set: relate reads only the texts
// that changed, the others' names are in the state). What it costs grows
// with the notes, not with the project.
//
// The common change is an edit: a teammate's pull that rewrites a few
// notes, an agent or a user fixing one. The delta then need not read the
// thousands of notes that did not change: the snapshot in the state holds
// what their documents contribute (edges, links, names, times), and the
// notes' files, listed with a stat each, tell which changed. Edited is
// that path; any other change (a note added, removed or renamed, a note
// that now holds another id, a chunk) goes through All, which reads every
// note.

// maxEdited is the most edited notes Edited reads one by one; a pull that
// rewrites more reads them all, through the node cache.
const maxEdited = 64

// Code is the code's part of the index as a delta meets it: the manifest
// whose files the notes' edges may point to (read as a query reads it,
// neither decoded whole nor written), the stamp of its file (which the
// snapshot records: a later delta against another manifest reads every
// note), and the filter that leaves out the edges touching files the
// index hides.
type Code struct {
	Manifest *manifest.Manifest
	Stamp    string
	Visible  func([]core.Edge) []core.Edge
}

// Delta is one notes' delta under way: the scan of the notes' files
// running in the background, and the state the last run left.
type Delta struct {
	x    *Index
	scan func() scan
	prev *State
}

// scan is the notes' files as a delta found them: the node files and the
// chunks' (chunksOK false when the chunks' folder could not be listed).
type scan struct {
	nodes    []notes.FileVersion
	nodesErr error
	chunks   []snapFile
	chunksOK bool
}

// StartDelta begins a delta: it lists the notes' files with their
// versions in the background, a stat per file, most of what finding an
// edited note costs, done while the caller reads the state and opens the
// rankers. Started after the notes' stamp is taken (TakeStamp), it sees
// every change the stamp missed.
func (x *Index) StartDelta() *Delta {
	done := make(chan scan, 1)
	go func() {
		var s scan
		s.chunks, s.chunksOK = x.scanChunks()
		s.nodes, s.nodesErr = x.nodes.Scan()
		done <- s
	}()
	return &Delta{x: x, scan: sync.OnceValue(func() scan { return <-done })}
}

// Load reads the state the last run left and reports whether there is
// one: without it (a first run, a damaged file) there is no delta to
// make, and every note is sent in a whole corpus.
func (d *Delta) Load() bool {
	d.prev = d.x.Load()
	return d.prev != nil
}

// Change is what a delta gives the rankers, and the state that says they
// hold it.
type Change struct {
	// Corpus is scoped to the notes; nil when no document changed or
	// went, and the rankers hold the notes as they are (only the state is
	// saved).
	Corpus *core.Corpus
	// Nodes counts the knowledge nodes read, when every note was read
	// (0 when only the edited ones were); Warnings name the files of the
	// notes' folders that could not be read as notes.
	Nodes    int
	Warnings []string
	// Edited says the delta read only the edited notes' files.
	Edited bool

	x          *Index
	prev, next *State
	manifest   string
}

// Stage writes the state that says the rankers hold the change beside
// its file, for the caller to put in place once every ranker took the
// corpus (Staged.Commit), or to drop when one did not (Staged.Abort);
// nil when the state stays as it is.
func (c *Change) Stage() (*Staged, error) { return c.x.stage(c.prev, c.next, c.manifest) }

// Save writes the state of a change whose corpus the rankers need not
// take (Corpus nil).
func (c *Change) Save() error { return c.x.save(c.prev, c.next, c.manifest) }

// Edited brings in the notes edited since the snapshot, reading only
// their files, when that is all that changed: the same node files (a
// stat of each), the chunks' folder and the code's manifest as the
// snapshot saw them, each changed file still a node of the same id, and
// no more than maxEdited of them. It returns nil when it does not apply:
// nothing was written, and the caller reads every note (All).
func (d *Delta) Edited(code Code) (*Change, error) {
	x, prev := d.x, d.prev
	lap := x.stopwatch("edited notes")
	f := d.findEdited(code, lap)
	if f == nil {
		return nil, nil
	}
	lap("read")
	// The next state: the snapshot with the edited files' versions, and
	// the edited nodes' stamps, flags and edges.
	sn := prev.snap
	next := &State{stamps: maps.Clone(prev.stamps), mentions: map[string][]mention{}}
	snap := *sn
	snap.files = slices.Clone(sn.files)
	snap.nodes = slices.Clone(sn.nodes)
	next.snap = &snap
	for _, i := range f.changed {
		snap.files[i].version = f.scan[i].Version
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
	for _, doc := range slices.Sorted(maps.Keys(f.edited)) {
		n := f.edited[doc]
		own := nodeEdges(code.Manifest, n, active)
		sortEdges(own)
		old, now := snap.nodes[f.at[doc]], snapNodeOf(n, own)
		stamp := n.Stamp
		if stamp == prev.stamps[doc] && now.created == old.created {
			continue // touched, not changed (the stamp covers the rest)
		}
		snap.nodes[f.at[doc]] = now
		next.stamps[doc] = stamp
		corpus.Documents = append(corpus.Documents, n.Document())
		corpus.Changed = append(corpus.Changed, doc)
		criticalChanged = criticalChanged || old.critical || now.critical
		if textsOnly = textsOnly && sameGraph(old, now); textsOnly && now.active && x.settings.LinkEntities > 1 {
			had, ok := prev.mentions[doc]
			names := mentionsOf(item{id: doc, note: n})
			textsOnly = ok && slices.Equal(had, names)
			next.mentions[doc] = names
		}
	}
	// The state changes in the edited files' entries alone (their
	// versions, stamps, names and nodes): it is saved as edits of the
	// state file (EditsFile), not written whole.
	next.editsOnly = true
	for _, i := range f.changed {
		next.editedFiles = append(next.editedFiles, [2]int{i, f.at[sn.files[i].doc]})
	}
	ch := &Change{Edited: true, x: x, prev: prev, next: next, manifest: code.Stamp}
	if len(corpus.Documents) == 0 {
		return ch, nil
	}
	if textsOnly {
		lap("documents")
		corpus.TextsOnly = true
	} else {
		edges, ok := d.relateAgain(code, next, f.edited, lap)
		if !ok {
			return nil, nil
		}
		corpus.Edges = edges
	}
	if criticalChanged {
		if err := x.nodes.RewriteCritical(f.edited); err != nil {
			return nil, err
		}
	}
	ch.Corpus = corpus
	return ch, nil
}

// edited is what a delta found of the notes' files: each node file with
// its version (scan), the places among them of those edited in place of
// themselves (changed), and those notes read again (edited, by document;
// at, each document's place among the snapshot's nodes).
type edited struct {
	scan    []notes.FileVersion
	changed []int
	at      map[string]int
	edited  map[string]*notes.Note
}

// findEdited compares the notes' files with the snapshot and reads those
// edited in place of themselves; nil when something else changed, or
// when the snapshot lacks what relating them again needs.
func (d *Delta) findEdited(code Code, lap func(string)) *edited {
	x, prev := d.x, d.prev
	sn := prev.snap
	if sn == nil || sn.manifest != code.Stamp {
		return nil
	}
	files := d.scan()
	lap("scan")
	if !files.chunksOK || !slices.Equal(files.chunks, sn.chunkFiles) {
		return nil // a chunk written, changed or gone: read them all
	}
	scan := files.nodes
	if files.nodesErr != nil || len(scan) != len(sn.files) {
		return nil
	}
	var changed []int
	for i, f := range scan {
		old := sn.files[i]
		if f.Path != old.path {
			return nil // a node file added, removed or renamed
		}
		if f.Version != old.version {
			if old.doc == "" || f.Version == "" {
				return nil // a file that gave no node, or cannot be statted
			}
			changed = append(changed, i)
		}
	}
	if len(changed) > maxEdited {
		return nil
	}
	lap("compared")
	at := make(map[string]int, len(sn.nodes)) // document → its node in sn.nodes
	for i, n := range sn.nodes {
		at[n.doc] = i
	}
	read := map[string]*notes.Note{}
	for _, i := range changed {
		n, ok := x.nodes.File(scan[i].Path)
		if !ok || n.ID != sn.files[i].doc {
			return nil // unreadable now, or another id: the full read says why
		}
		if _, ok := at[sn.files[i].doc]; !ok {
			return nil
		}
		read[sn.files[i].doc] = n
	}
	for _, c := range sn.chunks {
		if _, ok := prev.mentions[c.doc]; !ok && x.settings.LinkEntities > 1 {
			return nil // a chunk's names were never read: only its text has them
		}
	}
	return &edited{scan: scan, changed: changed, at: at, edited: read}
}

// relateAgain relates every note and chunk of next's snapshot again, from
// the names the state keeps and those of the edited notes, and returns
// every edge from a note, as nodeDocs and chunkDocs order them, with the
// links relate adds; false when a note's names were never read, which
// only its file has.
func (d *Delta) relateAgain(code Code, next *State, edited map[string]*notes.Note, lap func(string)) ([]core.Edge, bool) {
	x, prev, snap := d.x, d.prev, next.snap
	var items []item
	var edges []core.Edge
	for _, n := range snap.nodes {
		edges = append(edges, n.edges...)
		if !n.active {
			continue
		}
		it := item{id: n.doc, at: time.Unix(0, n.created), stamp: next.stamps[n.doc], note: edited[n.doc]}
		if _, ok := prev.mentions[n.doc]; !ok && it.note == nil && x.settings.LinkEntities > 1 {
			return nil, false // its names were never read: only its file has them
		}
		items = append(items, it)
	}
	sortEdges(edges)
	for _, c := range snap.chunks {
		edges = append(edges, c.edges...)
		items = append(items, item{id: c.doc, session: c.session, at: time.Unix(0, c.created), stamp: next.stamps[c.doc]})
	}
	lap("documents and edges")
	next.withMentions(prev, items)
	edges = append(code.Visible(edges), relatedEdges(items, x.settings.LinkSessions, x.settings.LinkEntities)...)
	lap("related")
	return edges, true
}

// sameGraph says whether a note's edit keeps what its document gives the
// graph and relate besides its names: its edges, its time, and whether it
// is active.
func sameGraph(old, now snapNode) bool {
	return old.active == now.active && old.created == now.created && slices.Equal(old.edges, now.edges)
}

// All reads every note and chunk, and gives the rankers those whose
// versions the state does not list, with every edge from a note; the
// documents the state lists that are gone are removed.
func (d *Delta) All(code Code) (*Change, error) {
	x, prev := d.x, d.prev
	lap := x.stopwatch("notes delta")
	changed := func(id, stamp string) bool { return prev.stamps[id] != stamp }
	r, err := x.readAll(code.Manifest, deltaParses, changed, lap)
	if err != nil {
		return nil, err
	}
	ch := &Change{Nodes: r.nodeCount, Warnings: r.warnings, x: x, prev: prev, next: newState(), manifest: code.Stamp}
	corpus := &core.Corpus{Scope: core.NotesScope}
	for _, doc := range append(r.nodeDocs, r.chunkDocs...) {
		if prev.stamps[doc.ID] != r.stamps[doc.ID] {
			corpus.Documents = append(corpus.Documents, doc)
			corpus.Changed = append(corpus.Changed, doc.ID)
		}
	}
	for id := range prev.stamps {
		if _, ok := r.stamps[id]; !ok {
			corpus.Removed = append(corpus.Removed, id)
		}
	}
	slices.Sort(corpus.Removed)
	ch.next.stamps = r.stamps
	ch.next.snap = x.snapshotOf(r)
	if len(corpus.Documents) == 0 && len(corpus.Removed) == 0 {
		return ch, nil
	}
	items := r.items()
	ch.next.withMentions(prev, items)
	lap("names")
	corpus.Edges = append(code.Visible(append(r.nodeEdges, r.chunkEdges...)), relatedEdges(items, x.settings.LinkSessions, x.settings.LinkEntities)...)
	lap("delta")
	ch.Corpus = corpus
	return ch, nil
}
