package ppr

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

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

// The state file holds the graph ready to rank with, so a cold process
// loads it without sorting a single edge:
//
//	magic "rubi-ppr\n"
//	uvarint format version
//	32 bytes SHA-256 of the corpus graph it was built from (see inputsHash)
//	uvarint kind count, then each document kind: string
//	uvarint node count, then per node: string id, uvarint kind, string name
//	        ("" when the name is the key of the id)
//	uvarint edge count; then (nodes+1) × int32 edge offsets, edges ×
//	        int32 targets, edges × float64 weights, edges × byte relations
//	4 bytes CRC-32C of everything before, little endian
//
// Integers in tables are little endian; a string is a uvarint length and
// the bytes. formatVersion changes whenever the layout does; another
// version is refused with a request to re-index rather than misread.
const (
	formatMagic   = "rubi-ppr\n"
	formatVersion = 2
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
	ids      []string
	kinds    []string // distinct document kinds
	nodeKind []int32  // index into kinds, per node
	// names are display names; "" means the key of the id, which is the
	// common case and not worth storing twice.
	names []string
	// g is the relevance graph: every corpus edge in both directions,
	// because a file is as relevant to the code it imports as to the
	// code importing it.
	g *graph.Graph
	// rel[k] holds the relations behind out-edge k of g (in CSR order):
	// the direction that the undirected graph forgets, kept for reasons.
	rel []uint8
	// inputs identifies the corpus graph the state was built from.
	inputs [sha256.Size]byte
}

