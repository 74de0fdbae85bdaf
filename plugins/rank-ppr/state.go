package ppr

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unsafe"

	"github.com/rubi-dev/rubi/core/codec"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/graph"
	"github.com/rubi-dev/rubi/core/store"
)

// stateFile is the graph's file in the stage's state directory;
// legacyFile, the gob file of format 1, is removed when a graph is saved.
const (
	stateFile  = "graph.bin"
	legacyFile = "graph.gob"
)

// The state file holds the graph ready to rank, everything the ranker
// computes from the edges included, so a cold process loads it without
// sorting, summing or even copying a single edge:
//
//	magic "rubi-ppr\n"
//	uvarint format version
//	2 × 32 bytes SHA-256 of the corpus graph it was built from, the
//	        code's part and the notes' (see inputs)
//	uvarint kind count, then each document kind: string
//	uvarint node count, uvarint edge count, uvarint string bytes,
//	        uvarint labelled out-edges, uvarint label bytes; zero
//	        bytes up to a multiple of 8 bytes from the start of the file;
//	        then the graph's tables (graph.Tables): nodes × float64 total
//	        out-weights, edges × float64 out-edge weights, edges × float64
//	        in-edge weights, edges × float64 transition probabilities,
//	        (nodes+1) × int32 out-edge offsets, edges × int32 targets,
//	        (nodes+1) × int32 in-edge offsets, edges × int32 sources,
//	        nodes × int32 nodes in the order of their ids; then nodes ×
//	        int32 document kinds; (2×nodes+1) × uint32 string offsets;
//	        labels × int32 out-edges with a label (core.Edge.Label), in
//	        order; (labels+1) × uint32 label offsets; edges × byte
//	        relations; the strings: per node its id and its display name
//	        ("" when it is the key of the id), node i's id from offset 2i
//	        to 2i+1, its name from 2i+1 to 2i+2; the labels' text
//	4 bytes CRC-32C of everything before, little endian
//
// Nodes are numbered as isNote says: the code's documents in corpus
// order, then the notes sorted by id.
// Integers in tables are little endian; a string is a uvarint length and
// the bytes. Aligned tables let a little-endian machine use them where
// they lie, in the file's mapping or in one copy of it (see load), and
// the strings are read there too: loading a graph makes no string.
// formatVersion changes whenever the layout does (and Version with it);
// another version is refused with a request to re-index rather than
// misread.
const (
	formatMagic   = "rubi-ppr\n"
	formatVersion = 6
)

// Relations of a node to a neighbour, from the node's point of view.
const (
	relImports    uint8 = 1 << iota // node imports the neighbour
	relImportedBy                   // the neighbour imports node
	relInModule                     // the neighbour (a module) contains node
	relContains                     // node (a module) contains the neighbour
	relLinked                       // any other kind of edge
)

// state is a ready-to-rank graph.
type state struct {
	// strs holds the nodes' ids and display names; a display name ""
	// means the key of the id, which is the common case and not worth
	// storing twice.
	strs     strtab
	kinds    []string // distinct document kinds
	nodeKind []int32  // index into kinds, per node
	// g is the relevance graph: every corpus edge in both directions,
	// because a file is as relevant to the code it imports as to the
	// code importing it.
	g *graph.Graph
	// rel[k] holds the relations behind out-edge k of g (in CSR order):
	// the direction that the undirected graph forgets, kept for reasons.
	rel []uint8
	// Labels of the out-edges that have one (core.Edge.Label): labPos
	// holds their CSR positions, ascending; label k is
	// labBlob[labOff[k]:labOff[k+1]].
	labPos  []int32
	labOff  []uint32
	labBlob []byte
	// inputs identifies the corpus graph the state was built from.
	inputs inputs
}

