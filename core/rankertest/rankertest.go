// Package rankertest checks the behaviour every ranker must have,
// whatever it scores by: a built-in stage, a third-party one linked into
// rubi, or a subprocess plugin reached through its client. A ranker's
// own test calls Contract with a constructor, as a parser's calls
// parsertest.Contract:
//
//	rankertest.Contract(t, rankertest.Subject{New: func(*testing.T) core.Ranker { return bm25.New() }})
//
// The checks run on a random project (files in directories, their
// modules, notes and conversation chunks, the edges between them)
// written from a seeded generator, so a failure reproduces; each is a
// subtest. What a ranker supports is read from it, not declared: a
// Scoped ranker (core.Info) is also given deltas of the notes alone, a
// Seeded one gets seeds built from plain word-matching lists, a Verifier
// must find the damage done to its state.
package rankertest

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
)

// Subject is the ranker a contract runs on.
type Subject struct {
	// New returns a ranker that has not been configured. Each call must
	// make a new instance, which knows only what its state directory
	// holds, as a new process of rubi would: the checks use it to tell a
	// fresh process from the one that indexed. For a subprocess plugin
	// it starts a new process.
	New func(t *testing.T) core.Ranker
	// Settings is the JSON object every Configure is given; "" for
	// none, which leaves the ranker its defaults.
	Settings string
	// Kinds are the kinds of document the ranker ranks with Settings;
	// empty for all four (file, module, node, chunk). The checks plant
	// documents of these kinds alone, and fail a hit of another.
	Kinds []string
	// Seed chooses the random project; 0 for the contract's own. Every
	// check writes its project from it.
	Seed uint64

	info core.Info // what the ranker says of itself, read once
}

// Tolerance is how far, relative to the larger, two scores of the same
// document may lie apart when an incremental index and a full one of the
// same corpus rank it. A ranker may add a document's per-term
// contributions in another order after an update (bm25's segments, the
// names index's two parts), and floating-point addition is exact only
// up to about n·2⁻⁵³ relative for n terms: some 10⁻¹⁴ for the dozens of
// terms a question and a document share. 10⁻⁹ leaves five orders of
// magnitude for that, and is far below any difference that orders two
// documents (scores a thousandth apart or more): an update that loses or
// keeps a word's occurrence moves a score by far more.
const Tolerance = 1e-9

// allKinds are the kinds of document a ranker may rank.
var allKinds = []string{core.DocFile, core.DocModule, core.DocNode, core.DocChunk}

// Contract runs every check on the ranker s makes.
func Contract(t *testing.T, s Subject) {
	if s.Seed == 0 {
		s.Seed = 39
	}
	if len(s.Kinds) == 0 {
		s.Kinds = allKinds
	}
	s.info = s.New(t).Info()
	t.Run("Info", func(t *testing.T) { checkInfo(t, s.info) })
	t.Run("FullIndexThenQuery", func(t *testing.T) { checkFound(t, s) })
	t.Run("IncrementalEqualsFull", func(t *testing.T) { checkIncremental(t, s) })
	t.Run("DeferredBodies", func(t *testing.T) { checkDeferred(t, s) })
	t.Run("MissingState", func(t *testing.T) { checkMissing(t, s) })
	t.Run("DamagedState", func(t *testing.T) { checkDamaged(t, s) })
	t.Run("Canceled", func(t *testing.T) { checkCanceled(t, s) })
	t.Run("Concurrent", func(t *testing.T) { checkConcurrent(t, s) })
}

func checkInfo(t *testing.T, info core.Info) {
	if info.Kind != core.KindRanker {
		t.Errorf("Info().Kind = %q, want %q", info.Kind, core.KindRanker)
	}
	if err := core.ValidStageName(info.Name, core.KindRanker); err != nil {
		t.Errorf("Info().Name: %v", err)
	}
}

// open makes a ranker of s configured on the state directory dir, as
// rubi does before any other call.
func (s Subject) open(t *testing.T, dir string) core.Ranker {
	t.Helper()
	r := s.New(t)
	setup := core.Setup{Root: t.TempDir(), StateDir: dir}
	if s.Settings != "" {
		setup.Settings = json.RawMessage(s.Settings)
	}
	if err := r.Configure(context.Background(), setup); err != nil {
		t.Fatalf("Configure(%s): %v", s.Settings, err)
	}
	return r
}

// indexed makes a ranker of s on a fresh state directory and indexes c
// in it.
func (s Subject) indexed(t *testing.T, c *core.Corpus) (core.Ranker, string) {
	t.Helper()
	dir := t.TempDir()
	r := s.open(t, dir)
	index(t, r, c)
	return r, dir
}

func index(t *testing.T, r core.Ranker, c *core.Corpus) {
	t.Helper()
	if err := r.Index(context.Background(), c); err != nil {
		t.Fatalf("Index (full %v, scope %v): %v", c.Full, c.Scope, err)
	}
}

// withSeeds gives q the seeds a seeded ranker receives, unless it has
// some already: the lists of a plain word matcher over w.
func (s Subject) withSeeds(w *world, q core.Query) core.Query {
	if s.info.Seeded && q.Seeds == nil {
		q.Seeds = w.direct(q)
	}
	return q
}

