package names

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"iter"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/rubi-dev/rubi/core/codec"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/store"
	"github.com/rubi-dev/rubi/core/text"
)

// Name fields, by what a name is of.
const (
	fieldFile   = iota // a file's name, with and without its extension
	fieldSymbol        // a symbol the file defines
	fieldModule        // a module's path, or its last part
	fieldNode          // a knowledge node's title, id, symbols and tags
	numFields
)

// fieldWeight scales a match by what the name is of: naming a file or a
// note is the most direct reference; a symbol is shared by its callers'
// words more often.
var fieldWeight = [numFields]float64{1.0, 0.8, 0.9, 1.0}

// maxKey bounds a normalized name: longer ones are sentences, not names.
const maxKey = 64

// entry is one normalized name of a document.
type entry struct {
	key   string
	field uint8
}

// doc is a document with its names, sorted by key then field, without
// repeats.
type doc struct {
	id, kind string
	names    []entry
}

// normalize folds accents and case and keeps letters and digits only.
func normalize(s string) string {
	s = text.Fold(s)
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	if b.Len() > maxKey {
		return ""
	}
	return b.String()
}

// namesOf lists the names a document is known by.
func namesOf(d *core.Document) []entry {
	var out []entry
	add := func(s string, f uint8) {
		if k := normalize(s); k != "" {
			out = append(out, entry{k, f})
		}
	}
	kind := d.Kind
	if kind == "" {
		kind, _, _ = core.SplitDocID(d.ID)
	}
	switch kind {
	case core.DocFile:
		base := path.Base(cmp.Or(d.Path, d.Title))
		add(base, fieldFile)
		if ext := path.Ext(base); ext != "" && ext != base {
			add(strings.TrimSuffix(base, ext), fieldFile)
		}
		for _, n := range d.Names {
			add(n, fieldSymbol)
		}
	case core.DocModule:
		mod := cmp.Or(d.Path, d.Title)
		add(mod, fieldModule)
		add(path.Base(mod), fieldModule)
	default:
		add(d.Title, fieldNode)
		for _, n := range d.Names {
			add(n, fieldNode)
		}
	}
	slices.SortFunc(out, func(a, b entry) int { return cmp.Or(strings.Compare(a.key, b.key), cmp.Compare(a.field, b.field)) })
	return slices.Compact(out)
}

// The index is kept in two parts, each a file of the format below: the
// notes' documents (the kinds of core.NotesScope) and all the others. A
// note is edited far more often than the project's files change, and the
// hook that indexes the edit must finish in milliseconds whatever the size
// of the project: with the notes apart, it decodes and rewrites the notes'
// part alone (a scoped corpus), and the files' part, most of the index,
// stays as it is. Rank reads both and scores as one index would.
const (
	partRest  = iota // files, modules: every kind but the notes'
	partNotes        // the kinds of core.NotesScope
	numParts
)

// partFiles names each part's file in the state directory. The files'
// part keeps the name of the single file of format 1, so an index written
// by an older rubi reads as another format (core.ErrOutdated), not as
// missing.
var partFiles = [numParts]string{"names.idx", "notes.idx"}

// partOf is the part a document belongs in, by the kind its id names (as
// core.InScope reads a scoped corpus's ids).
func partOf(id string) int {
	if core.InScope(core.NotesScope, id) {
		return partNotes
	}
	return partRest
}

