package rankertest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/store"
)

// checkFound: after a full index, a question of a planted document's word
// finds it first among the documents of its kind, and among the first
// of all kinds; a seeded ranker, seeded with it, finds it or what it is
// linked to. A smaller limit cuts the answer, it does not reorder it.
func checkFound(t *testing.T, s Subject) {
	w := newWorld(s.Seed, 120, 30, 20)
	var planted []string
	for _, kind := range s.Kinds {
		planted = append(planted, w.plant(kind), w.plant(kind))
	}
	r, _ := s.indexed(t, w.whole())
	for _, id := range planted {
		d := w.docs[id]
		q := core.Query{Text: w.words[id], Limit: 10}
		all := s.rank(t, r, w, q)
		q.Kinds = []string{d.Kind}
		own := s.rank(t, r, w, q)
		if s.info.Seeded {
			near := w.neighbours(id)
			near[id] = true
			if !slices.ContainsFunc(all, func(h core.Hit) bool { return near[h.ID] }) {
				t.Errorf("seeded with %s, found neither it nor what it is linked to:%s", id, show(all))
			}
			continue
		}
		if len(own) == 0 || own[0].ID != id {
			t.Errorf("%q (kinds %v) does not find %s first:%s", q.Text, q.Kinds, id, show(own))
		}
		if !slices.ContainsFunc(all[:min(len(all), 3)], func(h core.Hit) bool { return h.ID == id }) {
			t.Errorf("%q does not find %s among the first three:%s", q.Text, id, show(all))
		}
		one := s.rank(t, r, w, core.Query{Text: q.Text, Limit: 1})
		if d := differ(one, all[:min(len(all), 1)], 1); d != "" {
			t.Errorf("%q with a limit of 1: %s, not the first of the limit of 10%s", q.Text, d, show(one))
		}
	}
	// Questions of every sort: sane() checks each answer.
	for _, q := range w.queries(30) {
		s.rank(t, r, w, q)
	}
}

// checkIncremental: a random sequence of changes, each indexed as the
// pipeline sends it (an incremental corpus; for a Scoped ranker, also
// deltas of the notes and of their texts) into one ranker, leaves it
// ranking random questions as a fresh full index of the project as it
// then stands ranks them, within Tolerance; and a fresh process on its
// state ranks the same. Now and then a corpus is indexed twice: Index is
// idempotent.
func checkIncremental(t *testing.T, s Subject) {
	const steps = 16
	w := newWorld(s.Seed+1, 150, 40, 30)
	dir := t.TempDir()
	inc := s.open(t, dir)
	index(t, inc, w.whole())
	w.indexedNow()
	seen := map[string]int{}
	for i := range steps {
		st := w.step(s.info.Scoped)
		seen[st.what]++
		if err := inc.Index(context.Background(), st.corpus); err != nil {
			t.Fatalf("step %d, %s (its state sound): %v", i, st.what, err)
		}
		if i%4 == 1 {
			index(t, inc, st.corpus)
		}
		w.indexedNow()
		full, _ := s.indexed(t, w.whole())
		qs := w.queries(15)
		want := s.answers(t, full, w, qs)
		s.sameAnswers(t, fmt.Sprintf("step %d, %s: the ranker it updated", i, st.what), inc, w, qs, want)
		if i%5 == 4 || i == steps-1 {
			s.sameAnswers(t, fmt.Sprintf("step %d, %s: a fresh process on that state", i, st.what), s.open(t, dir), w, qs, want)
		}
	}
	kinds := 1
	if s.info.Scoped {
		kinds = 3
	}
	if len(seen) != kinds {
		t.Errorf("the steps were %v: some kind of corpus went untested", seen)
	}
}

