package main

import (
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/bench/internal/perf"
	"github.com/rubi-dev/rubi/bench/internal/sets"
	"github.com/rubi-dev/rubi/core/codemap"
)

// selfSet reads the repository's set, failing the test when it cannot.
func selfSet(t *testing.T) (string, []sets.SelfQuestion) {
	t.Helper()
	root, err := perf.Checkout()
	if err != nil {
		t.Fatal(err)
	}
	qs, err := sets.ReadSelfSet(root)
	if err != nil {
		t.Fatal(err)
	}
	return root, qs
}

func TestSelfSetParses(t *testing.T) {
	_, qs := selfSet(t)
	if len(qs) < 20 || len(qs) > 40 {
		t.Errorf("%d questions; the set is meant to hold about 25", len(qs))
	}
	for _, q := range qs {
		if strings.TrimSpace(q.Why) == "" {
			t.Errorf("line %d: %q says not why its files answer it", q.Line, q.Text)
		}
		// A maintainer opens 1–3 files first; a question that asks for
		// every caller is answered by all of them.
		if _, all := callersAsked(q.Text); len(q.Gold) == 0 || len(q.Gold) > 5 && !all {
			t.Errorf("line %d: %q has %d gold files; a maintainer opens 1–3 first", q.Line, q.Text, len(q.Gold))
		}
	}
}

func TestSelfSetGoldFilesExist(t *testing.T) {
	root, qs := selfSet(t)
	for _, q := range qs {
		for _, g := range q.Gold {
			fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(g)))
			switch {
			case err != nil:
				t.Errorf("line %d: gold file of %q: %v", q.Line, q.Text, err)
			case !fi.Mode().IsRegular():
				t.Errorf("line %d: gold file %s of %q is not a regular file", q.Line, g, q.Text)
			}
			if why := sets.SelfLeftOut(g); why != "" {
				t.Errorf("line %d: gold file %s is left out of the index (%s)", q.Line, g, why)
			}
			// Tests answer questions about tests only.
			if codemap.IsTestCase(g) && !strings.Contains(strings.ToLower(q.Text), "test") {
				t.Errorf("line %d: gold file %s is a test, but %q is not about tests", q.Line, g, q.Text)
			}
		}
	}
}

// callersAsked returns the name a question "what calls NAME" asks about.
func callersAsked(question string) (string, bool) {
	name, ok := strings.CutPrefix(question, "what calls ")
	return name, ok && name != "" && !strings.ContainsAny(name, " .()")
}

