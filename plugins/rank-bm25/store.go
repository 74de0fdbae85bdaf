package bm25

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codec"

	"github.com/rubi-dev/rubi/core/store"
)

// The index on disk is a list of immutable segments, newest last, named in
// a small list file. A full index writes one segment, or on a corpus of
// more than segmentDocs documents several of at most segmentDocs each
// (bulk segments), so that building it holds one such segment at a time;
// an incremental one appends a segment holding the changed documents and
// the ids it deletes from the segments before it, so a one-file change
// writes a few hundred bytes instead of the whole index. Segments are
// merged when they pile up (see Index).
//
// A segment is laid out for queries that read little of it: the term
// dictionary, the posting offsets and the document table are fixed-width
// tables, so a query finds its terms by binary search, decodes only their
// posting lists, and reads the ids, kinds and lengths of the documents
// they name: loading a segment costs nothing per document.
// Layout:
//
//	magic "rubi-bm25\n"
//	uvarint format version
//	string  analyzer signature
//	uvarint kind count, then each kind: string
//	uvarint document count
//	numFields × uvarint: per field, the token count summed over the
//	        segment's documents (the average length needs no pass over
//	        the documents)
//	table   id offsets: (documents+1) × uint32 into the id text
//	bytes   id text (ids sorted, concatenated)
//	table   kinds: per document, one byte, an index in the kinds
//	table   lengths: per document, numFields × uint32 token counts
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
// A query checks the first checksum only of a segment that is the very
// version an index run wrote (store.Unchanged): it reads the tables whole
// but a few posting lists, and checking the postings would fault every
// page of the file in. Any other segment is checked whole, postings too:
// a flipped byte in a posting list can decode into wrong counts that no
// bounds check catches. Loading also checks that the id offsets ascend (no id
// is empty) within the id text and that every kind is in range (no string is compared or
// made). An index run checks the second checksum before it builds on a
// segment, and that the ids are sorted and the totals those of the
// lengths (segment.verify); posting lists are decoded with bounds checks,
// so a damaged file is reported and rebuilt, never ranked with past its
// end. A segment holds at most maxKinds kinds of document: an index of
// more is refused when it is written.
//
// A string is a uvarint length and the bytes; a table or bytes section is a
// uvarint byte length and the bytes. formatVersion changes with any change
// of the layout: a file of another version is never decoded; Rank reports
// it and an incremental Index asks for a full corpus.
const (
	magic         = "rubi-bm25\n"
	formatVersion = 5
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
	errWrongFormat = fmt.Errorf("the index file has another format version (%w)", core.ErrOutdated)
)

