package ppr

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codec"
	"github.com/rubi-dev/rubi/core/store"
)

// corpusOf builds a corpus of files, one module per directory with
// contains edges when modules is set, and import edges given as
// [importer, imported] file paths.
func corpusOf(files []string, modules bool, imports [][2]string, extra ...core.Edge) *core.Corpus {
	c := &core.Corpus{Full: true}
	dirs := map[string]bool{}
	for _, f := range files {
		c.Documents = append(c.Documents, core.Document{
			ID: core.DocID(core.DocFile, f), Kind: core.DocFile, Path: f, Title: path.Base(f),
		})
		d := path.Dir(f)
		if !modules {
			continue
		}
		if !dirs[d] {
			dirs[d] = true
			c.Documents = append(c.Documents, core.Document{
				ID: core.DocID(core.DocModule, d), Kind: core.DocModule, Path: d, Title: d,
			})
		}
		c.Edges = append(c.Edges, core.Edge{From: core.DocID(core.DocModule, d), To: core.DocID(core.DocFile, f), Kind: core.EdgeContains})
	}
	for _, im := range imports {
		c.Edges = append(c.Edges, core.Edge{From: "file:" + im[0], To: "file:" + im[1], Kind: core.EdgeImports, Weight: 1})
	}
	c.Edges = append(c.Edges, extra...)
	return c
}

func configured(t testing.TB, dir string, settings string) *Ranker {
	t.Helper()
	r := New()
	setup := core.Setup{Root: t.TempDir(), StateDir: dir}
	if settings != "" {
		setup.Settings = json.RawMessage(settings)
	}
	if err := r.Configure(context.Background(), setup); err != nil {
		t.Fatal(err)
	}
	return r
}