// inputsHash identifies the graph a corpus describes: its documents' ids,
// kinds and display names and its edges, in corpus order (which the
// pipeline keeps stable). An update whose hash matches the stored one
// changes nothing, and Index skips rebuilding and rewriting the graph.
func inputsHash(c *core.Corpus) [sha256.Size]byte {
	h := sha256.New()
	var buf []byte
	str := func(s string) {
		buf = binary.AppendUvarint(buf, uint64(len(s)))
		buf = append(buf, s...)
	}
	flush := func() {
		if len(buf) > 1<<15 {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	for _, d := range c.Documents {
		str(d.ID)
		str(d.Kind)
		str(cmp.Or(d.Path, d.Title))
		flush()
	}
	buf = append(buf, 0xff)
	for _, e := range c.Edges {
		str(e.From)
		str(e.To)
		str(e.Kind)
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(e.Weight))
		flush()
	}
	h.Write(buf)
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

// newState builds the state of a corpus. Documents with a repeated id keep
// the first; edges whose ends are not documents are dropped, so a ranker
// never returns an id the corpus does not have.
func newState(c *core.Corpus) *state {
	st := &state{inputs: inputsHash(c)}
	b := graph.NewBuilder()
	docKinds := map[string]int32{}
	for _, d := range c.Documents {
		if _, dup := b.Index(d.ID); dup {
			continue
		}
		b.Node(d.ID)
		st.ids = append(st.ids, d.ID)
		kind, key, err := core.SplitDocID(d.ID)
		if err != nil {
			key = d.ID
		}
		kind = cmp.Or(d.Kind, kind)
		k, ok := docKinds[kind]
		if !ok {
			k = int32(len(st.kinds))
			docKinds[kind] = k
			st.kinds = append(st.kinds, kind)
		}
		st.nodeKind = append(st.nodeKind, k)
		name := cmp.Or(d.Path, d.Title, key)
		if name == key {
			name = ""
		}
		st.names = append(st.names, name)
	}
	type relEdge struct {
		from, to  int
		fwd, back uint8
	}
	var rels []relEdge
	for _, e := range c.Edges {
		from, ok1 := b.Index(e.From)
		to, ok2 := b.Index(e.To)
		if !ok1 || !ok2 || from == to {
			continue
		}
		w := e.Weight
		if !(w > 0) || math.IsInf(w, 0) {
			w = 1 // core.Edge omits a default weight
		}
		b.AddEdgeIndex(from, to, w)
		b.AddEdgeIndex(to, from, w)
		fwd, back := relLinked, relLinked
		switch e.Kind {
		case core.EdgeImports:
			fwd, back = relImports, relImportedBy
		case core.EdgeContains:
			fwd, back = relContains, relInModule
		}
		rels = append(rels, relEdge{from, to, fwd, back})
	}
	st.g = b.Build()
	start, _, _ := st.g.CSR()
	st.rel = make([]uint8, start[len(start)-1])
	for _, r := range rels {
		st.setRel(r.from, r.to, r.fwd)
		st.setRel(r.to, r.from, r.back)
	}
	return st
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
	if n := st.names[i]; n != "" {
		return n
	}
	if _, key, err := core.SplitDocID(st.ids[i]); err == nil {
		return key
	}
	return st.ids[i]
}

// statState stamps the state file in dir.
func statState(dir string) (store.Stamp, error) {
	return store.StampOf(filepath.Join(dir, stateFile))
}

func (st *state) encode() []byte {
	start, to, w := st.g.CSR()
	b := make([]byte, 0, 64+len(st.ids)*48+len(to)*17)
	b = append(b, formatMagic...)
	b = binary.AppendUvarint(b, formatVersion)
	b = append(b, st.inputs[:]...)
	b = binary.AppendUvarint(b, uint64(len(st.kinds)))
	for _, k := range st.kinds {
		b = codec.AppendString(b, k)
	}
	b = binary.AppendUvarint(b, uint64(len(st.ids)))
	for i, id := range st.ids {
		b = codec.AppendString(b, id)
		b = binary.AppendUvarint(b, uint64(st.nodeKind[i]))
		b = codec.AppendString(b, st.names[i])
	}
	b = binary.AppendUvarint(b, uint64(len(to)))
	for _, v := range start {
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	for _, v := range to {
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	for _, v := range w {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	b = append(b, st.rel...)
	return codec.Seal(b)
}

// save writes the state atomically, so a concurrent reader sees the old
// graph or the new one.
func (st *state) save(dir string) (store.Stamp, error) {
	if err := store.WriteFile(filepath.Join(dir, stateFile), st.encode(), 0o644); err != nil {
		return store.Stamp{}, err
	}
	os.Remove(filepath.Join(dir, legacyFile))
	return statState(dir)
}

// storedInputs returns the inputs hash of the state file in dir, reading
// only its head.
func storedInputs(dir string) ([sha256.Size]byte, bool) {
	var out [sha256.Size]byte
	f, err := os.Open(filepath.Join(dir, stateFile))
	if err != nil {
		return out, false
	}
	defer f.Close()
	head := make([]byte, len(formatMagic)+1+sha256.Size)
	if _, err := f.ReadAt(head, 0); err != nil || string(head[:len(formatMagic)]) != formatMagic || head[len(formatMagic)] != formatVersion {
		return out, false
	}
	copy(out[:], head[len(formatMagic)+1:])
	return out, true
}

var errCorrupt = errors.New("corrupt")

func load(dir string) (*state, store.Stamp, error) {
	name := filepath.Join(dir, stateFile)
	// Stat before reading: if the file changes in between, the stamp is
	// older than the content and the next Rank merely reloads again.
	stamp, err := statState(dir)
	if err != nil {
		return nil, store.Stamp{}, err
	}
	mapped, err := store.Map(name)
	if err != nil {
		return nil, store.Stamp{}, err
	}
	st, err := decodeState(mapped.Data)
	mapped.Close() // the state copies what it keeps
	if err != nil {
		return nil, store.Stamp{}, fmt.Errorf("%s %v; run `rubi index` to rebuild it", name, err)
	}
	return st, stamp, nil
}

func decodeState(data []byte) (*state, error) {
	if len(data) < len(formatMagic) || string(data[:len(formatMagic)]) != formatMagic {
		return nil, errors.New("is not a rank.ppr graph")
	}
	d := codec.Decoder{B: data[len(formatMagic):], Corrupt: errCorrupt}
	if v := d.Uvarint(); d.Err != nil || v != formatVersion {
		return nil, fmt.Errorf("has format %d, this rubi reads %d", v, formatVersion)
	}
	if len(d.B) < sha256.Size+4 {
		return nil, fmt.Errorf("is %w (truncated)", errCorrupt)
	}
	if _, ok := codec.Unseal(data); !ok {
		return nil, fmt.Errorf("is %w (checksum mismatch)", errCorrupt)
	}
	d.B = d.B[:len(d.B)-4]
	st := &state{}
	copy(st.inputs[:], d.B)
	d.B = d.B[sha256.Size:]
	st.kinds = make([]string, d.Count(1))
	for i := range st.kinds {
		st.kinds[i] = d.String()
	}
	n := d.Count(3)
	st.ids, st.names, st.nodeKind = make([]string, n), make([]string, n), make([]int32, n)
	for i := range n {
		st.ids[i] = d.String()
		k := d.Uvarint()
		st.names[i] = d.String()
		if k >= uint64(len(st.kinds)) {
			return nil, fmt.Errorf("is %w (node kind out of range)", errCorrupt)
		}
		st.nodeKind[i] = int32(k)
	}
	m := d.Count(13)
	if d.Err != nil || len(d.B) != 4*(n+1)+m*13 {
		return nil, fmt.Errorf("is %w (bad sizes)", errCorrupt)
	}
	start, to, w := make([]int32, n+1), make([]int32, m), make([]float64, m)
	b := d.B
	for i := range start {
		start[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	b = b[4*(n+1):]
	for i := range to {
		to[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	b = b[4*m:]
	for i := range w {
		w[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	st.rel = bytes.Clone(b[8*m:])
	g, err := graph.FromCSR(st.ids, start, to, w)
	if err != nil {
		return nil, fmt.Errorf("is %w (%v)", errCorrupt, err)
	}
	st.g = g
	return st, nil
}