// checkDeferred: a corpus whose documents leave their bodies to be read
// as the ranker asks (core.Corpus.DeferBodies, as an index run sends the
// files') ranks as the same corpus with the bodies in its documents,
// given whole and then incrementally.
func checkDeferred(t *testing.T, s Subject) {
	w := newWorld(s.Seed+6, 120, 30, 20)
	inline, _ := s.indexed(t, w.whole())
	deferred, _ := s.indexed(t, deferBodies(w.whole()))
	qs := w.queries(20)
	s.sameAnswers(t, "a whole corpus whose bodies are read as asked", deferred, w, qs, s.answers(t, inline, w, qs))
	w.indexedNow()
	st := w.step(false)
	index(t, inline, st.corpus)
	index(t, deferred, deferBodies(st.corpus))
	qs = w.queries(20)
	s.sameAnswers(t, "then "+st.what+" whose bodies are read as asked", deferred, w, qs, s.answers(t, inline, w, qs))
}

// deferBodies returns a copy of c whose documents carry no body, each
// read when the ranker asks for it.
func deferBodies(c *core.Corpus) *core.Corpus {
	out := *c
	out.Documents = slices.Clone(c.Documents)
	bodies := map[string]string{}
	for i := range out.Documents {
		bodies[out.Documents[i].ID] = out.Documents[i].Body
		out.Documents[i].Body = ""
	}
	out.DeferBodies(func(d *core.Document) string { return bodies[d.ID] })
	return &out
}

// checkMissing: with no state, an incremental corpus (and, for a Scoped
// ranker, a delta of the notes) is refused with core.ErrFullIndexNeeded,
// unless the ranker can build from it alone, and then it ranks as a full
// index does; Rank before any Index fails or finds nothing. A full
// index then works, and a fresh process on the same state directory
// ranks what it indexed.
func checkMissing(t *testing.T, s Subject) {
	ctx := context.Background()
	w := newWorld(s.Seed+2, 60, 15, 10)
	w.indexedNow() // as if a run had indexed it, whose state is lost
	c := w.step(false).corpus
	dir := t.TempDir()
	r := s.open(t, dir)
	qs := w.queries(12)
	for _, q := range qs {
		if hits, err := r.Rank(ctx, s.withSeeds(w, q)); err == nil && len(hits) > 0 {
			t.Fatalf("Rank with no state found%s", show(hits))
		}
	}
	full, _ := s.indexed(t, w.whole())
	want := s.answers(t, full, w, qs)
	switch err := r.Index(ctx, c); {
	case errors.Is(err, core.ErrFullIndexNeeded):
	case err != nil:
		t.Fatalf("an incremental corpus with no state: %v, want core.ErrFullIndexNeeded", err)
	default:
		// Built from the corpus alone: then as a full index.
		s.sameAnswers(t, "an incremental corpus indexed with no state", r, w, qs, want)
	}
	if s.info.Scoped {
		w.indexedNow()
		delta := w.step(true)
		for delta.corpus.Scope == nil || delta.corpus.TextsOnly {
			w.indexedNow()
			delta = w.step(true)
		}
		if err := s.open(t, t.TempDir()).Index(ctx, delta.corpus); !errors.Is(err, core.ErrFullIndexNeeded) {
			t.Errorf("%s with no state: %v, want core.ErrFullIndexNeeded", delta.what, err)
		}
		full, _ = s.indexed(t, w.whole())
		want = s.answers(t, full, w, qs)
	}
	index(t, r, w.whole())
	s.sameAnswers(t, "a full index after the refusal", r, w, qs, want)
	s.sameAnswers(t, "a fresh process on its state", s.open(t, dir), w, qs, want)
}

// damages are what becomes of a state file: a power cut's truncation, a
// disk's flipped bit in the middle or in the last byte (where a checksum
// is often kept), a file emptied.
var damages = []struct {
	name string
	do   func([]byte) []byte
}{
	{"truncated", func(b []byte) []byte { return b[:len(b)/2] }},
	{"flipped in the middle", func(b []byte) []byte { b[len(b)/2] ^= 0x10; return b }},
	{"flipped at the end", func(b []byte) []byte { b[len(b)-1] ^= 0x01; return b }},
	{"emptied", func([]byte) []byte { return nil }},
}

