package notesindex

import (
	"errors"
	"slices"
	"sync"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/manifest"
)

// Reading is every note as an index run read them, against the state the
// last run left: what the run gives the rankers of the notes, and the
// state it saves once they hold it.
type Reading struct {
	// Docs are the nodes' and chunks' documents; Edges their own edges
	// (to the files the index holds and to the notes they link), before
	// the caller leaves out those to hidden files.
	Docs  []core.Document
	Edges []core.Edge
	// Changed are the documents whose versions the state does not list
	// (every one when there is no state, or the run is full); Removed,
	// those it lists that are gone.
	Changed, Removed []string
	// Warnings name the files of the notes' folders that could not be
	// read as notes.
	Warnings []string

	x          *Index
	stamp      Stamp
	read       *notesRead
	prev, next *State
	related    func() []core.Edge
	// unread marks a reading that found the notes as the state lists
	// them without reading one (Quick).
	unread bool
}

// Quick is the reading of notes that are as the state lists them, found
// without reading one: the state's snapshot lists the same node files and
// chunk files, with the same versions, as a stat of each gives now, and
// every one of those files gave a note. Nothing changed or went, and no
// document is read (Unread): a run that gives the rankers a corpus reads
// them (Read). nil when it cannot tell, and the notes are read.
//
// The common refresh (a session start, rubi context, rubi index with
// nothing changed) pays a stat per note instead of reading and parsing
// each: with 2,000 chunks, most of its cost. A note edited in place
// changes its file's modification time, and with it its version.
func (x *Index) Quick() *Reading {
	stamp := x.TakeStamp()
	prev := x.Load()
	if prev == nil || prev.snap == nil {
		return nil
	}
	sn := prev.snap
	chunks, ok := x.scanChunks()
	if !ok || len(sn.chunks) != len(sn.chunkFiles) || !slices.Equal(chunks, sn.chunkFiles) {
		return nil // a chunk written, changed or gone, or a file that gave none
	}
	nodes, err := x.nodes.Scan()
	if err != nil || len(nodes) != len(sn.files) {
		return nil
	}
	for i, f := range nodes {
		old := sn.files[i]
		if f.Path != old.path || f.Version != old.version || f.Version == "" || old.doc == "" {
			return nil // changed, or a file that gave no note: read to say why
		}
	}
	return &Reading{x: x, stamp: stamp, prev: prev, unread: true}
}

// Unread reports a reading that read no note (Quick): it has no
// documents, edges or warnings, and nothing changed.
func (rd *Reading) Unread() bool { return rd.unread }

// Len is how many notes and chunks the reading found: as the state
// lists them when it read none.
func (rd *Reading) Len() int {
	if rd.unread {
		return rd.prev.Len()
	}
	return len(rd.Docs)
}

// Read reads every note for an index run whose code's manifest is m:
// the knowledge nodes (a malformed one is reported and skipped) and the
// conversation memory's chunks, and lists those that changed or went
// since the state (all of them for a full run, which reads no state). The
// stamp of the notes' folders is taken before they are read: a note that
// changes while they are read changes the stamp again, and the next check
// indexes it.
func (x *Index) Read(m *manifest.Manifest, full bool) (*Reading, error) {
	var prev *State
	if !full {
		prev = x.Load()
	}
	return x.read(m, prev)
}

// ReadInFull reads every note, as Read does, for a run that a quick
// reading (Quick) left with none read: against the state that reading
// loaded, which the run's lock on the index has kept as it was.
func (rd *Reading) ReadInFull(m *manifest.Manifest) (*Reading, error) {
	return rd.x.read(m, rd.prev)
}

// read reads every note against prev, the state (nil: none, or a full
// run).
func (x *Index) read(m *manifest.Manifest, prev *State) (*Reading, error) {
	rd := &Reading{x: x, stamp: x.TakeStamp(), prev: prev}
	r, err := x.readAll(m, 1, nil, func(string) {})
	if err != nil {
		return nil, err
	}
	rd.read, rd.Warnings = r, r.warnings
	rd.Docs, rd.Edges = append(r.nodeDocs, r.chunkDocs...), append(r.nodeEdges, r.chunkEdges...)
	// The state says which versions the rankers hold; without it (a first
	// run, a damaged file, a full run) every note is sent again, in a
	// whole corpus that drops whatever it does not hold.
	rd.next = newState()
	rd.next.stamps = r.stamps
	// Notes and chunks that belong together are linked when the rankers
	// get a corpus: a run that changed nothing reads no note's text.
	rd.related = sync.OnceValue(func() []core.Edge {
		items := r.items()
		rd.next.withMentions(rd.prev, items)
		return relatedEdges(items, x.settings.LinkSessions, x.settings.LinkEntities)
	})
	var prevStamps map[string]string
	if rd.prev != nil {
		prevStamps = rd.prev.stamps
	}
	for id, stamp := range r.stamps {
		if prevStamps[id] != stamp {
			rd.Changed = append(rd.Changed, id)
		}
	}
	for id := range prevStamps {
		if _, ok := r.stamps[id]; !ok {
			rd.Removed = append(rd.Removed, id)
		}
	}
	return rd, nil
}

// Related links the notes and chunks that belong together (the same
// session, the same rare entity), read once.
func (rd *Reading) Related() []core.Edge { return rd.related() }

// Save writes the state and the stamp of the notes as read, once the
// rankers hold them; manifest is the stamp of the code's manifest the run
// wrote (Code.Stamp). A run that kept everything as it stood writes a
// state only when it had none, so that the next need not send every note
// again, or when the notes' files moved under the same notes (touched,
// copied back, a checkout that rewrote them as they were) or the code's
// manifest was written again: its snapshot, which the next quick read
// (Quick) and a hook's delta compare with, is brought up to date, with
// the rankers' versions and names as they were. The common refresh,
// which changed nothing, writes none.
func (rd *Reading) Save(kept bool, manifest string) error {
	if rd.unread {
		if !kept {
			return errors.New("the notes' state cannot be saved from a reading that read no note: the rankers were given a corpus without them")
		}
		rd.x.SaveStamp(rd.stamp)
		return nil
	}
	switch {
	case !kept || rd.prev == nil:
		rd.next.snap = rd.x.snapshotOf(rd.read)
		if err := rd.x.save(rd.prev, rd.next, manifest); err != nil {
			return err
		}
	case rd.prev.snap != nil:
		if sn := rd.x.snapshotOf(rd.read); sn != nil && snapshotMoved(rd.prev.snap, sn, manifest) {
			next := &State{stamps: rd.prev.stamps, mentions: rd.prev.mentions, snap: sn}
			if err := rd.x.save(rd.prev, next, manifest); err != nil {
				return err
			}
		}
	}
	rd.x.SaveStamp(rd.stamp)
	return nil
}

// snapshotMoved reports whether the notes' files as a run read them are
// not those of the snapshot, or the code's manifest is another: the same
// notes, but a snapshot the next comparison would not match.
func snapshotMoved(old, now *snapshot, manifest string) bool {
	return old.manifest != manifest || !slices.Equal(old.chunkFiles, now.chunkFiles) || !slices.Equal(old.files, now.files)
}
