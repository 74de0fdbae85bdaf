// Package notes is the source of the index's notes: the knowledge nodes
// (core/knowledge, project and personal) and the conversation memory's
// chunks (core/memory), each made into a document with its stamp, what it
// is about and what it links to, and shown in a result as an agent reads
// it. The index sees them as Notes and nothing more: its notes' part
// (core/notesindex) relates them, keeps their state and computes their
// deltas, the pipeline shows them, and neither reads a node's or a
// chunk's fields itself.
//
// A node's document is made on demand (Note.Document), so a delta makes
// only the changed ones; its stamp hashes its title, names, text and
// links, so an edit that leaves its updated date alone is still indexed.
// A note's names carry the files it is about, so a question naming a
// file finds its notes. A chunk's document has the summary for title,
// the tags, ticket and entities for names, the first 32 KiB of its text
// for body, and an edge to each project file it names; with
// index.session_context it also carries the first 2 KiB of the chunk
// before it in its session (its stamp follows that chunk's hash): an
// answer ("5 years already!") holds none of the words of the question it
// answers, which the turn before it holds, the round LongMemEval (Wu et
// al. 2024) indexes. Mentions are the names and text the relating of
// notes reads (the session and shared-entity edges).
//
// Show renders a note in a result as the agent reads it, through a
// Filter (statuses, types, a time window, a path or module scope):
// active notes only unless asked, ⚠ and what changed when stale, a note
// the user did not write marked as the repository's. Notes are read by
// id from their own file, never by parsing the whole store. The nodes'
// cache format is core/knowledge's (cache.go).
//
// Three files of the index folder are this package's. nodes.bin caches
// the parsed nodes between processes, by each file's time, size and
// inode, so a refresh of thousands of notes parses only the changed
// files. checks.bin keeps each note's check against the code as the last
// index run made it, with the version of each file it read, so that a
// recall shows a note without reading the files it is about
// (knowledge.Check).
// critical.json holds the active critical notes, newest first, which
// every index run keeps current, so a session start (Critical) reads one
// small file however many notes the project has.
package notes

import (
	"time"
	"unicode/utf8"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/knowledge"
)

// Note is a knowledge node or a conversation chunk as the index holds it.
type Note struct {
	// ID is its document id: node:ID, node:personal:ID or chunk:ID.
	ID string
	// Key is a node's own id, what other nodes' links name; "" for a
	// chunk.
	Key string
	// Path is its file (absolute).
	Path string
	// Stamp changes whenever its document, its links or its time do.
	Stamp string
	// Created is when it was written.
	Created time.Time
	// Active says it is in recall: a node neither superseded nor
	// retracted, and every chunk the memory holds active.
	Active bool
	// Critical marks an active node of importance critical.
	Critical bool
	// Session is a chunk's session; "" for a node. Seq is its place in
	// the session, which orders chunks written in the same second.
	Session string
	Seq     int
	// About are the project's files it names, in order, each once: the
	// index links it to those it holds.
	About []string
	// Links are the keys of the nodes it links to or supersedes, in order.
	Links []string

	// node is the knowledge node it was made from, and root the
	// project's; doc is a chunk's document, and text and names what
	// relate reads of it.
	node  *knowledge.Node
	root  string
	doc   core.Document
	text  string
	names []string
}

// Document is the note's document, body included (its Path relative to
// the project when the file is inside). A node's is made on each call: a
// delta makes those of the changed notes alone.
func (n *Note) Document() core.Document {
	if n.node != nil {
		return document(relPath(n.root, n.node.Path), n.ID, n.node)
	}
	return n.doc
}

// Mentions returns the names a note declares (a node's files, symbols
// and tags; a chunk's tags, entities and ticket) and the text in which
// more names are looked for (title and body).
func (n *Note) Mentions() (names []string, text string) {
	if k := n.node; k != nil {
		return append(append(append([]string(nil), k.Files...), k.Symbols...), k.Tags...), k.Title + "\n" + k.Body
	}
	return n.names, n.text
}

// FileVersion is a note's file and its version (size, time, identity):
// what a scan of the notes' folders finds.
type FileVersion = knowledge.FileVersion

// Filter is what a query keeps of the notes.
type Filter struct {
	// Statuses keeps nodes of these statuses (only active ones when
	// empty); Types keeps nodes of these types. Either one leaves chunks
	// out.
	Statuses, Types []string
	// Since and Until bound when a note was written (a node's last
	// update); zero is unbounded.
	Since, Until time.Time
	// InScope, when set, keeps only the notes about a file it accepts
	// (a path or module filter: a chunk is kept by its files only for a
	// path, never for a module, which is code).
	InScope func(file string) bool
	// Module says the scope is a module's.
	Module bool
}

func (f Filter) inWindow(t time.Time) bool {
	return (f.Since.IsZero() || !t.Before(f.Since)) && (f.Until.IsZero() || !t.After(f.Until))
}

// Shown is a note as a result shows it.
type Shown struct {
	// Path is the note's file, relative to the project when inside.
	Path, Title, Text string
	// Stale lists, for a node, what changed in the code it is about since
	// it was written.
	Stale []string
}

// cutUTF8 cuts s to at most n bytes without splitting a character.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
