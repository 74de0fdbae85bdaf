package refs

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core/codec"
	"github.com/rubi-dev/rubi/core/store"
	"github.com/rubi-dev/rubi/core/text"
)

// The table of references: the references of the whole project, on disk
// beside the manifest as .rubi/index/refs-<generation>.bin, written by an
// index run and read by `rubi refs`. The manifest names the generation it
// goes with; a new one is written before the manifest that names it and
// older ones are removed after, as the symbols file is (core/manifest).
//
// It holds each file's definitions (every symbol the parser found, so
// that a target names its candidates without the symbols file being
// searched) and each reference twice: among the references to its
// definition, sorted, which is what `rubi refs` reads, and among the
// references from its file, which is what a graph edge and an index run
// that keeps the other files' references read. A query maps the file,
// checks the header's checksum, finds the definitions of a name by binary
// search and decodes only their references: no decoding of the whole
// table, whose size grows with the project. Layout (integers u32 little
// endian unless said):
//
//	magic "rubi-refs\n"
//	Version, then the counts: strings, files, targets, references;
//	        then the byte lengths of the heap, the postings and the
//	        forward section; the resolvers' signature (a string number)
//	        then the CRC-32C of each 4 KiB block of the body (the
//	        sections below), and the CRC-32C of the header
//	strings  (count + 1) offsets into the heap, from 0, non-decreasing;
//	         string 0 is ""
//	heap     the strings' bytes
//	files    per file, sorted by path: path (a string number), the
//	         offset and count of its references in the forward section
//	targets  per definition, sorted by file number then name: file,
//	         qualified name and kind (string numbers), line, flags (bit 0
//	         the parser found it, bit 1 exported), the offset and count
//	         of its references in the postings
//	names    the target numbers sorted by the last segment of their name
//	         ("Total" for "Cart.Total"), then number
//	postings per target, its references sorted by file, line and column:
//	         uvarint file (the difference from the last one's), line
//	         (the difference within a file, else the line), column,
//	         and from<<2 | impl<<1 | call (from: the string number of
//	         the enclosing definition, 0 at a file's top level; impl: a
//	         method's declaration implementing an interface's method)
//	forward  per file, its references sorted by line, column and target:
//	         uvarint target, line (the difference from the last one's),
//	         column, from<<2 | impl<<1 | call
//	         then the CRC-32C of everything before
//
// A full index run encodes the table whole (Encode); an incremental one
// updates the last one (Update), replacing the definitions and
// references of the files it parsed or resolved again and copying the
// others' as numbers, and writes the result as a new generation.
//
// Damaged or foreign bytes are an error, never a panic: every read is
// bounds-checked; an index run checks the whole file's checksum before it
// keeps anything of it, and a query checks the header's and those of the
// blocks it reads, a few pages of a file of megabytes, so that it answers
// as from the table written or says the table is damaged.

// Magic opens every table of references.
const Magic = "rubi-refs\n"

// Version is the table's format; an older one is rebuilt, not misread.
const Version = 2

// ErrDamaged marks a table that does not decode: truncated, overwritten
// or not a table of references at all.
var ErrDamaged = errors.New("the references table is damaged")

// Def is a definition a file holds, as the table keeps it.
type Def struct {
	// Name is qualified as a Ref's is: "Cart.Total".
	Name     string
	Kind     string
	Line     int
	Exported bool
}

// Table is a project's references in memory: what an index run builds
// and writes, and what it reads back to replace some files' references.
type Table struct {
	// Defs are each file's definitions, Refs each file's references (by
	// the file they are in; a Ref's Path is the defining file).
	Defs map[string][]Def
	Refs map[string][]Ref
	// Resolvers names the resolvers that found the references (their
	// languages): a run with others resolves every file again.
	Resolvers string
}

// File is the path of the table of a generation in the index directory.
func File(dir, generation string) string {
	return filepath.Join(dir, "refs-"+generation+".bin")
}

// Write writes a table's bytes (Encode's, Update's) as a new generation
// in dir, atomically, and returns the generation's name (hex digits, as
// the manifest checks). The version written is recorded beside it
// (store.WriteVerified, VerifyFile).
func Write(dir string, data []byte) (string, error) {
	gen := fmt.Sprintf("%x", time.Now().UnixNano())
	if err := store.WriteVerified(File(dir, gen), data, 0o644); err != nil {
		return "", err
	}
	return gen, nil
}

// RemoveStale removes the tables in dir other than generation's.
func RemoveStale(dir, generation string) {
	stale, _ := filepath.Glob(filepath.Join(dir, "refs-*.bin"))
	for _, f := range stale {
		if generation == "" || f != File(dir, generation) {
			os.Remove(f)
			os.Remove(f + store.WrittenSuffix)
		}
	}
}

const (
	fieldsLen = len(Magic) + 9*4 // magic and the header's fields
	// blockSize is the span of the body each checksum of the header
	// covers: a query checks the blocks it reads, a page at a time.
	blockSize   = 4096
	fileWidth   = 3 * 4
	targetWidth = 7 * 4
	flagDefined = 1
	flagExport  = 2
	// minEntry is the fewest bytes a reference takes in either section.
	minEntry = 4
)

// target is a definition being encoded.
type target struct {
	file       uint32
	name       string
	nameID     uint32 // its string's number, once known
	kind, line uint32
	flags      uint32
}

// Strings numbers strings, each once, in the order they are first given:
// the table's strings section, and what a resolver keeps of the
// references it found until its run ends (core/refs/golang).
type Strings struct {
	strs []string
	ids  map[string]uint32
}

// ID is the number of s, given it now if it has none.
func (t *Strings) ID(s string) uint32 {
	if id, ok := t.ids[s]; ok {
		return id
	}
	if t.ids == nil {
		t.ids = map[string]uint32{}
	}
	id := uint32(len(t.strs))
	t.strs = append(t.strs, s)
	t.ids[s] = id
	return id
}

// At is the string numbered id.
func (t *Strings) At(id uint32) string { return t.strs[id] }

// encoder interns the table's strings; the empty string is 0.
type encoder struct{ Strings }

func (e *encoder) str(s string) uint32 { return e.ID(s) }

func clampU32(n int) uint32 {
	return uint32(min(max(n, 0), math.MaxUint32))
}

// rec is a reference while encoding, but for its file and target.
type rec struct {
	line, col, from uint32
	how             uint8
}

// A reference's kind, in its entry's low bits: it calls the definition
// (Ref.Call), or it is a method's declaration implementing an interface's
// method (Ref.Impl).
const (
	howCall uint8 = 1 << iota
	howImpl
	howBits = 2
)

// howOf is a reference's kind bits.
func howOf(r Ref) uint8 {
	var h uint8
	if r.Call {
		h |= howCall
	}
	if r.Impl {
		h |= howImpl
	}
	return h
}