// isNote says whether a document id is of the notes' part of the graph
// (core.NotesScope). Every build numbers the nodes so that a scoped update
// (core.Corpus.Scope, a delta of the notes' documents alone) rewrites only
// the end of the graph's tables, and comes out as a full build of the same
// documents would: the documents of other kinds (the code's: files,
// modules) first, in corpus order as the pipeline keeps it, then the
// notes, sorted by id, which a delta of them alone can place without
// knowing where the notes it does not send again stood in the corpus. A
// repeated id keeps its first document.
// It is core.InScope(core.NotesScope, id) without cutting the id, called
// for every edge of the corpus when it is hashed.
func isNote(id string) bool {
	for _, k := range core.NotesScope {
		if len(id) > len(k) && id[len(k)] == ':' && id[:len(k)] == k {
			return true
		}
	}
	return false
}

// note is a document of the notes' part of the graph as the graph keeps
// it: all a scoped update knows of the notes its corpus does not send.
type note struct{ id, kind, name string }

// nodeOf returns the kind and the display name the graph keeps of a
// document: its kind, or else the kind of its id; its path, title or key,
// and "" for the key, which is the common case and not worth storing twice.
func nodeOf(d *core.Document) (kind, name string) {
	kind, key, err := core.SplitDocID(d.ID)
	if err != nil {
		key = d.ID
	}
	kind = cmp.Or(d.Kind, kind)
	name = cmp.Or(d.Path, d.Title, key)
	if name == key {
		name = ""
	}
	return kind, name
}

// notesOf returns the notes among docs in node order: sorted by id, the
// first of a repeated id kept.
func notesOf(docs []core.Document) []note {
	var notes []note
	for k := range docs {
		if d := &docs[k]; isNote(d.ID) {
			kind, name := nodeOf(d)
			notes = append(notes, note{d.ID, kind, name})
		}
	}
	slices.SortStableFunc(notes, func(a, b note) int { return strings.Compare(a.id, b.id) })
	return slices.CompactFunc(notes, func(a, b note) bool { return a.id == b.id })
}

// inputs identifies the graph a corpus describes, in the two parts a
// scoped update tells apart. An update whose inputs match the stored ones
// changes nothing, and Index skips rebuilding and rewriting the graph.
type inputs struct {
	// code hashes the documents of other kinds than the notes' (ids, kinds
	// and display names) and the edges from them, in corpus order (which
	// the pipeline keeps stable): the part a scoped update leaves alone.
	code [sha256.Size]byte
	// notes hashes the notes as the graph keeps them, in node order, and
	// the edges from them in corpus order: what a scoped update sends
	// whole (its edges) or the graph keeps (the notes it does not send).
	notes [sha256.Size]byte
}

// inputsOf returns the inputs of a whole corpus, whose notes (in node
// order) are notes, in one pass over its edges.
func inputsOf(c *core.Corpus, notes []note, refWeight float64) inputs {
	var code, nh hasher
	for k := range c.Documents {
		if d := &c.Documents[k]; !isNote(d.ID) {
			code.record(d.ID, d.Kind, cmp.Or(d.Path, d.Title))
		}
	}
	code.buf = append(code.buf, 0xff)
	nh.notes(notes)
	for ce := range c.EachEdge() {
		e, ok := weighed(&ce, refWeight)
		switch {
		case !ok:
		case isNote(e.From):
			nh.edge(&e)
		default:
			code.edge(&e)
		}
	}
	return inputs{code: code.sum(), notes: nh.sum()}
}

// notesInputs hashes the notes' part of a graph as inputsOf does: its
// notes in node order, and the edges from a note among edges, in their
// order.
func notesInputs(notes []note, edges []core.Edge) [sha256.Size]byte {
	var h hasher
	h.notes(notes)
	for k := range edges {
		if e := &edges[k]; isNote(e.From) {
			h.edge(e)
		}
	}
	return h.sum()
}

// hasher is SHA-256 fed through a buffer: writing a corpus string by
// string would cost more than hashing it.
type hasher struct {
	h   hash.Hash
	buf []byte
}

// record hashes a record of three strings.
func (x *hasher) record(a, b, c string) {
	x.buf = codec.AppendString(codec.AppendString(codec.AppendString(x.buf, a), b), c)
	x.flush()
}

