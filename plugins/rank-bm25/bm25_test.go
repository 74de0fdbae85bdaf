package bm25

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rubi-dev/rubi/core"
)

func fileDoc(path string, names []string, body string) core.Document {
	return core.Document{
		ID: core.DocID(core.DocFile, path), Kind: core.DocFile, Path: path,
		Title: filepath.Base(path), Names: names, Body: body,
	}
}

// newRanker configures a Ranker on a fresh state directory (or dir).
func newRanker(t testing.TB, settings string, dir ...string) *Ranker {
	t.Helper()
	d := t.TempDir()
	if len(dir) > 0 {
		d = dir[0]
	}
	r := New()
	setup := core.Setup{Root: "/project", StateDir: d}
	if settings != "" {
		setup.Settings = json.RawMessage(settings)
	}
	if err := r.Configure(context.Background(), setup); err != nil {
		t.Fatalf("Configure: %v", err)
	}
	return r
}

func build(t testing.TB, r *Ranker, c *core.Corpus) {
	t.Helper()
	if err := r.Index(context.Background(), c); err != nil {
		t.Fatalf("Index: %v", err)
	}
}

func rank(t testing.TB, r *Ranker, q core.Query) []core.Hit {
	t.Helper()
	hits, err := r.Rank(context.Background(), q)
	if err != nil {
		t.Fatalf("Rank(%q): %v", q.Text, err)
	}
	return hits
}

func ids(hits []core.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

func wantOrder(t *testing.T, hits []core.Hit, want ...string) {
	t.Helper()
	got := ids(hits)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("hits = %v, want %v", got, want)
	}
}

// filler is neutral body text, so that documents have realistic lengths.
func filler(n int) string {
	return strings.TrimSpace(strings.Repeat("value returned by the function ", n))
}

func TestTitleAndNamesBeatBody(t *testing.T) {
	r := newRanker(t, "")
	build(t, r, &core.Corpus{Full: true, Documents: []core.Document{
		fileDoc("internal/notes.go", nil, "the tokenizer is called here. "+filler(3)),
		fileDoc("internal/tokenizer.go", []string{"Tokenizer"}, filler(4)),
	}})
	wantOrder(t, rank(t, r, core.Query{Text: "tokenizer", Limit: 10}),
		"file:internal/tokenizer.go", "file:internal/notes.go")
}

func TestRarerTermsWeighMore(t *testing.T) {
	r := newRanker(t, "")
	docs := []core.Document{fileDoc("a/rare.go", nil, "zeppelin "+filler(2))}
	for i := range 6 {
		docs = append(docs, fileDoc(fmt.Sprintf("a/common%d.go", i), nil, "widget "+filler(2)))
	}
	build(t, r, &core.Corpus{Full: true, Documents: docs})
	hits := rank(t, r, core.Query{Text: "widget zeppelin", Limit: 3})
	if len(hits) != 3 || hits[0].ID != "file:a/rare.go" {
		t.Fatalf("hits = %v, want file:a/rare.go first", ids(hits))
	}
	if hits[0].Reason != `matches "zeppelin"` {
		t.Errorf("reason = %q", hits[0].Reason)
	}
}

func TestLengthNormalization(t *testing.T) {
	r := newRanker(t, "")
	build(t, r, &core.Corpus{Full: true, Documents: []core.Document{
		fileDoc("a/long.go", nil, "widget "+filler(40)),
		fileDoc("a/short.go", nil, "widget "+filler(2)),
		fileDoc("a/other.go", nil, filler(10)),
	}})
	wantOrder(t, rank(t, r, core.Query{Text: "widget", Limit: 10}), "file:a/short.go", "file:a/long.go")

	// With b = 0 length does not matter: the tie falls back to id order.
	r0 := newRanker(t, `{"b": 0}`)
	build(t, r0, &core.Corpus{Full: true, Documents: []core.Document{
		fileDoc("a/short.go", nil, "widget "+filler(2)),
		fileDoc("a/long.go", nil, "widget "+filler(40)),
	}})
	hits := rank(t, r0, core.Query{Text: "widget", Limit: 10})
	wantOrder(t, hits, "file:a/long.go", "file:a/short.go")
	if hits[0].Score != hits[1].Score {
		t.Errorf("scores %v and %v differ with b = 0", hits[0].Score, hits[1].Score)
	}
}