// draft is a table on its way to bytes: strings numbered, files in path
// order, targets in any order, and the references file by file, each
// file's by line, column and target (in the targets' final order, by
// file then name), as the forward section keeps them.
type draft struct {
	e       *encoder
	sig     uint32
	paths   []string
	pathIDs []uint32
	tlist   []target
	refs    refList // each reference's file and target (in tlist)
}

// tkey names a target while encoding: its file's number and its name.
type tkey struct {
	file uint32
	name string
}

// Encode returns the table in its binary form. The same table encodes to
// the same bytes whatever the order of its lists: the files are taken in
// path order, each one's definitions by name and references by line,
// column and definition, and strings are numbered as they come. An index
// run compares the bytes with the last table's to keep it when nothing
// changed; a project of a million references encodes in a few hundred
// milliseconds, as an incremental run writes it whole. It is an Encoder
// given the table's files in order.
func (t *Table) Encode() ([]byte, error) {
	enc, err := t.encoder()
	if err != nil {
		return nil, err
	}
	return enc.Encode()
}

// encoder is an Encoder given every file of the table: each that
// defines, refers or is referred to, in path order.
func (t *Table) encoder() (*Encoder, error) {
	fileSet := map[string]bool{}
	for p := range t.Defs {
		fileSet[p] = true
	}
	for p, rs := range t.Refs {
		fileSet[p] = true
		for _, r := range rs {
			fileSet[r.Path] = true
		}
	}
	paths := slices.Sorted(maps.Keys(fileSet))
	enc := NewEncoder(t.Resolvers, paths)
	for _, p := range paths {
		if err := enc.Add(p, t.Defs[p], t.Refs[p]); err != nil {
			return nil, err
		}
	}
	return enc, nil
}

// Encoder encodes a table given one file at a time, in path order, so
// that the references of a project need not all be held as Refs at
// once: what it keeps of each is a fifth of a Ref (the draft's numbers).
// The bytes are those Table.Encode makes of the same files.
type Encoder struct {
	d       *draft
	fileNum map[string]uint32
	// next is the number of the file Add takes next, or a later one.
	next int
	// The targets as they are met (tnum, in tlist), keyed by the file's
	// number and the name's, which keeps the map's keys integers: a key
	// holding the string costs several times more a lookup, and a large
	// project makes millions.
	nameNum    map[string]uint32
	names      []string // by number: each name's first string, which the targets share
	tnum       map[uint64]uint32
	sortedDefs []Def
	sortedRefs []Ref
}

// NewEncoder starts a table of the resolvers' signature over paths,
// sorted: every file that defines, refers or is referred to, none
// twice.
func NewEncoder(resolvers string, paths []string) *Encoder {
	e := &encoder{}
	e.str("")
	d := &draft{e: e, paths: paths, pathIDs: make([]uint32, len(paths))}
	d.sig = e.str(resolvers)
	fileNum := make(map[string]uint32, len(paths))
	for i, p := range paths {
		fileNum[p] = uint32(i)
	}
	return &Encoder{d: d, fileNum: fileNum, nameNum: map[string]uint32{}, tnum: map[uint64]uint32{}}
}

func (enc *Encoder) targetOf(k tkey) uint32 {
	d := enc.d
	nn, ok := enc.nameNum[k.name]
	if !ok {
		nn = uint32(len(enc.names))
		enc.nameNum[k.name] = nn
		enc.names = append(enc.names, k.name)
	}
	key := uint64(k.file)<<32 | uint64(nn)
	if n, ok := enc.tnum[key]; ok {
		return n
	}
	n := uint32(len(d.tlist))
	enc.tnum[key] = n
	// The name's first string, not k's: the definitions and references
	// given come with strings of their own (a symbols file's line decoded,
	// a resolver's answer), and a target holding each would keep every
	// copy of a common name until the table is written.
	d.tlist = append(d.tlist, target{file: k.file, name: enc.names[nn]})
	return n
}

// Add adds the definitions and the references of file path, which
// comes after the last one added among the encoder's paths; the files
// not added between are taken as defining and referring to nothing. A
// reference's target must be among the paths. Neither list is kept.
func (enc *Encoder) Add(path string, defs []Def, refs []Ref) error {
	d, e := enc.d, enc.d.e
	fn, ok := enc.fileNum[path]
	if !ok || int(fn) < enc.next {
		return fmt.Errorf("references table: %s added out of order or not among its files", path)
	}
	enc.skipTo(int(fn))
	fi := int(fn)
	d.pathIDs[fi] = e.str(path)
	enc.next = fi + 1
	enc.sortedDefs = append(enc.sortedDefs[:0], defs...)
	slices.SortStableFunc(enc.sortedDefs, func(a, b Def) int { return cmp.Or(strings.Compare(a.Name, b.Name), cmp.Compare(a.Line, b.Line)) })
	for i, def := range enc.sortedDefs {
		if i > 0 && def.Name == enc.sortedDefs[i-1].Name {
			continue // the first definition of a name in a file
		}
		n := enc.targetOf(tkey{uint32(fi), def.Name})
		flags := uint32(flagDefined)
		if def.Exported {
			flags |= flagExport
		}
		d.tlist[n].kind, d.tlist[n].line, d.tlist[n].flags = e.str(def.Kind), clampU32(def.Line), flags
	}
	enc.sortedRefs = append(enc.sortedRefs[:0], refs...)
	slices.SortFunc(enc.sortedRefs, func(a, b Ref) int {
		return cmp.Or(cmp.Compare(clampU32(a.Line), clampU32(b.Line)), cmp.Compare(clampU32(a.Col), clampU32(b.Col)),
			strings.Compare(a.Path, b.Path), strings.Compare(a.Name, b.Name), strings.Compare(a.From, b.From), boolCmp(a.Call, b.Call), boolCmp(a.Impl, b.Impl))
	})
	enc.sortedRefs = slices.Compact(enc.sortedRefs)
	lastFrom, fromID := "", uint32(0)
	for _, r := range enc.sortedRefs {
		tf, ok := enc.fileNum[r.Path]
		if !ok {
			return fmt.Errorf("references table: %s refers to %s, not among its files", path, r.Path)
		}
		if r.From != lastFrom {
			lastFrom, fromID = r.From, e.str(r.From)
		}
		d.refs.add(uint32(fi), enc.targetOf(tkey{tf, r.Name}), rec{clampU32(r.Line), clampU32(r.Col), fromID, howOf(r)})
	}
	clear(enc.sortedRefs) // no strings held past the call
	return nil
}

// skipTo numbers the paths' strings up to file number fi, as files with
// nothing.
func (enc *Encoder) skipTo(fi int) {
	for ; enc.next < fi; enc.next++ {
		enc.d.pathIDs[enc.next] = enc.d.e.str(enc.d.paths[enc.next])
	}
}

