package core

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"slices"
	"strings"
	"sync"
)

// SourceFile is one file handed to a Parser.
type SourceFile struct {
	// Path is relative to the project root, with forward slashes.
	Path     string `json:"path"`
	Language string `json:"language"`
	Content  []byte `json:"content"`
}

// FileFacts is what a Parser extracts from one file.
type FileFacts struct {
	Path     string `json:"path"`
	Language string `json:"language"`
	// Package is the file's declared package or namespace, when the
	// language has one (Go package clause, Java package, PHP namespace).
	Package string `json:"package,omitempty"`
	// Doc is the first line of the file's own doc comment (a Go package
	// comment, a Python module docstring, a leading JSDoc block), if any.
	Doc     string   `json:"doc,omitempty"`
	Imports []Import `json:"imports,omitempty"`
	Symbols []Symbol `json:"symbols,omitempty"`
	// Error says why the file could not be parsed; the file is still
	// indexed by path.
	Error string `json:"error,omitempty"`
}

// EmptyFacts returns the facts of f before a parser finds any: its path
// and its language, the one its path names when f.Language is empty.
func (f SourceFile) EmptyFacts() FileFacts {
	lang := f.Language
	if lang == "" {
		lang = DetectLanguage(f.Path)
	}
	return FileFacts{Path: f.Path, Language: lang}
}

// Recover is deferred by a parser around the parse of one file: a panic
// becomes the file's Error, said by stage, and what was found before it
// is dropped, so that a bug costs one file's facts, not the whole index.
func (f *FileFacts) Recover(stage string) {
	if r := recover(); r != nil {
		f.Imports, f.Symbols = nil, nil
		f.Error = fmt.Sprintf("%s: internal error: %v", stage, r)
	}
}

// Import is a raw import spec as written in the source; the core resolves
// it to a file of the project (or leaves it external).
type Import struct {
	Spec string `json:"spec"`
	Line int    `json:"line"`
	// Kind is one of the Import* constants.
	Kind string `json:"kind,omitempty"`
	// Names are the names imported from the module when the source lists
	// them (Python's from m import a, b); a resolver tries them as
	// submodules before settling on the module itself.
	Names []string `json:"names,omitempty"`
}

// Import kinds.
const (
	ImportStatic     = "static"      // import x from "y", import "y", from y import x
	ImportSideEffect = "side-effect" // import "./polyfill"
	ImportReexport   = "reexport"    // export * from "./x"
	ImportRequire    = "require"     // require("x")
	ImportDynamic    = "dynamic"     // import("x") with a literal
	ImportModule     = "module"      // a declaration that pulls a file in: Rust mod x;, Dart part 'x.dart'
	ImportRelative   = "relative"    // relative to the importing file without ./: Ruby require_relative
	ImportSystem     = "system"      // C/C++ #include <x.h>: resolved only if the project has it
)

// Symbol is a definition found in a file.
type Symbol struct {
	Name string `json:"name"`
	// Kind is one of the Symbol* constants.
	Kind     string `json:"kind"`
	Line     int    `json:"line"`
	EndLine  int    `json:"end_line,omitempty"`
	Exported bool   `json:"exported,omitempty"`
	// Signature is the definition's first line, trimmed.
	Signature string `json:"signature,omitempty"`
	// Doc is the first line of the doc comment, when there is one.
	Doc string `json:"doc,omitempty"`
	// Parent is the enclosing type or class for methods and fields.
	Parent string `json:"parent,omitempty"`
}

// Symbol kinds.
const (
	SymbolFunction  = "function"
	SymbolMethod    = "method"
	SymbolClass     = "class"
	SymbolType      = "type"
	SymbolInterface = "interface"
	SymbolConst     = "const"
	SymbolVar       = "var"
	SymbolModule    = "module"
	SymbolEnum      = "enum"
	SymbolField     = "field"
)

// Document kinds: what a retrieval result can be.
const (
	DocFile   = "file"
	DocModule = "module"
	DocNode   = "node"
	// DocChunk is a chunk of the conversation memory (core/memory).
	DocChunk = "chunk"
)

