package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/bench/internal/perf"
	"github.com/rubi-dev/rubi/bench/internal/sets/setstest"
)

// TestRun measures, through binaries built from this checkout, the
// SWE-bench part on a two-commit repository made by the test (with one
// instance of a project that has no mirror) and the recall part on this
// package's own small set; the self set, which needs rubi's whole tree,
// is left to the real runs.
func TestRun(t *testing.T) {
	root, err := perf.Checkout()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := buildBins(t.Context(), root, bin); err != nil {
		t.Fatal(err)
	}
	repo, commits := setstest.GitFixture(t)
	mirrors := setstest.Mirrors(t, repo, "o/r")
	data := filepath.Join(t.TempDir(), "swe.jsonl")
	rows := fmt.Sprintf(`{"instance_id": "o__r-2", "repo": "o/r", "base_commit": %q, "problem_statement": "the porcupine from extra is wrong", "gold_files": ["pkg/alpha.py"]}
{"instance_id": "o__r-1", "repo": "o/r", "base_commit": %q, "problem_statement": "beta returns bbbbbbbb", "gold_files": ["pkg/beta.py"]}
{"instance_id": "x__y-1", "repo": "x/y", "base_commit": %q, "problem_statement": "no mirror", "gold_files": ["a.py"]}
`, commits[1], commits[0], commits[0])
	if err := os.WriteFile(data, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "payload.md")
	var log strings.Builder
	err = run(t.Context(), []string{"-bin", bin, "-sets", "swebench,recall", "-swebench-data", data, "-mirrors", mirrors,
		"-instances", "0", "-recall", filepath.Join("testdata", "recall"), "-out", out}, &log)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, log.String())
	}
	md, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(strings.TrimSuffix(out, ".md") + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var rep report
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}

	// Two instances, two budgets, three transports.
	if len(rep.Rows) != 12 {
		t.Fatalf("%d rows, want 12:\n%s", len(rep.Rows), md)
	}
	for _, r := range rep.Rows {
		if r.Tokens <= 0 || len(r.Items) == 0 {
			t.Errorf("%s %s %s: %d tokens, %d items", r.ID, r.Budget, r.Transport, r.Tokens, len(r.Items))
		}
		want := 600
		if r.Budget == "default" {
			want = 1500
		}
		if r.delivery.Budget != want {
			t.Errorf("%s %s %s: packed to %d, want %d", r.ID, r.Budget, r.Transport, r.delivery.Budget, want)
		}
		// The porcupine is in one file of the tree: the first file, and
		// the gold.
		if r.ID != "o__r-2" {
			continue
		}
		first := slices.IndexFunc(r.Items, func(it item) bool { return it.Kind == "file" })
		if first < 0 || r.Items[first].Key != "pkg/alpha.py" || r.GoldRank != first+1 || r.GoldTokens != r.Items[first].Tokens {
			t.Errorf("%s %s %s: gold rank %d, items %+v", r.ID, r.Budget, r.Transport, r.GoldRank, r.Items)
		}
	}
	if len(rep.Sets) != 2 || rep.Sets[0].Questions != 2 || len(rep.Sets[0].Skipped) != 1 || !strings.Contains(rep.Sets[0].Skipped[0], "no mirror of x/y") {
		t.Errorf("sets %+v", rep.Sets)
	}
	if len(rep.Summaries) != 6 {
		t.Errorf("%d summaries, want 6", len(rep.Summaries))
	}

	// The recall set: every named note recalled alone, nothing for the
	// prompts about none.
	if rep.Recall == nil || rep.Recall.Named != 3 || rep.Recall.Unrelated != 2 {
		t.Fatalf("recall %+v", rep.Recall)
	}
	if rep.Recall.NamedHit != 100 || rep.Recall.OthersAlongside != 0 || rep.Recall.UnrelatedInjected != 0 || rep.Recall.NamedTokensP50 <= 0 {
		t.Errorf("recall %+v\n%+v", rep.Recall, rep.RecallRows)
	}
	for _, s := range []string{"## swebench", "## recall", "| 600 | MCP structured | 2 |", "| Named note injected | 100.0 % |"} {
		if !strings.Contains(string(md), s) {
			t.Errorf("the report lacks %q:\n%s", s, md)
		}
	}
}