// Encode returns the table's bytes, once every file is added.
func (enc *Encoder) Encode() ([]byte, error) {
	enc.finish()
	return enc.d.encode()
}

// finish lets go of what only adding files needed.
func (enc *Encoder) finish() {
	enc.skipTo(len(enc.d.paths))
	enc.nameNum, enc.names, enc.tnum, enc.sortedDefs, enc.sortedRefs = nil, nil, nil, nil, nil
}

// WriteEncoded writes the table enc encodes, once every file is added,
// as Write writes a table's bytes, without holding them: the bytes go to
// the file as they are laid out (a large project's table is over a
// hundred megabytes). It returns the generation and the number of
// references.
func WriteEncoded(dir string, enc *Encoder) (string, int, error) {
	enc.finish()
	gen := fmt.Sprintf("%x", time.Now().UnixNano())
	path := File(dir, gen)
	w, err := store.CreateWriter(path, 0o644)
	if err != nil {
		return "", 0, err
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	err = enc.d.encodeTo(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = w.Commit()
	} else {
		w.Abort()
	}
	if err != nil {
		return "", 0, err
	}
	store.RecordVerified(path)
	return gen, enc.d.refs.len(), nil
}

// plan is a draft measured for its bytes: the targets' final order, and
// where each target's postings and each file's forward entries start,
// so that the table can be laid out in one pass, into one buffer of its
// size or into a file: on a large project (200,000 files, a table of 147
// MB) assembling the sections and then the file held them three times
// over at the index run's largest.
type plan struct {
	d            *draft
	order, final []uint32 // the targets laid out, in order; a target's place in it
	nameIDs      []uint32
	// post is the postings section: target i's from postAt[i], nposts[i]
	// entries.
	post             []byte
	postAt, nposts   []uint32
	fwAt, nfw        []uint32
	names            []uint32 // the names section
	heapLen, postLen int
	fwLen, bodyLen   int
	nblocks          int
}

// plan measures the draft and lays out its postings. A target neither
// defined nor referred to is left out.
func (d *draft) plan() (*plan, error) {
	e, paths, tlist := d.e, d.paths, d.tlist
	p := &plan{d: d}
	used := make([]bool, len(tlist))
	p.nfw = make([]uint32, len(paths))
	d.refs.each(func(file, t uint32, _ rec) {
		used[t] = true
		p.nfw[file]++
	})
	// Final numbers: by file, then name.
	order := make([]uint32, 0, len(tlist))
	for i := range tlist {
		if used[i] || tlist[i].flags&flagDefined != 0 {
			order = append(order, uint32(i))
		}
	}
	used = nil
	slices.SortFunc(order, func(x, y uint32) int {
		return cmp.Or(cmp.Compare(tlist[x].file, tlist[y].file), strings.Compare(tlist[x].name, tlist[y].name))
	})
	final := make([]uint32, len(tlist))
	for i, n := range order {
		final[n] = uint32(i)
	}
	nameIDs := make([]uint32, len(order))
	for i, n := range order {
		nameIDs[i] = tlist[n].nameID
		if nameIDs[i] == 0 && tlist[n].name != "" {
			nameIDs[i] = e.str(tlist[n].name)
		}
	}
	p.order, p.final, p.nameIDs = order, final, nameIDs

	// Postings: each target's references, in the order they come (by
	// file, line and column), each entry's file and line the
	// differences from the target's last one. Measured, then laid out
	// where each target's start.
	// at is first each target's postings' length, then where its next
	// entry goes: a large project has millions of targets, and each
	// array over them is megabytes at the step's peak.
	at := make([]uint32, len(order))
	p.nposts = make([]uint32, len(order))
	tooLong := false
	p.eachPosting(func(ti, a, line, col, from uint32, how uint8) {
		n := uint64(at[ti]) + uint64(entryLen(a, line, col, from, how))
		tooLong = tooLong || n >= math.MaxUint32
		at[ti] = uint32(n)
		p.nposts[ti]++
	})
	p.postAt = make([]uint32, len(order))
	var postLen uint64
	for ti, n := range at {
		p.postAt[ti], at[ti] = uint32(postLen), uint32(postLen)
		postLen += uint64(n)
		tooLong = tooLong || postLen >= math.MaxUint32
	}
	if tooLong {
		return nil, fmt.Errorf("the references table outgrows %d bytes", uint32(math.MaxUint32))
	}
	p.postLen = int(postLen)
	p.post = make([]byte, p.postLen)
	p.eachPosting(func(ti, a, line, col, from uint32, how uint8) {
		at[ti] += uint32(len(appendEntry(p.post[at[ti]:at[ti]], a, line, col, from, how)))
	})
	at = nil

	fwLen := uint64(0)
	p.fwAt = make([]uint32, len(paths))
	last := -1
	p.eachForward(func(fi, a, line, col, from uint32, how uint8) {
		if int(fi) != last {
			p.fwAt[fi], last = uint32(min(fwLen, math.MaxUint32)), int(fi)
		}
		fwLen += uint64(entryLen(a, line, col, from, how))
	})
	p.fwLen = int(min(fwLen, math.MaxUint32))
	for _, s := range e.strs {
		p.heapLen += len(s)
	}
	for _, n := range []int{p.heapLen, p.postLen, p.fwLen, len(e.strs), d.refs.len()} {
		if n >= math.MaxUint32 {
			return nil, fmt.Errorf("the references table outgrows %d bytes", uint32(math.MaxUint32))
		}
	}
	p.names = make([]uint32, len(order))
	segAt := make([]uint32, len(order)) // where the last segment of each target's name starts
	for i, n := range order {
		name := tlist[n].name
		p.names[i], segAt[i] = uint32(i), uint32(len(name)-len(lastSegment(name)))
	}
	slices.SortFunc(p.names, func(x, y uint32) int {
		return cmp.Or(strings.Compare(tlist[order[x]].name[segAt[x]:], tlist[order[y]].name[segAt[y]:]), cmp.Compare(x, y))
	})
	p.bodyLen = 4*(len(e.strs)+1) + p.heapLen + fileWidth*len(paths) + (targetWidth+4)*len(order) + p.postLen + p.fwLen
	p.nblocks = (p.bodyLen + blockSize - 1) / blockSize
	return p, nil
}

// eachPosting calls fn with each reference as its target's postings
// hold it (target ti, in the final order), in the order of the
// references: each target's in the postings' order.
func (p *plan) eachPosting(fn func(ti, a, line, col, from uint32, how uint8)) {
	// A target's last file and line: a target's first entry is its
	// difference from file 0, line 0, which is the entry itself.
	lastFile := make([]uint32, len(p.order))
	lastLine := make([]uint32, len(p.order))
	p.d.refs.each(func(file, t uint32, r rec) {
		ti := p.final[t]
		fileDelta, line := file-lastFile[ti], r.line
		if file == lastFile[ti] {
			line -= lastLine[ti]
		}
		fn(ti, fileDelta, line, r.col, r.from, r.how)
		lastFile[ti], lastLine[ti] = file, r.line
	})
}

// eachForward calls fn with each file's forward entries (file fi), as
// they came: by line, column and target.
func (p *plan) eachForward(fn func(fi, a, line, col, from uint32, how uint8)) {
	last, lastLine := int64(-1), uint32(0)
	p.d.refs.each(func(file, t uint32, r rec) {
		if int64(file) != last {
			last, lastLine = int64(file), 0
		}
		fn(file, p.final[t], r.line-lastLine, r.col, r.from, r.how)
		lastLine = r.line
	})
}

// headLen is the length of the header: the magic, the fields, the
// blocks' checksums and the header's.
func (p *plan) headLen() int { return fieldsLen + 4*p.nblocks + 4 }

// head appends the header to b, sums being the blocks' checksums.
func (p *plan) head(b []byte, sums []uint32) []byte {
	e := p.d.e
	b = append(b, Magic...)
	for _, v := range []int{Version, len(e.strs), len(p.d.paths), len(p.order), p.d.refs.len(), p.heapLen, p.postLen, p.fwLen, int(p.d.sig)} {
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	at := len(b)
	b = appendU32s(b, sums...)
	return binary.LittleEndian.AppendUint32(b, codec.Sum(b[at-fieldsLen:]))
}

// body lays out the table's body, handing it to emit in pieces (each
// valid only during the call), and checks that it is as long as
// measured.
func (p *plan) body(emit func([]byte)) error {
	const piece = 64 << 10
	d, e := p.d, p.d.e
	b := make([]byte, 0, piece+64)
	n := 0
	flush := func(force bool) {
		if len(b) >= piece || (force && len(b) > 0) {
			emit(b)
			n += len(b)
			b = b[:0]
		}
	}
	off := 0
	for _, s := range e.strs {
		b = binary.LittleEndian.AppendUint32(b, uint32(off))
		off += len(s)
		flush(false)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(off))
	for _, s := range e.strs {
		b = append(b, s...)
		flush(false)
	}
	for i := range d.paths {
		b = appendU32s(b, d.pathIDs[i], p.fwAt[i], p.nfw[i])
		flush(false)
	}
	for i, n := range p.order {
		tg := &d.tlist[n]
		b = appendU32s(b, tg.file, p.nameIDs[i], tg.kind, tg.line, tg.flags, p.postAt[i], p.nposts[i])
		flush(false)
	}
	for _, n := range p.names {
		b = binary.LittleEndian.AppendUint32(b, n)
		flush(false)
	}
	flush(true)
	for post := p.post; len(post) > 0; {
		k := min(len(post), piece)
		emit(post[:k])
		n += k
		post = post[k:]
	}
	p.eachForward(func(_, a, line, col, from uint32, how uint8) {
		b = appendEntry(b, a, line, col, from, how)
		flush(false)
	})
	flush(true)
	if n != p.bodyLen {
		return fmt.Errorf("the references table: %d bytes laid out, %d measured", n, p.bodyLen) // not reached
	}
	return nil
}

// encode lays the draft out in the table's binary form, in memory.
func (d *draft) encode() ([]byte, error) {
	p, err := d.plan()
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, p.headLen()+p.bodyLen+4)
	b = b[:p.headLen()]
	if err := p.body(func(piece []byte) { b = append(b, piece...) }); err != nil {
		return nil, err
	}
	body := b[p.headLen():]
	sums := make([]uint32, 0, p.nblocks)
	for i := 0; i < len(body); i += blockSize {
		sums = append(sums, codec.Sum(body[i:min(i+blockSize, len(body))]))
	}
	p.head(b[:0], sums)
	return codec.Seal(b), nil
}

// encodeTo writes the table's binary form to w, laying the body out
// twice: once for the blocks' checksums, which the header holds, then
// into w. Nothing of the size of the table is held.
func (d *draft) encodeTo(w io.Writer) error {
	p, err := d.plan()
	if err != nil {
		return err
	}
	sums := make([]uint32, 0, p.nblocks)
	var block, filled uint32 // the current block's checksum so far, and its bytes
	err = p.body(func(piece []byte) {
		for len(piece) > 0 {
			k := min(len(piece), blockSize-int(filled))
			block = codec.Update(block, piece[:k])
			filled += uint32(k)
			piece = piece[k:]
			if filled == blockSize {
				sums = append(sums, block)
				block, filled = 0, 0
			}
		}
	})
	if err != nil {
		return err
	}
	if filled > 0 {
		sums = append(sums, block)
	}
	head := p.head(nil, sums)
	crc := codec.Sum(head)
	if _, err := w.Write(head); err != nil {
		return err
	}
	var werr error
	err = p.body(func(piece []byte) {
		if werr == nil {
			crc = codec.Update(crc, piece)
			_, werr = w.Write(piece)
		}
	})
	if err == nil {
		err = werr
	}
	if err == nil {
		_, err = w.Write(binary.LittleEndian.AppendUint32(nil, crc))
	}
	return err
}

// entryLen is the length of appendEntry's entry.
func entryLen(a, line, col, from uint32, how uint8) int {
	return codec.UvarintLen(uint64(a)) + codec.UvarintLen(uint64(line)) + codec.UvarintLen(uint64(col)) + codec.UvarintLen(uint64(from)<<howBits|uint64(how))
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

func appendU32s(b []byte, vs ...uint32) []byte {
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	return b
}

func appendEntry(b []byte, a, line, col, from uint32, how uint8) []byte {
	b = binary.AppendUvarint(b, uint64(a))
	b = binary.AppendUvarint(b, uint64(line))
	b = binary.AppendUvarint(b, uint64(col))
	return binary.AppendUvarint(b, uint64(from)<<howBits|uint64(how))
}

// lastSegment is what a name is looked up by: "Total" of "Cart.Total".
func lastSegment(name string) string {
	return name[strings.LastIndexByte(name, '.')+1:]
}

// section is one of a table's sections and where it starts in the body.
type section struct {
	b  []byte
	at int
}

// layout is where a table's sections are, from its header, and which
// blocks of its body a query has checked. A block that does not match
// its checksum makes err ErrDamaged: whatever was read then is zeros,
// and every method of the reader returns err.
type layout struct {
	nstr, nfile, ntarget, nref uint32
	sig                        uint32
	strs, heap, files          section
	targets, names, post, fwd  section
	body                       []byte
	sums                       []byte // a checksum per block of the body
	checked                    []bool
	err                        error
}

// parse checks the header (magic, version, its checksum, which covers
// the blocks' checksums) and slices the sections; the blocks are checked
// as they are read, and the trailer's checksum is Verify's and Decode's.
func parse(data []byte) (*layout, error) {
	if len(data) < len(Magic) || string(data[:len(Magic)]) != Magic {
		return nil, fmt.Errorf("%w: not a rubi references table", ErrDamaged)
	}
	if len(data) < fieldsLen+8 {
		return nil, fmt.Errorf("%w: truncated", ErrDamaged)
	}
	h := data[len(Magic):fieldsLen]
	u := func(i int) uint32 { return binary.LittleEndian.Uint32(h[4*i:]) }
	if v := u(0); v != Version {
		return nil, fmt.Errorf("%w: format %d, this rubi writes %d", ErrDamaged, v, Version)
	}
	l := &layout{nstr: u(1), nfile: u(2), ntarget: u(3), nref: u(4), sig: u(8)}
	heapLen, postLen, fwdLen := uint64(u(5)), uint64(u(6)), uint64(u(7))
	sizes := []uint64{4 * (uint64(l.nstr) + 1), heapLen, fileWidth * uint64(l.nfile), targetWidth * uint64(l.ntarget), 4 * uint64(l.ntarget), postLen, fwdLen}
	var bodyLen uint64
	for _, s := range sizes {
		bodyLen += s
	}
	nblocks := (bodyLen + blockSize - 1) / blockSize
	headLen := uint64(fieldsLen) + 4*nblocks
	if headLen+4+bodyLen+4 != uint64(len(data)) || l.nstr == 0 || l.sig >= l.nstr {
		return nil, fmt.Errorf("%w: its sections do not add up to its size", ErrDamaged)
	}
	if codec.Sum(data[:headLen]) != binary.LittleEndian.Uint32(data[headLen:]) {
		return nil, fmt.Errorf("%w: header checksum mismatch", ErrDamaged)
	}
	l.sums = data[fieldsLen:headLen]
	l.checked = make([]bool, nblocks)
	l.body = data[headLen+4 : uint64(len(data))-4]
	var at uint64
	sec := make([]section, len(sizes))
	for i, s := range sizes {
		sec[i] = section{b: l.body[at : at+s : at+s], at: int(at)}
		at += s
	}
	l.strs, l.heap, l.files, l.targets, l.names, l.post, l.fwd = sec[0], sec[1], sec[2], sec[3], sec[4], sec[5], sec[6]
	return l, nil
}

// read returns bytes from to to of section s, once the blocks holding
// them match their checksums; zeros when one does not.
func (l *layout) read(s section, from, to int) []byte {
	if from < 0 || to > len(s.b) || from > to {
		l.fail()
		return make([]byte, max(to-from, 0))
	}
	for blk := (s.at + from) / blockSize; blk*blockSize < s.at+to; blk++ {
		if l.checked[blk] {
			continue
		}
		end := min((blk+1)*blockSize, len(l.body))
		if codec.Sum(l.body[blk*blockSize:end]) != binary.LittleEndian.Uint32(l.sums[4*blk:]) {
			l.fail()
			return make([]byte, to-from)
		}
		l.checked[blk] = true
	}
	return s.b[from:to]
}

func (l *layout) fail() {
	if l.err == nil {
		l.err = fmt.Errorf("%w: a block does not match its checksum", ErrDamaged)
	}
}

// trust marks every block checked: the whole file's checksum was.
func (l *layout) trust() {
	for i := range l.checked {
		l.checked[i] = true
	}
}

func (l *layout) u32(s section, i uint32) uint32 {
	at := 4 * int(i)
	return binary.LittleEndian.Uint32(l.read(s, at, at+4))
}

// str returns string i, or an error when its bounds are out of order.
func (l *layout) str(i uint32) (string, error) {
	b := l.strBytes(i)
	if b == nil {
		return "", cmp.Or(l.err, fmt.Errorf("%w: string %d out of bounds", ErrDamaged, i))
	}
	return string(b), nil
}

// strBytes is str without the copy, for comparisons; nil when out of
// bounds.
func (l *layout) strBytes(i uint32) []byte {
	if i >= l.nstr {
		return nil
	}
	from, to := l.u32(l.strs, i), l.u32(l.strs, i+1)
	if from > to || uint64(to) > uint64(len(l.heap.b)) {
		return nil
	}
	return l.read(l.heap, int(from), int(to))
}

// targetAt returns the fields of target i.
func (l *layout) targetAt(i uint32) [7]uint32 {
	var t [7]uint32
	b := l.read(l.targets, int(i)*targetWidth, int(i+1)*targetWidth)
	for k := range t {
		t[k] = binary.LittleEndian.Uint32(b[4*k:])
	}
	return t
}

func (l *layout) fileAt(i uint32) [3]uint32 {
	b := l.read(l.files, int(i)*fileWidth, int(i+1)*fileWidth)
	return [3]uint32{binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:])}
}

