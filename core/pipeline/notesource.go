package pipeline

import (
	"context"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/notesindex"
)

// noteSource is the notes as a docSource: the knowledge nodes and the
// conversation memory's chunks, which core/notes reads and whose part of
// the index (each note's version, the names that relate notes, a snapshot
// of them) core/notesindex keeps, so that a hook's refresh after an edit
// takes the edited notes alone (notesRun.delta) instead of a run.
type noteSource struct {
	reading *notesindex.Reading
}

func (*noteSource) name() string { return "notes" }

// read makes the documents of the knowledge nodes and of the
// conversation memory's chunks, and lists those that changed or went
// since the notes' state. When a stat of each note's file finds them as
// the state lists them (notesindex.Index.Quick) and the node cache is
// this rubi's, none is read: a run that keeps the rankers as they stand
// needs no document, and one that gives them a corpus reads the notes
// then (readInFull).
func (n *noteSource) read(_ context.Context, r *indexRun) error {
	// A node cache of an older rubi is written again by a run that reads
	// the notes: the recall reads the notes through it.
	if !r.opts.Full && r.e.nodes.CacheCurrent() {
		if rd := r.e.notes.Quick(); rd != nil {
			n.reading = rd
			r.stats.Nodes = rd.Len()
			r.lap("knowledge nodes (unchanged)")
			return nil
		}
	}
	rd, err := r.e.notes.Read(r.next, r.opts.Full)
	if err != nil {
		return err
	}
	n.took(r, rd)
	return nil
}

// took makes rd, every note read, the run's reading: its warnings, count
// and changes join the run's.
func (n *noteSource) took(r *indexRun, rd *notesindex.Reading) {
	n.reading = rd
	r.stats.Warnings = append(r.stats.Warnings, rd.Warnings...)
	r.lap("knowledge nodes")
	r.stats.Nodes = rd.Len()
	r.changedIDs = append(r.changedIDs, rd.Changed...)
	r.removedIDs = append(r.removedIDs, rd.Removed...)
}

// readInFull reads the notes a quick read left unread, for a run that
// gives the rankers a corpus; what changed since the quick read joins the
// run's changes.
func (n *noteSource) readInFull(r *indexRun) error {
	if !n.reading.Unread() {
		return nil
	}
	rd, err := n.reading.ReadInFull(r.next)
	if err != nil {
		return err
	}
	n.took(r, rd)
	return nil
}

// documents adds the notes' and chunks' documents, their edges to the
// files the index shows, and the links between notes that belong
// together.
func (n *noteSource) documents(r *indexRun, _ bool, c *core.Corpus) error {
	c.Documents = append(c.Documents, n.reading.Docs...)
	c.Edges = append(append(c.Edges, r.e.roles.visible(r.next, n.reading.Edges)...), n.reading.Related()...)
	return nil
}

// save writes the notes' state and stamp, after the manifest whose stamp
// the state's snapshot records.
func (n *noteSource) save(r *indexRun, kept bool) error {
	return n.reading.Save(kept, r.e.folder.fileStamp())
}
