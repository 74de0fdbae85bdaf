package bm25

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rubi-dev/rubi/core/codec"

	"github.com/rubi-dev/rubi/core/store"
)

// The index on disk is a list of immutable segments, newest last, named in
// a small list file. A full index writes one segment; an incremental one
// appends a segment holding the changed documents and the ids it deletes
// from the segments before it, so a one-file change writes a few hundred
// bytes instead of the whole index. Segments are merged when they pile up
// (see Index).
//
// A segment is laid out for queries that read little of it: the term
// dictionary and the posting offsets are fixed-width tables, so a query
// finds its terms by binary search and decodes only their posting lists.
// Layout:
//
//	magic "rubi-bm25\n"
//	uvarint format version
//	string  analyzer signature
//	uvarint kind count, then each kind: string
//	uvarint document count, then per document (sorted by id): string id,
//	        uvarint kind index, numFields × uvarint token count
//	uvarint deleted id count, then each id: string
//	uvarint term count
//	table   term offsets: (terms+1) × uint32 into the term text
//	bytes   term text (terms sorted, concatenated)
//	table   posting offsets: (terms+1) × uint32 into the postings
//	bytes   postings: per term, per document containing it (ascending):
//	        uvarint document delta, numFields × uvarint count
//	4 bytes CRC-32C (Castagnoli) of everything before the postings' bytes
//	4 bytes CRC-32C of everything before, little endian
//
// A query checks the first checksum only: it reads the tables whole but
// a few posting lists, and checking the postings would fault every page
// of the file in. An index run checks the second before it builds on a
// segment (segment.verify), and posting lists are decoded with bounds
// checks, so a damaged file is reported and rebuilt, never ranked with
// past its end.
//
// A string is a uvarint length and the bytes; a table or bytes section is a
// uvarint byte length and the bytes. formatVersion changes with any change
// of the layout: a file of another version is never decoded; Rank reports
// it and an incremental Index asks for a full corpus.
const (
	magic         = "rubi-bm25\n"
	formatVersion = 4
	// listFile names the live segments, oldest first, one per line after a
	// header line.
	listFile   = "segments"
	listHeader = "rubi-bm25 segments 3"
	segPrefix  = "seg-"
	segSuffix  = ".bm25"
	// legacyFile is the single-file index of format 1, removed on the
	// first full index.
	legacyFile = "bm25.idx"
)

// ErrNoIndex is returned (wrapped) by Rank when no index has been built in
// the state directory yet.
var ErrNoIndex = errors.New("no index yet")

// Why an index cannot be used; Rank tells the user how to fix it, Index
// asks for a full corpus.
var (
	errCorrupt     = errors.New("the index file is corrupt")
	errWrongFormat = errors.New("the index file has another format version")
)

// segment is one decoded segment file. Documents and deletions are decoded
// when it is loaded; terms and postings stay as bytes until a query asks.
type segment struct {
	name      string
	signature string
	kinds     []string
	ids       []string // sorted
	kind      []uint32 // per document, an index in kinds
	lens      [][numFields]uint32
	deletes   []string // ids this segment removes from older segments
	nterms    int
	termOffs  []byte
	termText  []byte
	postOffs  []byte
	postings  []byte
	// data is the whole file; verified says its full checksum was
	// checked (verify).
	data     []byte
	verified atomic.Bool
}

