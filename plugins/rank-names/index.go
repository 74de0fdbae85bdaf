package names

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
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

// Index builds the names index from the corpus, or updates it: unless
// corpus.Full, indexed documents neither in corpus.Changed nor gone from
// corpus.Documents keep the names they were indexed with (an incremental
// corpus carries names only for what changed). An incremental corpus the
// index cannot apply gets core.ErrFullIndexNeeded.
func (r *Ranker) Index(ctx context.Context, corpus *core.Corpus) error {
	r.indexMu.Lock()
	defer r.indexMu.Unlock()
	r.mu.RLock()
	dir := r.stateDir
	r.mu.RUnlock()
	if dir == "" {
		return fmt.Errorf("%s: used before Configure", Name)
	}
	old := map[string]*doc{}
	if !corpus.Full {
		mapped, err := store.Map(filepath.Join(dir, stateFile))
		if err != nil {
			return fmt.Errorf("%s: %w: %v", Name, core.ErrFullIndexNeeded, err)
		}
		idx, err := decode(mapped.Data, true) // built on: checked whole
		if err != nil {
			mapped.Close()
			return fmt.Errorf("%s: %w: %v", Name, core.ErrFullIndexNeeded, err)
		}
		// Checked whole: queries may trust it while it stands.
		store.RecordVerified(filepath.Join(dir, stateFile))
		docs, err := idx.forward() // copies what it keeps
		mapped.Close()
		if err != nil {
			return fmt.Errorf("%s: %w: %v", Name, core.ErrFullIndexNeeded, err)
		}
		for i := range docs {
			old[docs[i].id] = &docs[i]
		}
	}
	changed := make(map[string]bool, len(corpus.Changed))
	for _, id := range corpus.Changed {
		changed[id] = true
	}
	seen := make(map[string]bool, len(corpus.Documents))
	docs := make([]doc, 0, len(corpus.Documents))
	for i := range corpus.Documents {
		if i%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		d := &corpus.Documents[i]
		if seen[d.ID] {
			continue
		}
		seen[d.ID] = true
		prev, known := old[d.ID]
		switch {
		case known && !changed[d.ID]:
			docs = append(docs, *prev)
		case !corpus.Full && !known && !changed[d.ID]:
			return fmt.Errorf("%s: %w: %s is not in the index and not marked changed", Name, core.ErrFullIndexNeeded, d.ID)
		default:
			docs = append(docs, doc{id: d.ID, kind: d.Kind, names: namesOf(d)})
		}
	}
	slices.SortFunc(docs, func(a, b doc) int { return strings.Compare(a.id, b.id) })
	if !corpus.Full && sameDocs(docs, old) {
		return nil // an edit that renamed nothing: the file stands
	}
	data := encode(docs)
	if err := store.WriteVerified(filepath.Join(dir, stateFile), data, 0o644); err != nil {
		return fmt.Errorf("%s: %w", Name, err)
	}
	idx, err := decode(data, false) // just encoded
	if err != nil {
		return fmt.Errorf("%s: %w", Name, err) // not reached: data was just encoded
	}
	r.mu.Lock()
	stamp, _ := store.StampOf(filepath.Join(dir, stateFile))
	r.idx, r.stamp = idx, stamp
	r.mu.Unlock()
	return nil
}

// sameDocs reports whether docs are exactly the indexed documents old,
// with the same names.
func sameDocs(docs []doc, old map[string]*doc) bool {
	if len(docs) != len(old) {
		return false
	}
	for i := range docs {
		o, ok := old[docs[i].id]
		if !ok || o.kind != docs[i].kind || !slices.Equal(o.names, docs[i].names) {
			return false
		}
	}
	return true
}

// The index file, rewritten whole by each Index (it holds names only, a
// few bytes per symbol), laid out so a query decodes only what it reads:
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
const (
	stateFile     = "names.idx"
	magic         = "rubi-names\n"
	formatVersion = 1
)

var (
	errCorrupt     = errors.New("the index file is corrupt")
	errWrongFormat = fmt.Errorf("the index file has another format version (%w)", core.ErrOutdated)
)

func encode(docs []doc) []byte {
	type post struct {
		doc   uint32
		field uint8
	}
	byKey := map[string][]post{}
	var fwd []byte
	offs := make([]uint32, len(docs))
	for i := range docs {
		offs[i] = uint32(len(fwd))
		fwd = codec.AppendString(fwd, docs[i].id)
		fwd = codec.AppendString(fwd, docs[i].kind)
		fwd = binary.AppendUvarint(fwd, uint64(len(docs[i].names)))
		for _, e := range docs[i].names {
			fwd = append(codec.AppendString(fwd, e.key), e.field)
			ps := byKey[e.key]
			if n := len(ps); n > 0 && ps[n-1].doc == uint32(i) {
				ps[n-1].field = min(ps[n-1].field, e.field) // the stronger field
				continue
			}
			byKey[e.key] = append(ps, post{uint32(i), e.field})
		}
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b := append([]byte(magic), formatVersion)
	b = binary.AppendUvarint(b, uint64(len(fwd)))
	b = append(b, fwd...)
	b = binary.AppendUvarint(b, uint64(4*len(offs)))
	for _, o := range offs {
		b = binary.LittleEndian.AppendUint32(b, o)
	}
	b = binary.AppendUvarint(b, uint64(len(keys)))
	text, postings := []byte{}, []byte{}
	keyOffs := []uint32{0}
	postOffs := []uint32{0}
	for _, k := range keys {
		text = append(text, k...)
		keyOffs = append(keyOffs, uint32(len(text)))
		last := -1
		for _, p := range byKey[k] {
			postings = binary.AppendUvarint(postings, uint64(int(p.doc)-last))
			postings = append(postings, p.field)
			last = int(p.doc)
		}
		postOffs = append(postOffs, uint32(len(postings)))
	}
	for _, sec := range [][]uint32{keyOffs} {
		b = binary.AppendUvarint(b, uint64(4*len(sec)))
		for _, o := range sec {
			b = binary.LittleEndian.AppendUint32(b, o)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(text)))
	b = append(b, text...)
	b = binary.AppendUvarint(b, uint64(4*len(postOffs)))
	for _, o := range postOffs {
		b = binary.LittleEndian.AppendUint32(b, o)
	}
	b = binary.AppendUvarint(b, uint64(len(postings)))
	b = append(b, postings...)
	return codec.Seal(b)
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
	if len(data) < len(magic)+5 || string(data[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w: not a rank.names index", errCorrupt)
	}
	if v := data[len(magic)]; v != formatVersion {
		return nil, fmt.Errorf("%w (%d, this rubi reads %d)", errWrongFormat, v, formatVersion)
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

// forward decodes every document with its names.
func (x *index) forward() ([]doc, error) {
	d := codec.Decoder{B: x.fwd, Corrupt: errCorrupt}
	docs := make([]doc, 0, x.ndocs)
	for len(d.B) > 0 {
		dc := doc{id: d.String(), kind: d.String()}
		n := d.Uvarint()
		if n > uint64(len(d.B)) {
			return nil, errCorrupt
		}
		dc.names = make([]entry, n)
		for k := range dc.names {
			dc.names[k] = entry{d.String(), d.Byte()}
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