// maxEntry is the most bytes a reference takes: four uvarints of 32 bits.
const maxEntry = 4 * binary.MaxVarintLen32

// entries decodes count entries from section sec at off, each as four
// uvarints and a call bit.
func (l *layout) entries(sec section, off, count uint32, fn func(a, line, col, from uint32, how uint8) error) error {
	if uint64(off) > uint64(len(sec.b)) || uint64(count)*minEntry > uint64(len(sec.b))-uint64(off) {
		return fmt.Errorf("%w: references out of bounds", ErrDamaged)
	}
	end := int(min(uint64(len(sec.b)), uint64(off)+uint64(count)*maxEntry))
	d := codec.Decoder{B: l.read(sec, int(off), end), Corrupt: ErrDamaged}
	if l.err != nil {
		return l.err
	}
	for range count {
		a, line, col, v := d.Uvarint(), d.Uvarint(), d.Uvarint(), d.Uvarint()
		if d.Err != nil || a > math.MaxUint32 || line > math.MaxUint32 || col > math.MaxUint32 || v>>howBits > math.MaxUint32 {
			return fmt.Errorf("%w: a reference does not decode", ErrDamaged)
		}
		if err := fn(uint32(a), uint32(line), uint32(col), uint32(v>>howBits), uint8(v&(1<<howBits-1))); err != nil {
			return err
		}
	}
	return nil
}

