package notesindex

import (
	"slices"
	"sort"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/notes"
)

// Edge kinds between the notes and the code.
const (
	EdgeAbout = "about" // note or chunk → file (or the file of a symbol) it is about
	EdgeLinks = "links" // node → node it links to or supersedes
)

// deltaParses is how many node files a notes' delta may have parsed
// without saving the node cache: rewriting the cache of every note costs
// a hook more than the next process parsing those few files again; the
// next full run, or a delta past it, saves it. Past it, every later
// process would parse them again: a pull of many notes pays the export
// once.
const deltaParses = 8

// notesRead is every note as a run read them: the knowledge nodes and the
// conversation memory's chunks, their documents, their own edges and the
// stamps of their versions.
type notesRead struct {
	nodes []*notes.Note
	// nodeDocs are the documents of the nodes the read wanted; nodeEdges
	// every node's edges, sorted (nodeDocs).
	nodeDocs  []core.Document
	nodeEdges []core.Edge
	// nodeCount is how many nodes were read.
	nodeCount int
	// chunkFiles are the chunks' files as listed before they were read
	// (listed false when the folder could not be listed).
	chunkFiles []snapFile
	listed     bool
	chunkDocs  []core.Document
	chunkEdges []core.Edge
	chunkItems []item
	// stamps maps every node's and chunk's document to its version.
	stamps   map[string]string
	warnings []string
}

// readAll reads every note: the nodes (parsing at most parses node files
// without saving the node cache), each one's critical flag written where
// core/notes keeps it, then the chunks, listed before they are read. A
// document is made only for the nodes want accepts (all of them when
// want is nil); every node gets its stamp and edges.
func (x *Index) readAll(m *manifest.Manifest, parses int, want func(id, stamp string) bool, lap func(string)) (*notesRead, error) {
	r := &notesRead{}
	var problems []string
	r.nodes, problems = x.nodes.All(parses)
	lap("nodes")
	r.warnings = append(r.warnings, problems...)
	r.nodeDocs, r.nodeEdges, r.stamps = nodeDocs(m, r.nodes, want)
	r.nodeCount = len(r.stamps)
	if err := x.nodes.WriteCritical(r.nodes); err != nil {
		return nil, err
	}
	lap("node documents")
	r.chunkFiles, r.listed = x.scanChunks()
	chunkDocs, chunkEdges, chunkStamps, chunkItems, chunkProblems, err := x.chunkDocs(m)
	if err != nil {
		return nil, err
	}
	r.chunkDocs, r.chunkEdges, r.chunkItems = chunkDocs, chunkEdges, chunkItems
	r.warnings = append(r.warnings, chunkProblems...)
	for id, stamp := range chunkStamps {
		r.stamps[id] = stamp
	}
	lap("chunks")
	return r, nil
}

// items are the active nodes and the chunks as relate reads them, each
// with the stamp of its version.
func (r *notesRead) items() []item {
	items := append(nodeItems(r.nodes), r.chunkItems...)
	for i := range items {
		items[i].stamp = r.stamps[items[i].id]
	}
	return items
}

// nodeDocs turns the knowledge nodes into documents and edges: each node
// is about its files (and the files defining its symbols) and links to the
// nodes it names or supersedes. Stamps identify each node's version for
// change detection. Every node gets its stamp and edges; a document is
// made only for the nodes want accepts (all of them when want is nil): a
// notes' delta sends only the changed ones.
func nodeDocs(m *manifest.Manifest, nodes []*notes.Note, want func(id, stamp string) bool) (docs []core.Document, edges []core.Edge, stamps map[string]string) {
	stamps = make(map[string]string, len(nodes))
	docs = make([]core.Document, 0, len(nodes))
	// Every node is a document, superseded and retracted ones too: the
	// packer leaves them out unless a query asks for their status.
	active := make(map[string]string, len(nodes)) // node key → doc id
	for _, n := range nodes {
		active[n.Key] = n.ID
	}
	for _, n := range nodes {
		stamps[n.ID] = n.Stamp
		if want == nil || want(n.ID, n.Stamp) {
			docs = append(docs, n.Document())
		}
		edges = append(edges, nodeEdges(m, n, active)...)
	}
	sortEdges(edges)
	return docs, edges, stamps
}

