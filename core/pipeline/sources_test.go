package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/config"
)

// fakeSource is the built-in "source.fake" of these tests: a tracker whose
// items, answers and calls the test controls.
type fakeSource struct {
	mu      sync.Mutex
	kind    string
	items   map[string]core.SourceDocument
	stamps  map[string]string
	scanErr error
	reads   [][]string
}

var tracker = &fakeSource{}

func init() {
	core.Register("source.fake", core.KindSource, func() core.Stage { return tracker })
}

func (f *fakeSource) reset(kind string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.kind, f.items, f.stamps, f.scanErr, f.reads = kind, map[string]core.SourceDocument{}, map[string]string{}, nil, nil
}

func (f *fakeSource) put(stamp string, d core.SourceDocument) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.items[d.Key], f.stamps[d.Key] = d, stamp
}

func (f *fakeSource) drop(key string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.items, key)
	delete(f.stamps, key)
}

// takeReads returns the keys of each Read since the last call, sorted.
func (f *fakeSource) takeReads() [][]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := f.reads
	f.reads = nil
	return r
}

func (f *fakeSource) Info() core.Info {
	f.mu.Lock()
	defer f.mu.Unlock()
	return core.Info{Name: "source.fake", Kind: core.KindSource, Version: "1", DocKind: f.kind}
}

func (f *fakeSource) Configure(context.Context, core.Setup) error { return nil }

func (f *fakeSource) Scan(context.Context) ([]core.SourceItem, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.scanErr != nil {
		return nil, f.scanErr
	}
	var out []core.SourceItem
	for k, s := range f.stamps {
		out = append(out, core.SourceItem{Key: k, Stamp: s})
	}
	return out, nil
}

func (f *fakeSource) Read(_ context.Context, keys []string) ([]core.SourceDocument, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads = append(f.reads, slices.Sorted(slices.Values(keys)))
	var out []core.SourceDocument
	for _, k := range keys {
		if d, ok := f.items[k]; ok {
			out = append(out, d)
		}
	}
	return out, nil
}

// sourced is the shop project with source.fake declared in its rubi.hcl.
func sourced(t *testing.T) string {
	root := shop(t)
	write(t, root, "rubi.hcl", "source \"source.fake\" {}\n")
	return root
}

var couponBug = core.SourceDocument{
	Key: "17", Title: "Coupons expire a day early",
	Body:     "A coupon valid until the 3rd is refused on the 3rd: coupon.go compares the expiry in UTC.\nSee internal/discount/coupon.go and docs/nothere.md.",
	Location: "https://tracker.example/17", Names: []string{"bug"}, Time: 1_700_000_000,
	Files: []string{"internal/discount/coupon.go", "docs/nothere.md", "internal/discount/coupon.go"},
}

var darkMode = core.SourceDocument{Key: "18", Title: "Dark mode for the storefront", Body: "Users ask for a darker palette at night."}