func TestCamelCaseQuery(t *testing.T) {
	r := newRanker(t, "")
	build(t, r, &core.Corpus{Full: true, Documents: []core.Document{
		fileDoc("docs/guide.md", nil, "First load the plugin, then call it. "+filler(3)),
		fileDoc("core/loader.go", []string{"LoadPlugin", "Registry"}, "func LoadPlugin(path string) error "+filler(3)),
		fileDoc("core/other.go", []string{"Other"}, filler(5)),
	}})
	hits := rank(t, r, core.Query{Text: "loadPlugin", Limit: 10})
	wantOrder(t, hits, "file:core/loader.go", "file:docs/guide.md")
	if hits[0].Reason != `matches "loadPlugin"` {
		t.Errorf("reason of the name match = %q", hits[0].Reason)
	}
	if hits[1].Reason != `matches "load", "Plugin"` && hits[1].Reason != `matches "Plugin", "load"` {
		t.Errorf("reason of the body match = %q", hits[1].Reason)
	}
	// A natural-language query reaches the same document through stems,
	// and the reason quotes the words as the user wrote them.
	hits = rank(t, r, core.Query{Text: "where are plugins loaded", Limit: 10})
	if len(hits) == 0 || hits[0].ID != "file:core/loader.go" {
		t.Fatalf("hits = %v", ids(hits))
	}
	if !strings.Contains(hits[0].Reason, `"plugins"`) || !strings.Contains(hits[0].Reason, `"loaded"`) {
		t.Errorf("reason = %q, want the user's words", hits[0].Reason)
	}
}

func TestEmptyBodyMatchesByTitlePathNames(t *testing.T) {
	r := newRanker(t, "")
	build(t, r, &core.Corpus{Full: true, Documents: []core.Document{
		{ID: "module:core/payments", Kind: core.DocModule, Path: "core/payments", Title: "core/payments", Names: []string{"refund.go"}},
		fileDoc("a/b.go", nil, filler(3)),
	}})
	for _, q := range []string{"payments", "refund", "core"} {
		wantOrder(t, rank(t, r, core.Query{Text: q, Limit: 10}), "module:core/payments")
	}
}

func TestQueryTermsWeighLess(t *testing.T) {
	r := newRanker(t, "")
	build(t, r, &core.Corpus{Full: true, Documents: []core.Document{
		fileDoc("a/one.go", nil, "alpha "+filler(2)),
		fileDoc("a/two.go", nil, "beta "+filler(2)),
		fileDoc("a/three.go", nil, filler(2)),
	}})
	hits := rank(t, r, core.Query{Text: "beta", Terms: []string{"alpha"}, Limit: 10})
	wantOrder(t, hits, "file:a/two.go", "file:a/one.go")
	if ratio := hits[1].Score / hits[0].Score; ratio < TermsWeight-1e-9 || ratio > TermsWeight+1e-9 {
		t.Errorf("score ratio = %v, want %v", ratio, TermsWeight)
	}
	if hits[1].Reason != `matches "alpha"` {
		t.Errorf("reason = %q", hits[1].Reason)
	}
	// A term the user also typed keeps the user's weight.
	both := rank(t, r, core.Query{Text: "beta", Terms: []string{"beta"}, Limit: 10})
	if both[0].Score != hits[0].Score {
		t.Errorf("repeating a word in Terms changed its score: %v vs %v", both[0].Score, hits[0].Score)
	}
}

func TestKindsAndLimit(t *testing.T) {
	r := newRanker(t, "")
	build(t, r, &core.Corpus{Full: true, Documents: []core.Document{
		fileDoc("store/store.go", []string{"WriteFile"}, "atomic store writes"),
		fileDoc("store/lock.go", []string{"LockDir"}, "store lock"),
		{ID: "module:store", Kind: core.DocModule, Path: "store", Title: "store", Names: []string{"store.go", "lock.go"}},
	}})
	hits := rank(t, r, core.Query{Text: "store", Kinds: []string{core.DocModule}, Limit: 10})
	wantOrder(t, hits, "module:store")
	if hits := rank(t, r, core.Query{Text: "store", Kinds: []string{"nothing"}, Limit: 10}); len(hits) != 0 {
		t.Errorf("unknown kind matched %v", ids(hits))
	}
	all := rank(t, r, core.Query{Text: "store", Limit: 10})
	if len(all) != 3 {
		t.Fatalf("hits = %v, want all three", ids(all))
	}
	one := rank(t, r, core.Query{Text: "store", Limit: 1})
	if len(one) != 1 || one[0] != all[0] {
		t.Errorf("Limit 1 = %v, want %v", one, all[0])
	}
	if got := rank(t, r, core.Query{Text: "store"}); len(got) != 3 {
		t.Errorf("Limit 0 = %v, want DefaultLimit", ids(got))
	}
	if got := rank(t, r, core.Query{Text: "the of"}); got != nil {
		t.Errorf("a query of stopwords matched %v", ids(got))
	}
}

