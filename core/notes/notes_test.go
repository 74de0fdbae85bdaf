package notes

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/memory"
	"github.com/rubi-dev/rubi/core/store"
)

// project writes two code files and returns its root and its knowledge
// store with three nodes: one that names a file and links to another,
// one superseded by a third.
func project(t *testing.T) (string, *knowledge.Store) {
	t.Helper()
	root := t.TempDir()
	for _, f := range []string{"cart/total.go", "cart/coupon.go"} {
		os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755)
		if err := os.WriteFile(filepath.Join(root, f), []byte("package cart\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st := knowledge.Open(knowledge.Options{Root: root})
	_, err := st.Register(context.Background(), []knowledge.Input{
		{ID: "concept-cents", Type: knowledge.TypeConcept, Title: "Money is kept in cents", Body: "Every amount is an int.", Files: []string{"cart/total.go"}, Importance: knowledge.ImportanceCritical},
		{ID: "decision-coupon-once", Type: knowledge.TypeDecision, Title: "A coupon applies once", Body: "After the total.", Files: []string{"cart/coupon.go"},
			Links: []knowledge.Link{{Rel: "about", Target: "concept-cents"}, {Rel: "about", Target: "file:cart/total.go"}}, Tags: []string{"Checkout"}},
		{ID: "decision-coupon-twice", Type: knowledge.TypeDecision, Title: "Coupons stack", Body: "Old rule."},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Register(context.Background(), []knowledge.Input{{ID: "decision-coupon-single", Type: knowledge.TypeDecision, Title: "Coupons never stack", Body: "New rule.", Supersedes: []string{"decision-coupon-twice"}}}); err != nil {
		t.Fatal(err)
	}
	return root, st
}

func byKey(all []*Note) map[string]*Note {
	out := map[string]*Note{}
	for _, n := range all {
		out[n.Key] = n
	}
	return out
}

func TestNodesAsNotes(t *testing.T) {
	root, st := project(t)
	nodes := NewNodes(func() *knowledge.Store { return st }, root, t.TempDir(), nil, false)
	all, problems := nodes.All(1)
	if len(all) != 4 || len(problems) != 0 {
		t.Fatalf("%d notes, problems %q", len(all), problems)
	}
	n := byKey(all)
	cents, once, twice, single := n["concept-cents"], n["decision-coupon-once"], n["decision-coupon-twice"], n["decision-coupon-single"]
	if cents.ID != "node:concept-cents" || !cents.Active || !cents.Critical || !slices.Equal(cents.About, []string{"cart/total.go"}) {
		t.Errorf("cents = %+v", cents)
	}
	if !slices.Equal(once.About, []string{"cart/coupon.go", "cart/total.go"}) || !slices.Equal(once.Links, []string{"concept-cents"}) || once.Critical {
		t.Errorf("once: about %q, links %q", once.About, once.Links)
	}
	if twice.Active || !slices.Equal(single.Links, []string{"decision-coupon-twice"}) {
		t.Errorf("twice active %v, single links %q", twice.Active, single.Links)
	}
	d := once.Document()
	if d.ID != once.ID || d.Path != ".rubi/knowledge/decision-coupon-once.md" || !slices.Contains(d.Names, "Checkout") || !slices.Contains(d.Names, "cart/coupon.go") {
		t.Errorf("document = %+v", d)
	}
	names, text := once.Mentions()
	if !slices.Contains(names, "Checkout") || text != "A coupon applies once\nAfter the total." {
		t.Errorf("mentions %q, %q", names, text)
	}
	// A note's stamp follows its content.
	again, _ := nodes.File(once.Path)
	if again.Stamp != once.Stamp {
		t.Errorf("the same file gives another stamp")
	}
}

func TestNodeFilters(t *testing.T) {
	root, st := project(t)
	nodes := NewNodes(func() *knowledge.Store { return st }, root, t.TempDir(), nil, false)
	inCart := func(f string) bool { return f == "cart/coupon.go" }
	for _, c := range []struct {
		key  string
		f    Filter
		want bool
	}{
		{"decision-coupon-once", Filter{}, true},
		{"decision-coupon-twice", Filter{}, false}, // superseded: out unless asked
		{"decision-coupon-twice", Filter{Statuses: []string{"superseded"}}, true},
		{"decision-coupon-once", Filter{Types: []string{"concept"}}, false},
		{"decision-coupon-once", Filter{InScope: inCart}, true},
		{"concept-cents", Filter{InScope: inCart}, false},
		{"decision-coupon-once", Filter{Until: time.Now().Add(-time.Hour)}, false},
		{"gone", Filter{}, false},
	} {
		sh, ok := nodes.Show(c.key, c.f, Check)
		if ok != c.want {
			t.Errorf("%s %+v: shown %v", c.key, c.f, ok)
		}
		if ok && (sh.Title == "" || sh.Text == "") {
			t.Errorf("%s: %+v", c.key, sh)
		}
	}
}

func TestCriticalNotesFile(t *testing.T) {
	root, st := project(t)
	nodes := NewNodes(func() *knowledge.Store { return st }, root, t.TempDir(), nil, false)
	all, _ := nodes.All(1)
	if err := nodes.WriteCritical(all); err != nil {
		t.Fatal(err)
	}
	crit, err := nodes.Critical()
	if err != nil || len(crit) != 1 || crit[0].ID != "concept-cents" {
		t.Fatalf("critical = %v, %v", crit, err)
	}
	// The critical note edited to medium leaves the file.
	edited := byKey(all)["concept-cents"]
	edited.node.Importance = knowledge.ImportanceMedium
	if err := nodes.RewriteCritical(map[string]*Note{edited.ID: edited}); err != nil {
		t.Fatal(err)
	}
	if crit, err := nodes.Critical(); err != nil || len(crit) != 0 {
		t.Errorf("after the edit: %v, %v", crit, err)
	}
}

func TestChunksAsNotes(t *testing.T) {
	root, _ := project(t)
	ms := memory.Open(root)
	at := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	for i, content := range []string{"how long have you been married?", "5 years already! see cart/total.go"} {
		if _, err := ms.Save(context.Background(), memory.Input{Type: memory.TypeSession, Session: "s1", Content: content, Created: at.Add(time.Duration(i) * time.Minute)}); err != nil {
			t.Fatal(err)
		}
	}
	chunks := NewChunks(root)
	all, problems, err := chunks.All(true)
	if err != nil || len(all) != 2 || len(problems) != 0 {
		t.Fatalf("%d chunks, %q, %v", len(all), problems, err)
	}
	slices.SortFunc(all, func(a, b *Note) int { return a.Created.Compare(b.Created) })
	answer := all[1]
	if d := answer.Document(); !slices.Contains(answer.About, "cart/total.go") || answer.Session != "s1" || !strings.Contains(d.Body, "married") {
		t.Errorf("answer: %+v, body %q", answer, d.Body)
	}
	without, _, _ := chunks.All(false)
	for _, n := range without {
		if n.ID == answer.ID && strings.Contains(n.Document().Body, "married") {
			t.Errorf("without session context the answer holds the question")
		}
	}
	key := answer.ID[len("chunk:"):]
	if _, ok := chunks.Show(key, Filter{}); !ok {
		t.Error("the chunk is not shown")
	}
	if _, ok := chunks.Show(key, Filter{Types: []string{"decision"}}); ok {
		t.Error("a note type filter shows a chunk")
	}
	if _, ok := chunks.Show(key, Filter{InScope: func(string) bool { return true }, Module: true}); ok {
		t.Error("a module filter shows a chunk")
	}
	if tm, ok := chunks.Time(key); !ok || !tm.Equal(at.Add(time.Minute)) {
		t.Errorf("time = %v %v", tm, ok)
	}
}

// Turns saved one call each in the same second carry the turn saved
// before them (session_context), not one their ids happen to sort after.
func TestChunksOfOneSecondCarryTheTurnBefore(t *testing.T) {
	root, _ := project(t)
	ms := memory.Open(root)
	at := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	turns := []string{"turn one: the lake house", "turn two: the pottery class", "turn three: the charity run", "turn four: the camping trip", "turn five: the adoption agency"}
	for _, content := range turns {
		if _, err := ms.Save(context.Background(), memory.Input{Session: "s1", Content: content, Created: at}); err != nil {
			t.Fatal(err)
		}
	}
	all, _, err := NewChunks(root).All(true)
	if err != nil || len(all) != len(turns) {
		t.Fatalf("%d chunks, %v", len(all), err)
	}
	for _, n := range all {
		d := n.Document()
		body, k := d.Body, slices.Index(turns, d.Title)
		for j, other := range turns {
			if j != k && j != k-1 && strings.Contains(body, other) {
				t.Errorf("the chunk of %q carries %q, not the turn before it", turns[k], other)
			}
		}
		if k > 0 && !strings.Contains(body, turns[k-1]) {
			t.Errorf("the chunk of %q does not carry the turn before it, %q", turns[k], turns[k-1])
		}
	}
}

// The node cache an index run wrote is taken without reading its
// checksum while it is that very version; a byte changed in it in place
// since (its size and modification time as they were) is caught, and the
// note is read from its own file, not from the changed cache.
func TestANodeCacheChangedInPlaceIsNotTaken(t *testing.T) {
	root, st := project(t)
	// Notes written long enough ago that the cache's records of them are
	// taken (one of a file written in the last moments is not).
	old := time.Now().Add(-time.Hour)
	mds, _ := filepath.Glob(filepath.Join(root, ".rubi", "knowledge", "*.md"))
	for _, md := range mds {
		if err := os.Chtimes(md, old, old); err != nil {
			t.Fatal(err)
		}
	}
	st = knowledge.Open(knowledge.Options{Root: root})
	indexDir := filepath.Join(root, ".rubi", "index")
	if err := os.MkdirAll(indexDir, 0o755); err != nil {
		t.Fatal(err)
	}
	NewNodes(func() *knowledge.Store { return st }, root, indexDir, nil, false).All(1) // writes the cache
	path := filepath.Join(indexDir, cacheFile)
	if _, err := os.Stat(path + store.WrittenSuffix); err != nil {
		t.Fatalf("the cache's version was not recorded: %v", err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	at := strings.Index(string(data), "Money is kept in cents")
	if at < 0 {
		t.Fatal("the cache does not hold the note's title as written")
	}
	fi, _ := os.Stat(path)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("H"), int64(at)); err != nil { // "Honey is kept in cents"
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	for _, oneShot := range []bool{false, true} { // read, and mapped
		fresh := knowledge.Open(knowledge.Options{Root: root})
		all, _ := NewNodes(func() *knowledge.Store { return fresh }, root, indexDir, nil, oneShot).All(1)
		if got := byKey(all)["concept-cents"]; got == nil || !strings.HasPrefix(got.Document().Title, "Money") {
			t.Fatalf("one-shot %v: after the cache changed in place the note reads %+v", oneShot, got)
		}
	}
}
