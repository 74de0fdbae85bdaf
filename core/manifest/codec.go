package manifest

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"math"
	"slices"
	"sort"
	"sync/atomic"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codec"
)

// The manifest is read by every refresh and every query, so it has a
// compact binary form rather than gob, which spends most of its time on
// reflection here. Layout:
//
//	magic "rubi-manifest\n"
//	uvarint Version
//	varint  IndexedAt (Unix nanoseconds), string Generation,
//	        uvarint MapsFormat, string Roles, string References
//	maps    Rankers, Parsers, a third one empty (string → string: the
//	        notes' stamps an older manifest held), Stateful (the names
//	        set to true), Resolution.Resolved, .Unresolved, .External
//	        (string → uvarint)
//	uvarint module count, then per module (sorted by name): string
//	        name, uvarint file count, uvarint count of central files,
//	        then each one's base name: string (most central first)
//	uvarint file count n, then n × 4 bytes: each record's offset in
//	        the records below (little endian), in path order
//	4 bytes CRC-32C of the head (everything above), little endian
//	uvarint byte length of the records, then per file (sorted by path):
//	        string Path, Language, Package, Module, Doc, ParseError, Role;
//	        uvarint flags (bit 0: its head reads as generated);
//	        varint Size, ModTime; 32 bytes SHA-256; uvarint Symbols,
//	        SymOff, SymLen, Importers; 8 bytes Rank (IEEE 754);
//	        uvarint import count, uvarint byte length of the imports,
//	        then per import: string Spec, Kind; uvarint Line; uvarint
//	        name count, then each name: string (the length lets a load
//	        step over the imports without reading them)
//	uvarint byte length of the import edges, then per edge: uvarint
//	        source and target (numbers of files in path order), 8 bytes
//	        weight (decoded only when a run reuses the resolution)
//	4 bytes CRC-32C of everything before, little endian
//
// A string is a uvarint length and the bytes; a map is a uvarint count
// and its entries sorted by key. Repeated short strings (languages,
// modules, import kinds) are interned while decoding.
//
// The head's own checksum and the offsets let a query check and read the
// head and then only the records it shows, by binary search on the path;
// an index run checks the whole file.

// Magic opens every manifest file.
const Magic = "rubi-manifest\n"

// errManifestCorrupt is the error of a manifest that does not decode;
// Load's message names the file before it.
var errManifestCorrupt = errors.New("is damaged")