// encodeSegment writes the documents of idx, and the ids deleted from
// older segments, as a segment file.
func encodeSegment(idx *index, deletes []string) []byte {
	// Postings are laid out per term, so first measure each term's list.
	nterms := len(idx.terms)
	size := make([]uint32, nterms+1)
	last := make([]int, nterms)
	for i := range last {
		last[i] = -1
	}
	var vb [binary.MaxVarintLen64]byte
	varlen := func(v uint64) uint32 { return uint32(binary.PutUvarint(vb[:], v)) }
	for d := range idx.docs {
		for _, tc := range idx.docs[d].terms {
			n := varlen(uint64(d - last[tc.term]))
			for _, c := range tc.n {
				n += varlen(uint64(c))
			}
			size[tc.term+1] += n
			last[tc.term] = d
		}
	}
	for t := 1; t <= nterms; t++ {
		size[t] += size[t-1]
	}
	postings := make([]byte, size[nterms])
	cursor := slices.Clone(size[:nterms])
	clear(last)
	for i := range last {
		last[i] = -1
	}
	for d := range idx.docs {
		for _, tc := range idx.docs[d].terms {
			at := cursor[tc.term]
			at += uint32(binary.PutUvarint(postings[at:], uint64(d-last[tc.term])))
			for _, c := range tc.n {
				at += uint32(binary.PutUvarint(postings[at:], uint64(c)))
			}
			cursor[tc.term] = at
			last[tc.term] = d
		}
	}

	kindIndex := map[string]int{}
	var kinds []string
	textLen := 0
	for _, t := range idx.terms {
		textLen += len(t)
	}
	b := make([]byte, 0, len(magic)+64+len(idx.docs)*48+textLen+8*nterms+len(postings))
	b = append(b, magic...)
	b = binary.AppendUvarint(b, formatVersion)
	b = codec.AppendString(b, idx.signature)
	for i := range idx.docs {
		if _, ok := kindIndex[idx.docs[i].kind]; !ok {
			kindIndex[idx.docs[i].kind] = len(kinds)
			kinds = append(kinds, idx.docs[i].kind)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(kinds)))
	for _, k := range kinds {
		b = codec.AppendString(b, k)
	}
	b = binary.AppendUvarint(b, uint64(len(idx.docs)))
	for i := range idx.docs {
		d := &idx.docs[i]
		b = codec.AppendString(b, d.id)
		b = binary.AppendUvarint(b, uint64(kindIndex[d.kind]))
		for _, l := range d.lens {
			b = binary.AppendUvarint(b, uint64(l))
		}
	}
	b = binary.AppendUvarint(b, uint64(len(deletes)))
	for _, id := range deletes {
		b = codec.AppendString(b, id)
	}
	b = binary.AppendUvarint(b, uint64(nterms))
	b = binary.AppendUvarint(b, uint64(4*(nterms+1)))
	off := uint32(0)
	b = binary.LittleEndian.AppendUint32(b, 0)
	for _, t := range idx.terms {
		off += uint32(len(t))
		b = binary.LittleEndian.AppendUint32(b, off)
	}
	b = binary.AppendUvarint(b, uint64(textLen))
	for _, t := range idx.terms {
		b = append(b, t...)
	}
	b = binary.AppendUvarint(b, uint64(4*(nterms+1)))
	for _, s := range size {
		b = binary.LittleEndian.AppendUint32(b, s)
	}
	b = binary.AppendUvarint(b, uint64(len(postings)))
	head := codec.Sum(b)
	b = append(b, postings...)
	b = binary.LittleEndian.AppendUint32(b, head)
	return codec.Seal(b)
}