func indexed(t testing.TB, c *core.Corpus, settings string) *Ranker {
	t.Helper()
	r := configured(t, t.TempDir(), settings)
	if err := r.Index(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	return r
}

func seedQuery(limit int, ids ...string) core.Query {
	l := core.RankedList{Stage: "rank.bm25", Weight: 1}
	for i, id := range ids {
		l.Hits = append(l.Hits, core.Hit{ID: id, Score: float64(len(ids) - i)})
	}
	return core.Query{Text: "q", Limit: limit, Seeds: []core.RankedList{l}}
}

func rank(t testing.TB, r *Ranker, q core.Query) []core.Hit {
	t.Helper()
	hits, err := r.Rank(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	return hits
}

func position(hits []core.Hit, id string) int {
	return slices.IndexFunc(hits, func(h core.Hit) bool { return h.ID == id })
}

func hitFor(t *testing.T, hits []core.Hit, id string) core.Hit {
	t.Helper()
	i := position(hits, id)
	if i < 0 {
		t.Fatalf("%s not in hits %v", id, hits)
	}
	return hits[i]
}

func TestImportedFileRanksAboveUnrelated(t *testing.T) {
	files := []string{"api/handler.go", "store/db.go", "store/cache.go", "ui/page.go", "ui/widget.go", "docs/gen.go"}
	c := corpusOf(files, true, [][2]string{
		{"api/handler.go", "store/db.go"},
		{"ui/page.go", "ui/widget.go"},
		{"docs/gen.go", "ui/widget.go"},
	})
	r := indexed(t, c, "")
	hits := rank(t, r, seedQuery(0, "file:api/handler.go"))
	db := position(hits, "file:store/db.go")
	if db < 0 {
		t.Fatalf("imported file missing: %v", hits)
	}
	for _, unrelated := range []string{"file:ui/page.go", "file:ui/widget.go", "file:docs/gen.go"} {
		if p := position(hits, unrelated); p >= 0 && p < db {
			t.Errorf("%s (rank %d) above the imported file (rank %d)", unrelated, p, db)
		}
	}
	if got := hitFor(t, hits, "file:store/db.go").Reason; got != "imported by api/handler.go" {
		t.Errorf("reason = %q", got)
	}
	for i := 1; i < len(hits); i++ {
		if hits[i].Score > hits[i-1].Score {
			t.Errorf("hits not sorted by score: %v", hits)
		}
	}
}

func TestHubPenalty(t *testing.T) {
	// The match imports a specific helper and a hub that fifty other
	// files import too.
	files := []string{"seed.go", "helper.go", "hub.go"}
	imports := [][2]string{{"seed.go", "helper.go"}, {"seed.go", "hub.go"}}
	for i := range 50 {
		f := fmt.Sprintf("user%02d.go", i)
		files = append(files, f)
		imports = append(imports, [2]string{f, "hub.go"})
	}
	c := corpusOf(files, false, imports)
	q := seedQuery(5, "file:seed.go")

	raw := rank(t, indexed(t, c, `{"hub_penalty": 0}`), q)
	if h, s := position(raw, "file:hub.go"), position(raw, "file:helper.go"); !(h >= 0 && h < s) {
		t.Fatalf("without a penalty the hub should win on mass alone (hub %d, helper %d): %v", h, s, raw)
	}
	hits := rank(t, indexed(t, c, ""), q)
	t.Logf("penalty 0: %v", raw)
	t.Logf("penalty 0.5: %v", hits)
	if h, s := position(hits, "file:hub.go"), position(hits, "file:helper.go"); !(s >= 0 && (h < 0 || s < h)) {
		t.Errorf("with the default penalty the specific helper should beat the hub (hub %d, helper %d): %v", h, s, hits)
	}
}

func TestReasons(t *testing.T) {
	files := []string{"m/seed.go", "m/sibling.go", "lib/dep.go", "cmd/main.go", "x/a.go", "x/b.go", "y/c.go", "README.md"}
	c := corpusOf(files, true, [][2]string{
		{"m/seed.go", "lib/dep.go"},
		{"cmd/main.go", "m/seed.go"},
		{"lib/dep.go", "x/a.go"},
		{"x/a.go", "y/c.go"},
	}, core.Edge{From: "file:README.md", To: "file:m/seed.go", Kind: "links"})
	r := indexed(t, c, `{"hub_penalty": 0}`)
	hits := rank(t, r, seedQuery(0, "file:m/seed.go"))
	want := map[string]string{
		"file:m/seed.go":    "",
		"file:lib/dep.go":   "imported by m/seed.go",
		"file:cmd/main.go":  "imports m/seed.go",
		"module:m":          "contains m/seed.go",
		"file:README.md":    "linked to m/seed.go",
		"file:m/sibling.go": "in module m, which contains m/seed.go",
		"file:x/a.go":       "imported by lib/dep.go, which is imported by m/seed.go",
		"file:y/c.go":       "imported by x/a.go, 3 steps from the matches",
	}
	for id, reason := range want {
		if got := hitFor(t, hits, id).Reason; got != reason {
			t.Errorf("%s: reason %q, want %q", id, got, reason)
		}
	}
}

// A labelled edge (the links the pipeline adds between notes and chunks)
// says its own words in the reasons, in a process that indexed the graph
// and in one that loads it from its file.
func TestLabelledEdgeReasons(t *testing.T) {
	c := &core.Corpus{Full: true}
	for _, id := range []string{"chunk:a", "chunk:b", "chunk:c", "chunk:d"} {
		c.Documents = append(c.Documents, core.Document{ID: id, Kind: core.DocChunk, Title: strings.ToUpper(id[len("chunk:"):])})
	}
	c.Edges = []core.Edge{
		{From: "chunk:b", To: "chunk:a", Kind: core.EdgeSession, Weight: 1, Label: "same session as"},
		{From: "chunk:c", To: "chunk:b", Kind: core.EdgeMentions, Weight: 1, Label: `both mention "Sweden" with`},
		{From: "chunk:d", To: "chunk:c", Kind: "links", Weight: 1},
	}
	dir := t.TempDir()
	indexer := configured(t, dir, `{"hub_penalty": 0}`)
	if err := indexer.Index(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"chunk:b": "same session as A",
		"chunk:c": `both mention "Sweden" with B; same session as A`,
		"chunk:d": "linked to C, 3 steps from the matches",
	}
	for _, r := range []*Ranker{indexer, configured(t, dir, `{"hub_penalty": 0}`)} {
		hits := rank(t, r, seedQuery(0, "chunk:a"))
		for id, reason := range want {
			if got := hitFor(t, hits, id).Reason; got != reason {
				t.Errorf("%s: reason %q, want %q", id, got, reason)
			}
		}
	}
}

func TestPersistence(t *testing.T) {
	dir := t.TempDir()
	c := corpusOf([]string{"a/x.go", "a/y.go", "b/z.go", "c/w.go"}, true, [][2]string{{"a/x.go", "b/z.go"}, {"c/w.go", "a/y.go"}})
	indexer := configured(t, dir, "")
	if err := indexer.Index(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if err := indexer.Index(context.Background(), c); err != nil { // idempotent
		t.Fatal(err)
	}
	q := seedQuery(10, "file:a/x.go", "file:c/w.go")
	want := rank(t, indexer, q)

	// A fresh ranker, as in a process that only ranks.
	fresh := configured(t, dir, "")
	if got := rank(t, fresh, q); !slices.Equal(got, want) {
		t.Errorf("fresh process ranks\n%v\nindexing process ranked\n%v", got, want)
	}

	// Another process re-indexes: the long-lived ranker picks it up.
	c2 := corpusOf([]string{"a/x.go", "a/y.go", "b/z.go", "c/w.go", "d/new.go"}, true, [][2]string{{"a/x.go", "d/new.go"}})
	if err := configured(t, dir, "").Index(context.Background(), c2); err != nil {
		t.Fatal(err)
	}
	if got := rank(t, fresh, q); position(got, "file:d/new.go") < 0 {
		t.Errorf("re-indexed graph not picked up: %v", got)
	}
}

func TestStateErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	r := configured(t, dir, "")
	_, err := r.Rank(ctx, seedQuery(5, "file:a.go"))
	if err == nil || !strings.Contains(err.Error(), "rubi index") {
		t.Errorf("never indexed: %v", err)
	}
	file := filepath.Join(dir, stateFile)
	if err := os.WriteFile(file, []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := configured(t, dir, "").Rank(ctx, seedQuery(5, "file:a.go")); err == nil || !strings.Contains(err.Error(), "rubi index") {
		t.Errorf("garbage state: %v", err)
	}
	// In-memory only, when there is no state directory.
	mem := configured(t, "", "")
	if _, err := mem.Rank(ctx, seedQuery(5, "file:a.go")); err == nil {
		t.Error("unindexed in-memory ranker: no error")
	}
	if err := mem.Index(ctx, corpusOf([]string{"a.go"}, false, nil)); err != nil {
		t.Fatal(err)
	}
	if hits := rank(t, mem, seedQuery(5, "file:a.go")); len(hits) != 1 {
		t.Errorf("in-memory ranker: %v", hits)
	}
}

func TestFormatVersion(t *testing.T) {
	dir := t.TempDir()
	st := newState(corpusOf([]string{"a.go", "b.go"}, false, [][2]string{{"a.go", "b.go"}}))
	if _, err := st.save(dir, true); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(filepath.Join(dir, stateFile))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := load(dir, false); err != nil {
		t.Fatalf("own format: %v", err)
	}
	// A file from another format version, or a damaged one, is refused,
	// not misread.
	other := bytes.Clone(good)
	other[len(formatMagic)] = formatVersion + 1
	flipped := bytes.Clone(good)
	flipped[len(flipped)-10] ^= 0x10
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"version":   {other, "format"},
		"flipped":   {flipped, "corrupt"},
		"truncated": {good[:len(good)-7], "corrupt"},
		"foreign":   {[]byte("not a graph"), "not a rank.ppr graph"},
	} {
		if err := os.WriteFile(filepath.Join(dir, stateFile), c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := load(dir, false)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "rubi index") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// An update that changes no document or edge of the graph leaves the
// state file alone; any change to the graph rewrites it.
func TestUnchangedGraphNotRewritten(t *testing.T) {
	dir := t.TempDir()
	c := corpusOf([]string{"a/x.go", "a/y.go", "b/z.go"}, true, [][2]string{{"a/x.go", "b/z.go"}})
	r := configured(t, dir, "")
	if err := r.Index(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, stateFile)
	old := time.Unix(1, 0)
	if err := os.Chtimes(file, old, old); err != nil {
		t.Fatal(err)
	}
	c.Changed = []string{"file:a/x.go"} // a body edit: same graph
	if err := r.Index(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(file); !fi.ModTime().Equal(old) {
		t.Error("an unchanged graph was rewritten")
	}
	c2 := corpusOf([]string{"a/x.go", "a/y.go", "b/z.go"}, true, [][2]string{{"a/x.go", "b/z.go"}, {"a/y.go", "b/z.go"}})
	if err := r.Index(context.Background(), c2); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(file); fi.ModTime().Equal(old) {
		t.Error("a new edge did not rewrite the graph")
	}
	if hits := rank(t, configured(t, dir, ""), seedQuery(5, "file:a/y.go")); position(hits, "file:b/z.go") < 0 {
		t.Errorf("the new edge is not in the stored graph: %v", hits)
	}
}

func TestKindsAndLimit(t *testing.T) {
	c := corpusOf([]string{"a/x.go", "a/y.go", "b/z.go"}, true, [][2]string{{"a/x.go", "b/z.go"}})
	r := indexed(t, c, "")
	q := seedQuery(0, "file:a/x.go")
	q.Kinds = []string{core.DocModule}
	hits := rank(t, r, q)
	if len(hits) != 2 {
		t.Errorf("modules only: %v", hits)
	}
	for _, h := range hits {
		if !strings.HasPrefix(h.ID, "module:") {
			t.Errorf("kind filter let through %s", h.ID)
		}
	}
	q = seedQuery(2, "file:a/x.go")
	if hits := rank(t, r, q); len(hits) != 2 || hits[0].ID != "file:a/x.go" {
		t.Errorf("limit 2: %v", hits)
	}
}

func TestSeeds(t *testing.T) {
	ctx := context.Background()
	files := []string{"a.go", "b.go", "c.go", "d.go", "e.go"}
	r := indexed(t, corpusOf(files, false, nil), `{"max_seeds": 2}`)
	if hits, err := r.Rank(ctx, core.Query{Text: "q", Limit: 10}); hits != nil || err != nil {
		t.Errorf("no seeds: %v, %v", hits, err)
	}
	if hits := rank(t, r, seedQuery(10, "file:unknown.go")); hits != nil {
		t.Errorf("unknown seeds: %v", hits)
	}
	// Isolated files only score as seeds: max_seeds 2 keeps two.
	if hits := rank(t, r, seedQuery(10, "file:a.go", "file:b.go", "file:c.go", "file:d.go")); len(hits) != 2 || hits[0].ID != "file:a.go" || hits[1].ID != "file:b.go" {
		t.Errorf("max_seeds 2: %v", hits)
	}

	// Lists combine by weight and rank: e.go is second in two lists.
	st := newState(corpusOf(files, false, nil))
	lists := []core.RankedList{
		{Stage: "one", Weight: 1, Hits: []core.Hit{{ID: "file:a.go"}, {ID: "file:e.go"}}},
		{Stage: "two", Weight: 2, Hits: []core.Hit{{ID: "file:c.go"}, {ID: "file:e.go"}, {ID: "file:nope.go"}}},
		{Stage: "off", Weight: -1, Hits: []core.Hit{{ID: "file:d.go"}}},
	}
	got := st.seeds(lists, 10)
	idx := func(id string) int { i, _ := st.g.Index(id); return i }
	want := map[int]float64{idx("file:a.go"): 1, idx("file:e.go"): 0.5 + 1, idx("file:c.go"): 2}
	if len(got) != len(want) {
		t.Fatalf("seeds = %v, want %v", got, want)
	}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("seed %s weight %v, want %v", st.id(i), got[i], w)
		}
	}
	if got := st.seeds(lists, 1); len(got) != 1 || got[idx("file:c.go")] != 2 {
		t.Errorf("capped at 1: %v", got)
	}
}

func TestConfigure(t *testing.T) {
	for _, tc := range []struct {
		settings, setting string
	}{
		{`{"damping": 1}`, "damping"},
		{`{"damping": 0}`, "damping"},
		{`{"hub_penalty": -0.5}`, "hub_penalty"},
		{`{"hub_penalty": 3}`, "hub_penalty"},
		{`{"max_seeds": 0}`, "max_seeds"},
		{`{"max_seeds": 5000}`, "max_seeds"},
		{`{"references": -1}`, "references"},
		{`{"references": 11}`, "references"},
		{`{"damping": "high"}`, ""},
	} {
		err := New().Configure(context.Background(), core.Setup{Settings: json.RawMessage(tc.settings)})
		var se *core.SettingError
		if !errors.As(err, &se) {
			t.Errorf("%s: error %v, want a *core.SettingError", tc.settings, err)
			continue
		}
		if tc.setting != "" && se.Setting != tc.setting {
			t.Errorf("%s: setting %q, want %q", tc.settings, se.Setting, tc.setting)
		}
	}
	r := configured(t, t.TempDir(), `{"damping": 0.7, "max_seeds": 3, "references": 0.5}`)
	if got, want := r.Settings(), (Settings{Damping: 0.7, HubPenalty: 0.5, MaxSeeds: 3, References: 0.5}); got != want {
		t.Errorf("settings = %+v, want %+v", got, want)
	}
}

func TestInfoAndRegistry(t *testing.T) {
	info := New().Info()
	if info.Name != Name || info.Kind != core.KindRanker || !info.Seeded || !info.Scoped {
		t.Errorf("info = %+v", info)
	}
	for _, a := range []string{"damping", "hub_penalty", "max_seeds"} {
		if attr, ok := info.Schema.Lookup(a); !ok || attr.Required {
			t.Errorf("schema attribute %s: %+v %v", a, attr, ok)
		}
	}
	b, ok := core.LookupBuiltin(Name)
	if !ok || b.Kind != core.KindRanker {
		t.Fatalf("not registered: %+v", b)
	}
	if _, ok := b.Factory().(core.Ranker); !ok {
		t.Error("factory does not make a core.Ranker")
	}
}

func TestConcurrent(t *testing.T) {
	dir := t.TempDir()
	c := corpusOf([]string{"a/x.go", "a/y.go", "b/z.go"}, true, [][2]string{{"a/x.go", "b/z.go"}})
	r := configured(t, dir, "")
	if err := r.Index(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	other := configured(t, dir, "")
	done := make(chan error, 8)
	for i := range 8 {
		go func() {
			var err error
			for range 20 {
				if i%4 == 0 {
					err = other.Index(context.Background(), c)
				} else {
					_, err = r.Rank(context.Background(), seedQuery(5, "file:a/x.go"))
				}
				if err != nil {
					break
				}
			}
			done <- err
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// synthetic is a 10k-file project in 500 modules with 50k imports skewed
// towards a few popular files.
func synthetic() *core.Corpus {
	rng := rand.New(rand.NewPCG(3, 4))
	var files []string
	for i := range 10_000 {
		files = append(files, fmt.Sprintf("pkg%03d/file%05d.go", i/20, i))
	}
	var imports [][2]string
	for range 50_000 {
		from := files[rng.IntN(len(files))]
		to := files[int(float64(len(files))*rng.Float64()*rng.Float64())]
		imports = append(imports, [2]string{from, to})
	}
	return corpusOf(files, true, imports)
}

func BenchmarkRank10k(b *testing.B) {
	r := indexed(b, synthetic(), "")
	q := seedQuery(20)
	for i := range 20 {
		q.Seeds[0].Hits = append(q.Seeds[0].Hits, core.Hit{ID: fmt.Sprintf("file:pkg%03d/file%05d.go", (i*487)%10_000/20, (i*487)%10_000)})
	}
	b.ResetTimer()
	for b.Loop() {
		if hits := rank(b, r, q); len(hits) != 20 {
			b.Fatalf("%d hits", len(hits))
		}
	}
}

func BenchmarkIndex10k(b *testing.B) {
	c := synthetic()
	r := configured(b, b.TempDir(), "")
	b.ResetTimer()
	for b.Loop() {
		if err := r.Index(context.Background(), c); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoad10k(b *testing.B) {
	dir := b.TempDir()
	if _, err := newState(synthetic()).save(dir, true); err != nil {
		b.Fatal(err)
	}
	fi, _ := os.Stat(filepath.Join(dir, stateFile))
	b.ReportMetric(float64(fi.Size()), "file-bytes")
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := load(dir, false); err != nil {
			b.Fatal(err)
		}
	}
}

// A graph stored by the previous format is not reused by an update whose
// corpus is the same, but rebuilt, and then ranks.
func TestOldFormatRebuilt(t *testing.T) {
	dir := t.TempDir()
	c := corpusOf([]string{"a/x.go", "a/y.go", "b/z.go"}, true, [][2]string{{"a/x.go", "b/z.go"}})
	if err := configured(t, dir, "").Index(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, stateFile)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	data[len(formatMagic)] = formatVersion - 1
	if err := os.WriteFile(file, codec.Seal(data[:len(data)-4]), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := load(dir, false); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("has format %d,", formatVersion-1)) {
		t.Fatalf("old format loaded: %v", err)
	}
	if err := configured(t, dir, "").Index(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if hits := rank(t, configured(t, dir, ""), seedQuery(5, "file:a/x.go")); position(hits, "file:b/z.go") < 0 {
		t.Errorf("rebuilt graph: %v", hits)
	}
}

// Tables that disagree with themselves are refused even when the checksum
// matches (a bug in a writer, not a damaged disk).
func TestInconsistentTablesRefused(t *testing.T) {
	st := newState(corpusOf([]string{"a.go", "b.go", "c.go"}, false, [][2]string{{"a.go", "b.go"}, {"b.go", "c.go"}}))
	good := st.encode()
	if _, err := decodeState(good, true); err != nil {
		t.Fatal(err)
	}
	// The tables, from the end: ... by-id order, kinds, string offsets,
	// relations, strings, checksum.
	n, m := st.strs.Len(), len(st.rel)
	strsAt := len(good) - 4 - len(st.strs.blob)
	offAt := strsAt - m - 4*(2*n+1)
	kindAt := offAt - 4*n
	for what, damage := range map[string]func(b []byte){
		"node number out of range": func(b []byte) { binary.LittleEndian.PutUint32(b[kindAt-4:], uint32(n)) },
		"node kind out of range":   func(b []byte) { binary.LittleEndian.PutUint32(b[kindAt:], uint32(len(st.kinds))) },
		"string past the strings":  func(b []byte) { binary.LittleEndian.PutUint32(b[offAt+4:], uint32(len(st.strs.blob)+1)) },
		"strings out of order": func(b []byte) {
			binary.LittleEndian.PutUint32(b[offAt+4:], 0)
			binary.LittleEndian.PutUint32(b[offAt+8:], 1)
		},
		"strings cut short": func(b []byte) { binary.LittleEndian.PutUint32(b[offAt+4*2*n:], uint32(len(st.strs.blob)-1)) },
	} {
		bad := bytes.Clone(good[:len(good)-4])
		damage(bad)
		if _, err := decodeState(codec.Seal(bad), true); err == nil || !strings.Contains(err.Error(), "corrupt") {
			t.Errorf("%s: %v", what, err)
		}
	}
	if _, err := decodeState(codec.Seal(append(bytes.Clone(good[:len(good)-4]), 0)), true); err == nil || !strings.Contains(err.Error(), "bad sizes") {
		t.Errorf("a byte too many: %v", err)
	}
}

// A one-shot process ranks from the mapped file itself, a long-running one
// from a copy: both rank as the indexing process did.
func TestOneShotRanksTheSame(t *testing.T) {
	dir := t.TempDir()
	c := corpusOf([]string{"a/x.go", "a/y.go", "b/z.go", "c/w.go"}, true, [][2]string{{"a/x.go", "b/z.go"}, {"c/w.go", "a/y.go"}})
	indexer := configured(t, dir, "")
	if err := indexer.Index(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	q := seedQuery(10, "file:a/x.go", "file:c/w.go")
	want := rank(t, indexer, q)
	for _, oneShot := range []bool{false, true} {
		r := New()
		if err := r.Configure(context.Background(), core.Setup{Root: t.TempDir(), StateDir: dir, OneShot: oneShot}); err != nil {
			t.Fatal(err)
		}
		if got := rank(t, r, q); !slices.Equal(got, want) {
			t.Errorf("one-shot %v ranks\n%v\nindexing process ranked\n%v", oneShot, got, want)
		}
	}
}

// A ranker told the process is one-shot (core.Setup.OneShot) decodes its
// graph from the mapped file and keeps the mapping; one in a long-running
// process copies the file into memory first. With 2,000 files the graph
// is about 360 KB: copied, loading it allocates at least that much;
// mapped, a few KB (4 KB when measured).
func TestOneShotMapsTheGraph(t *testing.T) {
	dir := t.TempDir()
	var files []string
	var imports [][2]string
	for i := range 2000 {
		files = append(files, fmt.Sprintf("m%d/f%d.go", i%40, i))
		imports = append(imports, [2]string{files[i], fmt.Sprintf("m%d/f%d.go", (i*7)%40, (i*7)%2000)})
	}
	if err := configured(t, dir, "").Index(context.Background(), corpusOf(files, true, imports)); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, stateFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, oneShot := range []bool{false, true} {
		r := New()
		if err := r.Configure(context.Background(), core.Setup{Root: t.TempDir(), StateDir: dir, OneShot: oneShot}); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, _, err := r.current()
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		allocated := int64(after.TotalAlloc - before.TotalAlloc)
		if copied := allocated >= fi.Size(); copied == oneShot {
			t.Errorf("one-shot %v: loading a graph of %d bytes allocated %d", oneShot, fi.Size(), allocated)
		}
	}
}

// An index run that would keep the stored graph checks it whole first: a
// damaged one is rebuilt, and the rebuilt file is one queries may trust
// without reading all of it (store.Unchanged).
func TestDamagedGraphRebuilt(t *testing.T) {
	dir := t.TempDir()
	c := corpusOf([]string{"a/x.go", "a/y.go", "b/z.go"}, true, [][2]string{{"a/x.go", "b/z.go"}})
	r := configured(t, dir, "")
	if err := r.Index(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, stateFile)
	if !store.Unchanged(file) {
		t.Fatal("a graph just written is not recorded as checked")
	}
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Clone(good)
	bad[len(bad)-10] ^= 0x10 // in the tables, past what a query checks
	if err := os.WriteFile(file, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := load(dir, false); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("a query loaded a damaged graph written outside rubi: %v", err)
	}
	if err := configured(t, dir, "").Index(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if now, _ := os.ReadFile(file); !bytes.Equal(now, good) || !store.Unchanged(file) {
		t.Error("the damaged graph was kept")
	}
}

// A state file whose bytes lie at an odd address (a copy, say) decodes
// into copies of its tables, equal to the tables read in place.
func TestMisalignedStateDecodes(t *testing.T) {
	st := newState(corpusOf([]string{"a/x.go", "a/y.go", "b/z.go"}, true, [][2]string{{"a/x.go", "b/z.go"}, {"a/y.go", "a/x.go"}}))
	data := st.encode()
	aligned, err := decodeState(data, true)
	if err != nil {
		t.Fatal(err)
	}
	odd := make([]byte, len(data)+1)
	copy(odd[1:], data)
	got, err := decodeState(odd[1:], true)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.g.Tables(), aligned.g.Tables()) || !slices.Equal(got.strs.off, aligned.strs.off) || !slices.Equal(got.nodeKind, aligned.nodeKind) {
		t.Error("the tables decoded from a misaligned copy differ")
	}
	for i := range got.strs.Len() {
		if got.id(i) != aligned.id(i) || got.name(i) != aligned.name(i) {
			t.Errorf("node %d: %q %q, want %q %q", i, got.id(i), got.name(i), aligned.id(i), aligned.name(i))
		}
	}
}

// The tables are written little endian whatever the machine: the copy a
// little-endian machine makes of them is the file a big-endian one writes
// number by number.
func TestEncodeEndianFree(t *testing.T) {
	st := newState(corpusOf([]string{"a/x.go", "a/y.go", "b/z.go"}, true, [][2]string{{"a/x.go", "b/z.go"}},
		core.Edge{From: "file:a/y.go", To: "file:b/z.go", Kind: "links", Label: "see also"}))
	want := st.encode()
	defer func(le bool) { littleEndian = le }(littleEndian)
	littleEndian = !littleEndian
	if got := st.encode(); !bytes.Equal(got, want) {
		t.Error("the file depends on how the machine stores numbers")
	}
	got, err := decodeState(want, true)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.encode(), want) {
		t.Error("a graph decoded number by number encodes to another file")
	}
}

// Verify in a new process vouches for the graph an index run wrote, as
// it wrote it; a graph changed since, or of another format under the
// record of the one written, fails it, and the index run rebuilds it.
func TestVerifyWrittenGraph(t *testing.T) {
	dir := t.TempDir()
	c := corpusOf([]string{"a/x.go", "a/y.go", "b/z.go"}, true, [][2]string{{"a/x.go", "b/z.go"}})
	if err := configured(t, dir, "").Index(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if err := configured(t, dir, "").Verify(context.Background()); err != nil {
		t.Fatalf("the graph as written: %v", err)
	}
	file := filepath.Join(dir, stateFile)
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}

	// Cut short in place.
	if err := os.WriteFile(file, good[:len(good)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := configured(t, dir, "").Verify(context.Background()); err == nil {
		t.Error("a graph cut short passed")
	}

	// Another format version, recorded as written: it is loaded, and
	// found outdated.
	other := bytes.Clone(good)
	other[len(formatMagic)] = formatVersion + 1
	if err := os.WriteFile(file, codec.Seal(other[:len(other)-4]), 0o644); err != nil {
		t.Fatal(err)
	}
	store.RecordVerified(file)
	if err := configured(t, dir, "").Verify(context.Background()); !errors.Is(err, core.ErrOutdated) {
		t.Errorf("a graph of format %d passed: %v", formatVersion+1, err)
	}
}

// kthLargest is the k-th of the scores sorted from the largest, ties and
// repeats included, for every k.
func TestKthLargestIsTheSortedOnes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for range 500 {
		n := 1 + rng.IntN(200)
		scores := make([]float64, n)
		for i := range scores {
			scores[i] = float64(rng.IntN(20)) / 4 // repeats
		}
		sorted := slices.Sorted(slices.Values(scores))
		for k := 1; k <= n; k++ {
			if got, want := kthLargest(scores, k, func(s float64) float64 { return s }), sorted[n-k]; got != want {
				t.Fatalf("k=%d of %v: %v, want %v", k, scores, got, want)
			}
		}
	}
}

// A one-shot process that indexes in full (an index run) keeps no graph
// in memory once it is written; a question it is asked after maps the
// file, and ranks as a long-running process that kept its graph.
func TestOneShotFullIndexKeepsNoGraph(t *testing.T) {
	c := corpusOf([]string{"a/x.go", "a/y.go", "b/z.go", "c/w.go"}, true, [][2]string{{"a/x.go", "b/z.go"}, {"c/w.go", "a/y.go"}})
	q := seedQuery(10, "file:a/x.go", "file:c/w.go")
	var answers [2][]core.Hit
	for k, oneShot := range []bool{false, true} {
		r := New()
		if err := r.Configure(context.Background(), core.Setup{Root: t.TempDir(), StateDir: t.TempDir(), OneShot: oneShot}); err != nil {
			t.Fatal(err)
		}
		if err := r.Index(context.Background(), c); err != nil {
			t.Fatal(err)
		}
		if kept := r.state != nil; kept == oneShot {
			t.Errorf("one-shot %v: graph kept in memory after a full index: %v", oneShot, kept)
		}
		answers[k] = rank(t, r, q)
	}
	if len(answers[0]) == 0 || !slices.Equal(answers[0], answers[1]) {
		t.Errorf("one-shot ranks\n%v\nlong-running ranked\n%v", answers[1], answers[0])
	}
}