// Document is one retrievable unit of the corpus.
type Document struct {
	// ID is "<kind>:<key>": "file:core/stage.go", "module:core".
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	Path  string `json:"path,omitempty"`
	Title string `json:"title"`
	// Language of a file document.
	Language string `json:"language,omitempty"`
	// Names are identifiers that name the document: symbol names of a
	// file, file names of a module. Rankers weigh them above the body.
	Names []string `json:"names,omitempty"`
	// Body is the searchable text: signatures, doc comments, content.
	Body string `json:"body,omitempty"`
	// ModTime is the file's modification time in Unix seconds.
	ModTime int64 `json:"mod_time,omitempty"`
	Size    int64 `json:"size,omitempty"`
}

// DocID builds a document id.
func DocID(kind, key string) string { return kind + ":" + key }

// SplitDocID splits a document id into kind and key.
func SplitDocID(id string) (kind, key string, err error) {
	kind, key, ok := strings.Cut(id, ":")
	if !ok || kind == "" || key == "" {
		return "", "", errors.New("document id must look like kind:key, got " + id)
	}
	return kind, key, nil
}

// Edge kinds of the project graph.
const (
	EdgeImports  = "imports"  // file → file it imports
	EdgeContains = "contains" // module → file
	// EdgeReferences links a file to a file whose definitions it uses
	// (calls, types, constants), weighted by how many uses (core/refs).
	EdgeReferences = "references"
	// EdgeSession links notes or conversation chunks written one after
	// the other in the same session.
	EdgeSession = "session"
	// EdgeMentions links notes or chunks that name the same rare entity.
	EdgeMentions = "mentions"
)

// Edge is a directed edge of the project graph between two document ids.
type Edge struct {
	From   string  `json:"from"`
	To     string  `json:"to"`
	Kind   string  `json:"kind"`
	Weight float64 `json:"weight,omitempty"`
	// Label says what the edge means in words, for the reasons of a
	// graph ranker: the start of a phrase that the other document's name
	// ends ("same session as", `both mention "Sweden" with`). Empty for
	// the kinds a ranker words itself (imports, contains).
	Label string `json:"label,omitempty"`
}

// Corpus is what rankers index: every document and every edge.
type Corpus struct {
	Documents []Document `json:"documents"`
	// Edges are the edges added as values; a corpus may hold more by
	// number (Link). A ranker reads them all through EachEdge.
	Edges []Edge `json:"edges"`
	// Changed lists ids of documents added or modified since the last
	// Index call of this project, and Removed those that disappeared; a
	// ranker may use them to update incrementally. Then only the changed
	// documents are sure to have a body: the others were not re-read.
	// When Full is set every document has its body and the ranker must
	// rebuild from Documents alone. A ranker reads a body through Body,
	// not the Document's field: an index run leaves the files' bodies to
	// be read as a ranker asks (DeferBodies).
	Changed []string `json:"changed,omitempty"`
	Removed []string `json:"removed,omitempty"`
	Full    bool     `json:"full,omitempty"`
	// Scope, when set, makes the corpus a delta of the documents of these
	// kinds only (the notes' part of the index: DocNode and DocChunk), sent
	// to the rankers whose Info says Scoped when nothing else changed:
	//   - Documents holds the documents of those kinds added or changed,
	//     each with its Body, and Changed their ids;
	//   - Removed lists the documents of those kinds that are gone;
	//   - Edges holds every edge whose From is a document of those kinds,
	//     changed or not: they replace all the edges from such documents
	//     indexed before (links between notes follow the whole set);
	//   - every document of another kind, and every edge from one, stays
	//     as the last Index left it.
	// Full is false with a Scope. A ranker that cannot apply such a corpus
	// returns ErrFullIndexNeeded; the pipeline then indexes in full.
	Scope []string `json:"scope,omitempty"`
	// TextsOnly, with a Scope, says that only texts changed: the scope's
	// documents are the ones the last Index left, with the same ids,
	// kinds and paths, and so are the edges from them. Documents holds
	// those whose text changed, Removed and Edges are empty, and a ranker
	// that reads only the graph has nothing to do. The common edit of a
	// note (a sentence added, a typo fixed) is one.
	TextsOnly bool `json:"texts_only,omitempty"`

	// bodies reads the bodies left out of Documents (DeferBodies); nil
	// when every document carries its own.
	bodies func(d *Document) string
	// links are the edges added by number (Link), which come before
	// Edges; linkNames holds their kinds, labels and the ends that are
	// not documents, named once each (linkName).
	links     []link
	linkNames []string
	linkNamed map[string]int32
	// spilled holds the links in a file instead of links (SpillLinks).
	spilled *linkSpill
	// later, when set, holds back the edges until every link is in
	// (LinksLater).
	later *linksLater
}