func TestSourceItemsAreFoundAndShown(t *testing.T) {
	tracker.reset("ticket")
	tracker.put("a", couponBug)
	tracker.put("a", darkMode)
	e := engine(t, sourced(t))
	stats := index(t, e)
	if stats.Sourced != 2 {
		t.Errorf("sourced = %d, want 2", stats.Sourced)
	}
	if got := tracker.takeReads(); !slices.EqualFunc(got, [][]string{{"17", "18"}}, slices.Equal) {
		t.Errorf("reads = %q, want one read of both items", got)
	}
	res, err := e.Retrieve(context.Background(), answer.Query{Text: "coupon refused on its expiry day", Kinds: []string{"ticket"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) == 0 || res.Items[0].ID != "ticket:17" {
		t.Fatalf("items = %q, want ticket:17 first", ids(res))
	}
	it := res.Items[0]
	for _, want := range []string{"ticket: Coupons expire a day early", "at https://tracker.example/17", "files: internal/discount/coupon.go", "compares the expiry in UTC"} {
		if !strings.Contains(it.Text, want) {
			t.Errorf("the item's text lacks %q:\n%s", want, it.Text)
		}
	}
	if it.Kind != "ticket" || it.Path != "https://tracker.example/17" {
		t.Errorf("item = %+v", it)
	}
	// Among every kind, the report is found beside the code.
	res, err = e.Retrieve(context.Background(), answer.Query{Text: "coupon refused on its expiry day"})
	if err != nil || !slices.Contains(ids(res), "ticket:17") {
		t.Errorf("without a kind filter: %q, %v", ids(res), err)
	}
	// A time window before the item's time, and a path filter (code's),
	// leave it out.
	for _, q := range []answer.Query{
		{Text: "coupon expiry", Kinds: []string{"ticket"}, PathPrefix: "internal/"},
	} {
		if res, err := e.Retrieve(context.Background(), q); err != nil || slices.Contains(ids(res), "ticket:17") {
			t.Errorf("%+v: %q, %v", q, ids(res), err)
		}
	}
	_, err = e.Retrieve(context.Background(), answer.Query{Text: "coupon", Kinds: []string{"tickets"}})
	if err == nil || !strings.Contains(err.Error(), "chunk, ticket") {
		t.Errorf("an unknown kind should be refused, naming the sources' kinds: %v", err)
	}
}

func TestSourceReadsOnlyWhatChanged(t *testing.T) {
	tracker.reset("ticket")
	tracker.put("a", couponBug)
	tracker.put("a", darkMode)
	root := sourced(t)
	e := engine(t, root)
	index(t, e)
	tracker.takeReads()

	index(t, e)
	if got := tracker.takeReads(); len(got) != 0 {
		t.Errorf("a run where no stamp changed read %q", got)
	}

	changed := darkMode
	changed.Body = "Users ask for a darker palette, and a contrast toggle."
	tracker.put("b", changed)
	tracker.drop("17")
	stats := index(t, e)
	if got := tracker.takeReads(); !slices.EqualFunc(got, [][]string{{"18"}}, slices.Equal) {
		t.Errorf("reads = %q, want the changed item alone", got)
	}
	if stats.Sourced != 1 {
		t.Errorf("sourced = %d, want 1", stats.Sourced)
	}
	res, err := e.Retrieve(context.Background(), answer.Query{Text: "contrast toggle", Kinds: []string{"ticket"}})
	if err != nil || len(res.Items) == 0 || res.Items[0].ID != "ticket:18" {
		t.Fatalf("the changed item's new words: %q, %v", ids(res), err)
	}
	res, err = e.Retrieve(context.Background(), answer.Query{Text: "coupons expire a day early", Kinds: []string{"ticket"}})
	if err != nil || slices.Contains(ids(res), "ticket:17") {
		t.Errorf("the dropped item is still found: %q, %v", ids(res), err)
	}

	// Another process (a new engine) reads the same state: nothing to read.
	e2 := engine(t, root)
	index(t, e2)
	if got := tracker.takeReads(); len(got) != 0 {
		t.Errorf("a new process read %q", got)
	}
	// A full run reads everything again.
	if _, err := e2.Index(context.Background(), IndexOptions{Full: true}); err != nil {
		t.Fatal(err)
	}
	if got := tracker.takeReads(); !slices.EqualFunc(got, [][]string{{"18"}}, slices.Equal) {
		t.Errorf("a full run read %q", got)
	}
}

func TestFailingSourceKeepsWhatItHeld(t *testing.T) {
	tracker.reset("ticket")
	tracker.put("a", couponBug)
	e := engine(t, sourced(t))
	index(t, e)
	tracker.mu.Lock()
	tracker.scanErr = errors.New("tracker unreachable")
	tracker.mu.Unlock()
	stats := index(t, e)
	if !slices.ContainsFunc(stats.Warnings, func(w string) bool {
		return strings.Contains(w, "source source.fake: scan: tracker unreachable; keeping what it held")
	}) {
		t.Errorf("warnings = %q", stats.Warnings)
	}
	res, err := e.Retrieve(context.Background(), answer.Query{Text: "coupons expire a day early", Kinds: []string{"ticket"}})
	if err != nil || len(res.Items) == 0 || res.Items[0].ID != "ticket:17" {
		t.Errorf("after a failed scan: %q, %v", ids(res), err)
	}
}

func TestSourceWithTheCoresKindIsRefused(t *testing.T) {
	tracker.reset("file")
	tracker.put("a", couponBug)
	e := engine(t, sourced(t))
	stats := index(t, e)
	if stats.Sourced != 0 || !slices.ContainsFunc(stats.Warnings, func(w string) bool { return strings.Contains(w, `document kind "file" is the core's own`) }) {
		t.Errorf("sourced %d, warnings %q", stats.Sourced, stats.Warnings)
	}
	if got := tracker.takeReads(); len(got) != 0 {
		t.Errorf("a refused source was read: %q", got)
	}
}

func TestSourceTakenOutOfTheConfigurationLeaves(t *testing.T) {
	tracker.reset("ticket")
	tracker.put("a", couponBug)
	root := sourced(t)
	index(t, engine(t, root))
	state := filepath.Join(root, ".rubi", "index", "sources", "source.fake.json")
	if _, err := os.Stat(state); err != nil {
		t.Fatal(err)
	}
	write(t, root, "rubi.hcl", "# no sources\n")
	e := engine(t, root)
	index(t, e)
	if _, err := os.Stat(state); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the state of a source taken out is still there: %v", err)
	}
	res, err := e.Retrieve(context.Background(), answer.Query{Text: "coupons expire a day early"})
	if err != nil || slices.Contains(ids(res), "ticket:17") {
		t.Errorf("the source's item is still found: %q, %v", ids(res), err)
	}
}

// An item is linked to the files it names that the index holds, each once.
func TestSourceItemsLinkTheFilesTheyName(t *testing.T) {
	tracker.reset("ticket")
	tracker.put("a", couponBug)
	root := sourced(t)
	e := engine(t, root)
	index(t, e)
	m, err := e.folder.current()
	if err != nil {
		t.Fatal(err)
	}
	st := &config.Stage{Kind: core.KindSource, Name: "source.fake"}
	run := &sourceRun{stage: st, next: loadSourceState(e.sources.statePath(st.Name), st.Name)}
	var c core.Corpus
	if err := run.documents(&indexRun{e: e, next: m}, false, &c); err != nil {
		t.Fatal(err)
	}
	docs, edges := c.Documents, c.Edges
	if len(docs) != 1 || docs[0].ID != "ticket:17" || docs[0].Kind != "ticket" || docs[0].ModTime != couponBug.Time {
		t.Errorf("docs = %+v", docs)
	}
	want := []core.Edge{{From: "ticket:17", To: "file:internal/discount/coupon.go", Kind: edgeAbout, Weight: 1}}
	if !slices.Equal(edges, want) {
		t.Errorf("edges = %+v, want %+v", edges, want)
	}
}

// A damaged state is read as none: the source is read whole again.
func TestDamagedSourceStateIsReadAgain(t *testing.T) {
	tracker.reset("ticket")
	tracker.put("a", couponBug)
	root := sourced(t)
	index(t, engine(t, root))
	tracker.takeReads()
	state := filepath.Join(root, ".rubi", "index", "sources", "source.fake.json")
	if err := os.WriteFile(state, []byte(`{"format":1,"source":"source.fake","kind":"ticket","items":[{"key":"17"`), 0o644); err != nil {
		t.Fatal(err)
	}
	e := engine(t, root)
	index(t, e)
	if got := tracker.takeReads(); !slices.EqualFunc(got, [][]string{{"17"}}, slices.Equal) {
		t.Errorf("reads = %q, want the item read again", got)
	}
	res, err := e.Retrieve(context.Background(), answer.Query{Text: "coupons expire a day early", Kinds: []string{"ticket"}})
	if err != nil || len(res.Items) == 0 || res.Items[0].ID != "ticket:17" {
		t.Errorf("after a damaged state: %q, %v", ids(res), err)
	}
}

// Queries of a new process read the sources' state at once (the MCP
// server answers several at a time): run with -race.
func TestSourceItemsShownToConcurrentQueries(t *testing.T) {
	tracker.reset("ticket")
	tracker.put("a", couponBug)
	tracker.put("a", darkMode)
	root := sourced(t)
	index(t, engine(t, root))
	e := engine(t, root)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := e.Retrieve(context.Background(), answer.Query{Text: "coupons expire a day early", Kinds: []string{"ticket"}})
			if err == nil && (len(res.Items) == 0 || res.Items[0].ID != "ticket:17") {
				err = errors.New("ticket:17 not first: " + strings.Join(ids(res), ", "))
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}