func TestTieBreakByID(t *testing.T) {
	r := newRanker(t, "")
	var docs []core.Document
	for _, p := range []string{"c.go", "a.go", "b.go", "d.go"} {
		docs = append(docs, core.Document{ID: "file:" + p, Kind: core.DocFile, Title: "same", Body: "identical text"})
	}
	build(t, r, &core.Corpus{Full: true, Documents: docs})
	wantOrder(t, rank(t, r, core.Query{Text: "identical", Limit: 3}), "file:a.go", "file:b.go", "file:c.go")
}

// corpusV1 and corpusV2 are one project before and after an edit.
func corpusV1() []core.Document {
	return []core.Document{
		fileDoc("core/loader.go", []string{"LoadPlugin"}, "func LoadPlugin loads a plugin"),
		fileDoc("core/store.go", []string{"WriteFile"}, "atomic writes of the store"),
		fileDoc("core/gone.go", []string{"Obsolete"}, "obsolete plugin code"),
		fileDoc("docs/guide.md", nil, "how to load a plugin and write the store"),
		{ID: "module:core", Kind: core.DocModule, Path: "core", Title: "core", Names: []string{"loader.go", "store.go", "gone.go"}},
	}
}

func corpusV2() (docs []core.Document, changed, removed []string) {
	docs = []core.Document{
		fileDoc("core/loader.go", []string{"LoadPlugin", "UnloadPlugin"}, "func LoadPlugin loads a plugin; UnloadPlugin frees it"),
		fileDoc("core/store.go", []string{"WriteFile"}, "atomic writes of the store"),
		fileDoc("core/fresh.go", []string{"FreshStart"}, "a fresh plugin registry"),
		fileDoc("docs/guide.md", nil, "how to load a plugin and write the store"),
		{ID: "module:core", Kind: core.DocModule, Path: "core", Title: "core", Names: []string{"loader.go", "store.go", "fresh.go"}},
	}
	return docs, []string{"file:core/loader.go", "file:core/fresh.go", "module:core"}, []string{"file:core/gone.go"}
}

// withoutBodies is docs as an incremental corpus carries them: only the
// changed documents have their Body.
func withoutBodies(docs []core.Document, changed []string) []core.Document {
	out := slices.Clone(docs)
	for i := range out {
		if !slices.Contains(changed, out[i].ID) {
			out[i].Body = ""
		}
	}
	return out
}

var probeQueries = []core.Query{
	{Text: "plugin", Limit: 10},
	{Text: "unloadPlugin obsolete", Limit: 10},
	{Text: "store writes", Terms: []string{"fresh"}, Limit: 10},
	{Text: "core", Kinds: []string{core.DocModule}, Limit: 10},
}

func TestIncrementalEqualsFullRebuild(t *testing.T) {
	inc := newRanker(t, "")
	build(t, inc, &core.Corpus{Full: true, Documents: corpusV1()})
	docs, changed, removed := corpusV2()
	build(t, inc, &core.Corpus{Documents: withoutBodies(docs, changed), Changed: changed, Removed: removed})

	full := newRanker(t, "")
	build(t, full, &core.Corpus{Full: true, Documents: docs})

	for _, q := range probeQueries {
		a, b := rank(t, inc, q), rank(t, full, q)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("query %q:\nincremental %v\nfull        %v", q.Text, a, b)
		}
	}
	if hits := rank(t, inc, core.Query{Text: "obsolete", Limit: 10}); len(hits) != 0 {
		t.Errorf("removed document still found: %v", ids(hits))
	}
	if hits := rank(t, inc, core.Query{Text: "UnloadPlugin", Limit: 1}); len(hits) != 1 || hits[0].ID != "file:core/loader.go" {
		t.Errorf("changed document not updated: %v", ids(hits))
	}
	// On a corpus this small the update touches most documents, so it
	// merges everything into one segment: a function of the corpus alone.
	a, b := segmentBytes(t, inc), segmentBytes(t, full)
	if len(a) != 1 || len(b) != 1 || !bytes.Equal(a[0], b[0]) {
		t.Errorf("incremental and full index differ: %d and %d segments", len(a), len(b))
	}
	// Index is idempotent.
	build(t, inc, &core.Corpus{Documents: withoutBodies(docs, changed), Changed: changed, Removed: removed})
	if c := segmentBytes(t, inc); len(c) != 1 || !bytes.Equal(a[0], c[0]) {
		t.Error("indexing the same corpus twice changed the index")
	}
}