// linksLater is a corpus's promise of its links (LinksLater): ready is
// closed once they are all in, err set before if they never came.
type linksLater struct {
	ready chan struct{}
	once  sync.Once
	err   error
}

// LinksLater has c handed to rankers before its links are all in: a
// ranker that reads c's edges (EachEdge, EdgeCount) waits until the
// function returned is called, once the last link is added; called with
// an error, EachEdge yields no edge and Err says why. An index run so gives
// its corpus to the rankers while it still resolves the references
// between files: those that read no edge (text, names) index meanwhile.
// The function may be called more than once; the first call counts.
func (c *Corpus) LinksLater() (done func(err error)) {
	l := &linksLater{ready: make(chan struct{})}
	c.later = l
	return func(err error) {
		l.once.Do(func() {
			l.err = err
			close(l.ready)
		})
	}
}

// awaitLinks waits for the links LinksLater holds back, and says whether
// they all came.
func (c *Corpus) awaitLinks() bool {
	if c.later == nil {
		return true
	}
	<-c.later.ready
	return c.later.err == nil
}

// linkSpill is the file a corpus's links are kept in (SpillLinks), n of
// them at linkSize bytes each, written through w until they are first
// read (sealed); err is the first error writing or reading them.
type linkSpill struct {
	f      io.ReaderAt
	w      *bufio.Writer
	n      int
	sealed sync.Once
	mu     sync.Mutex
	err    error
}

// linkSize is the bytes of a link in a spill: its four numbers and its
// weight.
const linkSize = 24

func (s *linkSpill) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = err
	}
}

// link is an edge kept by number: 24 bytes against an Edge's 72, which
// at 200,000 files and more than a million edges is about eighty
// megabytes. An end at or above 0 is a place in Documents; a negative
// end -1-k names linkNames[k], as do kind and label (0: none).
type link struct {
	from, to    int32
	kind, label int32
	weight      float64
}

// Link adds e to c's edges, kept by number rather than as an Edge: from
// and to are the places of e's ends in c.Documents, or -1 for an end
// that is not one of its documents (kept by its id). A corpus's links
// come before its Edges, in the order they were added (EachEdge): a
// source that links its edges adds them before any other source adds
// to Edges, or the rankers would see the edges in another order.
func (c *Corpus) Link(e *Edge, from, to int) {
	l := link{from: int32(from), to: int32(to), weight: e.Weight}
	if from < 0 || from >= len(c.Documents) || c.Documents[from].ID != e.From {
		l.from = -1 - c.linkName(e.From)
	}
	if to < 0 || to >= len(c.Documents) || c.Documents[to].ID != e.To {
		l.to = -1 - c.linkName(e.To)
	}
	l.kind = c.linkName(e.Kind)
	if e.Label != "" {
		l.label = c.linkName(e.Label)
	}
	if s := c.spilled; s != nil {
		var b [linkSize]byte
		binary.LittleEndian.PutUint32(b[0:], uint32(l.from))
		binary.LittleEndian.PutUint32(b[4:], uint32(l.to))
		binary.LittleEndian.PutUint32(b[8:], uint32(l.kind))
		binary.LittleEndian.PutUint32(b[12:], uint32(l.label))
		binary.LittleEndian.PutUint64(b[16:], math.Float64bits(l.weight))
		if _, err := s.w.Write(b[:]); err != nil {
			s.fail(fmt.Errorf("spill the corpus's edges: %w", err))
		}
		s.n++
		return
	}
	c.links = append(c.links, l)
}