// notes hashes the notes, in node order, and the mark that ends them.
func (x *hasher) notes(notes []note) {
	for _, n := range notes {
		x.record(n.id, n.kind, n.name)
	}
	x.buf = append(x.buf, 0xff)
}

// edge hashes an edge: its ends, kind, words and weight.
func (x *hasher) edge(e *core.Edge) {
	b := codec.AppendString(codec.AppendString(x.buf, e.From), e.To)
	b = codec.AppendString(codec.AppendString(b, e.Kind), e.Label)
	x.buf = binary.LittleEndian.AppendUint64(b, math.Float64bits(e.Weight))
	x.flush()
}

func (x *hasher) flush() {
	if len(x.buf) > 1<<15 {
		x.write()
	}
}

func (x *hasher) write() {
	if x.h == nil {
		x.h = sha256.New()
	}
	x.h.Write(x.buf)
	x.buf = x.buf[:0]
}

func (x *hasher) sum() [sha256.Size]byte {
	x.write()
	var out [sha256.Size]byte
	x.h.Sum(out[:0])
	return out
}

// edgeWeight is the weight of a corpus edge in the graph: core.Edge omits
// a default weight.
func edgeWeight(e *core.Edge) float64 {
	if w := e.Weight; w > 0 && !math.IsInf(w, 0) {
		return w
	}
	return 1
}

// edgeRels returns the relations an edge of kind gives its source (fwd)
// and its target (back).
func edgeRels(kind string) (fwd, back uint8) {
	switch kind {
	case core.EdgeImports:
		return relImports, relImportedBy
	case core.EdgeContains:
		return relContains, relInModule
	}
	return relLinked, relLinked
}

// newState builds the state of a whole corpus.
func newState(c *core.Corpus) *state {
	notes := notesOf(c.Documents)
	return buildState(c, notes, inputsOf(c, notes, 1), 1)
}

// buildState builds the state of a whole corpus whose notes (notesOf) and
// inputs are given, its nodes numbered as isNote says. Edges whose ends
// are not documents are dropped, so a ranker never returns an id the
// corpus does not have.
func buildState(c *core.Corpus, notes []note, in inputs, refWeight float64) *state {
	st := &state{inputs: in}
	b := graph.NewBuilder()
	docKinds := map[string]int32{}
	node := func(id, kind, name string) {
		b.Node(id)
		k, ok := docKinds[kind]
		if !ok {
			k = int32(len(st.kinds))
			docKinds[kind] = k
			st.kinds = append(st.kinds, kind)
		}
		st.nodeKind = append(st.nodeKind, k)
		st.strs.add(id, name)
	}
	for k := range c.Documents {
		d := &c.Documents[k]
		if _, dup := b.Index(d.ID); dup || isNote(d.ID) {
			continue
		}
		kind, name := nodeOf(d)
		node(d.ID, kind, name)
	}
	for _, n := range notes {
		node(n.id, n.kind, n.name)
	}
	// Each edge's relations, until the graph is built: 12 bytes an edge,
	// with the few labels apart (labeled, by their edge's place in
	// rels), as a large tree has millions of edges.
	type relEdge struct {
		from, to  int32
		fwd, back uint8
	}
	type labeledEdge struct {
		at    int
		label string
	}
	rels := make([]relEdge, 0, c.EdgeCount())
	var labeled []labeledEdge
	for ce := range c.EachEdge() {
		ed, ok := weighed(&ce, refWeight)
		if !ok {
			continue
		}
		e := &ed
		from, ok1 := b.Index(e.From)
		to, ok2 := b.Index(e.To)
		if !ok1 || !ok2 || from == to {
			continue
		}
		w := edgeWeight(e)
		b.AddEdgeIndex(from, to, w)
		b.AddEdgeIndex(to, from, w)
		fwd, back := edgeRels(e.Kind)
		if e.Label != "" {
			labeled = append(labeled, labeledEdge{len(rels), e.Label})
		}
		rels = append(rels, relEdge{int32(from), int32(to), fwd, back})
	}
	st.g = b.Build()
	start, _, _ := st.g.CSR()
	st.rel = make([]uint8, start[len(start)-1])
	labels := map[int32]string{}
	for i, r := range rels {
		from, to := int(r.from), int(r.to)
		st.setRel(from, to, r.fwd)
		st.setRel(to, from, r.back)
		if len(labeled) > 0 && labeled[0].at == i {
			for _, p := range [2]int32{st.pos(from, to), st.pos(to, from)} {
				if _, ok := labels[p]; !ok && p >= 0 {
					labels[p] = labeled[0].label // the first edge of a pair says it
				}
			}
			labeled = labeled[1:]
		}
	}
	st.labPos = slices.Sorted(maps.Keys(labels))
	st.labOff = make([]uint32, 1, len(st.labPos)+1)
	for _, p := range st.labPos {
		st.labBlob = append(st.labBlob, labels[p]...)
		st.labOff = append(st.labOff, uint32(len(st.labBlob)))
	}
	return st
}

