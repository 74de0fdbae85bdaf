package pipeline

import (
	"context"
	"sync"
	"time"

	"github.com/rubi-dev/rubi/core"
)

// noteSource is the notes as a docSource: the knowledge nodes and the
// conversation memory's chunks, which core/notes reads. Its state (the
// notes' state, notestate.go) holds each note's stamp and the mentions
// that relate notes, so that a hook's refresh after an edit takes the
// edited notes alone (notesdelta.go) instead of a run.
type noteSource struct {
	// stamp and stampedAt are the notes' folders' stamp, taken before
	// they are read.
	stamp     string
	stampedAt time.Time
	// docs and edges are the nodes' and chunks' documents and edges.
	docs  []core.Document
	edges []core.Edge
	// prev is the notes' state the last run left (nil when missing or for
	// a full run), next this run's.
	prev, next *notesState
	// snapshot fills next's snapshot, for a state that is written.
	snapshot func()
	// related links the notes and chunks that belong together; made once,
	// when a corpus is.
	related func() []core.Edge
}

func (*noteSource) name() string { return "notes" }

// read makes the documents of the knowledge nodes (a malformed one is
// reported and skipped) and of the conversation memory's chunks, and lists
// those that changed or went since the notes' state. The stamp of their
// folders is taken before they are read: a note that changes while they
// are read changes the stamp again, and the next check indexes it.
func (n *noteSource) read(_ context.Context, r *indexRun) error {
	e := r.e
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
	n.docs, n.edges = append(nodeDocs, chunkDocs...), append(nodeEdges, chunkEdges...)
	for id, stamp := range chunkStamps {
		stamps[id] = stamp
	}
	// The notes' state says which versions the rankers hold; without it
	// (a first run, a damaged file) every note is sent again, in a whole
	// corpus that drops whatever it does not hold.
	n.prev = loadNotesState(e.indexDir(), e.oneShot)
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
	r.stats.Nodes = len(n.docs)
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

// documents adds the notes' and chunks' documents, their edges to the
// files the index shows, and the links between notes that belong
// together.
func (n *noteSource) documents(r *indexRun, _ bool, c *core.Corpus) error {
	c.Documents = append(c.Documents, n.docs...)
	c.Edges = append(append(c.Edges, r.e.visibleEdges(r.next, n.edges)...), n.related()...)
	return nil
}

// save writes the notes' state and stamp. A run that kept everything as
// it stood writes a state only when it had none, so that the next need
// not send every note again.
func (n *noteSource) save(r *indexRun, kept bool) error {
	if !kept || n.prev == nil {
		n.snapshot()
		if err := r.e.saveNotesState(n.prev, n.next); err != nil {
			return err
		}
	}
	r.e.saveNotesStamp(n.stamp, n.stampedAt)
	return nil
}
