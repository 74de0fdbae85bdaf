package refs

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/codec"
	"github.com/rubi-dev/rubi/core/store"
)

// encodeAssembled is draft.encode as it was first written: each section
// assembled apart, then the body, then the file. Its bytes are the
// table's format; encode must lay out the same.
func (d *draft) encodeAssembled() ([]byte, error) {
	e, paths, pathIDs, tlist, sigID := d.e, d.paths, d.pathIDs, d.tlist, d.sig
	refT, refR, refFile := d.refs.lists()
	used := make([]bool, len(tlist))
	for _, n := range refT {
		used[n] = true
	}
	// Final numbers: by file, then name.
	order := make([]uint32, 0, len(tlist))
	for i := range tlist {
		if used[i] || tlist[i].flags&flagDefined != 0 {
			order = append(order, uint32(i))
		}
	}
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

	// Postings: each target's references, by counting. The references
	// come in file, line and column order, which is the postings' order.
	counts := make([]uint32, len(order)+1)
	for _, n := range refT {
		counts[final[n]+1]++
	}
	for i := 1; i < len(counts); i++ {
		counts[i] += counts[i-1]
	}
	byTarget := make([]uint32, len(refT)) // reference indexes, by target
	fill := slices.Clone(counts[:len(order)])
	for i, n := range refT {
		f := final[n]
		byTarget[fill[f]] = uint32(i)
		fill[f]++
	}
	post := make([]byte, 0, 6*len(refT))
	postAt := make([]uint32, len(order))
	nposts := make([]uint32, len(order))
	for ti := range order {
		if len(post) > math.MaxUint32 {
			return nil, fmt.Errorf("the references table outgrows %d bytes", uint32(math.MaxUint32))
		}
		postAt[ti], nposts[ti] = uint32(len(post)), counts[ti+1]-counts[ti]
		var lastFile, lastLine uint32
		for k, ri := range byTarget[counts[ti]:counts[ti+1]] {
			r, file := refR[ri], refFile[ri]
			line, fileDelta := r.line, file
			if k > 0 {
				fileDelta -= lastFile
				if file == lastFile {
					line -= lastLine
				}
			}
			post = appendEntry(post, fileDelta, line, r.col, r.from, r.how)
			lastFile, lastLine = file, r.line
		}
	}
	// The forward section: each file's references, as they came (by
	// line, column and target).
	fw := make([]byte, 0, 6*len(refT))
	fwAt := make([]uint32, len(paths))
	nfw := make([]uint32, len(paths))
	for i := 0; i < len(refT); {
		fi := refFile[i]
		if len(fw) > math.MaxUint32 {
			return nil, fmt.Errorf("the references table outgrows %d bytes", uint32(math.MaxUint32))
		}
		fwAt[fi] = uint32(len(fw))
		var lastLine uint32
		j := i
		for ; j < len(refT) && refFile[j] == fi; j++ {
			r := refR[j]
			fw = appendEntry(fw, final[refT[j]], r.line-lastLine, r.col, r.from, r.how)
			lastLine = r.line
		}
		nfw[fi] = uint32(j - i)
		i = j
	}
	heapLen := 0
	for _, s := range e.strs {
		heapLen += len(s)
	}
	for _, n := range []int{heapLen, len(post), len(fw), len(e.strs), len(refT)} {
		if n >= math.MaxUint32 {
			return nil, fmt.Errorf("the references table outgrows %d bytes", uint32(math.MaxUint32))
		}
	}

	size := 4*(len(e.strs)+1) + heapLen + fileWidth*len(paths) + (targetWidth+4)*len(order) + len(post) + len(fw)
	body := make([]byte, 0, size)
	off := 0
	for _, s := range e.strs {
		body = binary.LittleEndian.AppendUint32(body, uint32(off))
		off += len(s)
	}
	body = binary.LittleEndian.AppendUint32(body, uint32(off))
	for _, s := range e.strs {
		body = append(body, s...)
	}
	for i := range paths {
		body = appendU32s(body, pathIDs[i], fwAt[i], nfw[i])
	}
	for i, n := range order {
		tg := &tlist[n]
		body = appendU32s(body, tg.file, nameIDs[i], tg.kind, tg.line, tg.flags, postAt[i], nposts[i])
	}
	names := make([]uint32, len(order))
	segs := make([]string, len(order))
	for i, n := range order {
		names[i], segs[i] = uint32(i), lastSegment(tlist[n].name)
	}
	slices.SortFunc(names, func(x, y uint32) int {
		return cmp.Or(strings.Compare(segs[x], segs[y]), cmp.Compare(x, y))
	})
	body = appendU32s(body, names...)
	body = append(body, post...)
	body = append(body, fw...)

	nblocks := (len(body) + blockSize - 1) / blockSize
	b := make([]byte, 0, fieldsLen+4*nblocks+4+len(body)+4)
	b = append(b, Magic...)
	for _, v := range []int{Version, len(e.strs), len(paths), len(order), len(refT), heapLen, len(post), len(fw), int(sigID)} {
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	for i := 0; i < len(body); i += blockSize {
		b = binary.LittleEndian.AppendUint32(b, codec.Sum(body[i:min(i+blockSize, len(body))]))
	}
	b = binary.LittleEndian.AppendUint32(b, codec.Sum(b))
	b = append(b, body...)
	return codec.Seal(b), nil
}

// randomTable is a table of random files, definitions and references,
// with lines and columns of every varint length and references to names
// no file defines.
func randomTable(rng *rand.Rand) *Table {
	tb := &Table{Resolvers: "go python", Defs: map[string][]Def{}, Refs: map[string][]Ref{}}
	nfiles := 1 + rng.IntN(40)
	path := func(i int) string { return fmt.Sprintf("d%d/f%03d.go", i%4, i) }
	num := func() int { return []int{1, 2, 127, 128, 300, 16383, 16384, 70000, 3000000}[rng.IntN(9)] + rng.IntN(5) }
	for i := range nfiles {
		for range rng.IntN(6) {
			tb.Defs[path(i)] = append(tb.Defs[path(i)], Def{Name: fmt.Sprintf("T%d.M%d", rng.IntN(5), rng.IntN(8)), Kind: []string{"method", "function", "type"}[rng.IntN(3)], Line: num(), Exported: rng.IntN(2) == 0})
		}
		for range rng.IntN(30) {
			tb.Refs[path(i)] = append(tb.Refs[path(i)], Ref{
				Line: num(), Col: num(), Path: path(rng.IntN(nfiles)), Name: fmt.Sprintf("T%d.M%d", rng.IntN(5), rng.IntN(10)),
				From: []string{"", "F", "T1.M2", fmt.Sprintf("G%d", rng.IntN(300))}[rng.IntN(4)], Call: rng.IntN(2) == 0, Impl: rng.IntN(5) == 0,
			})
		}
	}
	return tb
}

// draftOf returns the draft Table.Encode would lay out for tb.
func draftOf(t *testing.T, tb *Table) *draft {
	t.Helper()
	enc, err := tb.encoder()
	if err != nil {
		t.Fatal(err)
	}
	enc.finish()
	return enc.d
}

// The table laid out in one buffer, and streamed, is byte for byte the
// one assembled section by section, on random tables (several thousand entries of
// every varint length, tables of several blocks) and on none.
func TestEncodeAsAssembled(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 2))
	tables := []*Table{{}, shop(), synthetic(300, 3, 12)}
	for range 200 {
		tables = append(tables, randomTable(rng))
	}
	for i, tb := range tables {
		want, err := draftOf(t, tb).encodeAssembled()
		if err != nil {
			t.Fatal(err)
		}
		got, err := draftOf(t, tb).encode()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("table %d: %d bytes laid out, %d assembled", i, len(got), len(want))
		}
		var streamed bytes.Buffer
		if err := draftOf(t, tb).encodeTo(&streamed); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(streamed.Bytes(), want) {
			t.Fatalf("table %d: %d bytes streamed, %d assembled", i, streamed.Len(), len(want))
		}
	}
	if n := len(encode(t, synthetic(300, 3, 12))); n < 3*blockSize {
		t.Errorf("the synthetic table is %d bytes: fewer than three blocks", n)
	}
}

