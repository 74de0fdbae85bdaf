package pipeline

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codec"
)

// The manifest is read by every refresh and every query, so it has a
// compact binary form rather than gob, which spends most of its time on
// reflection here. Layout:
//
//	magic "rubi-manifest\n"
//	uvarint manifestVersion
//	varint  IndexedAt (Unix nanoseconds), string Generation,
//	        uvarint MapsFormat
//	maps    Rankers, Parsers, Nodes (string → string), Stateful (the
//	        names set to true), Resolution.Resolved, .Unresolved,
//	        .External (string → uvarint)
//	uvarint file count, then per file (sorted by path):
//	        string Path, Language, Package, Module, Doc, ParseError;
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
const manifestMagic = "rubi-manifest\n"

var errManifestCorrupt = errors.New("is damaged")

func (m *manifest) encode() ([]byte, error) {
	// Size the buffer once: growing a buffer of megabytes copies it.
	size := 1024 + len(m.edgesRaw) + 12*len(m.edges)
	for _, r := range m.Files {
		size += 96 + len(r.Path) + len(r.Doc) + len(r.Module) + len(r.importsRaw)
		for _, im := range r.Imports {
			size += 8 + len(im.Spec)
		}
	}
	b := make([]byte, 0, size)
	b = append(b, manifestMagic...)
	b = binary.AppendUvarint(b, manifestVersion)
	b = binary.AppendVarint(b, m.IndexedAt.UnixNano())
	b = codec.AppendString(b, m.Generation)
	b = binary.AppendUvarint(b, uint64(m.MapsFormat))
	for _, sm := range []map[string]string{m.Rankers, m.Parsers, m.Nodes} {
		b = binary.AppendUvarint(b, uint64(len(sm)))
		for _, k := range slices.Sorted(maps.Keys(sm)) {
			b = codec.AppendString(codec.AppendString(b, k), sm[k])
		}
	}
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
	paths := m.sortedPaths()
	b = binary.AppendUvarint(b, uint64(len(paths)))
	var scratch []byte // one record's imports, to measure them
	for _, p := range paths {
		r := m.Files[p]
		for _, s := range []string{r.Path, r.Language, r.Package, r.Module, r.Doc, r.ParseError} {
			b = codec.AppendString(b, s)
		}
		b = binary.AppendVarint(b, r.Size)
		b = binary.AppendVarint(b, r.ModTime)
		b = append(b, r.Hash[:]...)
		for _, v := range []int{r.Symbols, int(r.SymOff), r.SymLen, r.Importers} {
			b = binary.AppendUvarint(b, uint64(max(v, 0)))
		}
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(r.Rank))
		if r.Imports == nil && r.importsRaw != nil {
			// Never decoded in this run: copied as read.
			b = binary.AppendUvarint(b, uint64(r.importsN))
			b = binary.AppendUvarint(b, uint64(len(r.importsRaw)))
			b = append(b, r.importsRaw...)
			continue
		}
		b = binary.AppendUvarint(b, uint64(len(r.Imports)))
		scratch = scratch[:0]
		for _, im := range r.Imports {
			scratch = appendImport(scratch, im)
		}
		b = binary.AppendUvarint(b, uint64(len(scratch)))
		b = append(b, scratch...)
	}
	edges := m.edgesRaw // carried over by a run that did not resolve
	if !m.edgesKept && (m.edges != nil || edges == nil) {
		var err error
		if edges, err = encodeEdges(paths, m.edges); err != nil {
			return nil, err
		}
	}
	b = binary.AppendUvarint(b, uint64(len(edges)))
	b = append(b, edges...)
	return codec.Seal(b), nil
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