// encodeTo writes the manifest in its binary form (the layout above) to
// w, without holding it: the records are encoded twice, once to measure
// them (the head holds their offsets), then into w. At 200,000 files the
// manifest is about 85 MB, which laid out in memory (the records apart,
// then the whole) was the index run's last and largest allocation.
func (m *Manifest) encodeTo(w io.Writer) error {
	b := append([]byte(nil), Magic...)
	b = binary.AppendUvarint(b, Version)
	b = binary.AppendVarint(b, m.IndexedAt.UnixNano())
	b = codec.AppendString(b, m.Generation)
	b = binary.AppendUvarint(b, uint64(m.MapsFormat))
	b = codec.AppendString(b, m.Roles)
	b = codec.AppendString(b, m.References)
	for _, sm := range []map[string]string{m.Rankers, m.Parsers} {
		b = binary.AppendUvarint(b, uint64(len(sm)))
		for _, k := range slices.Sorted(maps.Keys(sm)) {
			b = codec.AppendString(codec.AppendString(b, k), sm[k])
		}
	}
	// The map of the notes' stamps that manifests of this version held
	// before the notes' state had its own file (core/notesindex's
	// notes.bin): empty.
	b = binary.AppendUvarint(b, 0)
	var stateful []string
	for k, v := range m.Stateful {
		if v {
			stateful = append(stateful, k)
		}
	}
	slices.Sort(stateful)
	b = binary.AppendUvarint(b, uint64(len(stateful)))
	for _, k := range stateful {
		b = codec.AppendString(b, k)
	}
	for _, im := range []map[string]int{m.Resolution.Resolved, m.Resolution.Unresolved, m.Resolution.External} {
		b = binary.AppendUvarint(b, uint64(len(im)))
		for _, k := range slices.Sorted(maps.Keys(im)) {
			b = binary.AppendUvarint(codec.AppendString(b, k), uint64(max(im[k], 0)))
		}
	}
	paths := m.SortedPaths()
	files := m.Records()
	sums := summarizeModules(files)
	b = binary.AppendUvarint(b, uint64(len(sums)))
	for _, name := range slices.Sorted(maps.Keys(sums)) {
		b = binary.AppendUvarint(codec.AppendString(b, name), uint64(sums[name].Files))
		b = binary.AppendUvarint(b, uint64(len(sums[name].Central)))
		for _, c := range sums[name].Central {
			b = codec.AppendString(b, c)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(paths)))
	b = slices.Grow(b, 4*len(paths)+4+binary.MaxVarintLen64)
	// The head holds the records' offsets and its checksum: the records
	// are measured first.
	var rec, scratch []byte // one record, and its imports to measure them
	// A spilled record's imports are measured by their length alone
	// (zeros of that length), and read back when the record is written.
	var zeros, imports []byte
	recsLen := 0
	for _, p := range paths {
		if recsLen > math.MaxUint32 {
			return fmt.Errorf("the index's records outgrow %d bytes", uint32(math.MaxUint32))
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(recsLen))
		r := files[p]
		raw := r.importsRaw
		if r.importsSize > 0 {
			zeros = slices.Grow(zeros[:0], r.importsSize)[:r.importsSize]
			raw = zeros
		}
		rec, scratch = appendRecord(rec[:0], scratch, r, raw)
		recsLen += len(rec)
	}
	b = binary.LittleEndian.AppendUint32(b, codec.Sum(b))
	b = binary.AppendUvarint(b, uint64(recsLen))
	edges, err := m.storedEdges() // carried over by a run that did not resolve
	if err != nil {
		return err
	}
	if !m.edgesKept && (m.edges != nil || edges == nil) {
		if edges, err = encodeEdges(paths, m.edges); err != nil {
			return err
		}
	}
	cw := &sumWriter{w: w}
	cw.write(b)
	b = nil
	written := 0
	for _, p := range paths {
		r := files[p]
		raw := r.importsRaw
		if r.importsSize > 0 {
			var err error
			if imports, err = m.spilledImports(imports, r); err != nil {
				return err
			}
			raw = imports
		}
		rec, scratch = appendRecord(rec[:0], scratch, r, raw)
		cw.write(rec)
		written += len(rec)
	}
	if written != recsLen {
		return fmt.Errorf("the index's records: %d bytes written, %d measured", written, recsLen) // not reached
	}
	cw.write(binary.AppendUvarint(nil, uint64(len(edges))))
	cw.write(edges)
	cw.write(binary.LittleEndian.AppendUint32(nil, cw.sum))
	return cw.err
}

// sumWriter writes to w and keeps the CRC-32C of what it wrote (codec.Seal's
// trailer), and the first error.
type sumWriter struct {
	w   io.Writer
	sum uint32
	err error
}

func (s *sumWriter) write(p []byte) {
	if s.err != nil {
		return
	}
	s.sum = codec.Update(s.sum, p)
	_, s.err = s.w.Write(p)
}

// appendRecord appends the encoded record r to b; scratch is a buffer
// for measuring its imports, returned for reuse.
func appendRecord(b, scratch []byte, r *Record, raw []byte) ([]byte, []byte) {
	for _, s := range []string{r.Path, r.Language, r.Package, r.Module, r.Doc, r.ParseError, r.Role} {
		b = codec.AppendString(b, s)
	}
	var flags uint64
	if r.Generated {
		flags |= 1
	}
	b = binary.AppendUvarint(b, flags)
	b = binary.AppendVarint(b, r.Size)
	b = binary.AppendVarint(b, r.ModTime)
	b = append(b, r.Hash[:]...)
	for _, v := range []int{r.Symbols, int(r.SymOff), r.SymLen, r.Importers} {
		b = binary.AppendUvarint(b, uint64(max(v, 0)))
	}
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(r.Rank))
	if r.Imports == nil && raw != nil {
		// Never decoded in this run: copied as read (or as spilled).
		b = binary.AppendUvarint(b, uint64(r.importsN))
		b = binary.AppendUvarint(b, uint64(len(raw)))
		return append(b, raw...), scratch
	}
	b = binary.AppendUvarint(b, uint64(len(r.Imports)))
	scratch = scratch[:0]
	for _, im := range r.Imports {
		scratch = appendImport(scratch, im)
	}
	b = binary.AppendUvarint(b, uint64(len(scratch)))
	return append(b, scratch...), scratch
}

