package bm25

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codec"
)

// A document changed in several updates is deleted by several segments,
// from several older ones. Whatever the segments, a fresh process ranks
// exactly like a full build of the same documents, the kind filter
// included: the same live count and average length, so the same scores.
func TestDeletionsAcrossSegments(t *testing.T) {
	for _, settings := range []string{"", `{"title_weight": 2.7, "parts_weight": 0.3, "b": 0.6}`} {
		t.Run(settings, func(t *testing.T) {
			docs := synthCorpus(300)
			for i := range docs {
				if i%3 == 0 {
					docs[i].Kind = "symbol"
					docs[i].ID = "symbol:" + docs[i].Path
				}
			}
			inc := newRanker(t, settings)
			build(t, inc, &core.Corpus{Full: true, Documents: docs})
			queries := []core.Query{
				{Text: "payment error store", Limit: 30},
				{Text: "encode json checksum", Terms: []string{"hash"}, Limit: 30},
				{Text: "rewritten payment", Kinds: []string{"symbol"}, Limit: 30},
				{Text: "rewritten", Kinds: []string{core.DocFile}, Limit: 30},
			}
			most := 0
			for step := range 6 {
				// The same document changes at every step; another one
				// changes, one is removed, one is added.
				docs[9].Body = fmt.Sprintf("rewritten %d times: payment error", step+1)
				other := 20 + 31*step
				docs[other].Body += " rewritten checksum"
				removed := docs[len(docs)-1].ID
				docs = docs[:len(docs)-1]
				added := fileDoc(fmt.Sprintf("added/step%d.go", step), []string{"StoreChecksum"}, "rewritten encode json checksum")
				docs = append(docs, added)
				changed := []string{docs[9].ID, docs[other].ID, added.ID}
				build(t, inc, &core.Corpus{Documents: withoutBodies(docs, changed), Changed: changed, Removed: []string{removed}})
				most = max(most, len(segmentBytes(t, inc)))

				loaded := newRanker(t, settings, inc.stateDir) // a fresh process
				full := newRanker(t, settings)
				build(t, full, &core.Corpus{Full: true, Documents: docs})
				var first string // the loaded view's first answer
				for k, q := range queries {
					a, b, c := rank(t, loaded, q), rank(t, inc, q), rank(t, full, q)
					if k == 0 {
						first = fmt.Sprint(a)
					}
					if len(c) == 0 {
						t.Fatalf("step %d, query %q: no hits", step, q.Text)
					}
					if fmt.Sprint(a) != fmt.Sprint(c) || fmt.Sprint(b) != fmt.Sprint(c) {
						t.Fatalf("step %d, query %q:\nloaded   %v\nindexing %v\nfull     %v", step, q.Text, a, b, c)
					}
				}
				// The first query of a view computes the normalizations it
				// needs, later ones read them from a table: the same scores.
				if again := fmt.Sprint(rank(t, loaded, queries[0])); again != first {
					t.Fatalf("step %d, query %q asked again:\n%v\nfirst %v", step, queries[0].Text, again, first)
				}
				if lv, fv := loaded.view, full.view; lv.n != len(docs) || lv.n != fv.n || lv.avg != fv.avg {
					t.Fatalf("step %d: %d live documents, average length %v; a full build has %d, %v", step, lv.n, lv.avg, fv.n, fv.avg)
				}
			}
			if most < 4 {
				t.Errorf("at most %d segments: the updates were merged, deletions across segments untested", most)
			}
		})
	}
}

// A segment of the previous format is refused with the way out, and an
// index run replaces it.
func TestOldFormatRebuilt(t *testing.T) {
	dir := t.TempDir()
	r := newRanker(t, "", dir)
	build(t, r, &core.Corpus{Full: true, Documents: corpusV1()})
	names, _, err := readList(dir)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, names[0])
	data, _ := os.ReadFile(path)
	data[len(magic)] = formatVersion - 1 // the version is a one-byte uvarint
	os.WriteFile(path, data, 0o644)

	old := newRanker(t, "", dir)
	_, err = old.Rank(context.Background(), core.Query{Text: "plugin", Limit: 5})
	if err == nil || !strings.Contains(err.Error(), "format version") || !strings.Contains(err.Error(), "rubi index") {
		t.Fatalf("Rank on an old format = %v", err)
	}
	err = old.Index(context.Background(), &core.Corpus{Documents: corpusV1(), Changed: []string{"file:core/loader.go"}})
	if !errors.Is(err, core.ErrFullIndexNeeded) {
		t.Fatalf("incremental Index on an old format = %v, want ErrFullIndexNeeded", err)
	}
	build(t, old, &core.Corpus{Full: true, Documents: corpusV1()})
	if hits := rank(t, newRanker(t, "", dir), core.Query{Text: "obsolete", Limit: 5}); len(hits) != 1 {
		t.Errorf("after the rebuild: %v", ids(hits))
	}
}

// reseal fixes both checksums of a segment file whose postings take n
// bytes, so a test can damage a table past the checksums.
func reseal(data []byte, n int) {
	start := len(data) - 8 - n
	binary.LittleEndian.PutUint32(data[len(data)-8:], codec.Sum(data[:start]))
	binary.LittleEndian.PutUint32(data[len(data)-4:], codec.Sum(data[:len(data)-4]))
}

