package bm25

import (
	"bytes"
	"context"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/text"
	"github.com/rubi-dev/rubi/internal/rubitest"
)

// exerciseSegment reads everything of a decoded segment that queries and
// index runs read, and ranks with it as a view of its own and as the
// older of two segments (the newer one deleting from it). It reports
// whether every read succeeded: a damaged segment may say so, never
// panic.
func exerciseSegment(t *testing.T, s *segment) bool {
	ok := true
	for i := range s.ndocs {
		s.kind(i)
		s.lens(i)
		if j, found := s.search(s.id(i)); !found || j > i {
			ok = false // ids out of order: verify's to catch
		}
	}
	for i := range s.nterms {
		term := s.term(i)
		if term == nil {
			ok = false
			continue
		}
		s.find(string(term))
		err := s.eachPosting(i, func(d int, _ *[numFields]uint16) {
			if d < 0 || d >= s.ndocs {
				t.Fatalf("term %d: a posting for document %d of %d", i, d, s.ndocs)
			}
		})
		ok = ok && err == nil
	}
	if _, _, err := s.forward(func(int) bool { return true }); err != nil {
		ok = false
	}
	queries := []core.Query{{Text: "plugin store", Limit: 5}, {Text: "core", Kinds: []string{core.DocModule}, Limit: 5}}
	for i := range min(s.nterms, 3) {
		queries = append(queries, core.Query{Text: string(s.term(i)), Limit: 3})
	}
	dir := t.TempDir() // no segment list: the view stands
	for _, segs := range [][]*segment{{s}, {s, s}} {
		r := &Ranker{settings: DefaultSettings(), analyzer: text.Default, stateDir: dir, view: newView(segs, DefaultSettings())}
		for _, q := range queries {
			q.Limit = max(q.Limit, 1)
			hits, err := r.Rank(context.Background(), q)
			ok = ok && err == nil
			for _, h := range hits {
				if h.ID == "" || !(h.Score > 0) {
					t.Fatalf("hit %+v", h)
				}
			}
		}
	}
	return ok
}

// segmentSeeds are real segments: a full index, an update's (deletions
// included), and a larger corpus's.
func segmentSeeds(tb testing.TB) [][]byte {
	r := newRanker(tb, "")
	build(tb, r, &core.Corpus{Full: true, Documents: corpusV1()})
	seeds := segmentBytes(tb, r)
	docs, changed, removed := corpusV2()
	build(tb, r, &core.Corpus{Documents: withoutBodies(docs, changed), Changed: changed, Removed: removed})
	seeds = append(seeds, segmentBytes(tb, r)...)
	big := newRanker(tb, "")
	build(tb, big, &core.Corpus{Full: true, Documents: synthCorpus(6)})
	return append(seeds, segmentBytes(tb, big)...)
}

// A segment file (.rubi/index/rank.bm25/seg-*.bm25) is read as the
// cloned repository holds it, checksums and all. Decoding it, with or
// without the check of its tables' checksum (a query skips it for the
// very file an index run wrote), never panics or hangs, and neither does
// anything read from what it accepts: terms, postings, documents, a
// merge's forward index, ranking. A damaged segment is reported.
func FuzzSegment(f *testing.F) {
	for _, data := range segmentSeeds(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer rubitest.Bound(rubitest.FuzzBound, "FuzzSegment")()
		for _, check := range []bool{true, false} {
			if s, err := decodeSegment("seg-fuzz.bm25", data, check); err == nil {
				if check {
					s.verify()
				}
				exerciseSegment(t, s)
			}
		}
	})
}

// With its checks on (the tables' checksum, then verify's), a segment
// with any byte changed is refused, or reads as well as the original.
func TestFlippedSegmentByte(t *testing.T) {
	for _, seed := range segmentSeeds(t) {
		data := bytes.Clone(seed)
		for i := range data {
			data[i] ^= 0x01
			if s, err := decodeSegment("seg-fuzz.bm25", data, true); err == nil && s.verify() == nil && !exerciseSegment(t, s) {
				t.Fatalf("byte %d flipped: accepted, and reads fail", i)
			}
			data[i] = seed[i]
		}
	}
}