// segmentBytes returns the contents of the live segments, oldest first.
func segmentBytes(t testing.TB, r *Ranker) [][]byte {
	t.Helper()
	names, _, err := readList(r.stateDir)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(r.stateDir, n))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, data)
	}
	return out
}

// On a large corpus, small updates add small segments instead of
// rewriting the index; segments are merged before they pile up; and every
// state ranks exactly like a full rebuild of the same documents.
func TestSegments(t *testing.T) {
	docs := synthCorpus(400)
	inc := newRanker(t, "")
	build(t, inc, &core.Corpus{Full: true, Documents: docs})
	base := segmentBytes(t, inc)[0]
	queries := []core.Query{
		{Text: "payment error store", Limit: 20},
		{Text: "encode json checksum", Terms: []string{"hash"}, Limit: 20},
		{Text: "brandnew", Limit: 20},
	}
	most := 0
	steps := 2 * maxSegments
	for step := range steps {
		// Change one document, remove another, add a new one.
		i := (step * 37) % len(docs)
		docs[i].Body = fmt.Sprintf("brandnew body of step %d with a payment error", step)
		changed := []string{docs[i].ID}
		removed := docs[len(docs)-1].ID
		docs = docs[:len(docs)-1]
		added := fileDoc(fmt.Sprintf("added/step%d.go", step), []string{"StoreChecksum"}, "encode json checksum brandnew")
		docs = append(docs, added)
		changed = append(changed, added.ID)
		build(t, inc, &core.Corpus{Documents: withoutBodies(docs, changed), Changed: changed, Removed: []string{removed}})
		if hits := rank(t, inc, core.Query{Text: strings.TrimSuffix(filepath.Base(removed), ".go"), Limit: 50}); slices.Contains(ids(hits), removed) {
			t.Fatalf("step %d: removed %s still found", step, removed)
		}

		segs := segmentBytes(t, inc)
		most = max(most, len(segs))
		if step == 0 && (len(segs) != 2 || !bytes.Equal(segs[0], base) || len(segs[1]) > len(base)/20) {
			t.Fatalf("a one-document update did not add a small segment: %d segments", len(segs))
		}
		if step%3 != 0 && step != steps-1 {
			continue // a full rebuild at every step would make the test slow
		}
		full := newRanker(t, "")
		build(t, full, &core.Corpus{Full: true, Documents: docs})
		for _, q := range queries {
			// Scores are sums of the same terms in another order: equal
			// to the last bits only, so compare ids and rounded scores.
			a, b := rank(t, inc, q), rank(t, full, q)
			if roundHits(a) != roundHits(b) {
				t.Fatalf("step %d, query %q:\nsegments %v\nfull     %v", step, q.Text, roundHits(a), roundHits(b))
			}
		}
	}
	if most > maxSegments {
		t.Errorf("%d segments at once, want at most %d", most, maxSegments)
	}
	// A fresh process reads the segments and ranks the same.
	again := newRanker(t, "", inc.stateDir)
	for _, q := range queries {
		if a, b := roundHits(rank(t, inc, q)), roundHits(rank(t, again, q)); a != b {
			t.Errorf("query %q: %v in the indexing process, %v after loading", q.Text, a, b)
		}
	}
}

func roundHits(hits []core.Hit) string {
	var b strings.Builder
	for _, h := range hits {
		fmt.Fprintf(&b, "%s:%.9g ", h.ID, h.Score)
	}
	return b.String()
}

// An incremental Index tokenizes only the changed documents: the others
// carry no Body in an incremental corpus, and keep what was indexed.
func TestIncrementalReusesUnchanged(t *testing.T) {
	dir := t.TempDir()
	r := newRanker(t, "", dir)
	build(t, r, &core.Corpus{Full: true, Documents: corpusV1()})
	docs := corpusV1()
	for i := range docs {
		docs[i].Body = "" // as the pipeline sends them: not re-read
	}
	docs[0].Body = "func LoadPlugin loads a plugin from a brandnew path"
	// A fresh process, so the reuse goes through the file.
	r2 := newRanker(t, "", dir)
	build(t, r2, &core.Corpus{Documents: docs, Changed: []string{docs[0].ID}})
	if hits := rank(t, r2, core.Query{Text: "atomic", Limit: 10}); len(hits) != 1 {
		t.Errorf("an unchanged document lost its indexed body: %v", ids(hits))
	}
	if hits := rank(t, r2, core.Query{Text: "brandnew", Limit: 10}); len(hits) != 1 {
		t.Errorf("the changed document was not re-indexed: %v", ids(hits))
	}
}