// Verify checks every byte of a table against its checksum without
// decoding it, as an index run that changed no code does, and returns
// the resolvers' signature and its count of references.
func Verify(data []byte) (resolvers string, references int, err error) {
	l, err := parse(data)
	if err != nil {
		return "", 0, err
	}
	if _, ok := codec.Unseal(data); !ok {
		return "", 0, fmt.Errorf("%w: checksum mismatch", ErrDamaged)
	}
	l.trust()
	sig, err := l.str(l.sig)
	return sig, int(l.nref), err
}

// VerifyFile is Verify of data, the bytes of the table file, for an index
// run that changed no code: a file that is the very version Write wrote
// (store.Unchanged) has its header and the block of the resolvers'
// signature checked, not every byte, and one checked whole is recorded
// as such for the next run.
func VerifyFile(file string, data []byte) (resolvers string, references int, err error) {
	if !store.Unchanged(file) {
		resolvers, references, err = Verify(data)
		if err == nil {
			store.RecordVerified(file)
		}
		return resolvers, references, err
	}
	l, err := parse(data)
	if err != nil {
		return "", 0, err
	}
	sig, err := l.str(l.sig)
	return sig, int(l.nref), err
}

// Decode reads a whole table, checking every byte: what an index run
// does before it keeps the references of the files that did not change.
func Decode(data []byte) (*Table, error) {
	l, err := parse(data)
	if err != nil {
		return nil, err
	}
	if _, ok := codec.Unseal(data); !ok {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrDamaged)
	}
	l.trust()
	t := &Table{Defs: map[string][]Def{}, Refs: map[string][]Ref{}}
	if t.Resolvers, err = l.str(l.sig); err != nil {
		return nil, err
	}
	paths := make([]string, l.nfile)
	for i := range l.nfile {
		f := l.fileAt(i)
		if paths[i], err = l.str(f[0]); err != nil {
			return nil, err
		}
		if i > 0 && paths[i] <= paths[i-1] {
			return nil, fmt.Errorf("%w: files out of order", ErrDamaged)
		}
	}
	targets := make([]Target, l.ntarget)
	strs := &strCache{l: l, s: make([]string, l.nstr), done: make([]bool, l.nstr)}
	var defs []Def
	for i := range l.ntarget {
		f := l.targetAt(i)
		if f[0] >= l.nfile {
			return nil, fmt.Errorf("%w: target %d in file %d of %d", ErrDamaged, i, f[0], l.nfile)
		}
		name, err := strs.get(f[1])
		if err != nil {
			return nil, err
		}
		kind, err := strs.get(f[2])
		if err != nil {
			return nil, err
		}
		targets[i] = Target{Path: paths[f[0]], Name: name, Kind: kind, Line: int(f[3]), Defined: f[4]&flagDefined != 0, Exported: f[4]&flagExport != 0}
		if i > 0 && targets[i-1].Path != targets[i].Path && len(defs) > 0 {
			t.Defs[targets[i-1].Path], defs = defs, nil
		}
		if tg := &targets[i]; tg.Defined {
			defs = append(defs, Def{Name: tg.Name, Kind: tg.Kind, Line: tg.Line, Exported: tg.Exported})
		}
	}
	if len(defs) > 0 {
		t.Defs[targets[len(targets)-1].Path] = defs
	}
	// A million references name a few thousand enclosing definitions:
	// each is made a string once.
	for i := range l.nfile {
		f := l.fileAt(i)
		if f[2] == 0 {
			continue
		}
		var line uint32
		refs := make([]Ref, 0, min(f[2], uint32(len(l.fwd.b)/minEntry)))
		err := l.entries(l.fwd, f[1], f[2], func(ti, dline, col, from uint32, how uint8) error {
			if ti >= l.ntarget {
				return fmt.Errorf("%w: a reference to target %d of %d", ErrDamaged, ti, l.ntarget)
			}
			line += dline
			fromName, err := strs.get(from)
			if err != nil {
				return err
			}
			tg := &targets[ti]
			refs = append(refs, Ref{Line: int(line), Col: int(col), Path: tg.Path, Name: tg.Name, From: fromName, Call: how&howCall != 0, Impl: how&howImpl != 0})
			return nil
		})
		if err != nil {
			return nil, err
		}
		t.Refs[paths[i]] = refs
	}
	return t, nil
}

