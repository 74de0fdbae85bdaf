package ppr

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
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
//	32 bytes SHA-256 of the corpus graph it was built from (see inputsHash)
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
// Integers in tables are little endian; a string is a uvarint length and
// the bytes. Aligned tables let a little-endian machine use them where
// they lie, in the file's mapping or in one copy of it (see load), and
// the strings are read there too: loading a graph makes no string.
// formatVersion changes whenever the layout does (and Version with it);
// another version is refused with a request to re-index rather than
// misread.
const (
	formatMagic   = "rubi-ppr\n"
	formatVersion = 5
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
		str(e.Label)
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
		st.strs.add(d.ID, name)
	}
	type relEdge struct {
		from, to  int
		fwd, back uint8
		label     string
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
		rels = append(rels, relEdge{from, to, fwd, back, e.Label})
	}
	st.g = b.Build()
	start, _, _ := st.g.CSR()
	st.rel = make([]uint8, start[len(start)-1])
	labels := map[int32]string{}
	for _, r := range rels {
		st.setRel(r.from, r.to, r.fwd)
		st.setRel(r.to, r.from, r.back)
		if r.label != "" {
			for _, p := range [2]int32{st.pos(r.from, r.to), st.pos(r.to, r.from)} {
				if _, ok := labels[p]; !ok && p >= 0 {
					labels[p] = r.label // the first edge of a pair says it
				}
			}
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
	b = append(b, st.inputs[:]...)
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
		for _, v := range fs {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	for _, is := range [][]int32{t.OutStart, t.OutTo, t.InStart, t.InFrom, t.ByID, st.nodeKind} {
		for _, v := range is {
			b = binary.LittleEndian.AppendUint32(b, uint32(v))
		}
	}
	off := st.strs.off
	if n == 0 {
		off = []uint32{0}
	}
	for _, v := range off {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	for _, v := range st.labPos {
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	labOff := st.labOff
	if len(labOff) == 0 {
		labOff = []uint32{0}
	}
	for _, v := range labOff {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	b = append(b, st.rel...)
	b = append(b, st.strs.blob...)
	b = append(b, st.labBlob...)
	return codec.Seal(b)
}

// pad is the number of zero bytes that align offset to 8.
func pad(offset int) int { return (8 - offset%8) % 8 }

// save writes the state atomically, so a concurrent reader sees the old
// graph or the new one.
func (st *state) save(dir string) (store.Stamp, error) {
	if err := store.WriteVerified(filepath.Join(dir, stateFile), st.encode(), 0o644); err != nil {
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

// keepable says the state file in dir, which describes the corpus being
// indexed, may stand: its whole checksum is good. A damaged one is
// rebuilt; a good one is recorded as checked, so queries skip the check
// (store.Unchanged).
func keepable(dir string) bool {
	path := filepath.Join(dir, stateFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	if _, ok := codec.Unseal(data); !ok {
		return false
	}
	store.RecordVerified(path)
	return true
}

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
	// The state's strings and tables alias the bytes it is decoded from.
	// A one-shot process keeps the mapping until it exits (see
	// store.SetOneShot); any other copies the file once, into memory the
	// garbage collector keeps for as long as the state is used: a mapping
	// released with the state could be unmapped while a slice of a table
	// is still being read.
	data := mapped.Data
	if !store.OneShot() {
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
	if len(d.B) < sha256.Size+4 {
		return nil, fmt.Errorf("is %w (truncated)", errCorrupt)
	}
	if verify {
		if _, ok := codec.Unseal(data); !ok {
			return nil, fmt.Errorf("is %w (checksum mismatch)", errCorrupt)
		}
	}
	d.B = d.B[:len(d.B)-4]
	st := &state{}
	copy(st.inputs[:], d.B)
	d.B = d.B[sha256.Size:]
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