// An incremental corpus the index cannot apply asks for a full one
// instead of indexing documents without their bodies.
func TestIncrementalNeedsFull(t *testing.T) {
	empty := newRanker(t, "")
	err := empty.Index(context.Background(), &core.Corpus{Documents: corpusV1(), Changed: []string{"file:core/loader.go"}})
	if !errors.Is(err, core.ErrFullIndexNeeded) {
		t.Errorf("incremental Index without state = %v, want ErrFullIndexNeeded", err)
	}

	r := newRanker(t, "")
	build(t, r, &core.Corpus{Full: true, Documents: corpusV1()})
	docs := append(corpusV1(), fileDoc("core/unknown.go", nil, "")) // unknown, not marked changed
	if err := r.Index(context.Background(), &core.Corpus{Documents: docs}); !errors.Is(err, core.ErrFullIndexNeeded) {
		t.Errorf("incremental Index with an unknown document = %v, want ErrFullIndexNeeded", err)
	}
	if hits := rank(t, r, core.Query{Text: "obsolete", Limit: 10}); len(hits) != 1 {
		t.Errorf("a refused update changed the index: %v", ids(hits))
	}
}

func TestPersistence(t *testing.T) {
	dir := t.TempDir()
	a := newRanker(t, "", dir)
	build(t, a, &core.Corpus{Full: true, Documents: corpusV1()})
	b := newRanker(t, "", dir) // another process: Configure, then Rank
	for _, q := range probeQueries {
		if x, y := rank(t, a, q), rank(t, b, q); fmt.Sprint(x) != fmt.Sprint(y) {
			t.Errorf("query %q: %v after Index, %v after loading", q.Text, x, y)
		}
	}
	// A long-lived ranker notices that another process re-indexed.
	docs, changed, removed := corpusV2()
	build(t, a, &core.Corpus{Documents: docs, Changed: changed, Removed: removed})
	if hits := rank(t, b, core.Query{Text: "unloadPlugin", Limit: 1}); len(hits) != 1 {
		t.Errorf("stale index after another process re-indexed: %v", ids(hits))
	}
	// Settings that only weigh differently apply without re-indexing.
	c := newRanker(t, `{"body_weight": 0}`, dir)
	if hits := rank(t, c, core.Query{Text: "atomic", Limit: 10}); len(hits) != 0 {
		t.Errorf("body_weight = 0 still matched bodies: %v", ids(hits))
	}
}

func TestRankWithoutIndex(t *testing.T) {
	r := newRanker(t, "")
	_, err := r.Rank(context.Background(), core.Query{Text: "x", Limit: 1})
	if !errors.Is(err, ErrNoIndex) || !strings.Contains(err.Error(), "rubi index") {
		t.Errorf("Rank without index: %v", err)
	}
	if _, err := New().Rank(context.Background(), core.Query{Text: "x"}); err == nil {
		t.Error("Rank before Configure succeeded")
	}
}

// A damaged or foreign index file is an error for Rank, with the way out,
// and makes an incremental Index ask for a full corpus.
func TestBadStateFile(t *testing.T) {
	good := func(t *testing.T) []byte {
		r := newRanker(t, "")
		build(t, r, &core.Corpus{Full: true, Documents: corpusV1()})
		return segmentBytes(t, r)[0]
	}(t)
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 0x40
	oldVersion := append([]byte(magic), 1)
	oldVersion = append(oldVersion, good[len(magic)+1:]...)
	const seg = "seg-0000000000000001.bm25"
	list := listHeader + "\n" + seg + "\n"
	cases := map[string]struct {
		list string
		data []byte
		want string
	}{
		"empty":        {list, nil, "corrupt"},
		"garbage":      {list, []byte("not an index at all"), "corrupt"},
		"truncated":    {list, good[:len(good)/2], "corrupt"},
		"flipped":      {list, flipped, "corrupt"},
		"version":      {list, oldVersion, "format version"},
		"list garbage": {"rubbish\n", good, "corrupt"},
		"list version": {"rubi-bm25 segments 9\n" + seg + "\n", good, "format version"},
		"list escapes": {listHeader + "\n../" + seg + "\n", good, "corrupt"},
		"list missing": {listHeader + "\nseg-0000000000000002.bm25\n", good, "missing"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, listFile), []byte(tc.list), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, seg), tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			r := newRanker(t, "", dir)
			_, err := r.Rank(context.Background(), core.Query{Text: "plugin", Limit: 5})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "rubi index") {
				t.Fatalf("Rank = %v, want an error about %q that says to run rubi index", err, tc.want)
			}
			err = r.Index(context.Background(), &core.Corpus{Documents: corpusV1(), Changed: []string{"file:core/loader.go"}})
			if !errors.Is(err, core.ErrFullIndexNeeded) {
				t.Fatalf("incremental Index on a bad file = %v, want ErrFullIndexNeeded", err)
			}
			build(t, r, &core.Corpus{Full: true, Documents: corpusV1()})
			if hits := rank(t, r, core.Query{Text: "obsolete", Limit: 5}); len(hits) != 1 {
				t.Errorf("after rebuild: %v", ids(hits))
			}
		})
	}
}

