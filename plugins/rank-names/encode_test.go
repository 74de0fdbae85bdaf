package names

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/codec"
)

// encodeByMap is encode as it was first written, a map of keys to
// their postings: its bytes are the format's; encode must lay out the
// same.
func encodeByMap(docs []doc, sorted []string) []byte {
	type post struct {
		doc   uint32
		field uint8
	}
	type posts struct {
		ps     []post
		placed bool // in keys already: it is among sorted
	}
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
	byKey := make(map[string]posts, entries)
	fwd := make([]byte, 0, size)
	offs := make([]uint32, len(docs))
	for i := range docs {
		offs[i] = uint32(len(fwd))
		fwd = codec.AppendString(fwd, docs[i].id)
		fwd = codec.AppendString(fwd, docs[i].kind)
		fwd = binary.AppendUvarint(fwd, uint64(len(docs[i].names)))
		for _, e := range docs[i].names {
			fwd = append(codec.AppendString(fwd, e.key), e.field)
			kp := byKey[e.key]
			if n := len(kp.ps); n > 0 && kp.ps[n-1].doc == uint32(i) {
				kp.ps[n-1].field = min(kp.ps[n-1].field, e.field) // the stronger field
				continue
			}
			kp.ps = append(kp.ps, post{uint32(i), e.field})
			byKey[e.key] = kp
		}
	}
	keys := sortKeys(sorted, len(byKey), func(k string) bool {
		kp, ok := byKey[k]
		if !ok || kp.placed {
			return false
		}
		kp.placed = true
		byKey[k] = kp
		return true
	}, func(yield func(string) bool) {
		for k, kp := range byKey {
			if !kp.placed && !yield(k) {
				return
			}
		}
	})
	// A guess at the file's size from the names': the keys' text is at
	// most theirs, a posting a few bytes.
	b := make([]byte, 0, len(magic)+1+2*len(fwd)+8*len(offs)+16*len(keys)+64)
	b = append(append(b, magic...), formatVersion)
	b = binary.AppendUvarint(b, uint64(len(fwd)))
	b = append(b, fwd...)
	b = binary.AppendUvarint(b, uint64(4*len(offs)))
	for _, o := range offs {
		b = binary.LittleEndian.AppendUint32(b, o)
	}
	b = binary.AppendUvarint(b, uint64(len(keys)))
	text, postings := make([]byte, 0, size), make([]byte, 0, 6*entries)
	keyOffs := append(make([]uint32, 0, len(keys)+1), 0)
	postOffs := append(make([]uint32, 0, len(keys)+1), 0)
	for _, k := range keys {
		text = append(text, k...)
		keyOffs = append(keyOffs, uint32(len(text)))
		last := -1
		for _, p := range byKey[k].ps {
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

// randomDocs are documents with random names: keys shared between
// documents, a key twice in a document under two fields, names out of
// order, long ids.
func randomDocs(rng *rand.Rand, n int) []doc {
	docs := make([]doc, n)
	for i := range docs {
		d := doc{id: fmt.Sprintf("file:d%d/%s.go", i, strings.Repeat("x", rng.IntN(200))), kind: []string{"file", "module", "decision"}[rng.IntN(3)]}
		for range rng.IntN(12) {
			d.names = append(d.names, entry{key: fmt.Sprintf("k%d", rng.IntN(3*n+1)), field: uint8(rng.IntN(int(numFields)))})
		}
		if rng.IntN(2) == 0 {
			slices.SortFunc(d.names, func(a, b entry) int { return strings.Compare(a.key, b.key) })
		}
		docs[i] = d
	}
	slices.SortFunc(docs, func(a, b doc) int { return strings.Compare(a.id, b.id) })
	return docs
}

// The postings laid out flat by key number are byte for byte the map's,
// with and without the keys of an older index, sorted or not.
func TestEncodeAsByMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 1))
	for round := range 300 {
		docs := randomDocs(rng, rng.IntN(60))
		var sorted []string
		switch rng.IntN(3) {
		case 1:
			for _, d := range randomDocs(rng, 20) {
				for _, e := range d.names {
					sorted = append(sorted, e.key)
				}
			}
			slices.Sort(sorted)
			sorted = slices.Compact(sorted)
		case 2:
			sorted = []string{"k9", "k1", "k5"} // not ascending: sorted anew
		}
		want := encodeByMap(docs, slices.Clone(sorted))
		if got := encode(docs, slices.Clone(sorted)); !bytes.Equal(got, want) {
			t.Fatalf("round %d: %d bytes, the map's %d", round, len(got), len(want))
		}
	}
}