// segment is one decoded segment file. Its kinds and deletions are
// decoded when it is loaded; the document table, terms and postings stay
// as bytes, read by the accessors below as a query asks.
type segment struct {
	name      string
	signature string
	kinds     []string
	ndocs     int
	fieldLens [numFields]uint64 // per field, Σ token counts over all documents
	idOffs    []byte
	idText    []byte
	docKinds  []byte   // per document, an index in kinds
	docLens   []byte   // per document, numFields × uint32
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

// maxKinds is the number of document kinds a segment holds: a kind is
// stored in one byte per document.
const maxKinds = 256

// encodeSegment writes the documents of idx, and the ids deleted from
// older segments, as a segment file. It fails when the documents are of
// more than maxKinds kinds.
func encodeSegment(idx *index, deletes []string) ([]byte, error) {
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
		idx.docs[d].terms.each(func(tc termCount) {
			n := varlen(uint64(d - last[tc.term]))
			for _, c := range tc.n {
				n += varlen(uint64(c))
			}
			size[tc.term+1] += n
			last[tc.term] = d
		})
	}
	for t := 1; t <= nterms; t++ {
		size[t] += size[t-1]
	}
	npostings := int(size[nterms])

	kindIndex := map[string]int{}
	var kinds []string
	textLen := 0
	for _, t := range idx.terms {
		textLen += len(t)
	}
	b := make([]byte, 0, len(magic)+64+len(idx.docs)*(64+4*numFields)+textLen+8*nterms+npostings+8)
	b = append(b, magic...)
	b = binary.AppendUvarint(b, formatVersion)
	b = codec.AppendString(b, idx.signature)
	for i := range idx.docs {
		if _, ok := kindIndex[idx.docs[i].kind]; !ok {
			kindIndex[idx.docs[i].kind] = len(kinds)
			kinds = append(kinds, idx.docs[i].kind)
		}
	}
	if len(kinds) > maxKinds {
		return nil, fmt.Errorf("%d kinds of document, this index holds at most %d", len(kinds), maxKinds)
	}
	b = binary.AppendUvarint(b, uint64(len(kinds)))
	for _, k := range kinds {
		b = codec.AppendString(b, k)
	}
	ndocs := len(idx.docs)
	b = binary.AppendUvarint(b, uint64(ndocs))
	var totals [numFields]uint64
	idLen := 0
	for i := range idx.docs {
		for f, l := range idx.docs[i].lens {
			totals[f] += uint64(l)
		}
		idLen += len(idx.docs[i].id)
	}
	for _, t := range totals {
		b = binary.AppendUvarint(b, t)
	}
	b = binary.AppendUvarint(b, uint64(4*(ndocs+1)))
	b = binary.LittleEndian.AppendUint32(b, 0)
	off := uint32(0)
	for i := range idx.docs {
		off += uint32(len(idx.docs[i].id))
		b = binary.LittleEndian.AppendUint32(b, off)
	}
	b = binary.AppendUvarint(b, uint64(idLen))
	for i := range idx.docs {
		b = append(b, idx.docs[i].id...)
	}
	b = binary.AppendUvarint(b, uint64(ndocs))
	for i := range idx.docs {
		b = append(b, byte(kindIndex[idx.docs[i].kind]))
	}
	b = binary.AppendUvarint(b, uint64(4*numFields*ndocs))
	for i := range idx.docs {
		for _, l := range idx.docs[i].lens {
			b = binary.LittleEndian.AppendUint32(b, l)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(deletes)))
	for _, id := range deletes {
		b = codec.AppendString(b, id)
	}
	b = binary.AppendUvarint(b, uint64(nterms))
	b = binary.AppendUvarint(b, uint64(4*(nterms+1)))
	off = 0
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
	b = binary.AppendUvarint(b, uint64(npostings))
	head := codec.Sum(b)
	// The postings are laid out in place, the file's largest part made
	// once.
	base := len(b)
	b = slices.Grow(b, npostings+8)[:base+npostings]
	postings := b[base:]
	cursor := slices.Clone(size[:nterms])
	for i := range last {
		last[i] = -1
	}
	for d := range idx.docs {
		idx.docs[d].terms.each(func(tc termCount) {
			at := cursor[tc.term]
			at += uint32(binary.PutUvarint(postings[at:], uint64(d-last[tc.term])))
			for _, c := range tc.n {
				at += uint32(binary.PutUvarint(postings[at:], uint64(c)))
			}
			cursor[tc.term] = at
			last[tc.term] = d
		})
	}
	b = binary.LittleEndian.AppendUint32(b, head)
	return codec.Seal(b), nil
}