// pos is the CSR position of the out-edge i → j, -1 when there is none.
func (st *state) pos(i, j int) int32 {
	to, _ := st.g.Out(i)
	if k, ok := slices.BinarySearch(to, int32(j)); ok {
		start, _, _ := st.g.CSR()
		return start[i] + int32(k)
	}
	return -1
}

// label returns the words of the k-th out-edge of node i, "" when it has
// none.
func (st *state) label(i, k int) string {
	start, _, _ := st.g.CSR()
	if x, ok := slices.BinarySearch(st.labPos, start[i]+int32(k)); ok {
		return string(st.labBlob[st.labOff[x]:st.labOff[x+1]])
	}
	return ""
}

func (st *state) setRel(i, j int, r uint8) {
	to, _ := st.g.Out(i)
	if k, ok := slices.BinarySearch(to, int32(j)); ok {
		start, _, _ := st.g.CSR()
		st.rel[int(start[i])+k] |= r
	}
}

// relation returns the relations behind the k-th out-edge of node i.
func (st *state) relation(i, k int) uint8 {
	start, _, _ := st.g.CSR()
	return st.rel[int(start[i])+k]
}

func (st *state) kind(i int) string { return st.kinds[st.nodeKind[i]] }

// name is how a reason refers to node i: the document's path, title or
// key.
func (st *state) name(i int) string {
	if n := st.strs.name(i); n != "" {
		return n
	}
	id := st.strs.At(i)
	if _, key, err := core.SplitDocID(id); err == nil {
		return key
	}
	return id
}

// id is node i's document id.
func (st *state) id(i int) string { return st.strs.At(i) }

// strtab is the nodes' ids and display names in one blob: node i's id is
// blob[off[2i]:off[2i+1]], its name blob[off[2i+1]:off[2i+2]]. It is the
// graph's graph.IDs. The strings it returns alias the blob, which is
// never changed in place.
type strtab struct {
	off  []uint32
	blob []byte
}

func (s *strtab) add(id, name string) {
	if s.off == nil {
		s.off = []uint32{0}
	}
	s.blob = append(s.blob, id...)
	s.off = append(s.off, uint32(len(s.blob)))
	s.blob = append(s.blob, name...)
	s.off = append(s.off, uint32(len(s.blob)))
}

func (s *strtab) str(k int) string {
	a, b := s.off[k], s.off[k+1]
	if a == b {
		return ""
	}
	return unsafe.String(&s.blob[a], int(b-a))
}

// Len is the number of nodes.
func (s *strtab) Len() int { return max(len(s.off)-1, 0) / 2 }

// At is node i's id.
func (s *strtab) At(i int) string { return s.str(2 * i) }

func (s *strtab) name(i int) string { return s.str(2*i + 1) }