// encodeEdges encodes file import edges by the numbers of their files in
// paths.
func encodeEdges(paths []string, edges []core.Edge) ([]byte, error) {
	num := make(map[string]int, len(paths))
	for i, p := range paths {
		num[core.DocID(core.DocFile, p)] = i
	}
	var b []byte
	for _, e := range edges {
		from, ok1 := num[e.From]
		to, ok2 := num[e.To]
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("import edge %s → %s between files the index does not hold", e.From, e.To)
		}
		b = binary.AppendUvarint(b, uint64(from))
		b = binary.AppendUvarint(b, uint64(to))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(e.Weight))
	}
	return b, nil
}

// ImportEdges decodes the import edges the manifest was read with (see
// HasEdges), file to file by document id.
func (m *Manifest) ImportEdges() ([]core.Edge, error) {
	seq, n, err := m.ImportEdgeSeq()
	if err != nil {
		return nil, err
	}
	edges := make([]core.Edge, 0, n)
	for e := range seq {
		edges = append(edges, *e)
	}
	return edges, nil
}

// ImportEdgeSeq is ImportEdges one edge at a time, for a step that reads
// each once (the maps, the corpus's links): more than a million edges
// at 200,000 files, about a hundred megabytes as a list. The bytes are
// checked first, so that the sequence, which cannot fail, yields the
// edges whole; n is how many it yields. An edge yielded is the
// sequence's until the next.
func (m *Manifest) ImportEdgeSeq() (seq iter.Seq[*core.Edge], n int, err error) {
	paths := m.SortedPaths()
	raw, err := m.storedEdges()
	if err != nil {
		return nil, 0, err
	}
	d := newMDecoder(raw)
	for len(d.B) > 0 && d.Err == nil {
		from, to := d.Uvarint(), d.Uvarint()
		d.Raw(8)
		if d.Err != nil || from >= uint64(len(paths)) || to >= uint64(len(paths)) {
			return nil, 0, fmt.Errorf("import edges %w", errManifestCorrupt)
		}
		n++
	}
	return func(yield func(*core.Edge) bool) {
		ids := make([]string, len(paths))
		id := func(k uint64) string {
			if ids[k] == "" {
				ids[k] = core.DocID(core.DocFile, paths[k])
			}
			return ids[k]
		}
		d := newMDecoder(raw)
		var e core.Edge
		for len(d.B) > 0 {
			from, to := d.Uvarint(), d.Uvarint()
			w := math.Float64frombits(binary.LittleEndian.Uint64(d.Raw(8)))
			e = core.Edge{From: id(from), To: id(to), Kind: core.EdgeImports, Weight: w}
			if !yield(&e) {
				return
			}
		}
	}, n, nil
}

// ImportPairs decodes the stored import edges (see HasEdges) as the
// places of their ends in SortedPaths, in their order, without their
// weights: what finding a file's imports needs, at 8 bytes an edge where
// ImportEdges' are 72 and their ids besides.
func (m *Manifest) ImportPairs() (from, to []int32, err error) {
	n := len(m.SortedPaths())
	raw, err := m.storedEdges()
	if err != nil {
		return nil, nil, err
	}
	d := newMDecoder(raw)
	from, to = make([]int32, 0, len(raw)/10), make([]int32, 0, len(raw)/10) // an edge takes 10 bytes or more
	for len(d.B) > 0 && d.Err == nil {
		f, t := d.Uvarint(), d.Uvarint()
		d.Raw(8)
		if d.Err != nil || f >= uint64(n) || t >= uint64(n) {
			return nil, nil, fmt.Errorf("import edges %w", errManifestCorrupt)
		}
		from, to = append(from, int32(f)), append(to, int32(t))
	}
	return from, to, d.Err
}