// A document table that is wrong although its checksums hold (a bug, or
// damage the checksums missed) is reported: by a query when it would
// misread it, by an index run for what a query does not check. Neither
// ranks or builds with it, and a full index run replaces it.
func TestDamagedDocumentTable(t *testing.T) {
	// where a table, which slices the file's bytes, begins in them
	at := func(data, table []byte) int {
		return int(uintptr(unsafe.Pointer(unsafe.SliceData(table))) - uintptr(unsafe.Pointer(unsafe.SliceData(data))))
	}
	cases := []struct {
		name   string
		damage func(data []byte, s *segment)
		byRank bool // a query notices
	}{
		{"kind out of range", func(data []byte, s *segment) { data[at(data, s.docKinds)+1] = byte(len(s.kinds)) }, true},
		{"id offsets backwards", func(data []byte, s *segment) {
			binary.LittleEndian.PutUint32(data[at(data, s.idOffs)+4:], offset(s.idOffs, 2)+1)
		}, true},
		{"id offsets past the text", func(data []byte, s *segment) {
			binary.LittleEndian.PutUint32(data[at(data, s.idOffs)+4*s.ndocs:], uint32(len(s.idText)+1))
		}, true},
		{"ids out of order", func(data []byte, s *segment) { data[at(data, s.idText)+int(offset(s.idOffs, 1))] = 0 }, false},
		{"lengths unlike their totals", func(data []byte, s *segment) { data[at(data, s.docLens)+4*fieldBody]++ }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			build(t, newRanker(t, "", dir), &core.Corpus{Full: true, Documents: corpusV1()})
			names, _, err := readList(dir)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, names[0])
			data, _ := os.ReadFile(path)
			s, err := decodeSegment(names[0], data, true)
			if err != nil || s.ndocs < 3 {
				t.Fatalf("decode: %v, %d documents", err, s.ndocs)
			}
			tc.damage(data, s)
			reseal(data, len(s.postings))
			os.WriteFile(path, data, 0o644)

			r := newRanker(t, "", dir)
			_, err = r.Rank(context.Background(), core.Query{Text: "plugin store core", Limit: 5})
			if tc.byRank && (err == nil || !strings.Contains(err.Error(), "corrupt") || !strings.Contains(err.Error(), "rubi index")) {
				t.Errorf("Rank = %v, want the damage reported with the way out", err)
			}
			err = r.Index(context.Background(), &core.Corpus{Documents: corpusV1(), Changed: []string{"file:core/loader.go"}})
			if !errors.Is(err, core.ErrFullIndexNeeded) || !strings.Contains(err.Error(), "corrupt") {
				t.Fatalf("incremental Index = %v, want ErrFullIndexNeeded for a corrupt index", err)
			}
			build(t, r, &core.Corpus{Full: true, Documents: corpusV1()})
			if hits := rank(t, newRanker(t, "", dir), core.Query{Text: "obsolete", Limit: 5}); len(hits) != 1 {
				t.Errorf("after the rebuild: %v", ids(hits))
			}
		})
	}
}

// A kind takes a byte per document: 256 kinds are stored and filtered on,
// more are refused at write instead of being stored wrong.
func TestManyKinds(t *testing.T) {
	docs := func(n int) []core.Document {
		out := make([]core.Document, n)
		for i := range out {
			kind := fmt.Sprintf("kind%03d", i)
			out[i] = core.Document{ID: kind + ":x", Kind: kind, Title: "shared title", Body: "shared body"}
		}
		return out
	}
	dir := t.TempDir()
	r := newRanker(t, "", dir)
	build(t, r, &core.Corpus{Full: true, Documents: docs(maxKinds)})
	last := fmt.Sprintf("kind%03d", maxKinds-1)
	hits := rank(t, newRanker(t, "", dir), core.Query{Text: "shared", Kinds: []string{last}, Limit: 5})
	if len(hits) != 1 || hits[0].ID != last+":x" {
		t.Errorf("filtered on the last kind: %v", ids(hits))
	}
	err := r.Index(context.Background(), &core.Corpus{Full: true, Documents: docs(maxKinds + 1)})
	if err == nil || !strings.Contains(err.Error(), "kinds") {
		t.Errorf("Index of %d kinds = %v, want an error", maxKinds+1, err)
	}
	if hits := rank(t, newRanker(t, "", dir), core.Query{Text: "shared", Limit: 500}); len(hits) != maxKinds {
		t.Errorf("a refused index changed the index: %d hits", len(hits))
	}
}

// A document's counts come back from their packed form as they went in,
// in order: large term ids, counts in any fields, a saturated count.
func TestCountsPacked(t *testing.T) {
	in := []termCount{
		{term: 0, n: [numFields]uint16{1}},
		{term: 1 << 30, n: [numFields]uint16{0, 0, 0, 65535, 2}},
		{term: 300, n: [numFields]uint16{7, 0, 128, 0, 0}},
		{term: 5},
	}
	var c counts
	for _, tc := range in {
		c = appendCount(c, tc)
	}
	var out []termCount
	c.each(func(tc termCount) { out = append(out, tc) })
	if !slices.Equal(out, in) {
		t.Errorf("packed and read back: %v, want %v", out, in)
	}
	if len(c) >= 16*len(in) {
		t.Errorf("%d counts packed in %d bytes, no fewer than unpacked", len(in), len(c))
	}
}