// GrowLinks makes room for n more links, for a source that knows how
// many it adds: a list that outgrew its size would be copied.
func (c *Corpus) GrowLinks(n int) {
	if c.spilled == nil {
		c.links = slices.Grow(c.links, n)
	}
}

// SpillLinks has c keep the links added from now on in f, a file of the
// caller's, empty, that stays open as long as c is read, rather than in
// memory: 24 bytes a link, which at 200,000 files and 1.7 million edges
// was 42 MB held while every ranker indexed, most of which reads no
// edge. EachEdge reads them back in order, one at a time; an error
// writing or reading them ends the edges EachEdge yields, and Err says
// it: a caller that spills checks Err once the rankers are done.
func (c *Corpus) SpillLinks(f interface {
	io.Writer
	io.ReaderAt
}) {
	c.spilled = &linkSpill{f: f, w: bufio.NewWriterSize(f, 64<<10)}
}

// Err is the error of the links c spilled (SpillLinks) or that never
// came (LinksLater), nil if none.
func (c *Corpus) Err() error {
	if l := c.later; l != nil {
		select {
		case <-l.ready:
			if l.err != nil {
				return l.err
			}
		default:
		}
	}
	if c.spilled == nil {
		return nil
	}
	c.spilled.mu.Lock()
	defer c.spilled.mu.Unlock()
	return c.spilled.err
}

// linkName returns the place of s in linkNames, adding it when new; the
// empty string is 0.
func (c *Corpus) linkName(s string) int32 {
	if c.linkNamed == nil {
		c.linkNames, c.linkNamed = []string{""}, map[string]int32{"": 0}
	}
	k, ok := c.linkNamed[s]
	if !ok {
		k = int32(len(c.linkNames))
		c.linkNames = append(c.linkNames, s)
		c.linkNamed[s] = k
	}
	return k
}

// EdgeCount is the number of c's edges: its links and its Edges. It
// waits for the links LinksLater holds back.
func (c *Corpus) EdgeCount() int {
	c.awaitLinks()
	n := len(c.links) + len(c.Edges)
	if c.spilled != nil {
		n += c.spilled.n
	}
	return n
}

// EachEdge yields every edge of c, its links first (as Edges whose ends
// are the documents' ids), then Edges, each in the order it was added.
// A ranker reads a corpus's edges through it, not through Edges alone.
// It waits for the links LinksLater holds back, and yields none if they
// never came.
func (c *Corpus) EachEdge() iter.Seq[Edge] {
	return func(yield func(Edge) bool) {
		if !c.awaitLinks() {
			return
		}
		end := func(k int32) string {
			if k >= 0 {
				return c.Documents[k].ID
			}
			return c.linkNames[-1-k]
		}
		edge := func(l link) Edge {
			return Edge{From: end(l.from), To: end(l.to), Kind: c.linkNames[l.kind], Weight: l.weight, Label: c.linkNames[l.label]}
		}
		for _, l := range c.links {
			if !yield(edge(l)) {
				return
			}
		}
		if s := c.spilled; s != nil {
			s.sealed.Do(func() {
				if err := s.w.Flush(); err != nil {
					s.fail(fmt.Errorf("spill the corpus's edges: %w", err))
				}
			})
			if c.Err() != nil {
				return
			}
			r := bufio.NewReaderSize(io.NewSectionReader(s.f, 0, int64(s.n)*linkSize), 64<<10)
			var b [linkSize]byte
			for range s.n {
				if _, err := io.ReadFull(r, b[:]); err != nil {
					s.fail(fmt.Errorf("read the corpus's edges back: %w", err))
					return
				}
				l := link{
					from: int32(binary.LittleEndian.Uint32(b[0:])), to: int32(binary.LittleEndian.Uint32(b[4:])),
					kind: int32(binary.LittleEndian.Uint32(b[8:])), label: int32(binary.LittleEndian.Uint32(b[12:])),
					weight: math.Float64frombits(binary.LittleEndian.Uint64(b[16:])),
				}
				if !yield(edge(l)) {
					return
				}
			}
		}
		for _, e := range c.Edges {
			if !yield(e) {
				return
			}
		}
	}
}