func appendImport(b []byte, im core.Import) []byte {
	b = codec.AppendString(codec.AppendString(b, im.Spec), im.Kind)
	b = binary.AppendUvarint(b, uint64(max(im.Line, 0)))
	b = binary.AppendUvarint(b, uint64(len(im.Names)))
	for _, n := range im.Names {
		b = codec.AppendString(b, n)
	}
	return b
}

// DecodedImports returns the record's imports: Imports when this run set
// them, or else those decoded from the manifest's bytes. A query never
// needs them, so loading the manifest only measures them.
func (rec *Record) DecodedImports() []core.Import {
	if rec.importsSize > 0 {
		// Only Save reads a spilled record's imports (Spill).
		panic("manifest: the imports of " + rec.Path + " read while spilled")
	}
	if rec.Imports != nil || rec.importsRaw == nil {
		return rec.Imports
	}
	d := newMDecoder(rec.importsRaw)
	out := make([]core.Import, rec.importsN)
	for j := range out {
		out[j] = d.importEntry()
	}
	return out
}

// ImportCount is the number of imports without decoding them.
func (rec *Record) ImportCount() int {
	if rec.Imports == nil && (rec.importsRaw != nil || rec.importsSize > 0) {
		return rec.importsN
	}
	return len(rec.Imports)
}

func (d *mdecoder) importEntry() core.Import {
	im := core.Import{Spec: d.String(), Kind: d.interned()}
	im.Line = int(d.Uvarint())
	if c := d.Count(1); c > 0 {
		im.Names = make([]string, c)
		for x := range im.Names {
			im.Names[x] = d.String()
		}
	}
	return im
}

// decode reads the binary form, checking its version before
// anything else. With whole, it checks the checksum of the whole file and
// decodes every record, as an index run needs. Otherwise it checks and
// decodes the head alone (the header and the table of record offsets),
// and records are decoded when they are asked for: a query reads a few
// records of thousands. A damaged record is then caught by the next index
// run, which reads the whole file; until then the bounds-checked decoding
// leaves it out (see recordTable.get).
func decode(data []byte, whole bool) (*Manifest, error) { return decodeVouched(data, whole, false) }