// importEdges decodes the import edges the manifest stores.
func (m *manifest) importEdges() ([]core.Edge, error) {
	paths := m.sortedPaths()
	ids := make([]string, len(paths))
	for i, p := range paths {
		ids[i] = core.DocID(core.DocFile, p)
	}
	d := newMDecoder(m.edgesRaw)
	edges := make([]core.Edge, 0, len(m.edgesRaw)/10) // an edge takes 10 bytes or more
	for len(d.B) > 0 && d.Err == nil {
		from, to := d.Uvarint(), d.Uvarint()
		w := math.Float64frombits(binary.LittleEndian.Uint64(d.Raw(8)))
		if d.Err != nil || from >= uint64(len(ids)) || to >= uint64(len(ids)) {
			return nil, fmt.Errorf("import edges %w", errManifestCorrupt)
		}
		edges = append(edges, core.Edge{From: ids[from], To: ids[to], Kind: core.EdgeImports, Weight: w})
	}
	return edges, d.Err
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

// imports returns the record's imports, decoding them from the manifest's
// bytes when this run has not set them: a query never needs them, so
// loading the manifest only measures them.
func (rec *fileRecord) imports() []core.Import {
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

// importCount is the number of imports without decoding them.
func (rec *fileRecord) importCount() int {
	if rec.Imports == nil && rec.importsRaw != nil {
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

// decodeManifest reads the binary form, checking its version and checksum
// before anything else.
func decodeManifest(data []byte) (*manifest, error) {
	if len(data) < len(manifestMagic) || string(data[:len(manifestMagic)]) != manifestMagic {
		return nil, fmt.Errorf("%w: not a rubi manifest", errManifestCorrupt)
	}
	d := newMDecoder(data[len(manifestMagic):])
	if v := d.Uvarint(); d.Err != nil || v != manifestVersion {
		return nil, fmt.Errorf("has format %d, this rubi writes %d", v, manifestVersion)
	}
	if _, ok := codec.Unseal(data); len(d.B) < 4 || !ok {
		return nil, fmt.Errorf("%w: checksum mismatch", errManifestCorrupt)
	}
	d.B = d.B[:len(d.B)-4]
	m := newManifest()
	m.IndexedAt = time.Unix(0, d.Varint()).UTC()
	m.Generation = d.String()
	m.MapsFormat = int(d.Uvarint())
	for _, sm := range []map[string]string{m.Rankers, m.Parsers, m.Nodes} {
		for range d.Count(2) {
			k := d.String()
			sm[k] = d.String()
		}
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
	n := d.Count(6 + 2 + 32 + 4 + 8 + 2)
	m.Files = make(map[string]*fileRecord, n)
	recs := make([]fileRecord, n)
	for i := range recs {
		r := &recs[i]
		r.Path, r.Language, r.Package = d.String(), d.interned(), d.interned()
		r.Module, r.Doc, r.ParseError = d.interned(), d.String(), d.String()
		r.Size, r.ModTime = d.Varint(), d.Varint()
		copy(r.Hash[:], d.Raw(32))
		r.Symbols, r.SymOff, r.SymLen, r.Importers = int(d.Uvarint()), int64(d.Uvarint()), int(d.Uvarint()), int(d.Uvarint())
		r.Rank = math.Float64frombits(binary.LittleEndian.Uint64(d.Raw(8)))
		// Imports are stepped over by their length, not decoded: the
		// record keeps their bytes for the runs that resolve. An import
		// takes 4 bytes or more.
		k := d.Count(4)
		raw := d.Bytes()
		if len(raw) < 4*k || k == 0 && len(raw) > 0 {
			d.Err = errManifestCorrupt
		}
		if k > 0 {
			r.importsN, r.importsRaw = k, raw
		}
		if d.Err != nil {
			break
		}
		m.Files[r.Path] = r
	}
	m.edgesRaw = d.Bytes()
	if d.Err != nil || len(d.B) != 0 || len(m.Files) != n {
		return nil, fmt.Errorf("%w: bad record", errManifestCorrupt)
	}
	m.hasEdges = true
	return m, nil
}

// mdecoder reads the manifest's records, interning the strings that repeat.
type mdecoder struct {
	codec.Decoder
	intern map[string]string
}

func newMDecoder(b []byte) *mdecoder {
	return &mdecoder{Decoder: codec.Decoder{B: b, Corrupt: errManifestCorrupt}, intern: map[string]string{}}
}

// interned decodes a string that repeats across records, allocating it
// once.
func (d *mdecoder) interned() string {
	b := d.Bytes()
	if s, ok := d.intern[string(b)]; ok {
		return s
	}
	s := string(b)
	d.intern[s] = s
	return s
}
