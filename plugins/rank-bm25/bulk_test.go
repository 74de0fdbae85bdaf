package bm25

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
)

// withSegmentDocs sets segmentDocs for the length of a test.
func withSegmentDocs(t *testing.T, n int) {
	t.Helper()
	was := segmentDocs
	segmentDocs = n
	t.Cleanup(func() { segmentDocs = was })
}

// segmentSizes returns the document count of each live segment.
func segmentSizes(t *testing.T, r *Ranker) []int {
	t.Helper()
	segs, _, err := readSegments(r.stateDir, false)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]int, len(segs))
	for i, sg := range segs {
		out[i] = sg.ndocs
	}
	return out
}

// bulkQueries probe several terms, kinds and limits.
var bulkQueries = []core.Query{
	{Text: "payment error store", Limit: 20},
	{Text: "encode json checksum", Terms: []string{"hash"}, Limit: 20},
	{Text: "brandnew", Limit: 20},
	{Text: "how is the graph node edge walked", Limit: 50},
	{Text: "WriteFile lock dir", Limit: 5},
	{Text: "stream", Kinds: []string{core.DocFile}, Limit: 100},
}

// A full corpus of more than segmentDocs documents is written as bulk
// segments of at most segmentDocs, each at least half of it, and ranks
// exactly as the one segment of the same documents: same documents,
// scores and reasons, in the indexing process and in a fresh one.
func TestBulkSegmentsRankAsOne(t *testing.T) {
	docs := synthCorpus(400)
	one := newRanker(t, "")
	build(t, one, &core.Corpus{Full: true, Documents: docs})
	if n := len(segmentSizes(t, one)); n != 1 {
		t.Fatalf("%d segments for 400 documents by default, want 1", n)
	}

	withSegmentDocs(t, 64)
	bulk := newRanker(t, "")
	build(t, bulk, &core.Corpus{Full: true, Documents: docs})
	sizes := segmentSizes(t, bulk)
	if len(sizes) != 7 {
		t.Errorf("segments of %v documents, want 7 (400 in runs of at most 64)", sizes)
	}
	total := 0
	for _, n := range sizes {
		total += n
		if n > 64 || n*2 < 64 {
			t.Errorf("a bulk segment of %d documents, want 32 to 64: %v", n, sizes)
		}
	}
	if total != len(docs) {
		t.Errorf("the segments hold %d documents, want %d", total, len(docs))
	}
	again := newRanker(t, "", bulk.stateDir)
	for _, q := range bulkQueries {
		want := fmt.Sprint(rank(t, one, q))
		if got := fmt.Sprint(rank(t, bulk, q)); got != want {
			t.Errorf("query %q:\nbulk segments %s\none segment   %s", q.Text, got, want)
		}
		if got := fmt.Sprint(rank(t, again, q)); got != want {
			t.Errorf("query %q, a fresh process:\nbulk segments %s\none segment   %s", q.Text, got, want)
		}
	}
}

// Updates of an index of bulk segments leave the bulk segments as they
// are, add small segments, merge those before they pile up, into new
// bulk segments once they are enough for one, and rank at every step as
// a full rebuild of the same documents; no segment ever holds more than
// segmentDocs documents.
func TestBulkSegmentsUpdates(t *testing.T) {
	withSegmentDocs(t, 64)
	docs := synthCorpus(400)
	inc := newRanker(t, "")
	build(t, inc, &core.Corpus{Full: true, Documents: docs})
	bulk := segmentBytes(t, inc)
	if len(bulk) != 7 {
		t.Fatalf("%d bulk segments, want 7", len(bulk))
	}
	most, bulkAgain := 0, false
	steps := 3 * maxSegments
	for step := range steps {
		var changed []string
		// Mostly one document changed, one removed, one added; every
		// fifth step, forty changed (a branch switched).
		n := 1
		if step%5 == 4 {
			n = 40
		}
		for k := range n {
			i := (step*37 + k*11) % len(docs)
			docs[i].Body = fmt.Sprintf("brandnew body of step %d with a payment error", step)
			changed = append(changed, docs[i].ID)
		}
		removed := docs[len(docs)-1].ID
		docs = docs[:len(docs)-1]
		added := fileDoc(fmt.Sprintf("added/step%d.go", step), []string{"StoreChecksum"}, "encode json checksum brandnew")
		docs = append(docs, added)
		changed = append(changed, added.ID)
		slices.Sort(changed)
		changed = slices.Compact(changed)
		build(t, inc, &core.Corpus{Documents: withoutBodies(docs, changed), Changed: changed, Removed: []string{removed}})

		sizes := segmentSizes(t, inc)
		segs := segmentBytes(t, inc)
		most = max(most, len(segs))
		for _, s := range sizes {
			if s > segmentDocs {
				t.Fatalf("step %d: a segment of %d documents: %v", step, s, sizes)
			}
		}
		if step == 0 {
			if len(segs) != 8 || sizes[7] != 2 {
				t.Fatalf("a one-document update did not add a small segment after the bulk ones: %v", sizes)
			}
			for i := range bulk {
				if !bytes.Equal(segs[i], bulk[i]) {
					t.Fatalf("a one-document update rewrote bulk segment %d", i)
				}
			}
		}
		if len(sizes) > 8 && sizes[7]*2 >= segmentDocs {
			bulkAgain = true // later segments merged into a bulk one
		}
		full := newRanker(t, "")
		build(t, full, &core.Corpus{Full: true, Documents: docs})
		for _, q := range bulkQueries {
			// Deleted documents shift no statistic, but scores are sums
			// of the same terms in another order: compare ids and
			// rounded scores.
			if a, b := roundHits(rank(t, inc, q)), roundHits(rank(t, full, q)); a != b {
				t.Fatalf("step %d (%v), query %q:\nupdated %s\nfull    %s", step, sizes, q.Text, a, b)
			}
		}
	}
	if most > 7+maxSegments-1 {
		t.Errorf("%d segments at once, want at most %d", most, 7+maxSegments-1)
	}
	if !bulkAgain {
		t.Error("the later segments were never merged into a bulk segment")
	}
	again := newRanker(t, "", inc.stateDir)
	for _, q := range bulkQueries {
		if a, b := roundHits(rank(t, inc, q)), roundHits(rank(t, again, q)); a != b {
			t.Errorf("query %q: %v in the indexing process, %v after loading", q.Text, a, b)
		}
	}
}

// parts cuts any count into runs of at most segmentDocs, at least half
// of it when there are several, covering every document once in order.
func TestParts(t *testing.T) {
	withSegmentDocs(t, 10)
	for n := range 100 {
		ps := parts(n)
		at := 0
		for _, p := range ps {
			if p[0] != at || p[1]-p[0] > 10 || (len(ps) > 1 && (p[1]-p[0])*2 < 10) || (n > 0 && p[1] == p[0]) {
				t.Fatalf("parts(%d) = %v", n, ps)
			}
			at = p[1]
		}
		if at != n || len(ps) == 0 && n > 0 {
			t.Fatalf("parts(%d) = %v: covers %d", n, ps, at)
		}
	}
	if got := fmt.Sprint(parts(25)); !strings.Contains(got, "[8 16]") {
		t.Errorf("parts(25) = %s, want three runs of 8 or 9", got)
	}
}