// Damaged postings pass the check a query makes at load, which covers the
// tables alone; the posting lists it reads are decoded with bounds checks,
// so the query reports the damage with the way out instead of ranking
// with it. An incremental index, which builds on them, checks them and
// asks for a full corpus, which rebuilds the segment.
func TestDamagedPostings(t *testing.T) {
	dir := t.TempDir()
	r := newRanker(t, "", dir)
	build(t, r, &core.Corpus{Full: true, Documents: corpusV1()})
	segs, err := filepath.Glob(filepath.Join(dir, segPrefix+"*"+segSuffix))
	if err != nil || len(segs) != 1 {
		t.Fatalf("segments: %v %v", segs, err)
	}
	data, _ := os.ReadFile(segs[0])
	seg, err := decodeSegment(filepath.Base(segs[0]), data, true)
	if err != nil {
		t.Fatal(err)
	}
	start := len(data) - 8 - len(seg.postings)
	for i := start; i < len(data)-8; i++ {
		data[i] = 0xff // every posting's varint runs on
	}
	os.WriteFile(segs[0], data, 0o644)
	fresh := newRanker(t, "", dir)
	if _, err := fresh.Rank(context.Background(), core.Query{Text: "plugin loader", Limit: 5}); err == nil || !strings.Contains(err.Error(), "rubi index") {
		t.Errorf("Rank on damaged postings: %v", err)
	}
	err = fresh.Index(context.Background(), &core.Corpus{Documents: corpusV1(), Changed: []string{"file:core/loader.go"}})
	if !errors.Is(err, core.ErrFullIndexNeeded) || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("incremental Index on damaged postings = %v, want ErrFullIndexNeeded", err)
	}
	build(t, fresh, &core.Corpus{Full: true, Documents: corpusV1()})
	if hits := rank(t, fresh, core.Query{Text: "obsolete", Limit: 5}); len(hits) != 1 {
		t.Errorf("after rebuild: %v", ids(hits))
	}
}

func TestStemmerChangeNeedsRebuild(t *testing.T) {
	dir := t.TempDir()
	build(t, newRanker(t, "", dir), &core.Corpus{Full: true, Documents: corpusV1()})
	pt := newRanker(t, `{"stemmer": "portuguese"}`, dir)
	_, err := pt.Rank(context.Background(), core.Query{Text: "plugin", Limit: 5})
	if err == nil || !strings.Contains(err.Error(), "rubi index") {
		t.Fatalf("Rank with another stemmer = %v", err)
	}
	if err := pt.Index(context.Background(), &core.Corpus{Documents: corpusV1()}); !errors.Is(err, core.ErrFullIndexNeeded) {
		t.Fatalf("incremental Index with another stemmer = %v, want ErrFullIndexNeeded", err)
	}
	build(t, pt, &core.Corpus{Full: true, Documents: corpusV1()})
	if hits := rank(t, pt, core.Query{Text: "plugin", Limit: 5}); len(hits) == 0 {
		t.Error("no hits after the rebuild")
	}
}

func TestConfigure(t *testing.T) {
	bad := map[string]string{
		`{"b": 1.5}`:             "b",
		`{"b": -0.1}`:            "b",
		`{"k1": -1}`:             "k1",
		`{"k3": -1}`:             "k3",
		`{"title_weight": -1}`:   "title_weight",
		`{"body_weight": -2}`:    "body_weight",
		`{"stemmer": "klingon"}`: "stemmer",
		`{"title_weight": 0, "path_weight": 0, "names_weight": 0, "body_weight": 0}`: "",
	}
	for settings, setting := range bad {
		err := New().Configure(context.Background(), core.Setup{StateDir: t.TempDir(), Settings: json.RawMessage(settings)})
		var se *core.SettingError
		if !errors.As(err, &se) || se.Setting != setting {
			t.Errorf("Configure(%s) = %v, want a SettingError on %q", settings, err, setting)
		}
	}
	r := newRanker(t, `{"k1": 2, "b": 0.5, "stemmer": "Portuguese", "names_weight": 4}`)
	want := DefaultSettings()
	want.K1, want.B, want.Stemmer, want.NamesWeight = 2, 0.5, "Portuguese", 4
	if r.settings != want {
		t.Errorf("settings = %+v, want %+v", r.settings, want)
	}
	if err := New().Configure(context.Background(), core.Setup{}); err == nil {
		t.Error("Configure without a state directory succeeded")
	}
}

