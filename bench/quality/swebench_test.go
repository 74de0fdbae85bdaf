package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/rubi-dev/rubi/bench/internal/sets"
	"github.com/rubi-dev/rubi/bench/internal/sets/setstest"
	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
)

func TestSelectParts(t *testing.T) {
	tests := []struct {
		args                   []string
		memory, code, swebench bool
		fail                   bool
	}{
		{nil, true, true, true, false},
		{[]string{"-memory"}, true, false, false, false},
		{[]string{"-code"}, false, true, false, false},
		{[]string{"-swebench"}, false, false, true, false},
		{[]string{"-swebench", "-code"}, false, true, true, false},
		{[]string{"-memory=false"}, false, true, true, false},
		{[]string{"-swebench=false", "-code=false"}, true, false, false, false},
		{[]string{"-swebench", "-code=false"}, false, false, true, false},
		{[]string{"-memory=false", "-code=false", "-swebench=false", "-self=false"}, false, false, false, true},
	}
	for _, tt := range tests {
		o, err := parseFlags(tt.args, io.Discard)
		if tt.fail {
			if err == nil {
				t.Errorf("%v: no error", tt.args)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", tt.args, err)
			continue
		}
		if o.memory != tt.memory || o.code != tt.code || o.swebench != tt.swebench {
			t.Errorf("%v: memory, code, swebench = %v, %v, %v; want %v, %v, %v", tt.args, o.memory, o.code, o.swebench, tt.memory, tt.code, tt.swebench)
		}
	}
}

func TestSWEFlags(t *testing.T) {
	t.Setenv(sets.MirrorsEnv, "/from/env")
	o, err := parseFlags([]string{"-swebench"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if o.swe.mirrors != "/from/env" || o.swe.instances != 0 || o.swe.projects != nil || o.swe.cliSample != defaultCLISample {
		t.Errorf("defaults: %+v", o.swe)
	}
	o, err = parseFlags([]string{"-swebench", "-mirrors", "/m", "-instances", "40", "-projects", "psf/requests, pallets/flask", "-cli-sample", "0"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if o.swe.mirrors != "/m" || o.swe.instances != 40 || !slices.Equal(o.swe.projects, []string{"psf/requests", "pallets/flask"}) || o.swe.cliSample != 0 {
		t.Errorf("flags: %+v", o.swe)
	}
	o, err = parseFlags([]string{"-quick"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(o.swe.projects, quickSWEProjects) || o.swe.cliSample != quickCLISample {
		t.Errorf("quick: %+v", o.swe)
	}
}

// The whole part on a fixture: a data file of two instances of a project
// whose mirror is the fixture repository, and one of a project with no
// mirror.
func TestRunSWE(t *testing.T) {
	repo, commits := setstest.GitFixture(t)
	mirrors := setstest.Mirrors(t, repo, "o/r")
	data := filepath.Join(t.TempDir(), "swe.jsonl")
	rows := fmt.Sprintf(`{"instance_id": "o__r-2", "repo": "o/r", "base_commit": %q, "problem_statement": "the porcupine extra is wrong", "gold_files": ["pkg/alpha.py"], "expected_spans": {"pkg/alpha.py": ["extra"]}}
{"instance_id": "o__r-1", "repo": "o/r", "base_commit": %q, "problem_statement": "beta returns bbbbbbbb", "gold_files": ["pkg/beta.py"], "expected_spans": {"pkg/beta.py": ["imports"]}}
{"instance_id": "o__r-3", "repo": "o/r", "base_commit": "0123456789012345678901234567890123456789", "problem_statement": "lost", "gold_files": ["a.py"], "expected_spans": {}}
{"instance_id": "x__y-1", "repo": "x/y", "base_commit": %q, "problem_statement": "no mirror", "gold_files": ["a.py"], "expected_spans": {}}
`, commits[1], commits[0], commits[0])
	if err := os.WriteFile(data, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	h := &harness{logger: hclog.NewNullLogger()}
	work := t.TempDir()
	probe := filepath.Join(work, "probe")
	if err := os.MkdirAll(probe, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg, err := h.config(probe, nil)
	if err != nil {
		t.Fatal(err)
	}
	vs, _ := variants(enabledRankers(cfg))
	var lines []string
	progress := func(s string) { lines = append(lines, s) }

	rep, missing, err := runSWE(context.Background(), h, work, "", sweOptions{data: data, mirrors: mirrors}, 1, vs, progress)
	if err != nil || missing != "" {
		t.Fatalf("runSWE: %v %q", err, missing)
	}
	if rep.Measured != 2 || rep.Selected != 4 || len(rep.Skipped) != 2 || rep.FnLeftOut != 1 {
		t.Errorf("measured %d of %d, skipped %v, fn left out %d", rep.Measured, rep.Selected, rep.Skipped, rep.FnLeftOut)
	}
	// Commit order: the instance of the first commit runs first.
	if len(rep.Instances) != 2 || rep.Instances[0].ID != "o__r-1" {
		t.Errorf("instances %+v", rep.Instances)
	}
	if len(rep.Projects) != 1 || rep.Projects[0].Files != 4 || rep.Projects[0].Incremental != 1 {
		t.Errorf("projects %+v", rep.Projects)
	}
	base, ok := bySystem(rep.Pooled, fileBaselineName)
	if !ok || base.Scores.N != 2 || base.Scores.Acc1 != 100 {
		t.Errorf("file baseline %+v", base.Scores)
	}
	fn, _ := bySystem(rep.Pooled, fnBaselineName)
	if fn.Scores.FnN != 1 || fn.Scores.FnAcc5 != 100 {
		t.Errorf("function baseline %+v", fn.Scores)
	}
	full, ok := fullSystem(rep.Pooled)
	if !ok || full.Scores.Acc1 != 100 {
		t.Errorf("full pipeline %+v", full.Scores)
	}
	var md strings.Builder
	rep.markdown(&md)
	for _, s := range []string{"22 / 39 / 47 / 61", "no mirror of x/y", "its base commit is not in the mirror", "| o/r |"} {
		if !strings.Contains(md.String(), s) {
			t.Errorf("the report lacks %q:\n%s", s, md.String())
		}
	}

	// What is missing is said, not failed.
	if _, missing, err := runSWE(context.Background(), h, work, "", sweOptions{data: data}, 1, vs, progress); err != nil || !strings.Contains(missing, "-mirrors") {
		t.Errorf("without mirrors: %v, %q", err, missing)
	}
	if _, missing, err := runSWE(context.Background(), h, work, "", sweOptions{data: data + ".none", mirrors: mirrors}, 1, vs, progress); err != nil || !strings.Contains(missing, "not there") {
		t.Errorf("without data: %v, %q", err, missing)
	}
}

// Function Acc@k reads what the answer gives: its listing across files
// first, then each item's units, each unit once; the file-by-file row
// reads the items' units alone.
func TestItemRankingReadsTheListingFirst(t *testing.T) {
	res := &answer.Result{
		OpenFirst: []core.Unit{{Path: "b.py", Name: "g"}, {Path: "a.py", Name: "f"}},
		Items: []answer.Item{
			{Kind: core.DocFile, Path: "a.py", Units: []core.Unit{{Name: "f"}, {Name: "C"}}},
			{Kind: core.DocFile, Path: "b.py", Units: []core.Unit{{Name: "h"}, {Name: "g"}}},
		},
	}
	files, units := itemRanking(res, true, nil)
	want := []string{unitKey("b.py", "g"), unitKey("a.py", "f"), unitKey("a.py", "C"), unitKey("b.py", "h")}
	if !slices.Equal(files, []string{"a.py", "b.py"}) || !slices.Equal(units, want) {
		t.Errorf("with the listing: files %q, units %q, want %q", files, units, want)
	}
	_, units = itemRanking(res, false, nil)
	want = []string{unitKey("a.py", "f"), unitKey("a.py", "C"), unitKey("b.py", "h"), unitKey("b.py", "g")}
	if !slices.Equal(units, want) {
		t.Errorf("file by file: %q, want %q", units, want)
	}
	_, units = itemRanking(res, true, func(p string) bool { return p == "a.py" })
	if want := []string{unitKey("a.py", "f"), unitKey("a.py", "C")}; !slices.Equal(units, want) {
		t.Errorf("a.py kept alone: %q, want %q", units, want)
	}
}
