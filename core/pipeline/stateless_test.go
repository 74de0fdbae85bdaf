package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/manifest"
)

// The stages that keep nothing between runs (Info.Stateless: the
// parser, the fuser, the rerankers, the rankers of the engine's facts)
// get no folder in .rubi/index/; the rankers that keep state get theirs.
func TestStatelessStagesHaveNoFolder(t *testing.T) {
	e := engine(t, shop(t))
	index(t, e)
	if _, err := e.Retrieve(context.Background(), answer.Query{Text: "how is a coupon applied at checkout"}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"lang.regex", "lang.go", "fuse.rrf", "query.paths", "query.callers", "notes.files", "query.time", "rerank.roles", "rerank.notes", "rerank.units", "rerank.floor"} {
		if _, err := os.Stat(filepath.Join(e.folder.dir, name)); !os.IsNotExist(err) {
			t.Errorf("the stateless stage %s has a folder in the index (%v)", name, err)
		}
	}
	for _, name := range []string{"rank.bm25", "rank.names", "rank.ppr", "rank.neighbours"} {
		if !e.folder.hasState(name) {
			t.Errorf("the ranker %s kept nothing in its folder", name)
		}
	}
}

// An index written by a rubi from before query.paths, notes.files and
// query.time existed (e33d0e7's: its manifest holds the fingerprints of
// rank.bm25, rank.names and rank.ppr alone; the stateful rank.neighbours,
// added since, is kept in it) is current after an upgrade:
// the status says ok, a changed note is indexed as a delta instead of
// asking for a full index, and a refresh with nothing changed keeps the
// rankers as they stand. Changing a stateless ranker's settings does not
// make it outdated either.
func TestIndexFromBeforeTheStatelessRankersStaysCurrent(t *testing.T) {
	ctx := context.Background()
	root := shop(t)
	index(t, engine(t, root))
	dir := filepath.Join(root, ".rubi", "index")
	m, err := manifest.Load(dir, true, false)
	if err != nil {
		t.Fatal(err)
	}
	before := []string{"rank.bm25", "rank.names", "rank.ppr", "rank.neighbours"}
	for name := range m.Rankers {
		if !slices.Contains(before, name) {
			delete(m.Rankers, name)
			delete(m.Stateful, name)
		}
	}
	for _, name := range before {
		if m.Rankers[name] == "" {
			t.Fatalf("the index has no fingerprint of %s: %v", name, m.Rankers)
		}
	}
	if err := m.Save(dir, m); err != nil {
		t.Fatal(err)
	}

	// The upgraded rubi, a new process.
	e := engine(t, root)
	check := func(when string) {
		t.Helper()
		s := e.Status(ctx, time.Now())
		if s.Index.State != IndexOK {
			t.Errorf("%s: the index reads %s: %+v", when, s.Index.State, s.Index.Rankers)
		}
		for _, r := range s.Index.Rankers {
			if !slices.Contains(before, r.Name) {
				t.Errorf("%s: the status lists the stateless ranker %s (%s)", when, r.Name, r.State)
			}
		}
	}
	check("after the upgrade")
	setStage(t, e, "ranker", "query.paths", "max_matches", "2")
	check("with query.paths' settings changed")

	if _, err := e.project.Knowledge().Register(ctx, []knowledge.Input{{Type: knowledge.TypeGotcha, Title: "Coupons stack once", Body: "A second coupon replaces the first.", Files: []string{"internal/discount/coupon.go"}}}); err != nil {
		t.Fatal(err)
	}
	stats, indexed, err := e.RefreshNotes(ctx)
	if err != nil || !indexed {
		t.Fatalf("the notes' refresh of the upgraded index: indexed %v, %v", indexed, err)
	}
	if stats.Rankers["rank.bm25"] != "incremental" {
		t.Errorf("the notes' refresh did not index them as a delta: %v", stats.Rankers)
	}
	stats = index(t, e)
	for name, state := range stats.Rankers {
		if state != "up to date" {
			t.Errorf("a refresh with nothing changed made %s %s: %v", name, state, stats.Rankers)
		}
	}
	if len(stats.Rankers) != len(before) {
		t.Errorf("the refresh's rankers are %v, want %v up to date", stats.Rankers, before)
	}
}