// checkDamaged: each file of the state, damaged in each way, in a copy
// of the state directory: a Verifier's Verify fails (and does not call
// the damage core.ErrOutdated), or the damage was harmless (the ranker
// ranks as before); another ranker's Rank fails, or ranks as before,
// and its incremental Index asks for a full one, or leaves it ranking as
// a full index. Never a panic. A full index then repairs the state.
func checkDamaged(t *testing.T, s Subject) {
	ctx := context.Background()
	w := newWorld(s.Seed+3, 80, 20, 15)
	r, dir := s.indexed(t, w.whole())
	w.indexedNow()
	qs := w.queries(10)
	every := w.everyWord()
	for i := range every {
		every[i] = s.withSeeds(w, every[i])
	}
	good := s.answers(t, r, w, every)
	if v, ok := r.(core.Verifier); ok {
		if err := v.Verify(ctx); err != nil {
			t.Fatalf("Verify of the state just indexed: %v", err)
		}
	}
	files := stateFiles(t, dir)
	if len(files) == 0 {
		return // a ranker that keeps nothing has nothing to damage
	}
	next := w.snapshot()
	c := next.step(false).corpus
	next.indexedNow()
	full, _ := s.indexed(t, next.whole())
	nextWant := s.answers(t, full, next, qs)
	for _, file := range files {
		data, err := store.ReadLeaf(filepath.Join(dir, file), maxStateFile)
		if err != nil {
			t.Fatal(err)
		}
		for _, dmg := range damages {
			if len(data) == 0 && dmg.name != "truncated" {
				continue
			}
			what := fmt.Sprintf("%s %s", file, dmg.name)
			copyDir := t.TempDir()
			copyState(t, dir, copyDir)
			if err := os.WriteFile(filepath.Join(copyDir, file), dmg.do(slices.Clone(data)), 0o644); err != nil {
				t.Fatal(err)
			}
			damaged := s.open(t, copyDir)
			if v, ok := damaged.(core.Verifier); ok {
				err := v.Verify(ctx)
				if errors.Is(err, core.ErrOutdated) {
					t.Errorf("%s: Verify calls damage outdated: %v", what, err)
				}
				if err == nil {
					s.sameAnswers(t, what+", which Verify passed", damaged, w, every, good)
				}
			} else {
				for i, q := range every {
					hits, err := damaged.Rank(ctx, s.withSeeds(w, q))
					if err != nil {
						break
					}
					if d := differ(hits, good[i], q.Limit); d != "" {
						t.Fatalf("%s: Rank(%q) answers wrong, with no error: %s%s", what, q.Text, d, show(hits))
					}
				}
				again := s.open(t, copyDir)
				switch err := again.Index(ctx, c); {
				case errors.Is(err, core.ErrFullIndexNeeded):
				case err != nil:
					t.Errorf("%s: an incremental Index fails with %v, want core.ErrFullIndexNeeded", what, err)
				default:
					s.sameAnswers(t, what+", updated by an incremental corpus", again, next, qs, nextWant)
				}
			}
			repaired := s.open(t, copyDir)
			index(t, repaired, next.whole())
			if v, ok := repaired.(core.Verifier); ok {
				if err := v.Verify(ctx); err != nil {
					t.Errorf("%s: Verify after a full index: %v", what, err)
				}
			}
			s.sameAnswers(t, what+", repaired by a full index", s.open(t, copyDir), next, qs, nextWant)
		}
	}
}

// maxStateFile bounds what is read of a state file: the checks' projects
// are small, and their rankers' files a few megabytes at most.
const maxStateFile = 1 << 30