// rank asks r, and checks the answer against what every ranker owes
// whatever it scores by (sane).
func (s Subject) rank(t *testing.T, r core.Ranker, w *world, q core.Query) []core.Hit {
	t.Helper()
	q = s.withSeeds(w, q)
	hits, err := r.Rank(context.Background(), q)
	if err != nil {
		t.Fatalf("Rank(%q): %v", q.Text, err)
	}
	if msg := s.sane(w, q, hits); msg != "" {
		t.Fatalf("Rank(%q, kinds %v, limit %d): %s\n%v", q.Text, q.Kinds, q.Limit, msg, hits)
	}
	return hits
}

// sane says what is wrong with hits as an answer to q over w, "" if
// nothing: more than q.Limit, not best first, a score that is not a
// number, a document twice, one the corpus does not hold (or no longer
// holds), one of a kind q or the ranker does not admit.
func (s Subject) sane(w *world, q core.Query, hits []core.Hit) string {
	if q.Limit > 0 && len(hits) > q.Limit {
		return fmt.Sprintf("%d hits for a limit of %d", len(hits), q.Limit)
	}
	seen := map[string]bool{}
	for i, h := range hits {
		d, ok := w.docs[h.ID]
		switch {
		case math.IsNaN(h.Score) || math.IsInf(h.Score, 0):
			return fmt.Sprintf("%s scores %v", h.ID, h.Score)
		case i > 0 && h.Score > hits[i-1].Score:
			return fmt.Sprintf("%s (%v) after %s (%v): not best first", h.ID, h.Score, hits[i-1].ID, hits[i-1].Score)
		case seen[h.ID]:
			return h.ID + " twice"
		case !ok:
			return h.ID + " is not in the corpus"
		case !q.AcceptsKind(d.Kind):
			return fmt.Sprintf("%s is a %s, the query asks for %v", h.ID, d.Kind, q.Kinds)
		case !slices.Contains(s.Kinds, d.Kind):
			return fmt.Sprintf("%s is a %s, the ranker ranks %v", h.ID, d.Kind, s.Kinds)
		case h.Match < 0 || h.Match > 1 || math.IsNaN(h.Match):
			return fmt.Sprintf("%s has Match %v, outside 0 to 1", h.ID, h.Match)
		}
		seen[h.ID] = true
	}
	return ""
}

// near reports whether two scores are equal within Tolerance.
func near(a, b float64) bool {
	return a == b || math.Abs(a-b) <= Tolerance*math.Max(math.Abs(a), math.Abs(b))
}

// differ says how got differs from want, two answers to a query of
// limit that must be the same, "" if they do not: the same documents at
// the same places, with the same reasons, and scores and matches within
// Tolerance. Documents whose scores tie within Tolerance may come in
// either order (a ranker breaks ties on the exact score), and at the
// limit's cut either of them may be the one kept.
func differ(got, want []core.Hit, limit int) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d hits, want %d", len(got), len(want))
	}
	index := func(hits []core.Hit) map[string]int {
		m := make(map[string]int, len(hits))
		for i, h := range hits {
			m[h.ID] = i
		}
		return m
	}
	where := map[*core.Hit]map[string]int{}
	if len(got) > 0 {
		where[&got[0]], where[&want[0]] = index(got), index(want)
	}
	at := func(hits []core.Hit, id string) int {
		if j, ok := where[&hits[0]][id]; ok {
			return j
		}
		return -1
	}
	cut := len(want) > 0 && len(want) == limit
	for i := range got {
		if !near(got[i].Score, want[i].Score) {
			return fmt.Sprintf("hit %d scores %v (%s), want %v (%s)", i, got[i].Score, got[i].ID, want[i].Score, want[i].ID)
		}
		for _, pair := range [][2][]core.Hit{{got, want}, {want, got}} {
			h := pair[0][i]
			j := at(pair[1], h.ID)
			switch {
			case j < 0 && cut && near(h.Score, want[len(want)-1].Score):
				// A tie at the cut.
			case j < 0:
				return fmt.Sprintf("%s (hit %d) is in one answer alone", h.ID, i)
			case !near(h.Score, pair[1][j].Score):
				return fmt.Sprintf("%s scores %v and %v", h.ID, h.Score, pair[1][j].Score)
			case h.Reason != pair[1][j].Reason:
				return fmt.Sprintf("%s: reason %q and %q", h.ID, h.Reason, pair[1][j].Reason)
			case !near(h.Match, pair[1][j].Match):
				return fmt.Sprintf("%s: match %v and %v", h.ID, h.Match, pair[1][j].Match)
			}
		}
	}
	return ""
}

// answers ranks every query with r.
func (s Subject) answers(t *testing.T, r core.Ranker, w *world, qs []core.Query) [][]core.Hit {
	t.Helper()
	out := make([][]core.Hit, len(qs))
	for i, q := range qs {
		out[i] = s.rank(t, r, w, q)
	}
	return out
}

// sameAnswers fails t unless r answers qs as want, within Tolerance.
func (s Subject) sameAnswers(t *testing.T, what string, r core.Ranker, w *world, qs []core.Query, want [][]core.Hit) {
	t.Helper()
	for i, q := range qs {
		if d := differ(s.rank(t, r, w, q), want[i], q.Limit); d != "" {
			t.Fatalf("%s, query %q (kinds %v, limit %d): %s\ngot  %s\nwant %s", what, q.Text, q.Kinds, q.Limit, d,
				show(s.rank(t, r, w, q)), show(want[i]))
		}
	}
}

// show writes hits one a line, for a failure's message.
func show(hits []core.Hit) string {
	var b strings.Builder
	for _, h := range hits {
		fmt.Fprintf(&b, "\n  %s %.17g %q", h.ID, h.Score, h.Reason)
	}
	return b.String()
}
