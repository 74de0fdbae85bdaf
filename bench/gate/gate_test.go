package gate

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/bench/internal/sets"

	_ "github.com/rubi-dev/rubi/plugins/standard"
)

var update = flag.Bool("update", false, "rewrite testdata/stats.golden")

// golden is the golden file, which the self set's tree leaves out
// (sets.SelfLeftOut) since it lists the questions.
var golden = strings.TrimPrefix(sets.GateGolden, "bench/gate/")

const (
	// selfCommit is the commit of rubi whose tree the self set is asked
	// of. It is pinned, so that the gate moves with rubi's ranking and
	// not with its code: a new file in the tree would move answers too.
	// Move it forward deliberately, with -update, in a change of its own.
	selfCommit = "e33d0e7216d2a3e7aabf8dfd962b1c3c4d0e9305"
	// projects holds the fixture projects, questions their question
	// sets (one file per project, the self set's format).
	projects  = "testdata/projects"
	questions = "testdata/questions"
)

// fixedTime is every fixture file's modification time, so no answer
// depends on when the test copied them.
var fixedTime = time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)

// TestRankingGate asks every set and compares its scores and ranks with
// the golden; -update rewrites it.
func TestRankingGate(t *testing.T) {
	isolate(t)
	ctx := context.Background()
	start := time.Now()
	all := []Set{selfSet(ctx, t)}
	t.Logf("self: %.1fs", time.Since(start).Seconds())
	names, err := os.ReadDir(projects)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range names {
		if !d.IsDir() {
			continue
		}
		t0 := time.Now()
		all = append(all, projectSet(ctx, t, d.Name()))
		t.Logf("%s: %.1fs", d.Name(), time.Since(t0).Seconds())
	}
	got := Golden(all)
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./gate -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		moves := Moves(want, got)
		if len(moves) == 0 {
			moves = append([]string{"(the scores and ranks are the same; the header or a set's description changed)"}, lineChanges(want, got)...)
		}
		t.Errorf("the ranking moved: review it like any ranking change and, if it is right, rewrite %s with go test ./gate -update\n%s",
			golden, strings.Join(moves, "\n"))
	}
}

// isolate keeps the engines away from the personal vault and the
// record of the user's notes.
func isolate(t *testing.T) {
	t.Setenv("RUBI_VAULT", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
}

// selfSet asks rubi's self set of rubi's tree at selfCommit, without the
// files sets.SelfLeftOut names (sets.ExportTree leaves them out).
func selfSet(ctx context.Context, t *testing.T) Set {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if err := exec.Command("git", "-C", root, "cat-file", "-e", selfCommit+"^{commit}").Run(); err != nil {
		t.Fatalf("the self set is asked of rubi's tree at %s, which this clone lacks (%v): a shallow clone? Fetch it with\n"+
			"  git fetch --unshallow    (or: git fetch origin %s)\nthen run the test again", selfCommit[:7], err, selfCommit)
	}
	// The questions are read as they were at the pinned commit: their
	// gold files are paths of that tree, and the set today follows the
	// code as it moves (TestSelfSetCallersAreCurrent).
	set, err := exec.Command("git", "-C", root, "show", selfCommit+":"+sets.SelfSetFile).Output()
	if err != nil {
		t.Fatalf("git show %s:%s: %v%s", selfCommit[:7], sets.SelfSetFile, err, sets.StderrOf(err))
	}
	qs, err := sets.ParseSelfSet(bytes.NewReader(set))
	if err != nil {
		t.Fatalf("%s at %s: %v", sets.SelfSetFile, selfCommit[:7], err)
	}
	dir := t.TempDir()
	commit, _, err := sets.ExportTree(ctx, root, selfCommit, dir, qs)
	if err != nil {
		t.Fatal(err)
	}
	fixTimes(t, dir)
	ranks, files, err := Ask(ctx, dir, qs)
	if err != nil {
		t.Fatalf("self: %v", err)
	}
	return Set{Name: "self", About: fmt.Sprintf("rubi's tree at %s (%d files indexed), %s", commit, files, sets.SelfSetFile), Questions: qs, Ranks: ranks}
}

// projectSet asks a fixture project's questions of a copy of it.
func projectSet(ctx context.Context, t *testing.T, name string) Set {
	set := filepath.Join(questions, name+".txt")
	f, err := os.Open(set)
	if err != nil {
		t.Fatalf("project %s has no question set: %v", name, err)
	}
	qs, err := sets.ParseSelfSet(f)
	f.Close()
	if err != nil {
		t.Fatalf("%s: %v", set, err)
	}
	if len(qs) == 0 {
		t.Fatalf("%s holds no question", set)
	}
	src := filepath.Join(projects, name)
	for _, q := range qs {
		for _, g := range q.Gold {
			if _, err := os.Stat(filepath.Join(src, filepath.FromSlash(g))); err != nil {
				t.Errorf("%s:%d: gold file %s is not in the project", set, q.Line, g)
			}
		}
	}
	dir := t.TempDir()
	copyTree(t, src, dir)
	fixTimes(t, dir)
	ranks, files, err := Ask(ctx, dir, qs)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return Set{Name: name, About: fmt.Sprintf("testdata/projects/%s (%d files indexed), testdata/questions/%s.txt", name, files, name), Questions: qs, Ranks: ranks}
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// fixTimes gives every file under dir the same modification time.
func fixTimes(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chtimes(p, fixedTime, fixedTime)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// lineChanges lists the lines of was that now lacks and those of now
// that was lacks, so that a change of a header or a description says
// which.
func lineChanges(was, now []byte) []string {
	in := func(b []byte) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(string(b), "\n") {
			m[l] = true
		}
		return m
	}
	old, cur := in(was), in(now)
	var out []string
	for _, l := range strings.Split(string(was), "\n") {
		if !cur[l] {
			out = append(out, "  was: "+l)
		}
	}
	for _, l := range strings.Split(string(now), "\n") {
		if !old[l] {
			out = append(out, "  now: "+l)
		}
	}
	return out
}