// decodeSegment reads a segment file, checking the shape of everything a
// query will touch and, with checkTables, the checksum of its tables: a
// damaged file must be reported, not ranked with. The postings' checksum
// is verify's. Readers skip the tables' checksum for the very version an
// index run wrote (store.Unchanged).
func decodeSegment(name string, data []byte, checkTables bool) (*segment, error) {
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
	s.ndocs = d.Count(1 + 4*numFields)
	for f := range s.fieldLens {
		s.fieldLens[f] = d.Uvarint()
	}
	s.idOffs, s.idText = d.Bytes(), d.Bytes()
	s.docKinds, s.docLens = d.Bytes(), d.Bytes()
	if d.Err != nil || len(s.idOffs) != 4*(s.ndocs+1) || len(s.docKinds) != s.ndocs || len(s.docLens) != 4*numFields*s.ndocs {
		return nil, fmt.Errorf("%w: bad document table", errCorrupt)
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
	if d.Err != nil || checkTables && codec.Sum(data[:start]) != binary.LittleEndian.Uint32(data[len(data)-8:]) {
		return nil, fmt.Errorf("%w: checksum mismatch", errCorrupt)
	}
	s.data = data
	if d.Err != nil || len(d.B) != 0 ||
		len(s.termOffs) != 4*(s.nterms+1) || len(s.postOffs) != 4*(s.nterms+1) ||
		offset(s.termOffs, s.nterms) != uint32(len(s.termText)) || offset(s.postOffs, s.nterms) != uint32(len(s.postings)) {
		return nil, errCorrupt
	}
	// The document table, in time proportional to its offsets and kinds
	// (bytes the checksum has just read): no string is compared or made.
	prev := uint32(0)
	for i := 0; i <= s.ndocs; i++ {
		// Offsets ascend strictly: every document has an id (a hit
		// without one is no answer).
		o := offset(s.idOffs, i)
		if i == 0 && o != 0 || i > 0 && o <= prev {
			return nil, fmt.Errorf("%w: bad document table", errCorrupt)
		}
		prev = o
	}
	if prev != uint32(len(s.idText)) {
		return nil, fmt.Errorf("%w: bad document table", errCorrupt)
	}
	for _, k := range s.docKinds {
		if int(k) >= len(s.kinds) {
			return nil, fmt.Errorf("%w: bad document table", errCorrupt)
		}
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
	// What a query does not check: ids sorted and unique, the field
	// totals those of the lengths.
	var totals [numFields]uint64
	for i := range s.ndocs {
		if i > 0 && bytes.Compare(s.idBytes(i-1), s.idBytes(i)) >= 0 {
			return fmt.Errorf("%s: %w: ids out of order", s.name, errCorrupt)
		}
		for f, l := range s.lens(i) {
			totals[f] += uint64(l)
		}
	}
	if totals != s.fieldLens {
		return fmt.Errorf("%s: %w: bad length totals", s.name, errCorrupt)
	}
	s.verified.Store(true)
	return nil
}

func offset(table []byte, i int) uint32 { return binary.LittleEndian.Uint32(table[4*i:]) }

// idBytes returns the id of document i, in the file's bytes. Decoding
// checked the offsets.
func (s *segment) idBytes(i int) []byte {
	return s.idText[offset(s.idOffs, i):offset(s.idOffs, i+1)]
}

// id returns the id of document i.
func (s *segment) id(i int) string { return string(s.idBytes(i)) }

// kind returns the index in kinds of the kind of document i.
func (s *segment) kind(i int) int { return int(s.docKinds[i]) }

// lens returns the token counts per field of document i.
func (s *segment) lens(i int) [numFields]uint32 {
	var out [numFields]uint32
	row := s.docLens[4*numFields*i : 4*numFields*(i+1)]
	for f := range out {
		out[f] = binary.LittleEndian.Uint32(row[4*f:])
	}
	return out
}

// search returns the number of the document with id, if the segment
// holds it.
func (s *segment) search(id string) (int, bool) {
	i, j := 0, s.ndocs
	for i < j {
		h := int(uint(i+j) >> 1)
		if string(s.idBytes(h)) < id {
			i = h + 1
		} else {
			j = h
		}
	}
	return i, i < s.ndocs && string(s.idBytes(i)) == id
}

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
		for f := range n {
			n[f] = uint16(min(d.Uvarint(), 1<<16-1))
		}
		// A delta is at most the documents' count: a larger one would
		// wrap the document number around, before the first document.
		if d.Err != nil || delta == 0 || delta > uint64(s.ndocs) || doc+int(delta) >= s.ndocs {
			return fmt.Errorf("%w: bad postings in %s", errCorrupt, s.name)
		}
		doc += int(delta)
		fn(doc, &n)
	}
	return nil
}