// nodeEdges are the edges from a node's document: to the files it is
// about (each once, in the order named) that the index holds, and to the
// nodes it links to or supersedes (active maps node keys to their
// documents).
func nodeEdges(m *manifest.Manifest, n *notes.Note, active map[string]string) []core.Edge {
	var edges []core.Edge
	var about []string // a note names a few files: a slice, not a map
	for _, f := range n.About {
		if !slices.Contains(about, f) && m.Has(f) {
			about = append(about, f)
		}
	}
	for _, l := range n.Links {
		if to, ok := active[l]; ok {
			edges = append(edges, core.Edge{From: n.ID, To: to, Kind: EdgeLinks, Weight: 1})
		}
	}
	for _, f := range about {
		edges = append(edges, core.Edge{From: n.ID, To: core.DocID(core.DocFile, f), Kind: EdgeAbout, Weight: 1})
	}
	return edges
}

// sortEdges orders edges by their ends, as the rankers are given them.
func sortEdges(edges []core.Edge) {
	sort.Slice(edges, func(i, j int) bool {
		if edges[i].From != edges[j].From {
			return edges[i].From < edges[j].From
		}
		return edges[i].To < edges[j].To
	})
}

// chunkDocs turns the conversation memory's chunks (core/notes.Chunks)
// into documents, with an edge to each project file a chunk names that
// the index holds. Stamps are merged into the notes' stamps, as the
// nodes' are. Items are the chunks as relatedEdges reads them.
//
// Files of the folder that are not chunks are skipped, each named in
// problems.
func (x *Index) chunkDocs(m *manifest.Manifest) (docs []core.Document, edges []core.Edge, stamps map[string]string, items []item, problems []string, err error) {
	chunks, problems, err := x.chunks.All(x.settings.SessionContext)
	if err != nil {
		return nil, nil, nil, nil, nil, err
	}
	stamps = make(map[string]string, len(chunks))
	docs = make([]core.Document, 0, len(chunks))
	for _, c := range chunks {
		stamps[c.ID] = c.Stamp
		docs = append(docs, c.Document())
		items = append(items, item{id: c.ID, session: c.Session, at: chunkMoment(c), note: c})
		for _, f := range c.About {
			if m.Has(f) {
				edges = append(edges, core.Edge{From: c.ID, To: core.DocID(core.DocFile, f), Kind: EdgeAbout, Weight: 1})
			}
		}
	}
	return docs, edges, stamps, items, problems, nil
}

// scanChunks lists the chunks' files with their versions (nil and false
// when the folder cannot be listed). Taken before the chunks are read, a
// chunk written meanwhile is new to the next comparison, and read then.
func (x *Index) scanChunks() ([]snapFile, bool) {
	vs, ok := x.chunks.Scan()
	if !ok {
		return nil, false
	}
	out := make([]snapFile, len(vs))
	for i, v := range vs {
		out[i] = snapFile{path: v.Path, version: v.Version}
	}
	return out, true
}

// snapshotOf records the notes as a run read them: the node files with
// their versions (as the knowledge store read them) and documents, each
// node's own edges (nodeEdges, sorted as nodeDocs sorts them) and what
// relate reads of it, and the chunks with theirs (chunkFiles, listed
// before they were read; when they could not be, no snapshot is made).
// The manifest it was made against is stamped when the state is saved.
func (x *Index) snapshotOf(r *notesRead) *snapshot {
	if !r.listed {
		return nil
	}
	sn := &snapshot{chunkFiles: r.chunkFiles}
	docOf := make(map[string]string, len(r.nodes))
	for _, n := range r.nodes {
		docOf[n.Path] = n.ID
	}
	for _, v := range x.nodes.Versions() {
		sn.files = append(sn.files, snapFile{path: v.Path, version: v.Version, doc: docOf[v.Path]})
	}
	edgesFrom := groupEdges(r.nodeEdges)
	sn.nodes = make([]snapNode, 0, len(r.nodes))
	for _, n := range r.nodes {
		sn.nodes = append(sn.nodes, snapNodeOf(n, edgesFrom[n.ID]))
	}
	chunkFrom := groupEdges(r.chunkEdges)
	for _, it := range r.chunkItems {
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

// chunkMoment is when a chunk was written as relate orders a session: its
// time, a whole second, and its place in the session (Note.Seq) as
// nanoseconds past it, so that chunks saved in the same second follow in
// the order they were saved, in a full run and in a delta's snapshot
// (which keeps this moment as the chunk's time) alike.
func chunkMoment(n *notes.Note) time.Time {
	if n.Seq <= 0 || n.Created.Nanosecond() != 0 || n.Seq >= int(time.Second) {
		return n.Created
	}
	return n.Created.Add(time.Duration(n.Seq))
}