// strCache makes each string of a table once.
type strCache struct {
	l    *layout
	s    []string
	done []bool
}

func (c *strCache) get(i uint32) (string, error) {
	if i < uint32(len(c.s)) && c.done[i] {
		return c.s[i], nil
	}
	s, err := c.l.str(i)
	if err == nil {
		c.s[i], c.done[i] = s, true
	}
	return s, err
}

// Target is a definition the table holds: one the parser found, or one
// a resolver referred to.
type Target struct {
	id       uint32
	Path     string
	Name     string // qualified
	Kind     string
	Line     int
	Exported bool
	// Defined says the parser found it (a resolver may refer to what it
	// did not list, a struct field say).
	Defined bool
	// Count is the number of references to it.
	Count int
	post  uint32
}

// Reader reads a table a query mapped: it checks the header and decodes
// only what each lookup needs.
type Reader struct {
	l      *layout
	mapped *store.Mapped
}

// Open maps the table of generation in dir for queries. oneShot is the
// caller's process answering once (core/store.Map).
func Open(dir, generation string, oneShot bool) (*Reader, error) {
	m, err := store.Map(File(dir, generation), oneShot)
	if err != nil {
		return nil, err
	}
	l, err := parse(m.Data)
	if err != nil {
		m.Close()
		return nil, err
	}
	return &Reader{l: l, mapped: m}, nil
}

// NewReader reads a table held in memory (for tests and fuzzing).
func NewReader(data []byte) (*Reader, error) {
	l, err := parse(data)
	if err != nil {
		return nil, err
	}
	return &Reader{l: l}, nil
}

// Close releases the mapping; what the reader returned stays valid (its
// strings are copies).
func (r *Reader) Close() error {
	if r.mapped == nil {
		return nil
	}
	return r.mapped.Close()
}

// Resolvers is the signature of the resolvers that wrote the table.
func (r *Reader) Resolvers() (string, error) { return r.l.str(r.l.sig) }

// Counts are the table's files, definitions and references.
func (r *Reader) Counts() (files, targets, references int) {
	return int(r.l.nfile), int(r.l.ntarget), int(r.l.nref)
}

func (r *Reader) target(i uint32) (Target, error) {
	l := r.l
	if i >= l.ntarget {
		return Target{}, fmt.Errorf("%w: target %d of %d", ErrDamaged, i, l.ntarget)
	}
	f := l.targetAt(i)
	if f[0] >= l.nfile {
		return Target{}, fmt.Errorf("%w: target %d in file %d of %d", ErrDamaged, i, f[0], l.nfile)
	}
	p, err := l.str(l.fileAt(f[0])[0])
	if err != nil {
		return Target{}, err
	}
	name, err := l.str(f[1])
	if err != nil {
		return Target{}, err
	}
	kind, err := l.str(f[2])
	if err != nil {
		return Target{}, err
	}
	if l.err != nil {
		return Target{}, l.err
	}
	return Target{id: i, Path: p, Name: name, Kind: kind, Line: int(f[3]), Defined: f[4]&flagDefined != 0,
		Exported: f[4]&flagExport != 0, post: f[5], Count: int(f[6])}, nil
}