// decodeSegment reads a segment file, checking the checksum of its tables
// and the shape of everything a query will touch: a damaged file must be
// reported, not ranked with. The postings' checksum is verify's.
func decodeSegment(name string, data []byte) (*segment, error) {
	if len(data) < len(magic) || string(data[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w: not a rank.bm25 index", errCorrupt)
	}
	d := codec.Decoder{B: data[len(magic):], Corrupt: errCorrupt}
	if v := d.Uvarint(); d.Err != nil || v != formatVersion {
		// Read the version before the checksum: a future format may
		// place it differently.
		if d.Err != nil {
			return nil, errCorrupt
		}
		return nil, fmt.Errorf("%w (%d, this rubi reads %d)", errWrongFormat, v, formatVersion)
	}
	if len(d.B) < 8 {
		return nil, errCorrupt
	}
	d.B = d.B[:len(d.B)-8]

	s := &segment{name: name, signature: d.String()}
	s.kinds = make([]string, d.Count(1))
	for i := range s.kinds {
		s.kinds[i] = d.String()
	}
	ndocs := d.Count(2 + numFields)
	s.ids = make([]string, ndocs)
	s.kind = make([]uint32, ndocs)
	s.lens = make([][numFields]uint32, ndocs)
	for i := range ndocs {
		s.ids[i] = d.String()
		s.kind[i] = uint32(d.Uvarint())
		for f := range s.lens[i] {
			s.lens[i][f] = uint32(d.Uvarint())
		}
		if d.Err != nil || int(s.kind[i]) >= len(s.kinds) || i > 0 && s.ids[i] <= s.ids[i-1] {
			return nil, fmt.Errorf("%w: bad document table", errCorrupt)
		}
	}
	s.deletes = make([]string, d.Count(1))
	for i := range s.deletes {
		s.deletes[i] = d.String()
	}
	s.nterms = d.Count(0)
	s.termOffs, s.termText = d.Bytes(), d.Bytes()
	s.postOffs = d.Bytes()
	n := d.Count(1)
	start := len(data) - 8 - len(d.B) // where the postings' bytes begin
	s.postings = d.Raw(n)
	if d.Err != nil || codec.Sum(data[:start]) != binary.LittleEndian.Uint32(data[len(data)-8:]) {
		return nil, fmt.Errorf("%w: checksum mismatch", errCorrupt)
	}
	s.data = data
	if d.Err != nil || len(d.B) != 0 ||
		len(s.termOffs) != 4*(s.nterms+1) || len(s.postOffs) != 4*(s.nterms+1) ||
		offset(s.termOffs, s.nterms) != uint32(len(s.termText)) || offset(s.postOffs, s.nterms) != uint32(len(s.postings)) {
		return nil, errCorrupt
	}
	return s, nil
}

// verify checks the checksum of the whole file, postings included, once.
func (s *segment) verify() error {
	if s.verified.Load() {
		return nil
	}
	if _, ok := codec.Unseal(s.data); !ok {
		return fmt.Errorf("%s: %w: checksum mismatch", s.name, errCorrupt)
	}
	s.verified.Store(true)
	return nil
}

func offset(table []byte, i int) uint32 { return binary.LittleEndian.Uint32(table[4*i:]) }

// term returns the text of term i, or nil if the tables are damaged.
func (s *segment) term(i int) []byte {
	a, b := offset(s.termOffs, i), offset(s.termOffs, i+1)
	if a > b || b > uint32(len(s.termText)) {
		return nil
	}
	return s.termText[a:b]
}

// find returns the number of term t in the segment.
func (s *segment) find(t string) (int, bool) {
	i, j := 0, s.nterms
	for i < j {
		h := int(uint(i+j) >> 1)
		if string(s.term(h)) < t {
			i = h + 1
		} else {
			j = h
		}
	}
	return i, i < s.nterms && string(s.term(i)) == t
}

// eachPosting calls fn for every document containing term i, in document
// order, with the term's count in each field.
func (s *segment) eachPosting(i int, fn func(doc int, n *[numFields]uint16)) error {
	a, b := offset(s.postOffs, i), offset(s.postOffs, i+1)
	if a > b || b > uint32(len(s.postings)) {
		return errCorrupt
	}
	d := codec.Decoder{B: s.postings[a:b], Corrupt: errCorrupt}
	doc := -1
	var n [numFields]uint16
	for len(d.B) > 0 {
		delta := d.Uvarint()
		doc += int(delta)
		for f := range n {
			n[f] = uint16(min(d.Uvarint(), 1<<16-1))
		}
		if d.Err != nil || delta == 0 || doc >= len(s.ids) {
			return fmt.Errorf("%w: bad postings in %s", errCorrupt, s.name)
		}
		fn(doc, &n)
	}
	return nil
}

// forward rebuilds the documents of the segment that live admits, with
// term ids numbering the segment's own terms, for a merge.
func (s *segment) forward(live func(doc int) bool) (docs []doc, terms []string, err error) {
	local := make([]int32, len(s.ids)) // document → index in docs + 1
	for i := range s.ids {
		if live(i) {
			docs = append(docs, doc{id: s.ids[i], kind: s.kinds[s.kind[i]], lens: s.lens[i]})
			local[i] = int32(len(docs))
		}
	}
	terms = make([]string, s.nterms)
	for t := range s.nterms {
		text := s.term(t)
		if text == nil {
			return nil, nil, errCorrupt
		}
		terms[t] = string(text)
		err := s.eachPosting(t, func(d int, n *[numFields]uint16) {
			if k := local[d]; k > 0 {
				docs[k-1].terms = append(docs[k-1].terms, termCount{term: uint32(t), n: *n})
			}
		})
		if err != nil {
			return nil, nil, err
		}
	}
	return docs, terms, nil
}

// readList returns the segment names of the index in dir, oldest first,
// and the list's stamp.
func readList(dir string) ([]string, listStamp, error) {
	data, err := os.ReadFile(filepath.Join(dir, listFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, "", ErrNoIndex
	}
	if err != nil {
		return nil, "", err
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if lines[0] != listHeader {
		if strings.HasPrefix(lines[0], "rubi-bm25 segments ") {
			return nil, "", fmt.Errorf("%w (%s)", errWrongFormat, strings.TrimPrefix(lines[0], "rubi-bm25 segments "))
		}
		return nil, "", fmt.Errorf("%w: %s is not a segment list", errCorrupt, listFile)
	}
	names := lines[1:]
	if len(names) == 0 {
		return nil, "", fmt.Errorf("%w: %s names no segment", errCorrupt, listFile)
	}
	for _, n := range names {
		if !strings.HasPrefix(n, segPrefix) || !strings.HasSuffix(n, segSuffix) || strings.ContainsAny(n, `/\`) {
			return nil, "", fmt.Errorf("%w: %s names %q", errCorrupt, listFile, n)
		}
	}
	return names, listStamp(data), nil
}

// readSegments loads the live segments of the index in dir. A merge by
// another process may remove a listed segment between reading the list
// and the segment; the list is then read again.
func readSegments(dir string) ([]*segment, listStamp, error) {
	for attempt := 0; ; attempt++ {
		names, st, err := readList(dir)
		if err != nil {
			return nil, "", err
		}
		segs := make([]*segment, 0, len(names))
		for _, n := range names {
			mapped, err := store.Map(filepath.Join(dir, n))
			if errors.Is(err, os.ErrNotExist) {
				if attempt == 3 {
					return nil, "", fmt.Errorf("%w: %s lists %s, which is missing", errCorrupt, listFile, n)
				}
				segs = nil
				break
			}
			if err != nil {
				return nil, "", err
			}
			s, err := decodeSegment(n, mapped.Data)
			if err != nil {
				mapped.Close()
				return nil, "", fmt.Errorf("%s: %w", n, err)
			}
			// The segment's tables slice the mapping: it lives as long
			// as the segment.
			store.CloseWith(s, mapped)
			segs = append(segs, s)
		}
		if segs != nil {
			return segs, st, nil
		}
		time.Sleep(time.Duration(attempt+1) * 5 * time.Millisecond)
	}
}

// writeSegments saves a new segment file under a fresh name, then the
// list naming the kept segments and it, then removes the segment files no
// longer listed. The list is the commit point: a crash before it leaves
// the previous index whole.
func writeSegments(dir string, keep []string, data []byte) (string, listStamp, error) {
	name := ""
	for n := time.Now().UnixNano(); ; n++ {
		name = fmt.Sprintf("%s%016x%s", segPrefix, n, segSuffix)
		if _, err := os.Stat(filepath.Join(dir, name)); errors.Is(err, os.ErrNotExist) {
			break
		}
	}
	if err := store.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		return "", "", err
	}
	names := append(slices.Clone(keep), name)
	list := listHeader + "\n" + strings.Join(names, "\n") + "\n"
	if err := store.WriteFile(filepath.Join(dir, listFile), []byte(list), 0o644); err != nil {
		return "", "", err
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		n := e.Name()
		stray := strings.HasPrefix(n, segPrefix) && strings.HasSuffix(n, segSuffix) && !slices.Contains(names, n)
		if stray || n == legacyFile {
			os.Remove(filepath.Join(dir, n))
		}
	}
	return name, listStamp(list), nil
}

// listStamp is the content of the segment list a view was loaded from.
// Every index run that changes anything writes a list naming a new
// segment, so comparing the (small) list tells a long-lived process (the
// MCP server) exactly whether another one re-indexed, whatever the
// resolution of file times.
type listStamp string

// currentList reads the stamp of the index in dir; "" when it has none.
func currentList(dir string) listStamp {
	data, err := os.ReadFile(filepath.Join(dir, listFile))
	if err != nil {
		return ""
	}
	return listStamp(data)
}
