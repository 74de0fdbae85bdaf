// Package notesindex is the notes' part of a project's index: which
// versions of the knowledge nodes and conversation chunks the rankers
// hold, the names found in each (which relate them: sessions, entities),
// and a snapshot of the notes as the last run read them. From it a change
// to the notes alone (a teammate's pull, an agent's note, an edit) becomes
// a delta scoped to the notes (core.Corpus.Scope), which costs what
// changed in the notes rather than what the project holds: a hook can
// afford it.
//
// It is not where notes come from. core/notes is the notes' source: it
// reads the nodes and chunks and makes each one a document. This package
// is what the index remembers of those documents, and it reads no node's
// or chunk's field but through core/notes. Opening the rankers and giving
// them a corpus is the pipeline's (core/pipeline), which asks this
// package what to give.
//
// The notes' part is three files under .rubi/index/, beside the code's
// (core/manifest), so that a run that changes only notes neither reads
// nor rewrites the code's records:
//
//   - notes.bin (StateFile), the state: each indexed note's and chunk's
//     document id with the stamp of its version and the names relate
//     found in it, then a snapshot of the notes as the run read them (the
//     code's manifest it was made against, the chunks' and node files
//     with their versions, each node's flags, time and edges, each
//     chunk's session, time and edges). It is the authority on which
//     notes the rankers hold. Its layout is in StateFile's comment.
//   - notes.edits (EditsFile), the edit log: the entries of the node
//     files edited in place since notes.bin was written, naming the size
//     and checksum of the notes.bin they apply to. An edit of a few notes
//     then writes a few hundred bytes instead of the whole state. Its
//     layout is in EditsFile's comment.
//   - notes.stamp (StampFile), the freshness stamp: a hash of the notes'
//     folders (identity, modification time, size) as the last run read
//     them, and when it was taken, in one line of text. A hook compares
//     it with the folders as they are, a stat of each.
//
// Write order: a run writes notes.bin or notes.edits beside its place
// while the rankers take the corpus, and puts it in place only once every
// one of them took it; a whole notes.bin in place makes notes.edits stale,
// and it is removed after. notes.stamp is written last, once the state is
// in place. None waits for the disk: a state lost in a power cut, or cut
// short, costs the next run sending every note again, and an older one
// sending again what changed since, which the rankers apply as they did.
//
// A reader that finds notes.bin missing, cut short, damaged (its CRC-32C
// trailer does not match) or of another version reads no state: the next
// run sends every note as changed, in a whole corpus, and the rankers drop
// what it does not list. notes.edits of another notes.bin, damaged, or
// whose edits do not fit the snapshot is ignored, which costs a resend of
// the notes it edited. A notes.stamp missing or unreadable reads as notes
// changed: a refresh nothing needed.
package notesindex

import (
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/notes"
)

// Index is the notes' part of one project's index.
type Index struct {
	// dir is the index's folder (.rubi/index/), where the state is.
	dir string
	// nodes and chunks are the project's notes as core/notes reads them.
	nodes  *notes.Nodes
	chunks *notes.Chunks
	// settings are the project's index settings, read at each run: how
	// notes are related (link_sessions, link_entities) and how chunks are
	// read (session_context).
	settings *config.Index
	logger   hclog.Logger
	// oneShot is Options.OneShot.
	oneShot bool
}

// Options are what an Index is made of.
type Options struct {
	// Dir is the index's folder (.rubi/index/).
	Dir string
	// Nodes and Chunks are the project's notes as core/notes reads them.
	Nodes  *notes.Nodes
	Chunks *notes.Chunks
	// Settings are the project's index settings, read at each run.
	Settings *config.Index
	Logger   hclog.Logger
	// OneShot says the process answers once and exits (a hook): the state
	// is mapped and never unmapped rather than copied (store.MapWhole).
	OneShot bool
}

// New returns the notes' part of the index o describes.
func New(o Options) *Index {
	if o.Logger == nil {
		o.Logger = hclog.NewNullLogger()
	}
	return &Index{dir: o.Dir, nodes: o.Nodes, chunks: o.Chunks, settings: o.Settings, logger: o.Logger, oneShot: o.OneShot}
}

// stopwatch logs, at debug level, the time each phase of an operation
// took since the previous call, as the pipeline's runs do: `rubi index
// --log-level debug` shows where a delta spends its time.
func (x *Index) stopwatch(op string) func(phase string) {
	last := time.Now()
	return func(phase string) {
		now := time.Now()
		x.logger.Debug(op, "phase", phase, "ms", float64(now.Sub(last).Microseconds())/1000)
		last = now
	}
}