// decodeVouched is decode, for a query (not whole) of the very file an
// index run wrote (vouched: store.Unchanged) without the head's checksum:
// a query's first checksum costs a fresh process the tables of CRC-32C,
// 0.2 ms. The head's shape is checked either way.
func decodeVouched(data []byte, whole, vouched bool) (*Manifest, error) {
	if len(data) < len(Magic) || string(data[:len(Magic)]) != Magic {
		return nil, fmt.Errorf("%w: not a rubi manifest", errManifestCorrupt)
	}
	d := newMDecoder(data[len(Magic):])
	if v := d.Uvarint(); d.Err != nil || v != Version {
		return nil, fmt.Errorf("has format %d, this rubi writes %d", v, Version)
	}
	if whole {
		if _, ok := codec.Unseal(data); !ok {
			return nil, fmt.Errorf("%w: checksum mismatch", errManifestCorrupt)
		}
	}
	m := New()
	m.IndexedAt = time.Unix(0, d.Varint()).UTC()
	m.Generation = d.String()
	if !validGeneration(m.Generation) {
		// It names the symbols file, which an index run appends to: a
		// name with a separator or "..", from a manifest someone wrote,
		// would point rubi at a file outside the index.
		return nil, fmt.Errorf("%w: generation %q is not a generation rubi writes", errManifestCorrupt, m.Generation)
	}
	m.MapsFormat = int(d.Uvarint())
	m.Roles = d.String()
	m.References = d.String()
	if !validGeneration(m.References) {
		// It names the table of references, as Generation the symbols.
		return nil, fmt.Errorf("%w: references generation %q is not a generation rubi writes", errManifestCorrupt, m.References)
	}
	for _, sm := range []map[string]string{m.Rankers, m.Parsers} {
		for range d.Count(2) {
			k := d.String()
			sm[k] = d.String()
		}
	}
	// The notes' stamps of an older manifest: the notes' state has them
	// now (core/notesindex's notes.bin).
	for range d.Count(2) {
		d.Bytes()
		d.Bytes()
	}
	for range d.Count(1) {
		m.Stateful[d.String()] = true
	}
	res := [3]map[string]int{}
	for i := range res {
		res[i] = map[string]int{}
		for range d.Count(2) {
			k := d.String()
			res[i][k] = int(d.Uvarint())
		}
	}
	m.Resolution = Resolution{Resolved: res[0], Unresolved: res[1], External: res[2]}
	nm := d.Count(3)
	m.modules = make(map[string]ModuleSummary, nm)
	for range nm {
		name := d.String()
		s := ModuleSummary{Files: int(d.Uvarint())}
		s.Central = make([]string, d.Count(1))
		for i := range s.Central {
			s.Central[i] = d.String()
		}
		m.modules[name] = s
	}
	n := d.Count(4)
	t := &recordTable{offs: d.Raw(4 * n), n: n}
	head := data[:len(data)-len(d.B)]
	if sum := d.Raw(4); d.Err != nil || (whole || !vouched) && codec.Sum(head) != binary.LittleEndian.Uint32(sum) {
		return nil, fmt.Errorf("%w: checksum mismatch", errManifestCorrupt)
	}
	t.data = d.Bytes()
	m.edgesRaw = d.Bytes()
	if d.Err != nil || len(d.B) != 4 || !t.valid() {
		return nil, fmt.Errorf("%w: bad record", errManifestCorrupt)
	}
	m.hasEdges = true
	if !whole {
		t.recs = make([]atomic.Pointer[Record], n)
		m.files, m.table = nil, t
		return m, nil
	}
	recs := make([]Record, n)
	paths := make([]string, n)
	list := make([]*Record, n)
	// The records' strings and imports are views of data, which the
	// caller keeps for as long as they live (Load).
	rd := viewMDecoder(t.data)
	for i := range recs {
		if len(t.data)-len(rd.B) != t.offset(i) {
			rd.Err = errManifestCorrupt
		}
		r := &recs[i]
		rd.record(r)
		if rd.Err != nil {
			break
		}
		paths[i], list[i] = r.Path, r
	}
	// The records are in path order, each path once (which a map of them
	// would have caught): SortedPaths need not sort them, nor File hash
	// them.
	if rd.Err != nil || len(rd.B) != 0 || !strictlyIncreasing(paths) {
		return nil, fmt.Errorf("%w: bad record", errManifestCorrupt)
	}
	m.files, m.list, m.sorted = nil, list, paths
	return m, nil
}