// entryLen measures what appendEntry writes.
func TestEntryLen(t *testing.T) {
	vals := []uint32{0, 1, 127, 128, 16383, 16384, 1<<21 - 1, 1 << 21, 1<<28 - 1, 1 << 28, math.MaxUint32}
	for _, a := range vals {
		for _, from := range vals {
			for how := range uint8(4) {
				if got, want := entryLen(a, a, from, from, how), len(appendEntry(nil, a, a, from, from, how)); got != want {
					t.Fatalf("entryLen(%d, %d, %d) = %d, appendEntry wrote %d", a, from, how, got, want)
				}
			}
		}
	}
}

// WriteEncoded writes the bytes Encode returns, as a generation Write's
// readers take: verified, and recorded as written.
func TestWriteEncoded(t *testing.T) {
	dir := t.TempDir()
	tb := synthetic(300, 3, 12)
	want := encode(t, tb)
	d := draftOf(t, tb)
	enc := &Encoder{d: d}
	gen, n, err := WriteEncoded(dir, enc)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(File(dir, gen))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%d bytes written, Encode makes %d", len(got), len(want))
	}
	if _, m, err := VerifyFile(File(dir, gen), got); err != nil || m != n || n != d.refs.len() {
		t.Errorf("VerifyFile: %d references, %v; WriteEncoded said %d of %d", m, err, n, d.refs.len())
	}
	if !store.Unchanged(File(dir, gen)) {
		t.Error("the table written is not recorded as the version written")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the folder holds %d entries, want the table and its record", len(entries))
	}
}
