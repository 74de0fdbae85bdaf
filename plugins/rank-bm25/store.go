package bm25

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"

	"github.com/rubi-dev/rubi/core/store"
)

// The index file is a small binary format rather than gob: it is read on
// every cold query, and varints with front-coded terms make it a fraction
// of gob's size and much faster to decode. Layout:
//
//	magic "rubi-bm25\n"
//	uvarint format version
//	string  analyzer signature
//	uvarint term count, then per term: uvarint shared prefix with the
//	        previous term, string rest
//	uvarint document count, then per document: string id, string kind,
//	        numFields × uvarint token count, uvarint term count, then per
//	        term: uvarint id delta, numFields × uvarint count
//	4 bytes CRC-32C (Castagnoli) of everything before, little endian
//
// A string is a uvarint length and the bytes. formatVersion changes with
// any change of the layout: a file of another version is never decoded;
// Rank reports it and an incremental Index asks for a full corpus.
const (
	magic         = "rubi-bm25\n"
	formatVersion = 1
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrNoIndex is returned (wrapped) by Rank when no index has been built in
// the state directory yet.
var ErrNoIndex = errors.New("no index yet")

// Why an index file cannot be used; Rank tells the user how to fix it,
// Index asks for a full corpus.
var (
	errCorrupt     = errors.New("the index file is corrupt")
	errWrongFormat = errors.New("the index file has another format version")
)

func (idx *index) encode() []byte {
	size := len(magic) + 16 + len(idx.signature)
	for _, t := range idx.terms {
		size += len(t) + 2
	}
	for i := range idx.docs {
		size += len(idx.docs[i].id) + len(idx.docs[i].kind) + 16 + 6*len(idx.docs[i].terms)
	}
	b := make([]byte, 0, size)
	b = append(b, magic...)
	b = binary.AppendUvarint(b, formatVersion)
	b = appendString(b, idx.signature)
	b = binary.AppendUvarint(b, uint64(len(idx.terms)))
	prev := ""
	for _, t := range idx.terms {
		shared := 0
		for shared < len(prev) && shared < len(t) && prev[shared] == t[shared] {
			shared++
		}
		b = binary.AppendUvarint(b, uint64(shared))
		b = appendString(b, t[shared:])
		prev = t
	}
	b = binary.AppendUvarint(b, uint64(len(idx.docs)))
	for i := range idx.docs {
		d := &idx.docs[i]
		b = appendString(b, d.id)
		b = appendString(b, d.kind)
		for _, l := range d.lens {
			b = binary.AppendUvarint(b, uint64(l))
		}
		b = binary.AppendUvarint(b, uint64(len(d.terms)))
		last := uint32(0)
		for _, tc := range d.terms {
			b = binary.AppendUvarint(b, uint64(tc.term-last))
			last = tc.term
			for _, n := range tc.n {
				b = binary.AppendUvarint(b, uint64(n))
			}
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// decodeIndex reads an index file, checking everything: a damaged file
// must be reported, not ranked with.
func decodeIndex(data []byte) (*index, error) {
	if len(data) < len(magic) || string(data[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w: not a rank.bm25 index", errCorrupt)
	}
	d := decoder{b: data[len(magic):]}
	if v := d.uvarint(); d.err != nil || v != formatVersion {
		// Read the version before the checksum: a future format may
		// place it differently.
		if d.err != nil {
			return nil, errCorrupt
		}
		return nil, fmt.Errorf("%w (%d, this rubi reads %d)", errWrongFormat, v, formatVersion)
	}
	if len(d.b) < 4 {
		return nil, errCorrupt
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch", errCorrupt)
	}
	d.b = d.b[:len(d.b)-4]

	idx := &index{signature: d.string()}
	nterms := d.count(2)
	idx.terms = make([]string, 0, nterms)
	prev := ""
	for range nterms {
		shared := d.uvarint()
		rest := d.string()
		if d.err != nil || shared > uint64(len(prev)) {
			return nil, errCorrupt
		}
		t := prev[:shared] + rest
		if len(idx.terms) > 0 && t <= prev {
			return nil, fmt.Errorf("%w: terms out of order", errCorrupt)
		}
		idx.terms = append(idx.terms, t)
		prev = t
	}
	idx.termID = make(map[string]uint32, len(idx.terms))
	for i, t := range idx.terms {
		idx.termID[t] = uint32(i)
	}
	ndocs := d.count(2 + numFields)
	idx.docs = make([]doc, ndocs)
	for i := range idx.docs {
		doc := &idx.docs[i]
		doc.id, doc.kind = d.string(), d.string()
		for f := range doc.lens {
			doc.lens[f] = uint32(d.uvarint())
		}
		n := d.count(1 + numFields)
		doc.terms = make([]termCount, n)
		term := uint64(0)
		for k := range doc.terms {
			delta := d.uvarint()
			if k > 0 && delta == 0 {
				return nil, fmt.Errorf("%w: terms of %s out of order", errCorrupt, doc.id)
			}
			term += delta
			if term >= uint64(len(idx.terms)) {
				return nil, fmt.Errorf("%w: unknown term in %s", errCorrupt, doc.id)
			}
			doc.terms[k].term = uint32(term)
			for f := range doc.terms[k].n {
				doc.terms[k].n[f] = uint16(min(d.uvarint(), 1<<16-1))
			}
		}
		if d.err != nil {
			return nil, errCorrupt
		}
		if i > 0 && doc.id <= idx.docs[i-1].id {
			return nil, fmt.Errorf("%w: documents out of order", errCorrupt)
		}
	}
	if d.err != nil || len(d.b) != 0 {
		return nil, errCorrupt
	}
	return idx, nil
}

// decoder reads varints and strings, remembering the first error so the
// caller checks once per record.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errCorrupt
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) string() string {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.b)) {
		d.err = errCorrupt
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// count reads the length of a list whose items take at least minSize
// bytes each, refusing lengths the remaining bytes cannot hold, so a
// damaged count cannot make the decoder allocate gigabytes.
func (d *decoder) count(minSize int) int {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.b)/minSize) {
		d.err = errCorrupt
		return 0
	}
	return int(n)
}

// readIndex loads the index file at path.
func readIndex(path string) (*index, fileStamp, error) {
	st := stampOf(path)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fileStamp{}, ErrNoIndex
	}
	if err != nil {
		return nil, fileStamp{}, err
	}
	idx, err := decodeIndex(data)
	if err != nil {
		return nil, fileStamp{}, err
	}
	return idx, st, nil
}

func writeIndex(path string, data []byte) error {
	return store.WriteFile(path, data, 0o644)
}

// fileStamp identifies a version of the index file, so that a long-lived
// process (the MCP server) notices that another one re-indexed.
type fileStamp struct {
	mod  int64 // Unix nanoseconds
	size int64
}

func stampOf(path string) fileStamp {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{}
	}
	return fileStamp{mod: fi.ModTime().UnixNano(), size: fi.Size()}
}

// current reports whether the file at path is still the version s.
func (s fileStamp) current(path string) bool {
	return s != fileStamp{} && stampOf(path) == s
}