// Index builds the names index from the corpus, or updates it: unless
// corpus.Full, indexed documents neither in corpus.Changed nor gone from
// corpus.Documents keep the names they were indexed with (an incremental
// corpus carries names only for what changed), and a part none of whose
// documents changed is not rewritten. A scoped corpus (corpus.Scope)
// updates the notes' part alone. An incremental or scoped corpus the index
// cannot apply gets core.ErrFullIndexNeeded.
func (r *Ranker) Index(ctx context.Context, corpus *core.Corpus) error {
	r.indexMu.Lock()
	defer r.indexMu.Unlock()
	r.mu.RLock()
	dir, oneShot := r.stateDir, r.oneShot
	r.mu.RUnlock()
	if dir == "" {
		return fmt.Errorf("%s: used before Configure", Name)
	}
	if len(corpus.Scope) > 0 {
		return r.indexScoped(ctx, dir, oneShot, corpus)
	}
	var old [numParts][]doc
	var oldKeys [numParts][]string
	byID := map[string]*doc{}
	if !corpus.Full {
		for p := range numParts {
			docs, keys, err := readPart(dir, p, oneShot)
			if err != nil {
				return fmt.Errorf("%s: %w: %v", Name, core.ErrFullIndexNeeded, err)
			}
			old[p], oldKeys[p] = docs, keys
			for i := range docs {
				byID[docs[i].id] = &docs[i]
			}
		}
	}
	changed := make(map[string]bool, len(corpus.Changed))
	for _, id := range corpus.Changed {
		changed[id] = true
	}
	seen := make(map[string]bool, len(corpus.Documents))
	var docs [numParts][]doc
	for i := range corpus.Documents {
		if i%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		d := &corpus.Documents[i]
		if seen[d.ID] {
			continue
		}
		seen[d.ID] = true
		p := partOf(d.ID)
		prev, known := byID[d.ID]
		switch {
		case known && !changed[d.ID]:
			docs[p] = append(docs[p], *prev)
		case !corpus.Full && !known && !changed[d.ID]:
			return fmt.Errorf("%s: %w: %s is not in the index and not marked changed", Name, core.ErrFullIndexNeeded, d.ID)
		default:
			docs[p] = append(docs[p], doc{id: d.ID, kind: d.Kind, names: namesOf(d)})
		}
	}
	for p := range numParts {
		slices.SortFunc(docs[p], func(a, b doc) int { return strings.Compare(a.id, b.id) })
		if !corpus.Full && sameDocs(docs[p], old[p]) {
			continue // an edit that renamed nothing here: the file stands
		}
		// A process that answers once and indexes in full is an index
		// run: it keeps no view of what it wrote (44 MB at 200,000
		// files), which a question maps from the file.
		if err := r.writePart(dir, p, docs[p], oldKeys[p], true, !(corpus.Full && oneShot)); err != nil {
			return err
		}
	}
	return nil
}

