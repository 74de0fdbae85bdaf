package pipeline

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/codec"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/notes"
	"github.com/rubi-dev/rubi/core/store"
	"github.com/rubi-dev/rubi/core/tokens"
	"github.com/rubi-dev/rubi/core/walk"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
	_ "github.com/rubi-dev/rubi/plugins/standard"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// shop copies testdata/shop to a temporary project and adds the files a
// real checkout has but a repository cannot hold: ignored build output,
// dependencies, binaries and an oversized file.
func shop(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	err := filepath.WalkDir("testdata/shop", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("testdata/shop", p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(root, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(root, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	extra := map[string]string{
		".gitignore":                     "build/\n*.log\n",
		"build/bundle.js":                "export const checkout = 1;\n",
		"server.log":                     "checkout failed\n",
		"node_modules/left-pad/index.js": "module.exports = function leftPad() {};\n",
		"assets/logo.png":                "\x89PNG\r\n\x1a\n",
		"data/orders.dat":                "order\x00\x01\x02checkout\x00",
		"data/huge.txt":                  strings.Repeat("checkout coupon ", 80000),
	}
	for p, content := range extra {
		write(t, root, p, content)
	}
	return root
}

func write(t testing.TB, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// edit replaces from with to in a file of root ("" appends to) and moves
// its modification time forward, a different time at each call, so a
// refresh cannot mistake it for the unchanged file.
func edit(t testing.TB, root, rel, from, to string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	text := string(src) + to
	if from != "" {
		if !strings.Contains(string(src), from) {
			t.Fatalf("%s lacks %q", rel, from)
		}
		text = strings.Replace(string(src), from, to, 1)
	}
	write(t, root, rel, text)
	later := time.Now().Add(time.Duration(edits.Add(1)) * time.Minute)
	if err := os.Chtimes(filepath.Join(root, filepath.FromSlash(rel)), later, later); err != nil {
		t.Fatal(err)
	}
}

var edits atomic.Int64

func engine(t testing.TB, root string) *Engine {
	t.Helper()
	return engineWith(t, root, Options{MaskComments: regex.MaskComments})
}

// engineWith is engine with the program's options o.
func engineWith(t testing.TB, root string, o Options) *Engine {
	t.Helper()
	// Never touch the user's personal vault, nor the record of the
	// user's notes (project.OwnDir).
	if os.Getenv("RUBI_TEST_VAULT") == "" {
		vault := t.TempDir()
		t.Setenv("RUBI_VAULT", vault)
		t.Setenv("RUBI_TEST_VAULT", vault)
		t.Setenv("XDG_STATE_HOME", t.TempDir())
	}
	cfg, diags := config.Load(config.Options{Root: root, UserConfig: "-"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	e := New(cfg, o)
	t.Cleanup(e.Close)
	return e
}

func index(t testing.TB, e *Engine) *IndexStats {
	t.Helper()
	stats, err := e.Index(context.Background(), IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return stats
}

func ids(res *answer.Result) []string {
	out := make([]string, len(res.Items))
	for i, it := range res.Items {
		out[i] = it.ID
	}
	return out
}

func TestIndexStats(t *testing.T) {
	root := shop(t)
	stats := index(t, engine(t, root))
	if stats.Files.Indexed != 14 {
		t.Errorf("indexed %d files, want the 13 sources plus .gitignore", stats.Files.Indexed)
	}
	// Default-excluded: .rubi (written by the index itself), build and
	// node_modules; ignored by .gitignore: server.log (build/ is caught by
	// the default excludes first).
	wantSkipped := map[string]int{"ignored": 1, "default-excluded": 3, "binary": 2, "too-large": 1}
	for reason, n := range wantSkipped {
		if stats.Files.Skipped[reason] != n {
			t.Errorf("skipped[%s] = %d, want %d (all: %v)", reason, stats.Files.Skipped[reason], n, stats.Files.Skipped)
		}
	}
	if stats.Languages["go"] != 5 || stats.Languages["typescript"] != 3 || stats.Languages["python"] != 3 {
		t.Errorf("languages = %v", stats.Languages)
	}
	if stats.Parsed != 14 || stats.Unchanged != 0 {
		t.Errorf("parsed %d, unchanged %d", stats.Parsed, stats.Unchanged)
	}
	// main → checkout (1 file), main → config, checkout → config,
	// checkout → discount (2 files), cart → api, cart → coupon,
	// coupon → api, report → export.
	if stats.Edges != 9 {
		t.Errorf("import edges = %d, want 9", stats.Edges)
	}
	for _, r := range []string{"rank.bm25", "rank.ppr"} {
		if stats.Rankers[r] != "full" {
			t.Errorf("ranker %s = %q, want full on the first run", r, stats.Rankers[r])
		}
	}
	if _, err := os.Stat(filepath.Join(root, ".rubi", ".gitignore")); err != nil {
		t.Errorf(".rubi/.gitignore not written: %v", err)
	}
}

func TestRetrieve(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	index(t, e)
	res, err := e.Retrieve(context.Background(), answer.Query{Text: "how is the configuration file loaded"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) == 0 || res.Items[0].ID != "file:internal/config/config.go" {
		t.Fatalf("top = %v", ids(res))
	}
	top := res.Items[0]
	if top.Kind != "file" || top.Path != "internal/config/config.go" || top.Tokens == 0 || len(top.Reasons) == 0 {
		t.Errorf("item = %+v", top)
	}
	if _, ok := top.Scores["rank.bm25"]; !ok {
		t.Errorf("scores = %v, want the bm25 component", top.Scores)
	}
	if !strings.Contains(top.Text, "L13-19 func Load(path string) (*Config, error) — Load reads") {
		t.Errorf("the item should show the matching definition with its line:\n%s", top.Text)
	}
	sum := res.OpenFirstTokens
	for _, it := range res.Items {
		sum += it.Tokens
	}
	if sum != res.Tokens || res.Tokens > res.Budget {
		t.Errorf("tokens = %d, the listing and items sum %d, budget %d", res.Tokens, sum, res.Budget)
	}
}

// The graph brings what the words alone miss: the discount rules are
// reached through the file that matched.
func TestTermsAndGraph(t *testing.T) {
	e := engine(t, shop(t))
	index(t, e)
	res, err := e.Retrieve(context.Background(), answer.Query{Text: "finishing a purchase", Terms: []string{"checkout", "cart"}, Limit: 12})
	if err != nil {
		t.Fatal(err)
	}
	got := ids(res)
	if len(got) == 0 || got[0] != "file:internal/checkout/checkout.go" {
		t.Fatalf("top = %v", got)
	}
	i := slices.Index(got, "file:internal/discount/coupon.go")
	if i < 0 {
		t.Fatalf("coupon.go is imported by checkout.go and should come along: %v", got)
	}
	if r := res.Items[i].Reasons; len(r) == 0 || r[0] != "imported by internal/checkout/checkout.go" {
		t.Errorf("coupon.go reasons = %q", r)
	}
}

func TestBudgetAndLimit(t *testing.T) {
	e := engine(t, shop(t))
	index(t, e)
	res, err := e.Retrieve(context.Background(), answer.Query{Text: "coupon discount checkout cart", Budget: 60})
	if err != nil {
		t.Fatal(err)
	}
	if res.Tokens > 60 || res.Omitted == 0 {
		t.Errorf("tokens %d (budget 60), omitted %d", res.Tokens, res.Omitted)
	}
	res, err = e.Retrieve(context.Background(), answer.Query{Text: "coupon discount checkout cart", Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) != 2 || res.Omitted == 0 {
		t.Errorf("items %d, omitted %d", len(res.Items), res.Omitted)
	}
}

func TestKinds(t *testing.T) {
	e := engine(t, shop(t))
	index(t, e)
	res, err := e.Retrieve(context.Background(), answer.Query{Text: "discount", Kinds: []string{"module"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) == 0 || res.Items[0].ID != "module:internal/discount" {
		t.Fatalf("modules = %v", ids(res))
	}
	// Files of equal centrality are listed by path, run after run.
	if want := "module internal/discount (2 files): coupon.go, rules.go"; res.Items[0].Text != want {
		t.Errorf("module text = %q, want %q", res.Items[0].Text, want)
	}
	for _, it := range res.Items {
		if it.Kind != "module" {
			t.Errorf("kind filter let through %s", it.ID)
		}
	}
	if _, err := e.Retrieve(context.Background(), answer.Query{Text: "x", Kinds: []string{"files"}}); err == nil || !strings.Contains(err.Error(), `unknown kind "files"`) {
		t.Errorf("err = %v", err)
	}
}

func TestRetrieveWithoutIndex(t *testing.T) {
	e := engine(t, shop(t))
	if _, err := e.Retrieve(context.Background(), answer.Query{Text: "checkout"}); !errors.Is(err, ErrNoIndex) {
		t.Fatalf("err = %v, want ErrNoIndex", err)
	}
	if _, err := e.Retrieve(context.Background(), answer.Query{Text: "  "}); err == nil {
		t.Fatal("an empty query must be an error")
	}
}

func TestIncremental(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	index(t, e)

	again := index(t, e)
	if again.Parsed != 0 || again.Unchanged != 14 {
		t.Errorf("no-change re-index parsed %d, unchanged %d", again.Parsed, again.Unchanged)
	}
	for r, state := range again.Rankers {
		if state != "up to date" {
			t.Errorf("ranker %s = %q after no change", r, state)
		}
	}

	// Change one file, delete another, touch a third without changing it.
	later := time.Now().Add(time.Minute)
	write(t, root, "internal/discount/rules.go", "package discount\n\n// Loyalty points earn a discount too.\nfunc LoyaltyPoints(total int) int { return total / 100 }\n")
	os.Chtimes(filepath.Join(root, "internal/discount/rules.go"), later, later)
	os.Remove(filepath.Join(root, "scripts/report.py"))
	os.Chtimes(filepath.Join(root, "web/src/api.ts"), later, later)

	st := index(t, e)
	if st.Parsed != 1 || st.Removed != 1 || st.Unchanged != 12 {
		t.Errorf("parsed %d, removed %d, unchanged %d", st.Parsed, st.Removed, st.Unchanged)
	}
	if st.Rankers["rank.bm25"] != "incremental" {
		t.Errorf("bm25 = %q, want incremental", st.Rankers["rank.bm25"])
	}
	res, err := e.Retrieve(context.Background(), answer.Query{Text: "loyalty points"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) == 0 || res.Items[0].ID != "file:internal/discount/rules.go" {
		t.Errorf("the changed file's new words should be found: %v", ids(res))
	}
	res, _ = e.Retrieve(context.Background(), answer.Query{Text: "monthly sales report"})
	if slices.Contains(ids(res), "file:scripts/report.py") {
		t.Errorf("a deleted file is still found: %v", ids(res))
	}
	// An unchanged file's symbols were carried over to the new generation.
	res, _ = e.Retrieve(context.Background(), answer.Query{Text: "load configuration"})
	if len(res.Items) == 0 || !strings.Contains(res.Items[0].Text, "L13-19 func Load(path string)") {
		t.Errorf("symbols of an unchanged file lost: %+v", res.Items)
	}
	gens, _ := filepath.Glob(filepath.Join(root, ".rubi", "index", "symbols-*.jsonl"))
	if len(gens) != 1 {
		t.Errorf("symbols files = %v, want only the current generation", gens)
	}
}

func TestChangedRankerSettingsRebuild(t *testing.T) {
	root := shop(t)
	index(t, engine(t, root))
	// The retuning comes from a layer outside the project, so no project
	// file changes.
	extra := filepath.Join(t.TempDir(), "tuning.hcl")
	write(t, filepath.Dir(extra), "tuning.hcl", "ranker \"rank.bm25\" {\n  k1 = 1.6\n}\n")
	cfg, diags := config.Load(config.Options{Root: root, UserConfig: "-", Extra: []string{extra}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	e := New(cfg, Options{MaskComments: regex.MaskComments})
	defer e.Close()
	st := index(t, e)
	if st.Rankers["rank.bm25"] != "full" || st.Rankers["rank.ppr"] != "up to date" {
		t.Errorf("rankers = %v: only the retuned one rebuilds", st.Rankers)
	}
}

// Deleting a ranker's state is repaired by the next refresh.
func TestDeletedRankerStateIsRebuilt(t *testing.T) {
	root := shop(t)
	index(t, engine(t, root))
	if err := os.RemoveAll(filepath.Join(root, ".rubi", "index", "rank.bm25")); err != nil {
		t.Fatal(err)
	}
	e := engine(t, root)
	st := index(t, e)
	if st.Rankers["rank.bm25"] != "full" || st.Rankers["rank.ppr"] != "up to date" {
		t.Errorf("rankers = %v", st.Rankers)
	}
	res, err := e.Retrieve(context.Background(), answer.Query{Text: "coupon"})
	if err != nil || len(res.Items) == 0 || res.Items[0].Scores["rank.bm25"] == 0 {
		t.Fatalf("retrieve after repair: %+v, %v", res, err)
	}
}

func TestDamagedIndexIsRebuilt(t *testing.T) {
	root := shop(t)
	index(t, engine(t, root))
	write(t, root, ".rubi/index/manifest.bin", "not a manifest")
	st := index(t, engine(t, root))
	if st.Parsed != 14 || len(st.Warnings) == 0 || !strings.Contains(st.Warnings[0], "damaged") {
		t.Errorf("parsed %d, warnings %q", st.Parsed, st.Warnings)
	}
}

// Two rubi processes (here two engines) indexing at once: the lock
// serializes them and both see a complete index.
func TestConcurrentIndex(t *testing.T) {
	root := shop(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	engines := make([]*Engine, len(errs)) // made here: engine sets the environment
	for i := range engines {
		engines[i] = engine(t, root)
	}
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = engines[i].Index(context.Background(), IndexOptions{})
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	res, err := engine(t, root).Retrieve(context.Background(), answer.Query{Text: "coupon"})
	if err != nil || len(res.Items) == 0 {
		t.Fatalf("retrieve after concurrent indexing: %v, %v", res, err)
	}
}

// TestRankingGolden keeps the ranking of the shop project under review:
// a change in any ranker, the fuser or the packer shows up as a diff of
// testdata/ranking.golden. Refresh with go test ./core/pipeline -update.
func TestRankingGolden(t *testing.T) {
	e := engine(t, shop(t))
	index(t, e)
	queries := []answer.Query{
		{Text: "how is the configuration file loaded"},
		{Text: "finishing a purchase", Terms: []string{"checkout", "cart"}},
		{Text: "coupon applied twice"},
		{Text: "export orders to csv"},
		{Text: "submitCart"},
		{Text: "http client post json"},
	}
	var b strings.Builder
	for _, q := range queries {
		res, err := e.Retrieve(context.Background(), answer.Query{Text: q.Text, Terms: q.Terms, Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "query %q terms %q\n", q.Text, q.Terms)
		for i, it := range res.Items {
			fmt.Fprintf(&b, "  %d. %s — %s\n", i+1, it.ID, strings.Join(it.Reasons, "; "))
		}
	}
	checkGolden(t, "ranking.golden", b.String())
}

// checkGolden compares got with testdata/NAME, which -update rewrites.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s changed; review and run with -update if intended.\n--- got\n%s--- want\n%s", name, got, want)
	}
}

func TestIsTestPath(t *testing.T) {
	for p, want := range map[string]bool{
		"core/host/host_test.go":      true,
		"tests/test_api.py":           true,
		"pkg/test_util.py":            true,
		"web/src/cart.test.ts":        true,
		"web/src/cart.spec.tsx":       true,
		"spec/models/user_spec.rb":    true,
		"src/test/java/AppTest.java":  true,
		"plugins/x/testdata/a.txtar":  true,
		"web/__tests__/cart.js":       true,
		"internal/testing/helpers.go": false,
		"core/host/host.go":           false,
		"contest/latest.go":           false,
		"docs/testing-strategy.md":    false,
		"src/attestation/attest.py":   false,
	} {
		if got := codemap.IsTest(p); got != want {
			t.Errorf("IsTest(%q) = %v, want %v", p, got, want)
		}
	}
}

// Tests repeat the words of the code they test; they count test_weight
// unless the query is about tests.
func TestTestsCountLess(t *testing.T) {
	root := shop(t)
	write(t, root, "internal/discount/coupon_test.go", "package discount\n\n// Coupon tests: apply a coupon, apply the coupon twice, an unknown coupon.\nfunc TestApplyCoupon(t *testing.T) { Apply(100, \"TENOFF\") }\n")
	e := engine(t, root)
	index(t, e)
	first := func(q string) string {
		res, err := e.Retrieve(context.Background(), answer.Query{Text: q, Kinds: []string{"file"}})
		if err != nil || len(res.Items) == 0 {
			t.Fatalf("%q: %v %v", q, res, err)
		}
		return res.Items[0].ID
	}
	if got := first("apply coupon"); got != "file:internal/discount/coupon.go" {
		t.Errorf("apply coupon: top = %s, want the code before its test", got)
	}
	if got := first("apply coupon tests"); got != "file:internal/discount/coupon_test.go" {
		t.Errorf("apply coupon tests: top = %s, want the test", got)
	}
}

// Knowledge nodes are documents and graph vertices: asked about finishing
// a purchase, rubi brings the concept, the gotcha linked to it and the
// file they are about; a note whose file changed is flagged stale; a
// superseded note leaves recall.
func TestKnowledgeInRecall(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	index(t, e)
	res, err := e.project.Knowledge().Register(context.Background(), []knowledge.Input{
		{Type: "concept", Title: "Checkout", Body: "The flow that finishes a purchase: cart total, discounts, payment.", Files: []string{"internal/checkout/checkout.go"}},
		{Type: "gotcha", Title: "Coupon applied twice", Body: "The discount ran before the total was recomputed.", Files: []string{"internal/discount/coupon.go"}, Links: []knowledge.Link{{Rel: "about", Target: "Checkout"}}},
		{Type: "decision", Title: "Coupons are strings", Body: "Coupon codes are plain strings."},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Action != "created" {
			t.Fatalf("register: %+v", r)
		}
	}
	st := index(t, e)
	if st.Nodes != 3 {
		t.Errorf("nodes indexed = %d", st.Nodes)
	}
	got, err := e.Retrieve(context.Background(), answer.Query{Text: "finishing a purchase", Terms: []string{"checkout"}})
	if err != nil {
		t.Fatal(err)
	}
	top := ids(got)
	for _, want := range []string{"node:concept-checkout", "file:internal/checkout/checkout.go"} {
		if !slices.Contains(top, want) {
			t.Errorf("%s missing from %v", want, top)
		}
	}
	// The gotcha is linked to the concept but shares none of the
	// question's words: it is no match (MatchFloor).
	if slices.Contains(top, "node:gotcha-coupon-applied-twice") {
		t.Errorf("a note that matches none of the question's words is in %v", top)
	}

	// The gotcha's file changes: the note is flagged where it shows.
	write(t, root, "internal/discount/coupon.go", "package discount\n\n// Apply now recomputes the total first.\nfunc Apply(total int, coupon string) int { return total }\n")
	edit(t, root, "internal/discount/coupon.go", "", "") // a new time
	index(t, e)
	got, _ = e.Retrieve(context.Background(), answer.Query{Text: "coupon applied twice", Kinds: []string{"node"}})
	if len(got.Items) == 0 || got.Items[0].ID != "node:gotcha-coupon-applied-twice" {
		t.Fatalf("nodes = %v", ids(got))
	}
	if it := got.Items[0]; len(it.Stale) != 1 || !strings.Contains(it.Stale[0], "internal/discount/coupon.go") || !strings.Contains(it.Text, "⚠") {
		t.Errorf("stale = %q, text:\n%s", it.Stale, it.Text)
	}

	// Superseding leaves the old decision out of recall.
	if _, err := e.project.Knowledge().Register(context.Background(), []knowledge.Input{{Type: "decision", Title: "Coupons are typed", Body: "Coupon codes are a Coupon type.", Supersedes: []string{"decision-coupons-are-strings"}}}); err != nil {
		t.Fatal(err)
	}
	index(t, e)
	got, _ = e.Retrieve(context.Background(), answer.Query{Text: "coupon codes strings", Kinds: []string{"node"}})
	if slices.Contains(ids(got), "node:decision-coupons-are-strings") || !slices.Contains(ids(got), "node:decision-coupons-are-typed") {
		t.Errorf("after supersede: %v", ids(got))
	}
}

// Personal preferences are searched with the project and labelled.
func TestPersonalVaultInRecall(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	res, err := e.project.Knowledge().Register(context.Background(), []knowledge.Input{{Type: "preference", Title: "Prefer table-driven tests", Body: "Write Go tests as tables of cases.", Personal: true}})
	if err != nil || res[0].Action != "created" {
		t.Fatalf("register: %+v %v", res, err)
	}
	if !strings.HasPrefix(res[0].Path, os.Getenv("RUBI_VAULT")) {
		t.Errorf("personal node written to %s, not the vault", res[0].Path)
	}
	index(t, e)
	got, err := e.Retrieve(context.Background(), answer.Query{Text: "table driven tests", Kinds: []string{"node"}})
	if err != nil || len(got.Items) == 0 {
		t.Fatalf("retrieve: %+v %v", got, err)
	}
	if it := got.Items[0]; it.ID != "node:personal:preference-prefer-table-driven-tests" || !strings.HasPrefix(it.Text, "personal preference: Prefer table-driven tests") {
		t.Errorf("item = %+v", it)
	}
}

// A parser whose settings change re-parses its languages, and only them.
func TestChangedParserReparses(t *testing.T) {
	root := shop(t)
	index(t, engine(t, root))
	extra := filepath.Join(t.TempDir(), "parsers.hcl")
	// lang.regex keeps the languages lang.go, declared after it in the
	// defaults, does not take: Go is lang.go's, so both blocks change.
	write(t, filepath.Dir(extra), "parsers.hcl", "parser \"lang.regex\" {\n  languages   = [\"go\", \"python\", \"typescript\"]\n  max_symbols = 1\n}\n"+
		"parser \"lang.go\" {\n  max_symbols = 1\n}\n")
	cfg, diags := config.Load(config.Options{Root: root, UserConfig: "-", Extra: []string{extra}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	e := New(cfg, Options{MaskComments: regex.MaskComments})
	defer e.Close()
	st := index(t, e)
	// go 5, python 3, typescript 3 are re-parsed; README, go.mod and
	// .gitignore stay as they were.
	if st.Parsed != 11 || st.Unchanged != 3 {
		t.Errorf("parsed %d, unchanged %d", st.Parsed, st.Unchanged)
	}
	// One symbol per file that has any: 5 Go files, 2 Python modules
	// (__init__.py is empty), 3 TypeScript files.
	if st.Symbols != 10 {
		t.Errorf("symbols = %d, want 10 (max_symbols = 1)", st.Symbols)
	}
}

// Go is parsed by lang.go, which the defaults declare after lang.regex:
// an interface's methods are symbols of the interface, which lang.regex
// does not report. Switching lang.go off gives Go back to lang.regex,
// whose list still names it, and the Go files are parsed again.
func TestGoParser(t *testing.T) {
	root := t.TempDir()
	write(t, root, "store/store.go", "package store\n\n// Store keeps things.\ntype Store interface {\n\t// Get reads one.\n\tGet(key string) string\n}\n\ntype mem struct{}\n\nfunc (m *mem) Get(key string) string { return key }\n")
	methods := func(e *Engine) []string {
		t.Helper()
		m, err := manifest.Load(e.folder.dir, true, false)
		if err != nil {
			t.Fatal(err)
		}
		f, err := m.OpenSymbols(e.folder.dir)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		rec := m.Records()["store/store.go"]
		if err := manifest.NewSymbolReader(f).Read(rec); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range rec.Syms {
			if s.Kind == core.SymbolMethod {
				out = append(out, s.Parent+"."+s.Name+" "+s.Doc)
			}
		}
		return out
	}
	e := engine(t, root)
	index(t, e)
	if got, want := methods(e), []string{"Store.Get Get reads one.", "mem.Get "}; !slices.Equal(got, want) {
		t.Errorf("lang.go: methods %q, want %q", got, want)
	}
	e.Close()

	extra := filepath.Join(t.TempDir(), "parsers.hcl")
	write(t, filepath.Dir(extra), "parsers.hcl", "parser \"lang.go\" {\n  enabled = false\n}\n")
	cfg, diags := config.Load(config.Options{Root: root, UserConfig: "-", Extra: []string{extra}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	e = New(cfg, Options{MaskComments: regex.MaskComments})
	defer e.Close()
	if st := index(t, e); st.Parsed != 1 {
		t.Errorf("parsed %d files after lang.go was switched off, want the Go file again", st.Parsed)
	}
	if got, want := methods(e), []string{"mem.Get "}; !slices.Equal(got, want) {
		t.Errorf("lang.regex: methods %q, want %q", got, want)
	}
}

// A note anchored to a symbol goes stale when the symbol's code changes,
// found through the index (or the parser, for a file changed since the
// index), not when a comment does; the warning names it and its lines.
func TestSymbolAnchorStaleness(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	index(t, e)
	res, err := e.project.Knowledge().Register(context.Background(), []knowledge.Input{{Type: "gotcha", Title: "Total applies the coupon once", Body: "Call it once per cart.", Symbols: []string{"Total"}}})
	if err != nil || res[0].Action != "created" || len(res[0].Notes) != 0 {
		t.Fatalf("register: %+v %v", res, err)
	}
	n, _ := e.project.Knowledge().Get("gotcha-total-applies-the-coupon-once")
	if !strings.HasPrefix(n.Anchors["internal/checkout/checkout.go#Total"], "body:") || len(e.project.Knowledge().Stale(n)) != 0 {
		t.Fatalf("anchors %v, stale %v", n.Anchors, e.project.Knowledge().Stale(n))
	}
	// A comment, not indexed yet: the parser reads the file as it is.
	edit(t, root, "internal/checkout/checkout.go", "func Total(c Cart) int {", "// Total sums.\nfunc Total(c Cart) int {")
	if stale := e.project.Knowledge().Stale(n); len(stale) != 0 {
		t.Errorf("a comment made the note stale: %q", stale)
	}
	edit(t, root, "internal/checkout/checkout.go", "func Total(c Cart) int {", "func Total(c Cart, tax int) int {")
	index(t, e)
	stale := e.project.Knowledge().Stale(n)
	if len(stale) != 1 || !strings.HasPrefix(stale[0], "Total changed (internal/checkout/checkout.go L") {
		t.Errorf("stale = %q, want the symbol Total and its lines", stale)
	}
}

// An index run keeps each note's check against the code (checks.bin):
// another process shows the note by it while the file is as the check
// read it, checks the note again once the file changed, and the next
// index run keeps the new check.
func TestIndexKeepsTheNotesChecks(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	index(t, e)
	res, err := e.project.Knowledge().Register(context.Background(), []knowledge.Input{{Type: "gotcha", Title: "Total applies the coupon once", Body: "Call it once per cart.", Symbols: []string{"Total"}}})
	if err != nil || res[0].Action != "created" {
		t.Fatalf("register: %+v %v", res, err)
	}
	index(t, e)
	checks := filepath.Join(e.folder.dir, "checks.bin")
	if _, err := os.Stat(checks); err != nil {
		t.Fatalf("the index kept no checks: %v", err)
	}
	shown := func() []string {
		t.Helper()
		sh, ok := engine(t, root).Notes().Show("gotcha-total-applies-the-coupon-once", notes.Filter{}, notes.Check)
		if !ok {
			t.Fatal("the note is not shown")
		}
		return sh.Stale
	}
	if got := shown(); len(got) != 0 {
		t.Fatalf("fresh: stale %q", got)
	}
	edit(t, root, "internal/checkout/checkout.go", "func Total(c Cart) int {", "func Total(c Cart, tax int) int {")
	if got := shown(); len(got) != 1 || !strings.HasPrefix(got[0], "Total changed (internal/checkout/checkout.go L") {
		t.Errorf("after the edit, not indexed: stale %q, want Total changed", got)
	}
	before, _ := os.ReadFile(checks)
	index(t, e)
	after, _ := os.ReadFile(checks)
	if bytes.Equal(before, after) {
		t.Error("the index run after the edit kept the same checks")
	}
	if got := shown(); len(got) != 1 || !strings.HasPrefix(got[0], "Total changed") {
		t.Errorf("after the index: stale %q, want Total changed", got)
	}
}

// A node cache an older rubi wrote is written again by the next index
// run, even one that finds every note unchanged: the recall reads the
// notes through it, and reads each note's file without it.
func TestAnOlderNodeCacheIsWrittenAgain(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	if _, err := e.project.Knowledge().Register(context.Background(), []knowledge.Input{{Type: "gotcha", Title: "Total applies the coupon once", Body: "Call it once per cart.", Symbols: []string{"Total"}}}); err != nil {
		t.Fatal(err)
	}
	index(t, e)
	cache := filepath.Join(e.folder.dir, "nodes.bin")
	if !e.Notes().CacheCurrent() {
		t.Fatal("the index wrote no current node cache")
	}
	data, err := os.ReadFile(cache)
	if err != nil {
		t.Fatal(err)
	}
	old := slices.Clone(data[:len(data)-4])
	old[len("rubi-nodes\n")]-- // the version byte
	if err := os.WriteFile(cache, codec.Seal(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if e.Notes().CacheCurrent() {
		t.Fatal("an older cache reads as current")
	}
	// The same engine, which holds every node already (a server beside
	// an older rubi), and a fresh one.
	for _, e := range []*Engine{e, engine(t, root)} {
		if err := os.WriteFile(cache, codec.Seal(old), 0o644); err != nil {
			t.Fatal(err)
		}
		index(t, e)
		if !engine(t, root).Notes().CacheCurrent() {
			t.Error("a run that found the notes unchanged left the older cache")
		}
	}
}

// Checks an older rubi kept are written again by the next index run, even
// one that finds nothing changed: this rubi cannot read them, and would
// check every recalled note against its files until a note changed.
func TestOlderChecksAreWrittenAgain(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	index(t, e)
	checks := filepath.Join(e.folder.dir, "checks.bin")
	if !e.Notes().ChecksSaved() {
		t.Fatal("the index kept no checks")
	}
	if err := os.WriteFile(checks, []byte("rubi-checks 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if e.Notes().ChecksSaved() {
		t.Fatal("older checks read as this rubi's")
	}
	index(t, e)
	if !engine(t, root).Notes().ChecksSaved() {
		t.Error("a run that changed nothing left the older checks")
	}
}

// A one-file change appends that file's symbols to the current symbols
// file instead of rewriting it; a reader holding the previous manifest
// still reads correct symbols from it.
func TestSymbolsAppended(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	index(t, e)
	before, err := manifest.Load(e.folder.dir, false, false)
	if err != nil {
		t.Fatal(err)
	}
	file := manifest.SymbolsFile(e.folder.dir, before.Generation)
	old, _ := os.Stat(file)
	edit(t, root, "internal/checkout/checkout.go", "", "\nfunc Refund(c Cart) int { return 0 }\n")
	index(t, e)
	after, err := manifest.Load(e.folder.dir, true, false)
	if err != nil {
		t.Fatal(err)
	}
	grown, err := os.Stat(file)
	if err != nil || after.Generation != before.Generation || grown.Size() <= old.Size() {
		t.Fatalf("generation %s → %s, size %d → %v: want the same file, grown", before.Generation, after.Generation, old.Size(), grown)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	names := func(m *manifest.Manifest) []string {
		rec := m.Records()["internal/checkout/checkout.go"]
		rec.Loaded, rec.Syms = false, nil
		if err := manifest.NewSymbolReader(f).Read(rec); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range rec.Syms {
			out = append(out, s.Name)
		}
		return out
	}
	if got := names(after); !slices.Contains(got, "Refund") {
		t.Errorf("new manifest reads %v, want Refund among them", got)
	}
	if got := names(before); slices.Contains(got, "Refund") || !slices.Contains(got, "Total") {
		t.Errorf("old manifest reads %v, want the old symbols", got)
	}
}

// An edit that leaves every import as it was reuses the stored resolution;
// the import graph is the same as a full rebuild's, and edits that change
// imports or the set of files resolve again.
func TestResolutionReuse(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	index(t, e)
	edgesOf := func(e *Engine) []string {
		g, err := e.Graph()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, ed := range g.Edges {
			out = append(out, ed.From+" → "+ed.To)
		}
		return out
	}
	fullEdges := func() []string {
		other := engine(t, root)
		if _, err := other.Index(context.Background(), IndexOptions{Full: true}); err != nil {
			t.Fatal(err)
		}
		return edgesOf(other)
	}
	before := edgesOf(e)
	const toConfig = "cmd/shop/main.go → internal/config/config.go"
	if !slices.Contains(before, toConfig) {
		t.Fatalf("edges %v lack %s", before, toConfig)
	}

	edit(t, root, "cmd/shop/main.go", "log.Fatal(err)", "log.Fatalf(\"config: %v\", err)") // body only
	if st := index(t, e); st.Parsed != 1 {
		t.Fatalf("parsed %d", st.Parsed)
	}
	if got := edgesOf(e); !slices.Equal(got, before) {
		t.Errorf("a body edit changed the graph:\n%v\nwant %v", got, before)
	}

	edit(t, root, "cmd/shop/main.go", "\t\"example.com/shop/internal/config\"\n", "") // an import gone
	index(t, e)
	if got, full := edgesOf(e), fullEdges(); slices.Contains(got, toConfig) || !slices.Equal(got, full) {
		t.Errorf("after removing an import: %v, full rebuild %v", got, full)
	}
}

// Filters narrow a query by path, module, node type, status and time, and
// a superseded note stays out unless its status is asked for.
func TestRetrieveFilters(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	index(t, e)
	ctx := context.Background()
	_, err := e.project.Knowledge().Register(ctx, []knowledge.Input{
		{Type: "gotcha", Title: "Coupon applied twice", Body: "The coupon is applied twice when the cart is resubmitted.", Files: []string{"internal/discount/coupon.go"}},
		{Type: "decision", Title: "Coupons are validated on the server", Body: "Never trust the coupon code sent by the web cart.", Files: []string{"web/src/coupon.ts"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.project.Knowledge().Register(ctx, []knowledge.Input{
		{Type: "decision", Title: "Coupons are checked by the discount service", Body: "The discount service checks every coupon code.", Supersedes: []string{"decision-coupons-are-validated-on-the-server"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	index(t, e)
	q := func(mod func(*answer.Query)) []string {
		t.Helper()
		query := answer.Query{Text: "coupon", Limit: 20, Budget: 5000}
		mod(&query)
		res, err := e.Retrieve(ctx, query)
		if err != nil {
			t.Fatal(err)
		}
		return ids(res)
	}
	all := q(func(*answer.Query) {})
	if slices.Contains(all, "node:decision-coupons-are-validated-on-the-server") || !slices.Contains(all, "node:decision-coupons-are-checked-by-the-discount-service") {
		t.Errorf("default statuses: %v", all)
	}
	if got := q(func(q *answer.Query) { q.Statuses = []string{"superseded"}; q.Kinds = []string{core.DocNode} }); !slices.Equal(got, []string{"node:decision-coupons-are-validated-on-the-server"}) {
		t.Errorf("superseded asked for: %v", got)
	}
	for _, id := range q(func(q *answer.Query) { q.PathPrefix = "internal/" }) {
		if !strings.HasPrefix(id, "file:internal/") && !strings.HasPrefix(id, "module:internal/") && id != "node:gotcha-coupon-applied-twice" {
			t.Errorf("path prefix internal/ let %s through", id)
		}
	}
	for _, id := range q(func(q *answer.Query) { q.Module = "web/src" }) {
		if id != "module:web/src" && !strings.HasPrefix(id, "file:web/src/") {
			t.Errorf("module web/src let %s through", id)
		}
	}
	if got := q(func(q *answer.Query) { q.NodeTypes = []string{"gotcha"}; q.Kinds = []string{core.DocNode} }); !slices.Equal(got, []string{"node:gotcha-coupon-applied-twice"}) {
		t.Errorf("gotchas: %v", got)
	}
	if got := q(func(q *answer.Query) { q.Since = time.Now().Add(time.Hour) }); len(got) != 0 {
		t.Errorf("nothing is from the future: %v", got)
	}
	if got := q(func(q *answer.Query) { q.Since = time.Now().Add(-time.Hour); q.Kinds = []string{core.DocNode} }); len(got) != 2 {
		t.Errorf("nodes updated in the last hour: %v", got)
	}
}

// The compact answer, footer included, never exceeds the budget, and
// every item says why it is there.
func TestBudgetAndReasons(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	index(t, e)
	for _, query := range []string{"coupon applied twice", "how is the configuration file loaded", "export orders to csv", "main"} {
		for _, budget := range []int{40, 80, 150, 400, 1500} {
			res, err := e.Retrieve(context.Background(), answer.Query{Text: query, Budget: budget, Limit: 20})
			if err != nil {
				t.Fatal(err)
			}
			if got := tokens.Estimate(res.Text(false)); got > budget {
				t.Errorf("%q at budget %d: the answer takes ~%d tokens:\n%s", query, budget, got, res.Text(false))
			}
			for _, it := range res.Items {
				if len(it.Reasons) == 0 || it.Reasons[0] == "" {
					t.Errorf("%q: %s has no reason", query, it.ID)
				}
			}
			if budget == 1500 && len(res.Items) == 0 {
				t.Errorf("%q: nothing found", query)
			}
		}
	}
}

// Files are read into the run's arena when they fit; a file that grew
// since the walk, or one the arena has no room for, is read whole anyway.
func TestReadFileArena(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a.txt", "hello")
	p := filepath.Join(root, "a.txt")
	arena := store.NewArena(16)
	defer arena.Release()
	for _, c := range []struct {
		size int64
		want string
	}{{5, "hello"}, {3, "hello"}, {5, "hello"}, {5, "hello"}} {
		got, err := readFile(arena, p, c.size)
		if err != nil || string(got) != c.want {
			t.Errorf("readFile(size %d) = %q, %v", c.size, got, err)
		}
	}
}

// The files are read and parsed a window at a time, so that a run never
// holds the whole tree's contents: cut into windows of one file each,
// with the arenas given again from window to window, a full index finds
// the same symbols, imports and answers as one that reads everything in
// one window.
func TestReadInWindows(t *testing.T) {
	type outcome struct {
		symbols, imports, parsed int
		answers                  [][]string
	}
	run := func(window int) outcome {
		e := engine(t, shop(t))
		stats, err := e.Index(context.Background(), IndexOptions{Full: true, readWindow: window})
		if err != nil {
			t.Fatal(err)
		}
		o := outcome{symbols: stats.Symbols, imports: stats.Imports, parsed: stats.Parsed}
		for _, q := range []string{"coupon applied twice", "how is the configuration file loaded", "export orders to csv"} {
			res, err := e.Retrieve(context.Background(), answer.Query{Text: q, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			o.answers = append(o.answers, ids(res))
		}
		return o
	}
	whole, windowed := run(1<<30), run(1)
	if !reflect.DeepEqual(whole, windowed) {
		t.Errorf("read in windows of one file: %+v\nin one window: %+v", windowed, whole)
	}
	if whole.parsed < 10 || whole.symbols == 0 {
		t.Errorf("the shop's files were not parsed: %+v", whole)
	}
}

// On a large tree the rankers index one after the other, the maps
// written first, rather than side by side: the index answers the same.
func TestRankersOneAfterAnother(t *testing.T) {
	run := func(atOnce int) [][]string {
		e := engine(t, shop(t))
		if _, err := e.Index(context.Background(), IndexOptions{Full: true, rankersAtOnce: atOnce}); err != nil {
			t.Fatal(err)
		}
		var out [][]string
		for _, q := range []string{"coupon applied twice", "how is the configuration file loaded", "export orders to csv"} {
			res, err := e.Retrieve(context.Background(), answer.Query{Text: q, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, ids(res))
		}
		return out
	}
	together, apart := run(1<<30), run(1)
	if !reflect.DeepEqual(together, apart) {
		t.Errorf("one after another: %v\nside by side: %v", apart, together)
	}
	if len(together[0]) == 0 {
		t.Error("no answer")
	}
}

// The windows keep the files in order, each window within its size but
// for a file larger than it, alone in its own.
func TestWindows(t *testing.T) {
	var files []*scanned
	for _, size := range []int64{3, 3, 10, 1, 1, 1, 1, 4} {
		files = append(files, &scanned{file: walk.File{Size: size}})
	}
	var got [][]int64
	for _, w := range windows(files, 8) {
		var sizes []int64
		for _, s := range w {
			sizes = append(sizes, s.file.Size)
		}
		got = append(got, sizes)
	}
	want := [][]int64{{3, 3}, {10}, {1, 1, 1, 1}, {4}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("windows of 8 bytes (a byte more a file) = %v, want %v", got, want)
	}
}

// One engine indexing from several goroutines at once (as a server might)
// runs them one after the other.
func TestConcurrentIndexOneEngine(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = e.Index(context.Background(), IndexOptions{Full: i == 0})
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if res, err := e.Retrieve(context.Background(), answer.Query{Text: "coupon"}); err != nil || len(res.Items) == 0 {
		t.Fatalf("retrieve: %v, %v", res, err)
	}
}

// A weak match takes none of the answer: design notes that share only a
// frequent word with the question are neither shown nor counted among
// the matches the budget left out, and the note that matches its telling
// words is there. The same lines saved as notes of type note, as a
// conversation's turns are, have no floor (rerank.floor's type_floors) in
// a question about the memory alone, and the floor in one about the code
// too.
func TestWeakMatchesTakeNothing(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	in := []knowledge.Input{{Type: "gotcha", Title: "Coupon applied twice", Body: "The discount ran before the total was recomputed.", Files: []string{"internal/discount/coupon.go"}}}
	for i := range 20 {
		in = append(in, knowledge.Input{Type: "howto", Title: fmt.Sprintf("Release step %d", i),
			Body: fmt.Sprintf("Step %d of the release: tag the checkout, build and publish the archive.", i)})
		in = append(in, knowledge.Input{Type: "note", Title: fmt.Sprintf("Said at the release %d", i),
			Body: fmt.Sprintf("We said at release %d: tag the checkout first.", i)})
	}
	if _, err := e.project.Knowledge().Register(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	index(t, e)
	got, err := e.Retrieve(context.Background(), answer.Query{Text: "coupon applied twice at checkout", Kinds: []string{"node"}, Budget: 200})
	if err != nil {
		t.Fatal(err)
	}
	// The coupon note first, then notes of type note, shown or left out
	// by the budget: all 20 of them, and no howto.
	shown := ids(got)
	if len(shown) == 0 || shown[0] != "node:gotcha-coupon-applied-twice" || len(shown)-1+got.Omitted != 20 ||
		slices.ContainsFunc(shown, func(id string) bool { return strings.HasPrefix(id, "node:howto-") }) {
		t.Errorf("items %v, %d left out: want the coupon note first, then the 20 notes of type note (shown or left out), no howto", shown, got.Omitted)
	}
	// The same notes all match when a caller admits everything in place
	// of the floor: the check above is the floor's doing.
	all, err := e.Retrieve(context.Background(), answer.Query{Text: "coupon applied twice at checkout", Kinds: []string{"node"}, Budget: 200,
		Admit: func(*answer.Item, bool) bool { return true }})
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Items)+all.Omitted < 41 {
		t.Errorf("with no floor, %d items and %d left out: the release notes should match \"checkout\"", len(all.Items), all.Omitted)
	}
	// A question about the code too holds the notes of type note to the
	// floor: a turn that shares only "checkout" with it is no answer.
	mixed, err := e.Retrieve(context.Background(), answer.Query{Text: "coupon applied twice at checkout", Budget: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(ids(mixed), func(id string) bool { return strings.HasPrefix(id, "node:note-") }) || !slices.Contains(ids(mixed), "node:gotcha-coupon-applied-twice") {
		t.Errorf("a question about the code too: %v, want the coupon note and no note of type note", ids(mixed))
	}
}

// A file found binary is passed unread by the next runs while its size
// and time stay (as an unchanged file is): a refresh of a tree with many
// images or archives reads none of them again. One given new content,
// size and time kept, is still taken for binary; once its time moves it
// is read again, found text now, and indexed.
func TestBinaryFilesAreNotReadAgain(t *testing.T) {
	root := shop(t)
	e := engine(t, root)
	first := index(t, e)
	var binaries []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && !strings.Contains(p, string(filepath.Separator)+".rubi"+string(filepath.Separator)) {
			if data, err := os.ReadFile(p); err == nil && bytes.IndexByte(data, 0) >= 0 {
				binaries = append(binaries, p)
			}
		}
		return nil
	})
	if first.Files.Skipped["binary"] != 2 || len(binaries) < 1 {
		t.Fatalf("the fixture's binary files: skipped %v, found %q", first.Files.Skipped, binaries)
	}
	p := binaries[0]
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	text := bytes.Repeat([]byte("x"), int(st.Size()))
	if err := os.WriteFile(p, text, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	again := index(t, e)
	if again.Files.Skipped["binary"] != 2 || again.Files.Indexed != first.Files.Indexed {
		t.Errorf("a binary file of the same size and time was read again: skipped %v, indexed %d (first %d)", again.Files.Skipped, again.Files.Indexed, first.Files.Indexed)
	}
	later := st.ModTime().Add(time.Minute)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	moved := index(t, e)
	if moved.Files.Skipped["binary"] != 1 || moved.Files.Indexed != first.Files.Indexed+1 {
		t.Errorf("a file whose time moved was not read again: skipped %v, indexed %d (first %d)", moved.Files.Skipped, moved.Files.Indexed, first.Files.Indexed)
	}
}