func TestInfoAndRegistration(t *testing.T) {
	info := New().Info()
	if info.Name != Name || info.Kind != core.KindRanker || info.Version == "" || info.Description == "" {
		t.Errorf("Info = %+v", info)
	}
	if !info.Scoped {
		t.Error("Info does not say Scoped: the notes' deltas would cost a whole corpus")
	}
	for _, a := range []string{"k1", "b", "title_weight", "path_weight", "names_weight", "body_weight", "stemmer"} {
		if attr, ok := info.Schema.Lookup(a); !ok || attr.Required {
			t.Errorf("schema attribute %q: %+v, %v", a, attr, ok)
		}
	}
	b, ok := core.LookupBuiltin(Name)
	if !ok || b.Kind != core.KindRanker {
		t.Fatalf("LookupBuiltin(%q) = %+v, %v", Name, b, ok)
	}
	if _, ok := b.Factory().(core.Ranker); !ok {
		t.Error("the factory does not make a core.Ranker")
	}
}

// Queries go on while the same process re-indexes; each sees either the
// old index or the new one, never an error or a mix.
func TestConcurrentRankAndIndex(t *testing.T) {
	r := newRanker(t, "")
	build(t, r, &core.Corpus{Full: true, Documents: corpusV1()})
	q := core.Query{Text: "plugin", Limit: 10}
	before := fmt.Sprint(rank(t, r, q))
	docs, changed, removed := corpusV2()
	other := newRanker(t, "")
	build(t, other, &core.Corpus{Full: true, Documents: docs})
	after := fmt.Sprint(rank(t, other, q))

	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 30 {
				hits, err := r.Rank(context.Background(), q)
				if got := fmt.Sprint(hits); err != nil || got != before && got != after {
					t.Errorf("concurrent Rank = %v, %v", got, err)
					return
				}
			}
		}()
	}
	build(t, r, &core.Corpus{Documents: docs, Changed: changed, Removed: removed})
	wg.Wait()
	if got := fmt.Sprint(rank(t, r, q)); got != after {
		t.Errorf("after Index: %v, want %v", got, after)
	}
}

func TestCancelledIndex(t *testing.T) {
	r := newRanker(t, "")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := r.Index(ctx, &core.Corpus{Full: true, Documents: synthCorpus(200)}); !errors.Is(err, context.Canceled) {
		t.Errorf("Index with a cancelled context = %v", err)
	}
	if _, err := os.Stat(r.listPath()); !errors.Is(err, os.ErrNotExist) {
		t.Error("a cancelled Index wrote an index")
	}
}

// synthCorpus makes n Go-like documents over a vocabulary of identifiers,
// deterministically.
func synthCorpus(n int) []core.Document {
	rng := rand.New(rand.NewPCG(1, 2))
	parts := strings.Fields(`load plugin store write file lock dir index rank query term token
		parse config setting error payment user account http server client request response
		cache graph node edge module path name body title score weight stage fuse seed walk
		reader writer buffer stream encode decode json yaml hash sum checksum version format`)
	ident := func() string {
		k := 1 + rng.IntN(3)
		var b strings.Builder
		for i := range k {
			p := parts[rng.IntN(len(parts))]
			if i > 0 || rng.IntN(2) == 0 {
				p = strings.ToUpper(p[:1]) + p[1:]
			}
			b.WriteString(p)
		}
		return b.String()
	}
	docs := make([]core.Document, n)
	for i := range docs {
		path := fmt.Sprintf("pkg%d/%s_%d.go", i%50, parts[rng.IntN(len(parts))], i)
		var names []string
		for range 3 + rng.IntN(8) {
			names = append(names, ident())
		}
		var body strings.Builder
		for range 40 + rng.IntN(80) {
			fmt.Fprintf(&body, "func (r *%s) %s(ctx context.Context, %s string) error { return nil }\n// %s the %s of a %s.\n",
				ident(), ident(), parts[rng.IntN(len(parts))], parts[rng.IntN(len(parts))], parts[rng.IntN(len(parts))], parts[rng.IntN(len(parts))])
		}
		docs[i] = fileDoc(path, names, body.String())
	}
	return docs
}