// indexScoped applies a scoped corpus, a delta of the notes' documents, to
// the notes' part: it reads that part, drops the removed and changed
// documents, adds the changed ones with their new names and rewrites it.
// The files' part is neither decoded nor written: its header alone is
// read, so a delta never lands beside a files' part that is missing or of
// another format.
func (r *Ranker) indexScoped(ctx context.Context, dir string, oneShot bool, corpus *core.Corpus) error {
	if corpus.Full {
		return fmt.Errorf("%s: %w: a scoped corpus cannot be full", Name, core.ErrFullIndexNeeded)
	}
	for _, kind := range corpus.Scope {
		if !slices.Contains(core.NotesScope, kind) {
			return fmt.Errorf("%s: %w: the scope %q reaches past the notes' part", Name, core.ErrFullIndexNeeded, kind)
		}
	}
	if err := checkHeader(filepath.Join(dir, partFiles[partRest])); err != nil {
		return fmt.Errorf("%s: %w: %v", Name, core.ErrFullIndexNeeded, err)
	}
	file := filepath.Join(dir, partFiles[partNotes])
	mapped, err := store.Map(file, oneShot)
	if err != nil {
		return fmt.Errorf("%s: %w: %v", Name, core.ErrFullIndexNeeded, err)
	}
	defer mapped.Close()
	if len(corpus.Removed) == 0 && namesKept(mapped.Data, corpus) {
		return nil // an edit that renamed nothing: the file stands
	}
	old, oldKeys, err := readMapped(file, mapped.Data)
	if err != nil {
		return fmt.Errorf("%s: %w: %v", Name, core.ErrFullIndexNeeded, err)
	}
	// Every document of the delta is out of the old part, changed or
	// gone; the changed ones come back with their new names.
	out := make(map[string]bool, len(corpus.Documents)+len(corpus.Removed))
	for _, id := range corpus.Removed {
		if !core.InScope(corpus.Scope, id) {
			return fmt.Errorf("%s: %w: %s is removed by a delta of %v", Name, core.ErrFullIndexNeeded, id, corpus.Scope)
		}
		out[id] = true
	}
	docs := make([]doc, 0, len(old)+len(corpus.Documents))
	added := make(map[string]bool, len(corpus.Documents))
	for i := range corpus.Documents {
		d := &corpus.Documents[i]
		if !core.InScope(corpus.Scope, d.ID) {
			return fmt.Errorf("%s: %w: %s is in a delta of %v", Name, core.ErrFullIndexNeeded, d.ID, corpus.Scope)
		}
		out[d.ID] = true
		if !added[d.ID] { // the first of repeats, as a full corpus takes it
			added[d.ID] = true
			docs = append(docs, doc{id: d.ID, kind: d.Kind, names: namesOf(d)})
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, d := range old {
		if !out[d.id] {
			docs = append(docs, d)
		}
	}
	slices.SortFunc(docs, func(a, b doc) int { return strings.Compare(a.id, b.id) })
	if sameDocs(docs, old) {
		return nil // an edit that renamed nothing: the file stands
	}
	return r.writePart(dir, partNotes, docs, oldKeys, false, true)
}

// namesKept reports whether the notes' part, data, holds every document
// of the delta, each of the same kind and known by the same names: the
// usual edit of a note, its words. It reads only those documents' records,
// found by their ids, with neither the checksum of the whole nor a copy:
// an edit must not cost a decode of every note. Any doubt (a document not
// found, a record that does not decode) says no, and the caller rebuilds
// the part as it would anyway, checking all of it.
func namesKept(data []byte, corpus *core.Corpus) bool {
	x, err := decode(data, false)
	if err != nil {
		return false
	}
	for i := range corpus.Documents {
		d := &corpus.Documents[i]
		if !core.InScope(corpus.Scope, d.ID) || !x.holds(d.ID, d.Kind, namesOf(d)) {
			return false
		}
	}
	return true
}

// holds reports whether the index has a document id, of kind, with
// exactly names. It compares the bytes in place: nothing is copied.
func (x *index) holds(id, kind string, names []entry) bool {
	at := func(i int) codec.Decoder {
		o := offset(x.docOffs, i)
		if o > uint32(len(x.fwd)) {
			return codec.Decoder{Err: errCorrupt}
		}
		return codec.Decoder{B: x.fwd[o:], Corrupt: errCorrupt}
	}
	i, found := sort.Find(x.ndocs, func(i int) int {
		d := at(i)
		b := d.Bytes()
		switch { // compared in place: string(b) is not copied here
		case id < string(b):
			return -1
		case id > string(b):
			return 1
		}
		return 0
	})
	if !found {
		return false
	}
	d := at(i)
	if string(d.Bytes()) != id || string(d.Bytes()) != kind || d.Uvarint() != uint64(len(names)) {
		return false
	}
	for _, n := range names {
		if string(d.Bytes()) != n.key || d.Byte() != n.field {
			return false
		}
	}
	return d.Err == nil
}

// readPart reads part p of the index to build on, checking all of it, and
// decodes its documents and its keys (in order: see encode). oneShot is
// core.Setup.OneShot.
func readPart(dir string, p int, oneShot bool) ([]doc, []string, error) {
	file := filepath.Join(dir, partFiles[p])
	mapped, err := store.Map(file, oneShot)
	if err != nil {
		return nil, nil, err
	}
	defer mapped.Close()
	return readMapped(file, mapped.Data)
}

// readMapped is readPart of the bytes of file, as mapped.
func readMapped(file string, data []byte) ([]doc, []string, error) {
	idx, err := decode(data, true) // built on: checked whole
	if err != nil {
		return nil, nil, err
	}
	// Checked whole: queries may trust it while it stands.
	store.RecordVerified(file)
	docs, err := idx.forward() // copies what it keeps
	if err != nil {
		return nil, nil, err
	}
	return docs, idx.keys(), nil
}

// checkHeader reads the start of an index file: it is an index of this
// format, or the error says why not.
func checkHeader(file string) error {
	f, err := store.OpenLeaf(file) // the index's own file: never a link, a FIFO or a device
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, len(magic)+1)
	if _, err := io.ReadFull(f, head); err != nil {
		return fmt.Errorf("%w: %v", errCorrupt, err)
	}
	_, err = decodeHeader(head)
	return err
}

// writePart writes part p of the index and keeps it for queries; keys
// are those the part had, in order, if it was read (see encode). Unless
// durable, it does not wait for the disk (a scoped delta's, which a hook
// writes): a part lost in a power cut fails its checksum, and a full
// index rebuilds it.
func (r *Ranker) writePart(dir string, p int, docs []doc, keys []string, durable, keep bool) error {
	file := filepath.Join(dir, partFiles[p])
	data := encode(docs, keys)
	write := store.WriteVerified
	if !durable {
		write = store.WriteDerivedVerified
	}
	if err := write(file, data, 0o644); err != nil {
		return fmt.Errorf("%s: %w", Name, err)
	}
	if !keep {
		// The part is read from its file when a question first needs it.
		r.mu.Lock()
		r.idx[p], r.stamp[p] = nil, store.Stamp{}
		r.mu.Unlock()
		return nil
	}
	idx, err := decode(data, false) // just encoded
	if err != nil {
		return fmt.Errorf("%s: %w", Name, err) // not reached: data was just encoded
	}
	stamp, _ := store.StampOf(file)
	r.mu.Lock()
	r.idx[p], r.stamp[p] = idx, stamp
	r.mu.Unlock()
	return nil
}

// sameDocs reports whether docs are exactly the indexed documents old,
// with the same names; both are sorted by id.
func sameDocs(docs, old []doc) bool {
	return slices.EqualFunc(docs, old, func(a, b doc) bool {
		return a.id == b.id && a.kind == b.kind && slices.Equal(a.names, b.names)
	})
}

// Each part's file, rewritten whole when a document of it changes (it
// holds names only, a few bytes per symbol), laid out so a query decodes
// only what it reads:
//
//	magic "rubi-names\n"
//	uvarint format version
//	bytes   documents (sorted by id): string id, string kind, uvarint
//	        name count, then per name: string key, byte field
//	table   document offsets: documents × uint32 into the above
//	uvarint key count
//	table   key offsets: (keys+1) × uint32 into the key text
//	bytes   key text (keys sorted, concatenated)
//	table   posting offsets: (keys+1) × uint32 into the postings
//	bytes   postings: per key, per document having it (ascending):
//	        uvarint document delta, byte field
//	4 bytes CRC-32C of everything before, little endian
//
// A string, a table or bytes is a uvarint length and the bytes; integers
// in tables are little endian.
//
// Format 1 was a single file of all documents (names.idx); format 2 is
// the same layout, once per part.
const (
	magic         = "rubi-names\n"
	formatVersion = 2
)

var (
	errCorrupt     = errors.New("the index file is corrupt")
	errWrongFormat = fmt.Errorf("the index file has another format version (%w)", core.ErrOutdated)
)

// encode lays docs out as an index file. sorted, when not nil, are keys
// in order, the keys of the index docs update: most keys of docs are
// among them, and taking their order saves sorting them all, which was
// the most of encoding a part after an edit. Each key is numbered as it
// is first met and the postings are laid out flat, by counting, and the
// file is written into a buffer of its size: on a large project (200,000
// files, some millions of names) a map sized for every name and a list
// per key, grown by doubling, were the index run's largest.
func encode(docs []doc, sorted []string) []byte {
	// Sized ahead: an index run of the notes' part alone is timed in
	// milliseconds, and growing these by doubling is a good part of it.
	entries, size := 0, 0
	for i := range docs {
		entries += len(docs[i].names)
		size += len(docs[i].id) + len(docs[i].kind) + 3
		for _, e := range docs[i].names {
			size += len(e.key) + 2
		}
	}
	num := make(map[string]uint32, min(entries, 1<<12))
	var (
		keyOf []string // by number
		count []uint32 // documents having the key, by number
		last  []int32  // the last document that had the key, by number
	)
	entryKey := make([]uint32, 0, entries) // each name's key number, in order
	fwd := make([]byte, 0, size)
	offs := make([]uint32, len(docs))
	for i := range docs {
		offs[i] = uint32(len(fwd))
		fwd = codec.AppendString(fwd, docs[i].id)
		fwd = codec.AppendString(fwd, docs[i].kind)
		fwd = binary.AppendUvarint(fwd, uint64(len(docs[i].names)))
		for _, e := range docs[i].names {
			fwd = append(codec.AppendString(fwd, e.key), e.field)
			k, ok := num[e.key]
			if !ok {
				k = uint32(len(keyOf))
				num[e.key] = k
				keyOf, count, last = append(keyOf, e.key), append(count, 0), append(last, -1)
			}
			entryKey = append(entryKey, k)
			if last[k] != int32(i) {
				count[k]++
				last[k] = int32(i)
			}
		}
	}
	placed := make([]bool, len(keyOf))
	keys := sortKeys(sorted, len(keyOf), func(k string) bool {
		n, ok := num[k]
		if !ok || placed[n] {
			return false
		}
		placed[n] = true
		return true
	}, func(yield func(string) bool) {
		for n, k := range keyOf {
			if !placed[n] && !yield(k) {
				return
			}
		}
	})
	// The postings, key by key: key n's are at start[n]:start[n+1], each
	// document once, with the stronger (lower) of its fields.
	start := make([]uint32, len(keyOf)+1)
	for n, c := range count {
		start[n+1] = start[n] + c
	}
	fill := slices.Clone(start[:len(keyOf)])
	pdoc := make([]uint32, start[len(keyOf)])
	pfield := make([]uint8, len(pdoc))
	for n := range last {
		last[n] = -1
	}
	at := 0
	for i := range docs {
		for _, e := range docs[i].names {
			k := entryKey[at]
			at++
			if last[k] == int32(i) {
				pfield[fill[k]-1] = min(pfield[fill[k]-1], e.field)
				continue
			}
			last[k] = int32(i)
			pdoc[fill[k]], pfield[fill[k]] = uint32(i), e.field
			fill[k]++
		}
	}
	text, postings := make([]byte, 0, size), make([]byte, 0, 6*entries)
	keyOffs := append(make([]uint32, 0, len(keys)+1), 0)
	postOffs := append(make([]uint32, 0, len(keys)+1), 0)
	for _, k := range keys {
		text = append(text, k...)
		keyOffs = append(keyOffs, uint32(len(text)))
		n := num[k]
		lastDoc := -1
		for p := start[n]; p < start[n+1]; p++ {
			postings = binary.AppendUvarint(postings, uint64(int(pdoc[p])-lastDoc))
			postings = append(postings, pfield[p])
			lastDoc = int(pdoc[p])
		}
		postOffs = append(postOffs, uint32(len(postings)))
	}
	uv := func(n int) int { return codec.UvarintLen(uint64(n)) }
	b := make([]byte, 0, len(magic)+1+uv(len(fwd))+len(fwd)+uv(4*len(offs))+4*len(offs)+uv(len(keys))+
		uv(4*len(keyOffs))+4*len(keyOffs)+uv(len(text))+len(text)+uv(4*len(postOffs))+4*len(postOffs)+uv(len(postings))+len(postings)+4)
	b = append(append(b, magic...), formatVersion)
	b = appendBytes(b, fwd)
	b = appendTable(b, offs)
	b = binary.AppendUvarint(b, uint64(len(keys)))
	b = appendTable(b, keyOffs)
	b = appendBytes(b, text)
	b = appendTable(b, postOffs)
	b = appendBytes(b, postings)
	return codec.Seal(b)
}

// appendBytes appends a bytes section: its length, then the bytes.
func appendBytes(b, sec []byte) []byte {
	return append(binary.AppendUvarint(b, uint64(len(sec))), sec...)
}

// appendTable appends a table: its length in bytes, then each integer,
// little endian.
func appendTable(b []byte, table []uint32) []byte {
	b = binary.AppendUvarint(b, uint64(4*len(table)))
	for _, o := range table {
		b = binary.LittleEndian.AppendUint32(b, o)
	}
	return b
}

// sortKeys returns the n keys of an index in order: those of sorted that
// place takes (it takes each key once), and the rest, which others
// yields, sorted and merged in. When sorted is not strictly ascending
// (the keys of a damaged file that passed its checksum), all are sorted
// anew.
func sortKeys(sorted []string, n int, place func(string) bool, others iter.Seq[string]) []string {
	for i := 1; i < len(sorted); i++ {
		if sorted[i-1] >= sorted[i] {
			sorted = nil
			break
		}
	}
	keys := make([]string, 0, n)
	for _, k := range sorted {
		if place(k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == n {
		return keys
	}
	rest := slices.Sorted(others)
	if len(keys) == 0 {
		return rest
	}
	out := make([]string, 0, n)
	i, j := 0, 0
	for i < len(keys) && j < len(rest) {
		if keys[i] < rest[j] {
			out, i = append(out, keys[i]), i+1
		} else {
			out, j = append(out, rest[j]), j+1
		}
	}
	return append(append(out, keys[i:]...), rest[j:]...)
}

// index is a decoded index file: tables over its bytes.
type index struct {
	fwd, docOffs      []byte
	ndocs, nkeys      int
	keyOffs, keyText  []byte
	postOffs, posting []byte
}

// decode reads an index file, checking the checksum of the whole of it
// when verify is set; the shape of the tables is checked either way, and
// every read of them is bounds-checked.
func decode(data []byte, verify bool) (*index, error) {
	if len(data) < len(magic)+5 {
		return nil, fmt.Errorf("%w: not a rank.names index", errCorrupt)
	}
	if _, err := decodeHeader(data); err != nil {
		return nil, err
	}
	body := data[:len(data)-4]
	if verify {
		var ok bool
		if body, ok = codec.Unseal(data); !ok {
			return nil, fmt.Errorf("%w: checksum mismatch", errCorrupt)
		}
	}
	d := codec.Decoder{B: body[len(magic)+1:], Corrupt: errCorrupt}
	x := &index{fwd: d.Bytes(), docOffs: d.Bytes()}
	x.ndocs = len(x.docOffs) / 4
	x.nkeys = int(d.Uvarint())
	x.keyOffs, x.keyText = d.Bytes(), d.Bytes()
	x.postOffs, x.posting = d.Bytes(), d.Bytes()
	if d.Err != nil || len(d.B) != 0 || len(x.docOffs)%4 != 0 ||
		len(x.keyOffs) != 4*(x.nkeys+1) || len(x.postOffs) != 4*(x.nkeys+1) ||
		offset(x.keyOffs, x.nkeys) != uint32(len(x.keyText)) || offset(x.postOffs, x.nkeys) != uint32(len(x.posting)) {
		return nil, errCorrupt
	}
	return x, nil
}

// decodeHeader checks the magic and the format version an index file
// starts with, and returns what follows them.
func decodeHeader(data []byte) ([]byte, error) {
	if len(data) <= len(magic) || string(data[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w: not a rank.names index", errCorrupt)
	}
	if v := data[len(magic)]; v != formatVersion {
		return nil, fmt.Errorf("%w (%d, this rubi reads %d)", errWrongFormat, v, formatVersion)
	}
	return data[len(magic)+1:], nil
}

func offset(table []byte, i int) uint32 { return binary.LittleEndian.Uint32(table[4*i:]) }

// key returns key i, or nil if the tables are damaged.
func (x *index) key(i int) []byte {
	a, b := offset(x.keyOffs, i), offset(x.keyOffs, i+1)
	if a > b || b > uint32(len(x.keyText)) {
		return nil
	}
	return x.keyText[a:b]
}

// search returns the first key not less than k.
func (x *index) search(k string) int {
	i, j := 0, x.nkeys
	for i < j {
		h := int(uint(i+j) >> 1)
		if string(x.key(h)) < k {
			i = h + 1
		} else {
			j = h
		}
	}
	return i
}

// postings calls fn for each document having key i, with the strongest
// field it has it in.
func (x *index) postings(i int, fn func(doc int, field uint8)) error {
	a, b := offset(x.postOffs, i), offset(x.postOffs, i+1)
	if a > b || b > uint32(len(x.posting)) {
		return errCorrupt
	}
	d := codec.Decoder{B: x.posting[a:b], Corrupt: errCorrupt}
	doc := -1
	for len(d.B) > 0 {
		// Documents ascend: a delta is at least 1 (from -1 to the
		// first), and at most the documents' count, which keeps it
		// from wrapping the number around.
		delta, f := d.Uvarint(), d.Byte()
		if d.Err != nil || delta == 0 || delta > uint64(x.ndocs) || doc+int(delta) >= x.ndocs || f >= numFields {
			return errCorrupt
		}
		doc += int(delta)
		fn(doc, f)
	}
	return nil
}

// df is the number of documents having key i.
func (x *index) df(i int) int {
	n := 0
	if x.postings(i, func(int, uint8) { n++ }) != nil {
		return 0
	}
	return n
}

// doc decodes the id and kind of document i.
func (x *index) doc(i int) (id, kind string, err error) {
	o := offset(x.docOffs, i)
	if o > uint32(len(x.fwd)) {
		return "", "", errCorrupt
	}
	d := codec.Decoder{B: x.fwd[o:], Corrupt: errCorrupt}
	id, kind = d.String(), d.String()
	return id, kind, d.Err
}

// keys decodes every key, in order, as forward decodes documents: out of
// one copy of their text.
func (x *index) keys() []string {
	all := string(x.keyText)
	keys := make([]string, 0, x.nkeys)
	for i := range x.nkeys {
		a, b := offset(x.keyOffs, i), offset(x.keyOffs, i+1)
		if a > b || b > uint32(len(all)) {
			return nil // damaged: encode sorts the keys itself
		}
		keys = append(keys, all[a:b])
	}
	return keys
}

// forward decodes every document with its names. It copies the
// documents' bytes once and slices every string out of that copy: a
// scoped update reads the notes' part whole each time, and allocating
// each id and key on its own was most of that.
func (x *index) forward() ([]doc, error) {
	all := string(x.fwd)
	d := codec.Decoder{B: x.fwd, Corrupt: errCorrupt}
	str := func() string {
		b := d.Bytes()
		end := len(x.fwd) - len(d.B)
		return all[end-len(b) : end]
	}
	docs := make([]doc, 0, x.ndocs)
	var slab []entry // the documents' names, carved from larger blocks
	for len(d.B) > 0 {
		dc := doc{id: str(), kind: str()}
		n := d.Uvarint()
		if n > uint64(len(d.B)) {
			return nil, errCorrupt
		}
		if uint64(cap(slab)-len(slab)) < n {
			slab = make([]entry, 0, max(int(n), 1024))
		}
		dc.names = slab[len(slab) : len(slab)+int(n) : len(slab)+int(n)]
		slab = slab[:len(slab)+int(n)]
		for k := range dc.names {
			dc.names[k] = entry{str(), d.Byte()}
		}
		if d.Err != nil {
			return nil, errCorrupt
		}
		docs = append(docs, dc)
	}
	if len(docs) != x.ndocs {
		return nil, errCorrupt
	}
	return docs, nil
}