// stateFiles lists the regular files under dir, relative to it.
func stateFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		out = append(out, rel)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// copyState copies the state directory from into to.
func copyState(t *testing.T, from, to string) {
	t.Helper()
	for _, rel := range stateFiles(t, from) {
		data, err := store.ReadLeaf(filepath.Join(from, rel), maxStateFile)
		if err == nil {
			err = os.MkdirAll(filepath.Dir(filepath.Join(to, rel)), 0o755)
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(to, rel), data, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// checkCanceled: Index and Rank with a canceled context return an error
// at once, and Index with one canceled part way returns; either way the
// state stays usable: it ranks, in the process and in a fresh one,
// sanely (a ranker may keep what a canceled Index had done, as
// rank.embed keeps the vectors it was sent), and a later full index
// leaves it ranking as a fresh one does.
func checkCanceled(t *testing.T, s Subject) {
	w := newWorld(s.Seed+4, 300, 40, 30)
	r, dir := s.indexed(t, w.whole())
	w.indexedNow()
	qs := w.queries(10)
	for i := range qs {
		qs[i] = s.withSeeds(w, qs[i]) // the same seeds before and after
	}
	either := w.snapshot() // the documents before and after the change
	c := w.step(false).corpus
	w.indexedNow()
	for id, d := range w.docs {
		either.docs[id] = d
	}
	full, _ := s.indexed(t, w.whole())
	after := s.answers(t, full, w, qs)

	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if err := r.Index(canceled, w.whole()); err == nil {
		t.Error("a full Index with a canceled context returned no error")
	}
	if err := r.Index(canceled, c); err == nil {
		t.Error("an incremental Index with a canceled context returned no error")
	}
	for _, q := range qs[:3] {
		if _, err := r.Rank(canceled, q); err == nil {
			t.Errorf("Rank(%q) with a canceled context returned no error", q.Text)
		}
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("canceled calls took %v", d)
	}
	usable := func(what string, r core.Ranker) {
		t.Helper()
		for _, q := range qs {
			s.rank(t, r, either, q)
		}
	}
	usable("after canceled calls", r)
	usable("a fresh process after canceled calls", s.open(t, dir))

	// Canceled while it runs.
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(time.Millisecond)
		cancel()
	}()
	busy := s.open(t, dir)
	_ = busy.Index(ctx, w.whole())
	usable("after an Index canceled part way", busy)
	usable("a fresh process after an Index canceled part way", s.open(t, dir))

	index(t, busy, w.whole())
	s.sameAnswers(t, "a full index after canceled ones", busy, w, qs, after)
	s.sameAnswers(t, "a fresh process after that full index", s.open(t, dir), w, qs, after)
}

// checkConcurrent: Rank called from several goroutines at once, on a
// fresh process's ranker that loads its state on the first call and on
// the one that indexed, answers each question as it does alone.
func checkConcurrent(t *testing.T, s Subject) {
	w := newWorld(s.Seed+5, 120, 30, 20)
	r, dir := s.indexed(t, w.whole())
	qs := w.queries(24)
	for i := range qs {
		qs[i] = s.withSeeds(w, qs[i])
	}
	for _, which := range []string{"a fresh process", "the indexing process"} {
		rk := r
		if which == "a fresh process" {
			rk = s.open(t, dir)
		}
		got := make([][][]core.Hit, 8)
		var wg sync.WaitGroup
		for g := range got {
			got[g] = make([][]core.Hit, len(qs))
			wg.Go(func() {
				for k := range qs {
					i := (k + 3*g) % len(qs)
					hits, err := rk.Rank(context.Background(), qs[i])
					if err != nil {
						t.Errorf("%s, concurrent Rank(%q): %v", which, qs[i].Text, err)
						return
					}
					got[g][i] = hits
				}
			})
		}
		wg.Wait()
		if t.Failed() {
			return
		}
		for i, q := range qs {
			want := s.rank(t, rk, w, q)
			for g := range got {
				if !reflect.DeepEqual(got[g][i], want) {
					t.Fatalf("%s, Rank(%q) in goroutine %d:%s\nalone:%s", which, q.Text, g, show(got[g][i]), show(want))
				}
			}
		}
	}
}