// A "what calls NAME" question's gold files are every Go file outside
// tests that calls NAME, as the code has them now: a caller added since
// the question was written is a right answer too.
func TestSelfSetCallersAreCurrent(t *testing.T) {
	root, qs := selfSet(t)
	asked := 0
	for _, q := range qs {
		name, ok := callersAsked(q.Text)
		if !ok {
			continue
		}
		asked++
		call := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\(`)
		def := regexp.MustCompile(`(?m)^func (\([^)]*\) )?` + regexp.QuoteMeta(name) + `\(`)
		var callers []string
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || sets.SelfLeftOut(rel) != "") {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || sets.SelfLeftOut(rel) != "" {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if call.Match(def.ReplaceAll(data, nil)) {
				callers = append(callers, rel)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		gold := slices.Sorted(slices.Values(q.Gold))
		if !slices.Equal(gold, callers) {
			t.Errorf("line %d: %q lists %v; the code's callers are %v", q.Line, q.Text, gold, callers)
		}
	}
	if asked == 0 {
		t.Error(`the set has no "what calls" question: this test checks nothing`)
	}
}

func TestSelfSetHasNoDuplicates(t *testing.T) {
	_, qs := selfSet(t)
	seen := map[string]int{}
	for _, q := range qs {
		k := strings.Join(strings.Fields(strings.ToLower(q.Text)), " ")
		if line, ok := seen[k]; ok {
			t.Errorf("line %d repeats the question of line %d: %q", q.Line, line, q.Text)
		}
		seen[k] = q.Line
	}
}

// The README's example is in the set with the file the report follows.
func TestSelfSetHoldsTheReadmeExample(t *testing.T) {
	_, qs := selfSet(t)
	i := slices.IndexFunc(qs, func(q sets.SelfQuestion) bool { return q.Text == readmeQuestion })
	if i < 0 {
		t.Fatalf("no question %q", readmeQuestion)
	}
	if !slices.Contains(qs[i].Gold, readmeGold) {
		t.Errorf("%q: gold %v lacks %s", readmeQuestion, qs[i].Gold, readmeGold)
	}
}

// The files that hold the set are kept out of the tree it is asked of,
// and so is any copy of it.
func TestSelfSetStaysOutOfTheIndex(t *testing.T) {
	root, qs := selfSet(t)
	if sets.SelfLeftOut(sets.SelfSetFile) == "" {
		t.Errorf("%s would be indexed", sets.SelfSetFile)
	}
	if sets.SelfLeftOut("bench/results/quality-2027-01-01.md") == "" {
		t.Error("a quality report would be indexed")
	}
	if sets.SelfLeftOut("bench/results/payload-2027-01-01-before.json") == "" {
		t.Error("a payload report would be indexed")
	}
	if sets.SelfLeftOut(sets.GateGolden) == "" {
		t.Error("the ranking gate's golden would be indexed")
	}
	if sets.SelfLeftOut("bench/quality/selfset.go") != "" || sets.SelfLeftOut("core/host/host.go") != "" {
		t.Error("code is left out")
	}
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(sets.SelfSetFile)))
	if err != nil {
		t.Fatal(err)
	}
	if n := sets.Verbatim(data, qs); n != len(qs) {
		t.Errorf("the set holds %d of its %d questions verbatim", n, len(qs))
	}
	if n := sets.Verbatim([]byte("nothing asked here"), qs); n != 0 {
		t.Errorf("verbatim = %d on unrelated text", n)
	}
}

func TestFirstGold(t *testing.T) {
	ranked := []string{"a.go", "b.go", "c.go", "d.go"}
	tests := []struct {
		gold []string
		want int
	}{
		{[]string{"a.go"}, 1},
		{[]string{"c.go", "b.go"}, 2}, // the first of them in the ranking, whatever the gold's order
		{[]string{"d.go", "x.go"}, 4},
		{[]string{"x.go"}, 0},
		{nil, 0},
	}
	for _, tt := range tests {
		if got := firstGold(ranked, tt.gold); got != tt.want {
			t.Errorf("firstGold(%v) = %d, want %d", tt.gold, got, tt.want)
		}
	}
	if got := firstGold(nil, []string{"a.go"}); got != 0 {
		t.Errorf("firstGold of no ranking = %d", got)
	}
}

// The scorer on hand-made rankings: a question is right at k when any of
// its gold files is among the first k, and MRR takes the first of them.
func TestScoreSelf(t *testing.T) {
	qs := []sets.SelfQuestion{
		{Text: "q1", Gold: []string{"a.go"}},
		{Text: "q2", Gold: []string{"x.go", "b.go"}},
		{Text: "q3", Gold: []string{"c.go"}},
		{Text: "q4", Gold: []string{"z.go"}},
		{Text: "q5", Gold: []string{"e.go"}},
	}
	ranked := [][]string{
		{"a.go", "b.go"},                         // 1
		{"a.go", "b.go", "x.go"},                 // 2: b.go comes before x.go
		{"a.go", "b.go", "d.go", "c.go"},         // 4
		{"a.go"},                                 // not found
		{"a.go", "b.go", "c.go", "d.go", "f.go"}, // e.go not there
	}
	sum, ranks := scoreSelf(qs, ranked)
	if want := []int{1, 2, 4, 0, 0}; !slices.Equal(ranks, want) {
		t.Errorf("ranks = %v, want %v", ranks, want)
	}
	s := sum.scores()
	want := locScores{Acc1: 20, Acc3: 40, Acc5: 60, MRR: (1 + 0.5 + 0.25) / 5, N: 5}
	if math.Abs(s.MRR-want.MRR) > 1e-12 {
		t.Errorf("MRR = %v, want %v", s.MRR, want.MRR)
	}
	s.MRR = want.MRR
	if s != want {
		t.Errorf("scores = %+v, want %+v", s, want)
	}
	// A system that answered fewer questions than asked scores the rest
	// as not found.
	if sum, ranks := scoreSelf(qs, ranked[:1]); sum.N != 5 || sum.Top1 != 1 || ranks[1] != 0 {
		t.Errorf("short rankings: %+v %v", sum, ranks)
	}
}

// -self alone runs only the self set; a part set false leaves the others.
func TestPartFlags(t *testing.T) {
	tests := []struct {
		args               []string
		memory, code, self bool
	}{
		{nil, true, true, true},
		{[]string{"-self"}, false, false, true},
		{[]string{"-memory"}, true, false, false},
		{[]string{"-code", "-self"}, false, true, true},
		{[]string{"-self=false"}, true, true, false},
		{[]string{"-memory=false", "-code=false"}, false, false, true},
		{[]string{"-memory=false", "-self"}, false, false, true},
	}
	for _, tt := range tests {
		o, err := parseFlags(tt.args, io.Discard)
		if err != nil {
			t.Errorf("%v: %v", tt.args, err)
			continue
		}
		if o.memory != tt.memory || o.code != tt.code || o.self != tt.self {
			t.Errorf("%v: memory %v code %v self %v, want %v %v %v", tt.args, o.memory, o.code, o.self, tt.memory, tt.code, tt.self)
		}
	}
	if _, err := parseFlags([]string{"-memory=false", "-code=false", "-self=false", "-swebench=false"}, io.Discard); err == nil {
		t.Error("every part off: want an error")
	}
}