// forward rebuilds the documents of the segment that live admits, with
// term ids numbering the segment's own terms, for a merge.
func (s *segment) forward(live func(doc int) bool) (docs []doc, terms []string, err error) {
	local := make([]int32, s.ndocs) // document → index in docs + 1
	for i := range s.ndocs {
		if live(i) {
			docs = append(docs, doc{id: s.id(i), kind: s.kinds[s.kind(i)], lens: s.lens(i)})
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
				docs[k-1].terms = appendCount(docs[k-1].terms, termCount{term: uint32(t), n: *n})
			}
		})
		if err != nil {
			return nil, nil, err
		}
	}
	return docs, terms, nil
}

// maxListFile bounds what is read of the list of segments, a line a
// segment (a few dozen at most): 1 MiB is room to spare. A larger one, a
// link or a device is not an index of rubi's: it is rebuilt.
const maxListFile = 1 << 20

// readList returns the segment names of the index in dir, oldest first,
// and the list's stamp.
func readList(dir string) ([]string, listStamp, error) {
	data, err := store.ReadLeaf(filepath.Join(dir, listFile), maxListFile)
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
// and the segment; the list is then read again. oneShot is
// core.Setup.OneShot.
func readSegments(dir string, oneShot bool) ([]*segment, listStamp, error) {
	for attempt := 0; ; attempt++ {
		names, st, err := readList(dir)
		if err != nil {
			return nil, "", err
		}
		segs := make([]*segment, 0, len(names))
		for _, n := range names {
			path := filepath.Join(dir, n)
			mapped, err := store.Map(path, oneShot)
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
			// A segment that is not the very version an index run wrote
			// is checked whole, postings too: a query reads only some
			// posting lists, and a damaged one can decode to wrong counts
			// that no bounds check catches.
			check := !store.Unchanged(path)
			s, err := decodeSegment(n, mapped.Data, check)
			if err == nil && check {
				err = s.verify()
			}
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

// writeSegment saves a segment file under a fresh name, which it
// returns; no list names it yet (commitList does). Unless durable, it
// does not wait for the disk (a scoped delta's, which a hook writes: the
// waits were most of what indexing an edited note cost it); a power cut
// may then lose it, which the list's missing file reveals, and a full
// index rebuilds.
func writeSegment(dir string, data []byte, durable bool) (string, error) {
	writeVerified := store.WriteVerified
	if !durable {
		writeVerified = store.WriteDerivedVerified
	}
	name := ""
	for n := time.Now().UnixNano(); ; n++ {
		name = fmt.Sprintf("%s%016x%s", segPrefix, n, segSuffix)
		if _, err := os.Stat(filepath.Join(dir, name)); errors.Is(err, os.ErrNotExist) {
			break
		}
	}
	if err := writeVerified(filepath.Join(dir, name), data, 0o644); err != nil {
		return "", err
	}
	return name, nil
}

// commitList writes the list naming the live segments, oldest first, then
// removes the segment files it no longer names. The list is the commit
// point: a crash before it leaves the previous index whole (and the
// segments written for the new one are removed by the next commit).
// Unless durable, it does not wait for the disk (see writeSegment).
func commitList(dir string, names []string, durable bool) (listStamp, error) {
	writeFile := store.WriteFile
	if !durable {
		writeFile = store.WriteDerived
	}
	list := listHeader + "\n" + strings.Join(names, "\n") + "\n"
	if err := writeFile(filepath.Join(dir, listFile), []byte(list), 0o644); err != nil {
		return "", err
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		n := e.Name()
		seg := strings.TrimSuffix(n, store.WrittenSuffix)
		stray := strings.HasPrefix(seg, segPrefix) && strings.HasSuffix(seg, segSuffix) && !slices.Contains(names, seg)
		if stray || n == legacyFile {
			os.Remove(filepath.Join(dir, n))
		}
	}
	return listStamp(list), nil
}

// listStamp is the content of the segment list a view was loaded from.
// Every index run that changes anything writes a list naming a new
// segment, so comparing the (small) list tells a long-lived process (the
// MCP server) exactly whether another one re-indexed, whatever the
// resolution of file times.
type listStamp string

// currentList reads the stamp of the index in dir; "" when it has none.
func currentList(dir string) listStamp {
	data, err := store.ReadLeaf(filepath.Join(dir, listFile), maxListFile)
	if err != nil {
		return ""
	}
	return listStamp(data)
}