// validGeneration reports a generation as rubi writes one (the hex of
// the time it was written, see rewriteSymbols), or none.
func validGeneration(g string) bool {
	if len(g) > 16 {
		return false
	}
	for i := 0; i < len(g); i++ {
		if c := g[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// record decodes one file record. Its imports are stepped over by their
// length, not decoded: the record keeps their bytes for the runs that
// resolve.
func (d *mdecoder) record(r *Record) {
	r.Path, r.Language, r.Package = d.str(), d.interned(), d.interned()
	r.Module, r.Doc, r.ParseError, r.Role = d.interned(), d.str(), d.str(), d.interned()
	r.Generated = d.Uvarint()&1 != 0
	r.Size, r.ModTime = d.Varint(), d.Varint()
	copy(r.Hash[:], d.Raw(32))
	syms, off, n, importers := d.Uvarint(), d.Uvarint(), d.Uvarint(), d.Uvarint()
	if syms > math.MaxInt32 || off > maxSymOff || n > math.MaxInt32 || importers > math.MaxInt32 {
		// Counts no index reaches, from a manifest someone wrote: as
		// ints they would turn negative, or sum past int64.
		d.Err = cmp.Or(d.Err, errManifestCorrupt)
	}
	r.Symbols, r.SymOff, r.SymLen, r.Importers = int(syms), int64(off), int(n), int(importers)
	r.Rank = math.Float64frombits(binary.LittleEndian.Uint64(d.Raw(8)))
	k := d.Count(4) // an import takes 4 bytes or more
	raw := d.Bytes()
	if len(raw) < 4*k || k == 0 && len(raw) > 0 {
		d.Err = cmp.Or(d.Err, errManifestCorrupt)
	}
	if k > 0 {
		r.importsN, r.importsRaw = k, raw
	}
}

// maxSymOff bounds a record's offset in the symbols file: far past any
// file's size, and low enough that an offset plus a length (at most
// MaxInt32) never overflows.
const maxSymOff = 1 << 62

// recordTable is the records of a manifest read for queries: encoded, in
// path order, with a table of their offsets, each decoded the first time
// it is asked for. Queries may ask at once.
type recordTable struct {
	data []byte // the records
	offs []byte // n little-endian uint32 offsets into data
	n    int
	recs []atomic.Pointer[Record]
	// oneShot says data is a mapping a one-shot process never releases:
	// a record may keep slicing it (Load).
	oneShot bool
}

func (t *recordTable) offset(i int) int {
	return int(binary.LittleEndian.Uint32(t.offs[4*i:]))
}

// valid checks the offsets run in order within the records.
func (t *recordTable) valid() bool {
	if len(t.offs) != 4*t.n || t.n == 0 && len(t.data) > 0 {
		return false
	}
	prev := -1
	for i := range t.n {
		off := t.offset(i)
		if off <= prev || off >= len(t.data) || i == 0 && off != 0 {
			return false
		}
		prev = off
	}
	return true
}

// record returns the bytes of record i.
func (t *recordTable) record(i int) []byte {
	end := len(t.data)
	if i+1 < t.n {
		end = t.offset(i + 1)
	}
	return t.data[t.offset(i):end]
}

// pathAt returns the path of record i, aliasing the records.
func (t *recordTable) pathAt(i int) []byte {
	d := codec.Decoder{B: t.record(i), Corrupt: errManifestCorrupt}
	return d.Bytes()
}

// roleAt returns the role of record i without decoding the rest of it
// (see mdecoder.record for the order of the fields); nil if it does not
// decode.
func (t *recordTable) roleAt(i int) []byte {
	d := codec.Decoder{B: t.record(i), Corrupt: errManifestCorrupt}
	for range 6 { // path, language, package, module, doc, parse error
		d.Bytes()
	}
	role := d.Bytes()
	if d.Err != nil {
		return nil
	}
	return role
}

// index is the number of the record of path p, -1 when there is none.
func (t *recordTable) index(p string) int {
	i := sort.Search(t.n, func(i int) bool { return string(t.pathAt(i)) >= p })
	if i == t.n || string(t.pathAt(i)) != p {
		return -1
	}
	return i
}

// get returns record i, decoding it the first time; nil if it does not
// decode. Its strings and imports are its own, not the file's bytes.
func (t *recordTable) get(i int) *Record {
	if r := t.recs[i].Load(); r != nil {
		return r
	}
	r := &Record{}
	d := &mdecoder{Decoder: codec.Decoder{B: t.record(i), Corrupt: errManifestCorrupt}}
	d.record(r)
	if d.Err != nil || len(d.B) != 0 {
		return nil
	}
	if !t.oneShot {
		r.importsRaw = bytes.Clone(r.importsRaw)
	}
	if !t.recs[i].CompareAndSwap(nil, r) {
		r = t.recs[i].Load()
	}
	return r
}

// find returns the record of path p.
func (t *recordTable) find(p string) (*Record, bool) {
	i := t.index(p)
	if i < 0 {
		return nil, false
	}
	r := t.get(i)
	return r, r != nil
}

// mdecoder reads the manifest's records, interning the strings that
// repeat, or, as a view decoder, reading every string as a view of the
// bytes it decodes.
type mdecoder struct {
	codec.Decoder
	intern map[string]string
	view   bool
}

func newMDecoder(b []byte) *mdecoder {
	return &mdecoder{Decoder: codec.Decoder{B: b, Corrupt: errManifestCorrupt}, intern: map[string]string{}}
}

// viewMDecoder is a decoder of b whose strings are views of b, which must
// not change afterwards and lives as long as they do.
func viewMDecoder(b []byte) *mdecoder {
	return &mdecoder{Decoder: codec.ViewDecoder(b, errManifestCorrupt), view: true}
}

// str decodes a string.
func (d *mdecoder) str() string {
	if d.view {
		return d.View()
	}
	return d.String()
}

// interned decodes a string that repeats across records, allocating it
// once (with no intern map, every time; as a view, never).
func (d *mdecoder) interned() string {
	if d.view {
		return d.View()
	}
	return d.Interned(d.intern)
}
