package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// shopProject copies the pipeline's shop fixture, with a test of its
// coupons, a page of docs and a note about the coupon code, and indexes
// it.
func shopProject(t *testing.T, rubiHCL string) string {
	t.Helper()
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("../../core/pipeline/testdata/shop")); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		".git/HEAD":                         "ref: refs/heads/main\n",
		"internal/discount/coupon_test.go":  "package discount\n\n// TestCouponAppliedOnce checks a coupon is applied once.\nfunc TestCouponAppliedOnce(t *testing.T) {}\n",
		"docs/coupons.md":                   "# Coupons\n\nA coupon is applied once per order at checkout.\n",
		"internal/discount/coupon_extra.go": "package discount\n\n// Stack reports whether two coupons stack.\nfunc Stack() bool { return false }\n",
	}
	if rubiHCL != "" {
		files["rubi.hcl"] = rubiHCL
	}
	for p, content := range files {
		p = filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, errOut := runRubi(t, "register", "--root", root, "--type", "gotcha", "--title", "Coupon applied twice at checkout",
		"--file", "internal/discount/coupon.go", "--body", "The coupon discount ran twice: checkout applied it before and after the total."); code != 0 {
		t.Fatalf("register: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runRubi(t, "index", "--root", root); code != 0 {
		t.Fatalf("index: exit %d: %s", code, errOut)
	}
	return root
}

// answerItem is an item of `rubi context --json` as this test reads it.
type answerItem struct {
	ID       string             `json:"id"`
	Scores   map[string]float64 `json:"scores"`
	Reranked []struct {
		Stage string `json:"stage"`
	} `json:"reranked"`
}

func contextJSON(t *testing.T, root, question string) []answerItem {
	t.Helper()
	code, out, errOut := runRubi(t, "context", "--json", "--root", root, question)
	if code != 0 {
		t.Fatalf("context %q: exit %d: %s", question, code, errOut)
	}
	var res struct {
		Items []answerItem `json:"items"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("context %q: %v: %s", question, err, out)
	}
	return res.Items
}

// TestEveryScoreIsAListedStage: whatever orders an answer is a stage
// `rubi config check` lists: every score an item carries is under the
// name of an enabled stage there, and so is every reranker that moved or
// rescaled it.
func TestEveryScoreIsAListedStage(t *testing.T) {
	root := shopProject(t, "")
	code, out, errOut := runRubi(t, "config", "check", "--json", "--root", root)
	if code != 0 {
		t.Fatalf("config check: exit %d: %s", code, errOut)
	}
	var rc struct {
		Stages []struct {
			Name    string `json:"name"`
			Enabled bool   `json:"enabled"`
		} `json:"stages"`
	}
	if err := json.Unmarshal([]byte(out), &rc); err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, st := range rc.Stages {
		listed[st.Name] = st.Enabled
	}
	seen := map[string]bool{}
	for _, q := range []string{
		"coupon applied twice",
		"how is the configuration file loaded",
		"panic: nil map in internal/checkout/checkout.go:12 while finishing a purchase",
		"where are coupons documented",
		"export orders to csv",
		"submitCart",
	} {
		for _, it := range contextJSON(t, root, q) {
			for name := range it.Scores {
				seen[name] = true
				if !listed[name] {
					t.Errorf("%q: %s has a score from %q, which config check does not list as enabled", q, it.ID, name)
				}
			}
			for _, r := range it.Reranked {
				seen[r.Stage] = true
				if !listed[r.Stage] {
					t.Errorf("%q: %s was reranked by %q, which config check does not list as enabled", q, it.ID, r.Stage)
				}
			}
		}
	}
	// The questions reach the stages that were hidden before: else the
	// test shows nothing about them.
	for _, want := range []string{"rank.bm25", "rank.ppr", "query.paths", "notes.files", "rerank.roles", "rerank.notes"} {
		if !seen[want] {
			t.Errorf("no answer shows %s (seen %v)", want, seen)
		}
	}
}

// Switching a stage off in the project's rubi.hcl takes its vote out of
// the answer: the file a traceback names keeps its place through the
// query.paths list, and loses that list with it.
func TestStageSwitchedOffPerProject(t *testing.T) {
	const q = "panic: nil map in internal/checkout/checkout.go:12 while finishing a purchase"
	has := func(items []answerItem, stage string) bool {
		return slices.ContainsFunc(items, func(it answerItem) bool { _, ok := it.Scores[stage]; return ok })
	}
	on := contextJSON(t, shopProject(t, ""), q)
	if len(on) == 0 || on[0].ID != "file:internal/checkout/checkout.go" || !has(on, "query.paths") {
		t.Fatalf("with the defaults, want internal/checkout/checkout.go first with a query.paths score: %+v", on)
	}
	off := contextJSON(t, shopProject(t, "ranker \"query.paths\" {\n  enabled = false\n}\n"), q)
	if has(off, "query.paths") {
		t.Errorf("query.paths is off, yet an item has its score: %+v", off)
	}
	// Off for the rerankers too: the note no longer comes second.
	lifted := func(items []answerItem) bool {
		return slices.ContainsFunc(items, func(it answerItem) bool {
			return slices.ContainsFunc(it.Reranked, func(r struct {
				Stage string `json:"stage"`
			}) bool {
				return r.Stage == "rerank.notes"
			})
		})
	}
	const nq = "where are coupons documented"
	if !lifted(contextJSON(t, shopProject(t, ""), nq)) {
		t.Fatalf("%q: the note should be lifted by rerank.notes with the defaults", nq)
	}
	if items := contextJSON(t, shopProject(t, "reranker \"rerank.notes\" {\n  enabled = false\n}\n"), nq); lifted(items) {
		t.Errorf("rerank.notes is off, yet it moved an item: %+v", items)
	}
}

// A stage's bad setting is an error at the line of rubi.hcl that wrote
// it, whether in the stage's block or in an old retrieve block; the old
// block otherwise still works, with a warning naming the new form.
func TestStageSettingsInRubiHCL(t *testing.T) {
	for _, c := range []struct {
		src, want string
		code      int
	}{
		{"reranker \"rerank.roles\" {\n  test_weight = 2\n}\n", "rubi.hcl:2:17: error: Invalid test_weight for reranker \"rerank.roles\"", 1},
		{"ranker \"query.paths\" {\n  max_matches = \"many\"\n}\n", "rubi.hcl:2:", 1},
		{"retrieve {\n  role_priors = true\n  test_weight = 7\n}\n", "rubi.hcl:3:17: error: Invalid test_weight", 1},
		{"reranker \"rerank.floor\" {\n  plugin = \"bin/floor\"\n}\n", "rubi.hcl:2:3: error: Rerankers are built-in", 1},
		{"reranker \"rerank.units\" {\n  open_first = 10\n  text_weight = -1\n}\n", "rubi.hcl:3:17: error: Invalid text_weight for reranker \"rerank.units\"", 1},
		{"reranker \"rerank.units\" {\n  open_first = -3\n}\n", "rubi.hcl:2:16: error: Invalid open_first for reranker \"rerank.units\"", 1},
		{"retrieve {\n  test_weight = 0.8\n}\n", "rubi.hcl:2:3: warning: retrieve.test_weight is now a setting of the reranker \"rerank.roles\"", 0},
	} {
		root := t.TempDir()
		if err := os.WriteFile(filepath.Join(root, "rubi.hcl"), []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runRubi(t, "config", "check", "--root", root)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d (want %d), stderr %q, want %q in it", c.src, code, c.code, errOut, c.want)
		}
		if c.code == 0 && !strings.Contains(out, `"test_weight":0.8`) {
			t.Errorf("%q: the retrieve block's test_weight is not rerank.roles' setting:\n%s", c.src, out)
		}
	}
}