// Lookup returns the definitions whose name ends in name (the last
// segment of a qualified one: Lookup("Total") finds Cart.Total), in
// table order (by path, then name).
func (r *Reader) Lookup(name string) ([]Target, error) {
	l := r.l
	seg := func(i int) string {
		ti := l.u32(l.names, uint32(i))
		if ti >= l.ntarget {
			return ""
		}
		return lastSegment(string(l.strBytes(l.targetAt(ti)[1])))
	}
	n := int(l.ntarget)
	i := sort.Search(n, func(i int) bool { return seg(i) >= name })
	var out []Target
	for ; i < n && seg(i) == name; i++ {
		ti := l.u32(l.names, uint32(i))
		t, err := r.target(ti)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	if l.err != nil {
		return nil, l.err
	}
	slices.SortFunc(out, func(a, b Target) int { return cmp.Compare(a.id, b.id) })
	return out, nil
}

// Near returns up to n names the table defines that look like name (a
// letter's case, a typo, a prefix): what a name it does not define may
// have meant, for "did you mean". Only the names around where name would
// sort, and where it would with its first letter's case changed, are
// looked at: no scan of the table.
func (r *Reader) Near(name string, n int) ([]string, error) {
	l := r.l
	total := int(l.ntarget)
	seg := func(i int) string {
		ti := l.u32(l.names, uint32(i))
		if ti >= l.ntarget {
			return ""
		}
		return lastSegment(string(l.strBytes(l.targetAt(ti)[1])))
	}
	starts := []string{name}
	if name != "" {
		first := name[:1]
		if up := strings.ToUpper(first); up != first {
			starts = append(starts, up+name[1:])
		} else {
			starts = append(starts, strings.ToLower(first)+name[1:])
		}
	}
	const around = 8
	var out []string
	for _, s := range starts {
		at := sort.Search(total, func(i int) bool { return seg(i) >= s })
		for i := max(at-around, 0); i < min(at+around, total); i++ {
			c := seg(i)
			if c == "" || c == name || slices.Contains(out, c) {
				continue
			}
			if text.Distance(strings.ToLower(c), strings.ToLower(name), 2) <= 2 || len(name) >= 3 && strings.HasPrefix(c, name) {
				out = append(out, c)
			}
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		return cmp.Or(cmp.Compare(text.Distance(a, name, 8), text.Distance(b, name, 8)), strings.Compare(a, b))
	})
	if l.err != nil {
		return nil, l.err
	}
	return out[:min(len(out), n)], nil
}

// Site is a reference and the file it is in.
type Site struct {
	File string `json:"file"`
	Ref
}

// To returns the references to t (from Lookup), sorted by file, line
// and column.
func (r *Reader) To(t Target) ([]Site, error) {
	l := r.l
	paths := map[uint32]string{}
	var file, line uint32
	out := make([]Site, 0, min(t.Count, len(l.post.b)/minEntry))
	first := true
	err := l.entries(l.post, t.post, uint32(t.Count), func(df, dl, col, from uint32, how uint8) error {
		if first || df != 0 {
			file += df
			line = dl
		} else {
			line += dl
		}
		first = false
		if file >= l.nfile {
			return fmt.Errorf("%w: a reference from file %d of %d", ErrDamaged, file, l.nfile)
		}
		p, ok := paths[file]
		if !ok {
			var err error
			if p, err = l.str(l.fileAt(file)[0]); err != nil {
				return err
			}
			paths[file] = p
		}
		fromName, err := l.str(from)
		if err != nil {
			return err
		}
		out = append(out, Site{File: p, Ref: Ref{Line: int(line), Col: int(col), Path: t.Path, Name: t.Name, From: fromName, Call: how&howCall != 0, Impl: how&howImpl != 0}})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if l.err != nil {
		return nil, l.err
	}
	return out, nil
}

// From returns the references in the file p, sorted by line and column;
// none when the table does not hold the file.
func (r *Reader) From(p string) ([]Ref, error) {
	l := r.l
	n := int(l.nfile)
	i := sort.Search(n, func(i int) bool { return string(l.strBytes(l.fileAt(uint32(i))[0])) >= p })
	if i == n || string(l.strBytes(l.fileAt(uint32(i))[0])) != p {
		return nil, nil
	}
	f := l.fileAt(uint32(i))
	out := make([]Ref, 0, min(f[2], uint32(len(l.fwd.b)/minEntry)))
	var line uint32
	err := l.entries(l.fwd, f[1], f[2], func(ti, dl, col, from uint32, how uint8) error {
		if ti >= l.ntarget {
			return fmt.Errorf("%w: a reference to target %d of %d", ErrDamaged, ti, l.ntarget)
		}
		line += dl
		t, err := r.target(ti)
		if err != nil {
			return err
		}
		fromName, err := l.str(from)
		if err != nil {
			return err
		}
		out = append(out, Ref{Line: int(line), Col: int(col), Path: t.Path, Name: t.Name, From: fromName, Call: how&howCall != 0, Impl: how&howImpl != 0})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if l.err != nil {
		return nil, l.err
	}
	return out, nil
}

// Patch is what an index run changes in a table: the files whose
// definitions or references it found again, and the files gone.
type Patch struct {
	// Defs replaces the definitions of its files (a file parsed again),
	// Refs the references of its files (a file resolved again); a file
	// present with none keeps none.
	Defs map[string][]Def
	Refs map[string][]Ref
	// Removed are files no longer indexed: their definitions and
	// references go, and the references to them.
	Removed   []string
	Resolvers string
}

// maxGarbage is the share of a table's strings an Update may leave
// unused (the paths of removed files, names no longer defined) before it
// writes the table afresh.
const maxGarbage = 4

// Update returns the table old with p applied, as Encode would write the
// table with those changes, but for the numbering of its strings: the
// files p leaves alone keep their references as old holds them, numbers
// rather than strings, so a one-file change to a project of a million
// references costs a small part of encoding it whole. When unused strings
// pile up (a quarter of them), the table is decoded and encoded afresh.
// An old table that does not decode is ErrDamaged.
func Update(old []byte, p Patch) ([]byte, error) {
	l, err := parse(old)
	if err != nil {
		return nil, err
	}
	if _, ok := codec.Unseal(old); !ok {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrDamaged)
	}
	l.trust()
	e := &encoder{Strings{strs: make([]string, l.nstr), ids: make(map[string]uint32, l.nstr)}}
	for i := range l.nstr {
		if e.strs[i], err = l.str(i); err != nil {
			return nil, err
		}
		if _, dup := e.ids[e.strs[i]]; !dup {
			e.ids[e.strs[i]] = i
		}
	}
	oldPaths := make([]string, l.nfile)
	for i := range l.nfile {
		f := l.fileAt(i)
		if f[0] >= l.nstr || i > 0 && e.strs[f[0]] <= oldPaths[i-1] {
			return nil, fmt.Errorf("%w: files out of order", ErrDamaged)
		}
		oldPaths[i] = e.strs[f[0]]
	}
	removed := map[string]bool{}
	for _, f := range p.Removed {
		removed[f] = true
	}
	fileSet := map[string]bool{}
	for _, f := range oldPaths {
		if !removed[f] {
			fileSet[f] = true
		}
	}
	for f := range p.Defs {
		fileSet[f] = true
	}
	for f, rs := range p.Refs {
		fileSet[f] = true
		for _, r := range rs {
			fileSet[r.Path] = true
		}
	}
	d := &draft{e: e, sig: e.str(p.Resolvers), paths: slices.Sorted(maps.Keys(fileSet))}
	fileNum := make(map[string]uint32, len(d.paths))
	d.pathIDs = make([]uint32, len(d.paths))
	for i, f := range d.paths {
		fileNum[f] = uint32(i)
		d.pathIDs[i] = e.str(f)
	}
	oldToNew := make([]int64, l.nfile) // -1: removed
	for i, f := range oldPaths {
		if n, ok := fileNum[f]; ok {
			oldToNew[i] = int64(n)
		} else {
			oldToNew[i] = -1
		}
	}
	tnum := map[uint64]uint32{}
	targetOf := func(file, nameID uint32) uint32 {
		key := uint64(file)<<32 | uint64(nameID)
		if n, ok := tnum[key]; ok {
			return n
		}
		n := uint32(len(d.tlist))
		tnum[key] = n
		d.tlist = append(d.tlist, target{file: file, name: e.strs[nameID], nameID: nameID})
		return n
	}
	// The old targets, but in removed files; those of files whose
	// definitions are replaced stay only as referred to.
	oldT := make([]int64, l.ntarget)
	for i := range l.ntarget {
		f := l.targetAt(i)
		if f[0] >= l.nfile || f[1] >= l.nstr || f[2] >= l.nstr {
			return nil, fmt.Errorf("%w: target %d", ErrDamaged, i)
		}
		nf := oldToNew[f[0]]
		if nf < 0 {
			oldT[i] = -1
			continue
		}
		n := targetOf(uint32(nf), f[1])
		oldT[i] = int64(n)
		if _, replaced := p.Defs[oldPaths[f[0]]]; !replaced {
			d.tlist[n].kind, d.tlist[n].line, d.tlist[n].flags = f[2], f[3], f[4]
		}
	}
	for _, f := range slices.Sorted(maps.Keys(p.Defs)) {
		defs := slices.SortedStableFunc(slices.Values(p.Defs[f]), func(a, b Def) int {
			return cmp.Or(strings.Compare(a.Name, b.Name), cmp.Compare(a.Line, b.Line))
		})
		for i, def := range defs {
			if i > 0 && def.Name == defs[i-1].Name {
				continue
			}
			n := targetOf(fileNum[f], e.str(def.Name))
			flags := uint32(flagDefined)
			if def.Exported {
				flags |= flagExport
			}
			d.tlist[n].kind, d.tlist[n].line, d.tlist[n].flags = e.str(def.Kind), clampU32(def.Line), flags
		}
	}
	oldIndex := make(map[string]uint32, len(oldPaths))
	for i, f := range oldPaths {
		oldIndex[f] = uint32(i)
	}
	var sortedRefs []Ref
	for fi, f := range d.paths {
		if rs, ok := p.Refs[f]; ok {
			sortedRefs = append(sortedRefs[:0], rs...)
			slices.SortFunc(sortedRefs, func(a, b Ref) int {
				return cmp.Or(cmp.Compare(clampU32(a.Line), clampU32(b.Line)), cmp.Compare(clampU32(a.Col), clampU32(b.Col)),
					strings.Compare(a.Path, b.Path), strings.Compare(a.Name, b.Name), strings.Compare(a.From, b.From), boolCmp(a.Call, b.Call), boolCmp(a.Impl, b.Impl))
			})
			for _, r := range slices.Compact(sortedRefs) {
				d.refs.add(uint32(fi), targetOf(fileNum[r.Path], e.str(r.Name)), rec{clampU32(r.Line), clampU32(r.Col), e.str(r.From), howOf(r)})
			}
			continue
		}
		oi, ok := oldIndex[f]
		if !ok {
			continue
		}
		of := l.fileAt(oi)
		var line uint32
		err := l.entries(l.fwd, of[1], of[2], func(ti, dl, col, from uint32, how uint8) error {
			line += dl
			if ti >= l.ntarget || from >= l.nstr {
				return fmt.Errorf("%w: a reference to target %d of %d", ErrDamaged, ti, l.ntarget)
			}
			if oldT[ti] < 0 {
				return nil // to a file gone
			}
			d.refs.add(uint32(fi), uint32(oldT[ti]), rec{line, col, from, how})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if d.garbage() {
		t, err := Decode(old)
		if err != nil {
			return nil, err
		}
		t.apply(p)
		return t.Encode()
	}
	return d.encode()
}

// garbage reports whether a quarter or more of the draft's strings are
// no longer used.
func (d *draft) garbage() bool {
	used := make([]bool, len(d.e.strs))
	used[0], used[d.sig] = true, true
	for _, id := range d.pathIDs {
		used[id] = true
	}
	seen := make([]bool, len(d.tlist))
	d.refs.each(func(_, t uint32, r rec) {
		seen[t] = true
		used[r.from] = true
	})
	for i, t := range d.tlist {
		if seen[i] || t.flags&flagDefined != 0 {
			used[t.nameID], used[t.kind] = true, true
		}
	}
	unused := 0
	for _, u := range used {
		if !u {
			unused++
		}
	}
	return unused*maxGarbage >= len(used)
}

// apply changes the table as p says.
func (t *Table) apply(p Patch) {
	for _, f := range p.Removed {
		delete(t.Defs, f)
		delete(t.Refs, f)
	}
	maps.Copy(t.Defs, p.Defs)
	maps.Copy(t.Refs, p.Refs)
	if len(p.Removed) > 0 {
		gone := map[string]bool{}
		for _, f := range p.Removed {
			gone[f] = true
		}
		for f, rs := range t.Refs {
			t.Refs[f] = slices.DeleteFunc(rs, func(r Ref) bool { return gone[r.Path] })
		}
	}
	t.Resolvers = p.Resolvers
}
