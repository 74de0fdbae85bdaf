package names

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/internal/rubitest"
)

// exerciseIndex reads everything of a decoded names index that queries
// and index runs read, and ranks with it. It reports whether every read
// succeeded: a damaged index may say so, never panic.
func exerciseIndex(t *testing.T, x *index) bool {
	ok := true
	queries := []core.Query{{Text: "host.go LoadPlugin", Limit: 5}, {Text: "aplicarCupon", Limit: 5}, {Text: "Coupon applied twice", Kinds: []string{core.DocNode}, Limit: 5}}
	for i := range x.nkeys {
		k := x.key(i)
		if k == nil {
			ok = false
			continue
		}
		x.search(string(k))
		x.df(i)
		err := x.postings(i, func(d int, field uint8) {
			if d < 0 || d >= x.ndocs || field >= numFields {
				t.Fatalf("key %d: a posting for document %d of %d, field %d", i, d, x.ndocs, field)
			}
		})
		ok = ok && err == nil
		if i < 3 {
			queries = append(queries, core.Query{Text: string(k), Limit: 3})
		}
	}
	for d := range x.ndocs {
		if _, _, err := x.doc(d); err != nil {
			ok = false
		}
	}
	if _, err := x.forward(); err != nil {
		ok = false
	}
	if keys := x.keys(); len(keys) != x.nkeys {
		ok = false
	}
	// No file in the state directory: the ranker ranks with x as either
	// part of the index, beside a sound other part.
	sound := corpus()
	other, err := decode(encode([]doc{{id: "node:other", kind: core.DocNode, names: namesOf(&sound[len(sound)-1])}}, nil), true)
	if err != nil {
		t.Fatal(err)
	}
	for p := range numParts {
		r := &Ranker{settings: DefaultSettings(), stateDir: t.TempDir()}
		for o := range numParts {
			r.idx[o] = other
		}
		r.idx[p] = x
		for _, q := range queries {
			hits, err := r.Rank(context.Background(), q)
			ok = ok && err == nil
			for _, h := range hits {
				if !(h.Score > 0) {
					t.Fatalf("hit %+v", h)
				}
			}
		}
	}
	return ok
}

// indexSeeds are real names indexes: the test corpus's parts, and those
// of a single document.
func indexSeeds(tb testing.TB) [][]byte {
	var seeds [][]byte
	for _, docs := range [][]core.Document{corpus(), corpus()[:1]} {
		dir := tb.TempDir()
		if err := configured(tb, dir, "").Index(context.Background(), &core.Corpus{Full: true, Documents: docs}); err != nil {
			tb.Fatal(err)
		}
		for _, name := range partFiles {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				tb.Fatal(err)
			}
			seeds = append(seeds, data)
		}
	}
	return seeds
}

// The names index (.rubi/index/rank.names/names.idx and notes.idx) is read as the
// cloned repository holds it. Decoding it, with or without its checksum
// checked (a query skips it for the very file an index run wrote), never
// panics or hangs, and neither does anything read from what it accepts:
// keys, postings, documents, an update's forward index, ranking.
func FuzzIndex(f *testing.F) {
	for _, data := range indexSeeds(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer rubitest.Bound(rubitest.FuzzBound, "FuzzIndex")()
		for _, verify := range []bool{true, false} {
			if x, err := decode(data, verify); err == nil {
				exerciseIndex(t, x)
			}
		}
	})
}

// With its checksum checked, an index with any byte changed is refused,
// or reads as well as the original.
func TestFlippedIndexByte(t *testing.T) {
	for _, seed := range indexSeeds(t) {
		data := bytes.Clone(seed)
		for i := range data {
			data[i] ^= 0x01
			if x, err := decode(data, true); err == nil && !exerciseIndex(t, x) {
				t.Fatalf("byte %d flipped: accepted, and reads fail", i)
			}
			data[i] = seed[i]
		}
	}
}