// find returns the node of id, given the nodes in the order of their ids
// (the graph's ByID): a binary search that reads the ids where they lie.
func (s *strtab) find(byID []int32, id string) (int32, bool) {
	lo, hi := 0, len(byID)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if s.At(int(byID[mid])) < id {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(byID) && s.At(int(byID[lo])) == id {
		return byID[lo], true
	}
	return 0, false
}

// check says the offsets fit the blob.
func (s *strtab) check() bool {
	if len(s.off) == 0 || s.off[0] != 0 || int(s.off[len(s.off)-1]) != len(s.blob) {
		return false
	}
	for k := 1; k < len(s.off); k++ {
		if s.off[k] < s.off[k-1] {
			return false
		}
	}
	return true
}

// statState stamps the state file in dir.
func statState(dir string) (store.Stamp, error) {
	return store.StampOf(filepath.Join(dir, stateFile))
}

func (st *state) encode() []byte {
	t := st.g.Tables()
	n, m := st.strs.Len(), len(t.OutTo)
	b := make([]byte, 0, 64+n*48+m*41+len(st.strs.blob))
	b = append(b, formatMagic...)
	b = binary.AppendUvarint(b, formatVersion)
	b = append(append(b, st.inputs.code[:]...), st.inputs.notes[:]...)
	b = binary.AppendUvarint(b, uint64(len(st.kinds)))
	for _, k := range st.kinds {
		b = codec.AppendString(b, k)
	}
	b = binary.AppendUvarint(b, uint64(n))
	b = binary.AppendUvarint(b, uint64(m))
	b = binary.AppendUvarint(b, uint64(len(st.strs.blob)))
	b = binary.AppendUvarint(b, uint64(len(st.labPos)))
	b = binary.AppendUvarint(b, uint64(len(st.labBlob)))
	b = append(b, make([]byte, pad(len(b)))...)
	for _, fs := range [][]float64{t.OutSum, t.OutW, t.InW, t.InNorm} {
		b = appendTable(b, fs)
	}
	for _, is := range [][]int32{t.OutStart, t.OutTo, t.InStart, t.InFrom, t.ByID, st.nodeKind} {
		b = appendTable(b, is)
	}
	off := st.strs.off
	if n == 0 {
		off = []uint32{0}
	}
	b = appendTable(b, off)
	b = appendTable(b, st.labPos)
	labOff := st.labOff
	if len(labOff) == 0 {
		labOff = []uint32{0}
	}
	b = appendTable(b, labOff)
	b = append(b, st.rel...)
	b = append(b, st.strs.blob...)
	b = append(b, st.labBlob...)
	return codec.Seal(b)
}

// pad is the number of zero bytes that align offset to 8.
func pad(offset int) int { return (8 - offset%8) % 8 }

// save writes the state atomically, so a concurrent reader sees the old
// graph or the new one.
func (st *state) save(dir string, durable bool) (store.Stamp, error) {
	write := store.WriteVerified
	if !durable {
		write = store.WriteDerivedVerified
	}
	if err := write(filepath.Join(dir, stateFile), st.encode(), 0o644); err != nil {
		return store.Stamp{}, err
	}
	os.Remove(filepath.Join(dir, legacyFile))
	return statState(dir)
}

// storedInputs returns the inputs of the state file in dir, reading only
// its head.
func storedInputs(dir string) (inputs, bool) {
	var out inputs
	f, err := store.OpenLeaf(filepath.Join(dir, stateFile)) // never a link, a FIFO or a device
	if err != nil {
		return out, false
	}
	defer f.Close()
	head := make([]byte, len(formatMagic)+1+2*sha256.Size)
	if _, err := f.ReadAt(head, 0); err != nil || string(head[:len(formatMagic)]) != formatMagic || head[len(formatMagic)] != formatVersion {
		return out, false
	}
	hashes := head[len(formatMagic)+1:]
	copy(out.code[:], hashes)
	copy(out.notes[:], hashes[sha256.Size:])
	return out, true
}

var errCorrupt = errors.New("corrupt")

// maxStateFile bounds what keepable reads of the state file, which lives
// in the repository's .rubi/index/: a graph of a million files and their
// edges is some hundred MB, and 2 GiB is room to spare. A larger file, a
// link or a device is rebuilt.
const maxStateFile = 2 << 30

// keepable says the state file in dir, which describes the corpus being
// indexed, may stand: its whole checksum is good. A damaged one is
// rebuilt; a good one is recorded as checked, so queries skip the check
// (store.Unchanged).
func keepable(dir string) bool {
	path := filepath.Join(dir, stateFile)
	data, err := store.ReadLeaf(path, maxStateFile)
	if err != nil {
		return false
	}
	if _, ok := codec.Unseal(data); !ok {
		return false
	}
	store.RecordVerified(path)
	return true
}

// writtenCurrent says the state file at path is the version an index run
// wrote (store.Unchanged) and opens with this rubi's magic and format
// version: read no further, it stands as written.
func writtenCurrent(path string) bool {
	if !store.Unchanged(path) {
		return false
	}
	f, err := store.OpenLeaf(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(formatMagic)+binary.MaxVarintLen64)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if !bytes.HasPrefix(head, []byte(formatMagic)) {
		return false
	}
	v, k := binary.Uvarint(head[len(formatMagic):])
	return k > 0 && v == formatVersion
}

// load reads the state file in dir, and the stamp it had. oneShot is
// core.Setup.OneShot.
func load(dir string, oneShot bool) (*state, store.Stamp, error) {
	name := filepath.Join(dir, stateFile)
	// Stat before reading: if the file changes in between, the stamp is
	// older than the content and the next Rank merely reloads again.
	stamp, err := statState(dir)
	if err != nil {
		return nil, store.Stamp{}, err
	}
	mapped, err := store.Map(name, oneShot)
	if err != nil {
		return nil, store.Stamp{}, err
	}
	// The state's strings and tables alias the bytes it is decoded from.
	// A one-shot process keeps the mapping until it exits (see
	// store.Mapped); any other copies the file once, into memory the
	// garbage collector keeps for as long as the state is used: a mapping
	// released with the state could be unmapped while a slice of a table
	// is still being read.
	data := mapped.Data
	if !oneShot {
		data = bytes.Clone(data)
		mapped.Close()
	}
	// The checksum reads all of the file: it is checked unless the file
	// is the very version an index run wrote (store.Unchanged).
	st, err := decodeState(data, !store.Unchanged(name))
	if err != nil {
		return nil, store.Stamp{}, fmt.Errorf("%s %w; run `rubi index` to rebuild it", name, err)
	}
	return st, stamp, nil
}

// decodeState decodes a state file, checking the checksum of the whole of
// it and that its in-edges are its out-edges reversed when verify is set
// (graph.FromTables); the shape of every table, and that each node's
// out-edges weigh its out-weight, are checked either way
// (graph.FromOwnTables). The state aliases data, which must not change
// afterwards.
func decodeState(data []byte, verify bool) (*state, error) {
	if len(data) < len(formatMagic) || string(data[:len(formatMagic)]) != formatMagic {
		return nil, errors.New("is not a rank.ppr graph")
	}
	d := codec.Decoder{B: data[len(formatMagic):], Corrupt: errCorrupt}
	if v := d.Uvarint(); d.Err != nil || v != formatVersion {
		return nil, fmt.Errorf("has format %d, this rubi reads %d (%w)", v, formatVersion, core.ErrOutdated)
	}
	if len(d.B) < 2*sha256.Size+4 {
		return nil, fmt.Errorf("is %w (truncated)", errCorrupt)
	}
	if verify {
		if _, ok := codec.Unseal(data); !ok {
			return nil, fmt.Errorf("is %w (checksum mismatch)", errCorrupt)
		}
	}
	d.B = d.B[:len(d.B)-4]
	st := &state{}
	copy(st.inputs.code[:], d.B)
	copy(st.inputs.notes[:], d.B[sha256.Size:])
	d.B = d.B[2*sha256.Size:]
	st.kinds = make([]string, d.Count(1))
	for i := range st.kinds {
		st.kinds[i] = string(d.Bytes())
	}
	n, m, strBytes, nl, labBytes := d.Count(1), d.Count(1), d.Uvarint(), d.Count(1), d.Uvarint()
	if d.Err != nil {
		return nil, fmt.Errorf("is %w (bad sizes)", errCorrupt)
	}
	// Where the tables start, from the start of the file.
	at := len(data) - 4 - len(d.B)
	at += pad(at)
	if uint64(len(data)-4-at) != uint64(8*n+24*m+4*(3*n+2)+8*m+4*n+4*(2*n+1)+4*(2*nl+1)+m)+strBytes+labBytes {
		return nil, fmt.Errorf("is %w (bad sizes)", errCorrupt)
	}
	b := data[at : len(data)-4]
	f64s := func(k int) []float64 {
		s := table[float64](b[:8*k])
		b = b[8*k:]
		return s
	}
	i32s := func(k int) []int32 {
		s := table[int32](b[:4*k])
		b = b[4*k:]
		return s
	}
	var t graph.Tables
	t.OutSum, t.OutW, t.InW, t.InNorm = f64s(n), f64s(m), f64s(m), f64s(m)
	t.OutStart, t.OutTo, t.InStart, t.InFrom, t.ByID = i32s(n+1), i32s(m), i32s(n+1), i32s(m), i32s(n)
	st.nodeKind = i32s(n)
	for _, k := range st.nodeKind {
		if k < 0 || int(k) >= len(st.kinds) {
			return nil, fmt.Errorf("is %w (node kind out of range)", errCorrupt)
		}
	}
	st.strs.off = table[uint32](b[:4*(2*n+1)])
	b = b[4*(2*n+1):]
	st.labPos = i32s(nl)
	st.labOff = table[uint32](b[:4*(nl+1)])
	b = b[4*(nl+1):]
	st.rel, st.strs.blob, st.labBlob = b[:m], b[m:len(b)-int(labBytes)], b[len(b)-int(labBytes):]
	if !st.strs.check() {
		return nil, fmt.Errorf("is %w (string offsets)", errCorrupt)
	}
	if !labelsOK(st.labPos, st.labOff, len(st.labBlob), m) {
		return nil, fmt.Errorf("is %w (label tables)", errCorrupt)
	}
	from := graph.FromTables
	if !verify {
		from = graph.FromOwnTables
	}
	g, err := from(&st.strs, t)
	if err != nil {
		return nil, fmt.Errorf("is %w (%v)", errCorrupt, err)
	}
	st.g = g
	return st, nil
}

// labelsOK says the label tables are well formed: positions ascending
// within the edges, offsets ascending within the text.
func labelsOK(pos []int32, off []uint32, blob, edges int) bool {
	if len(off) != len(pos)+1 || off[0] != 0 || int(off[len(off)-1]) != blob {
		return false
	}
	for k, p := range pos {
		if p < 0 || int(p) >= edges || k > 0 && p <= pos[k-1] || off[k+1] < off[k] {
			return false
		}
	}
	return true
}

// appendTable appends the numbers of s little endian: their bytes as they
// lie where the machine stores them so, a copy instead of a call per
// number (a scoped update writes a graph of megabytes to change a note).
func appendTable[T float64 | int32 | uint32](b []byte, s []T) []byte {
	if len(s) == 0 {
		return b
	}
	if littleEndian {
		return append(b, unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))...)
	}
	b, err := binary.Append(b, binary.LittleEndian, s)
	if err != nil {
		panic(err) // a slice of fixed-size numbers always encodes
	}
	return b
}

// littleEndian says the machine stores numbers as the state file does.
var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// table returns the little-endian numbers of b: b itself where the
// machine reads them as they are (little endian, aligned), else a decoded
// copy.
func table[T float64 | int32 | uint32](b []byte) []T {
	size := int(unsafe.Sizeof(T(0)))
	if len(b) == 0 {
		return []T{}
	}
	if littleEndian && uintptr(unsafe.Pointer(&b[0]))%uintptr(size) == 0 {
		return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/size)
	}
	out := make([]T, len(b)/size)
	if _, err := binary.Decode(b, binary.LittleEndian, out); err != nil {
		panic(err) // len(b) is a multiple of size: the callers cut it so
	}
	return out
}