// DeferBodies has the bodies of c's documents read when a ranker asks
// for them (Body) instead of held in Documents: an index run of a large
// tree would otherwise hold the text of every file at once while its
// rankers index, where each ranker needs one document's at a time. read
// is given one of c's documents whose Body is empty and returns its
// body, "" when it has none (a document an incremental corpus did not
// re-read). It is called from any goroutine, and again for each ranker
// that reads bodies; the body of a file that changed in between is its
// new text, as a file read once would have been.
func (c *Corpus) DeferBodies(read func(d *Document) string) { c.bodies = read }

// Body returns the body of d, one of c's documents: d.Body, or the body
// read now when c defers it (DeferBodies). A ranker that reads bodies
// reads them through Body, one document at a time, and keeps only what
// it makes of them, so that the bodies of a whole corpus are never held
// at once; a subprocess plugin receives them read into its documents
// (core/pluginsdk).
func (c *Corpus) Body(d *Document) string {
	if d.Body != "" || c.bodies == nil {
		return d.Body
	}
	return c.bodies(d)
}

// NotesScope is the Scope of the notes' part of the index.
var NotesScope = []string{DocNode, DocChunk}

// InScope reports whether a document id is of one of the kinds of a
// Corpus.Scope.
func InScope(scope []string, id string) bool {
	kind, _, ok := strings.Cut(id, ":")
	return ok && slices.Contains(scope, kind)
}

// Query is a retrieval request as rankers see it.
type Query struct {
	Text string `json:"text"`
	// Terms are extra words the agent adds: synonyms, related concepts,
	// likely identifiers.
	Terms []string `json:"terms,omitempty"`
	Limit int      `json:"limit"`
	// Kinds restricts results to these document kinds when not empty.
	Kinds []string `json:"kinds,omitempty"`
	// Seeds holds the results of the unseeded rankers; only seeded rankers
	// (Info.Seeded) receive it.
	Seeds []RankedList `json:"seeds,omitempty"`
}

// Hit is one scored document.
type Hit struct {
	ID    string  `json:"id"`
	Score float64 `json:"score"`
	// Reason says in a few words why the document matched.
	Reason string `json:"reason,omitempty"`
	// Match is the share, from 0 to 1, of the question's telling weight
	// that the document matches: for a ranker of words, the inverse
	// document frequencies of the question's words it contains over
	// those of all the question's words the index knows, so a document
	// that matches only frequent words ("read", "hook") scores low
	// however often it repeats them. 0 when the ranker does not measure
	// it (a graph walk); the floor reads it (reranker rerank.floor).
	Match float64 `json:"match,omitempty"`
}

// RankedList is one ranker's answer, as a fuser sees it.
type RankedList struct {
	Stage  string  `json:"stage"`
	Weight float64 `json:"weight"`
	Hits   []Hit   `json:"hits"`
}

// MemoryOnly reports a question about the project's memory alone: its
// kinds are notes and conversation chunks only (the recall hook's, rubi
// context --kinds node,chunk). The memory's own stages (rank.neighbours,
// rerank.floor's type_floors) act on those questions alone, so that code
// answers do not move.
func (q Query) MemoryOnly() bool {
	return len(q.Kinds) > 0 && !slices.ContainsFunc(q.Kinds, func(k string) bool { return k != DocNode && k != DocChunk })
}

// AcceptsKind reports whether q admits documents of kind.
func (q Query) AcceptsKind(kind string) bool {
	if len(q.Kinds) == 0 {
		return true
	}
	for _, k := range q.Kinds {
		if k == kind {
			return true
		}
	}
	return false
}