func BenchmarkIndex(b *testing.B) {
	docs := synthCorpus(5000)
	size := 0
	for _, d := range docs {
		size += len(d.Body) + len(d.Title) + len(d.Path)
	}
	b.Run("full", func(b *testing.B) {
		r := newRanker(b, "")
		b.SetBytes(int64(size))
		for b.Loop() {
			build(b, r, &core.Corpus{Full: true, Documents: docs})
		}
		b.ReportMetric(float64(len(segmentBytes(b, r)[0]))/float64(len(docs)), "file-B/doc")
	})
	b.Run("incremental-10", func(b *testing.B) {
		r := newRanker(b, "")
		build(b, r, &core.Corpus{Full: true, Documents: docs})
		changed := make([]string, 10)
		for i := range changed {
			changed[i] = docs[i*97].ID
		}
		for b.Loop() {
			build(b, r, &core.Corpus{Documents: docs, Changed: changed})
		}
	})
}

func BenchmarkRank(b *testing.B) {
	dir := b.TempDir()
	build(b, newRanker(b, "", dir), &core.Corpus{Full: true, Documents: synthCorpus(5000)})
	r := newRanker(b, "", dir)
	q := core.Query{Text: "how is the payment error written to the store", Terms: []string{"checksum"}, Limit: 20}
	rank(b, r, q) // load the index outside the loop
	b.Run("warm", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rank(b, r, q)
		}
	})
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			rank(b, newRanker(b, "", dir), q)
		}
	})
	// What a fresh process pays before its first query: reading the
	// segments and preparing the view.
	b.Run("load", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			segs, _, err := readSegments(dir, false)
			if err != nil {
				b.Fatal(err)
			}
			newView(segs, r.settings)
		}
	})
}

// Segments read from disk are memory-mapped and released once no view uses
// them: ranking through reloads and garbage collections must never touch
// a released mapping.
func TestMappedSegmentsOutliveReloads(t *testing.T) {
	dir := t.TempDir()
	writer := newRanker(t, "", dir)
	build(t, writer, &core.Corpus{Full: true, Documents: synthCorpus(200)})
	reader := newRanker(t, "", dir)
	q := core.Query{Text: "payment error store", Limit: 10}
	if len(rank(t, reader, q)) == 0 {
		t.Fatal("no hits before any reload")
	}
	for i := range 5 {
		docs := synthCorpus(200)
		docs[i].Body = "payment error store"
		build(t, writer, &core.Corpus{Full: true, Documents: docs})
		runtime.GC()
		runtime.GC()
		got := rank(t, reader, q) // reloads: the old mapping may go
		if len(got) == 0 {
			t.Fatalf("round %d: no hits", i)
		}
		runtime.GC()
		if again := rank(t, reader, q); fmt.Sprint(again) != fmt.Sprint(got) {
			t.Fatalf("round %d: ranking changed without a re-index", i)
		}
	}
}

// A word the question repeats counts more (k3), so a long report is
// about what it keeps coming back to; with k3 = 0 every word counts once.
func TestQueryTermFrequency(t *testing.T) {
	c := &core.Corpus{Full: true, Documents: []core.Document{
		{ID: "file:a.py", Kind: core.DocFile, Path: "a.py", Title: "a.py", Body: "cache eviction policy for the session store"},
		{ID: "file:b.py", Kind: core.DocFile, Path: "b.py", Title: "b.py", Body: "serializer encoding of the session payload"},
	}}
	q := core.Query{Text: "the cache breaks: the cache eviction drops the cache of my session, the serializer is fine", Limit: 5}
	r := newRanker(t, "")
	build(t, r, c)
	if hits := rank(t, r, q); len(hits) != 2 || hits[0].ID != "file:a.py" || hits[0].Score <= hits[1].Score {
		t.Errorf("k3 = 8: %v, want a.py (cache, said three times) first", hits)
	}
	once := newRanker(t, `{"k3": 0}`)
	build(t, once, c)
	withTF, flat := rank(t, r, q), rank(t, once, q)
	if !(withTF[0].Score-withTF[1].Score > flat[0].Score-flat[1].Score) {
		t.Errorf("the repeated word should widen the gap: k3 = 8 %v, k3 = 0 %v", withTF, flat)
	}
}
