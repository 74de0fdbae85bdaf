package sets

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseSelfSet(t *testing.T) {
	good := `# A note about the set.
# It has no question.

# Why: the frobnicator lives there.
Where is the frobnicator configured?
  pkg/frob/frob.go
  pkg/frob/config.go

# Two comment lines,
# joined.
what calls Frobnicate
	cmd/frob/main.go
`
	qs, err := ParseSelfSet(strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	want := []SelfQuestion{
		{Text: "Where is the frobnicator configured?", Gold: []string{"pkg/frob/frob.go", "pkg/frob/config.go"}, Why: "Why: the frobnicator lives there.", Line: 5},
		{Text: "what calls Frobnicate", Gold: []string{"cmd/frob/main.go"}, Why: "Two comment lines, joined.", Line: 11},
	}
	if !reflect.DeepEqual(qs, want) {
		t.Errorf("parsed\n%+v\nwant\n%+v", qs, want)
	}

	bad := map[string]string{
		"no comment":       "a question\n  a.go\n",
		"no gold":          "# why\na question\n\n# why\nanother\n  a.go\n",
		"no gold at end":   "# why\na question\n",
		"gold first":       "# why\n  a.go\na question\n",
		"two questions":    "# why\na question\n  a.go\nanother question\n  b.go\n",
		"comment after":    "# why\na question\n  a.go\n# late\n",
		"absolute path":    "# why\na question\n  /etc/passwd\n",
		"parent path":      "# why\na question\n  ../other/a.go\n",
		"unclean path":     "# why\na question\n  core/./a.go\n",
		"two on a line":    "# why\na question\n  a.go b.go\n",
		"listed twice":     "# why\na question\n  a.go\n  a.go\n",
		"backslash path":   "# why\na question\n  core\\a.go\n",
		"the root as gold": "# why\na question\n  .\n",
	}
	for name, src := range bad {
		if qs, err := ParseSelfSet(strings.NewReader(src)); err == nil {
			t.Errorf("%s: parsed %+v, want an error", name, qs)
		}
	}
	if qs, err := ParseSelfSet(strings.NewReader("")); err != nil || len(qs) != 0 {
		t.Errorf("empty set: %v, %v", qs, err)
	}
}

// ExportTree copies what HEAD holds: not an uncommitted file, not the
// set, not a file that repeats the questions.
func TestExportTree(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	qs := []SelfQuestion{{Text: "where is the frobnicator"}, {Text: "what calls Frob"}, {Text: "how is the widget built"}}
	files := map[string]string{
		"a/code.go":     "package a // where is the frobnicator? here\n",
		SelfSetFile:     "the set",
		"docs/copy.md":  "where is the frobnicator / what calls Frob / how is the widget built\n",
		"docs/guide.md": "a guide\n",
	}
	for p, s := range files {
		full := filepath.Join(src, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", src, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "tree")
	// git rev-parse --short's length follows the object count (a clone
	// packed whole names a commit with more digits than a working
	// repository): core.abbrev stands in for a large repository here.
	git("config", "core.abbrev", "12")
	head, err := exec.Command("git", "-C", src, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "uncommitted.go"), []byte("package x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "docs/guide.md"), []byte("edited, not committed\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	commit, leftOut, err := ExportTree(t.Context(), src, "HEAD", dst, qs)
	if err != nil {
		t.Fatal(err)
	}
	if want := string(head[:7]); commit != want {
		t.Errorf("commit %q, want %q: the first 7 digits, whatever the repository's size", commit, want)
	}
	var got []string
	err = filepath.WalkDir(dst, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(dst, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if want := []string{"a/code.go", "docs/guide.md"}; !slices.Equal(got, want) {
		t.Errorf("copied %v, want %v", got, want)
	}
	if data, _ := os.ReadFile(filepath.Join(dst, "docs/guide.md")); string(data) != "a guide\n" {
		t.Errorf("docs/guide.md = %q: the committed content is wanted", data)
	}
	if len(leftOut) != 2 || !strings.HasPrefix(leftOut[0], SelfSetFile) && !strings.HasPrefix(leftOut[1], SelfSetFile) {
		t.Errorf("left out %q", leftOut)
	}
}
func TestSampleSWE(t *testing.T) {
	var in []Instance
	for i := range 60 {
		repo := "big/big"
		switch {
		case i%6 == 1:
			repo = "mid/mid"
		case i == 8 || i == 32:
			repo = "small/small"
		}
		in = append(in, Instance{ID: fmt.Sprint(i), Repo: repo})
	}
	count := func(xs []Instance) map[string]int {
		c := map[string]int{}
		for _, x := range xs {
			c[x.Repo]++
		}
		return c
	}
	all := count(in) // big 48, mid 10, small 2
	if all["big/big"] != 48 || all["mid/mid"] != 10 || all["small/small"] != 2 {
		t.Fatalf("fixture counts %v", all)
	}
	got := SampleSWE(in, 30, 1)
	if c := count(got); len(got) != 30 || c["big/big"] != 24 || c["mid/mid"] != 5 || c["small/small"] != 1 {
		t.Errorf("sample of 30: %d, %v", len(got), c)
	}
	if !slices.IsSortedFunc(got, func(a, b Instance) int {
		return strings.Compare(fmt.Sprintf("%03s", a.ID), fmt.Sprintf("%03s", b.ID))
	}) {
		t.Error("the sample is not in the data's order")
	}
	if again := SampleSWE(in, 30, 1); !reflect.DeepEqual(again, got) {
		t.Error("the same seed drew another sample")
	}
	if other := SampleSWE(in, 30, 2); reflect.DeepEqual(other, got) {
		t.Error("another seed drew the same sample")
	}
	if c := count(SampleSWE(in, 7, 1)); c["big/big"]+c["mid/mid"]+c["small/small"] != 7 {
		t.Errorf("sample of 7: %v", c)
	}
	if len(SampleSWE(in, 0, 1)) != 60 || len(SampleSWE(in, 100, 1)) != 60 {
		t.Error("0 or more than there are should keep all")
	}
	if got := Spread(10, 3); !slices.Equal(got, []int{0, 3, 6}) {
		t.Errorf("Spread(10, 3) = %v", got)
	}
	if got := Spread(2, 5); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("Spread(2, 5) = %v", got)
	}
}

func TestLoadSWE(t *testing.T) {
	data := `{"instance_id": "o__r-1", "repo": "o/r", "base_commit": "abc", "problem_statement": "it breaks", "gold_files": ["a.py"], "expected_spans": {"a.py": ["f", "imports"]}, "golden_patch": "diff"}
{"instance_id": "o__r-2", "repo": "o/r", "base_commit": "def", "problem_statement": "also", "gold_files": ["b.py", "c.py"], "expected_spans": {"b.py": ["C.m"]}, "golden_patch": ""}
`
	got, err := LoadSWE(strings.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	want := []Instance{
		{ID: "o__r-1", Repo: "o/r", Commit: "abc", Problem: "it breaks", GoldFiles: []string{"a.py"}, Spans: map[string][]string{"a.py": {"f", "imports"}}},
		{ID: "o__r-2", Repo: "o/r", Commit: "def", Problem: "also", GoldFiles: []string{"b.py", "c.py"}, Spans: map[string][]string{"b.py": {"C.m"}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("LoadSWE:\n got %+v\nwant %+v", got, want)
	}
	if _, err := LoadSWE(strings.NewReader(`{"instance_id": "x"}`)); err == nil {
		t.Error("a row without repo and commit was accepted")
	}
}

func TestFindMirror(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"psf+requests/repo", "JaeHyuckSa+django/repo", "pallets+flask"} {
		for _, f := range []string{"objects"} {
			if err := os.MkdirAll(filepath.Join(dir, p, f), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, p, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for repo, want := range map[string]string{
		"psf/requests":  "psf+requests/repo",
		"django/django": "JaeHyuckSa+django/repo",
		"pallets/flask": "pallets+flask",
		"sympy/sympy":   "",
	} {
		got := FindMirror(dir, repo)
		if want != "" {
			want = filepath.Join(dir, want)
		}
		if got != want {
			t.Errorf("FindMirror(%s) = %q, want %q", repo, got, want)
		}
	}
}
