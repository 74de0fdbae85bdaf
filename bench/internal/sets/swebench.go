package sets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

const (
	// SWEPath is where the SWE-bench dev data lives, relative to the
	// repository root.
	SWEPath = "../shared/data/swebench-dev.jsonl"
	// MirrorsEnv names the mirrors' folder when -mirrors does not.
	MirrorsEnv = "RUBI_MIRRORS"
)

// Instance is one row of the data.
type Instance struct {
	ID        string              `json:"instance_id"`
	Repo      string              `json:"repo"`
	Commit    string              `json:"base_commit"`
	Problem   string              `json:"problem_statement"`
	GoldFiles []string            `json:"gold_files"`
	Spans     map[string][]string `json:"expected_spans"`
}

// LoadSWE reads the data: one JSON object a line.
func LoadSWE(r io.Reader) ([]Instance, error) {
	dec := json.NewDecoder(r)
	var out []Instance
	for {
		var in Instance
		err := dec.Decode(&in)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", len(out)+1, err)
		}
		if in.ID == "" || in.Repo == "" || in.Commit == "" {
			return nil, fmt.Errorf("row %d: instance_id, repo and base_commit are required", len(out)+1)
		}
		out = append(out, in)
	}
}

func ReadSWE(path string) ([]Instance, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return LoadSWE(f)
}

// SampleSWE keeps n instances (all when n ≤ 0 or n ≥ len(in)): each
// project gets its share of n (largest remainders, ties to the project
// seen first), its instances drawn with a generator seeded by seed; the
// sample keeps the data's order.
func SampleSWE(in []Instance, n int, seed uint64) []Instance {
	if n <= 0 || n >= len(in) {
		return in
	}
	var projects []string
	byProject := map[string][]int{}
	for i, x := range in {
		if _, ok := byProject[x.Repo]; !ok {
			projects = append(projects, x.Repo)
		}
		byProject[x.Repo] = append(byProject[x.Repo], i)
	}
	quota := make([]int, len(projects))
	rest := make([]float64, len(projects))
	given := 0
	for i, p := range projects {
		exact := float64(n) * float64(len(byProject[p])) / float64(len(in))
		quota[i] = int(exact)
		rest[i] = exact - float64(quota[i])
		given += quota[i]
	}
	order := make([]int, len(projects))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return rest[order[a]] > rest[order[b]] })
	for _, i := range order[:n-given] {
		quota[i]++
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	keep := map[int]bool{}
	for i, p := range projects {
		idx := slices.Clone(byProject[p])
		rng.Shuffle(len(idx), func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
		for _, j := range idx[:quota[i]] {
			keep[j] = true
		}
	}
	var out []Instance
	for i, x := range in {
		if keep[i] {
			out = append(out, x)
		}
	}
	return out
}

// Spread picks k of n positions evenly spaced, the first one included.
func Spread(n, k int) []int {
	if k <= 0 || n <= 0 {
		return nil
	}
	k = min(k, n)
	out := make([]int, k)
	for j := range out {
		out[j] = j * n / k
	}
	return out
}

// CommitTimes returns the committer time of each instance's base commit.
func CommitTimes(ctx context.Context, git string, insts []Instance) (map[string]int64, error) {
	args := []string{"-C", git, "log", "--no-walk=unsorted", "--format=%H %ct"}
	seen := map[string]bool{}
	for _, x := range insts {
		if !seen[x.Commit] {
			seen[x.Commit] = true
			args = append(args, x.Commit)
		}
	}
	out, err := exec.CommandContext(ctx, "git", args...).Output()
	if err != nil {
		return nil, fmt.Errorf("git log: %w%s", err, StderrOf(err))
	}
	times := map[string]int64{}
	for l := range strings.Lines(string(out)) {
		h, t, ok := strings.Cut(strings.TrimSpace(l), " ")
		if !ok {
			continue
		}
		v, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("git log: %q", l)
		}
		times[h] = v
	}
	for _, x := range insts {
		if _, ok := times[x.Commit]; !ok {
			return nil, fmt.Errorf("git log: no time for %s", x.Commit)
		}
	}
	return times, nil
}

// Follow opens a project directory under work that follows repo's
// mirror (in mirrors) from commit to commit, and returns it with the
// instances it can run, in the order of their base commits' times, so
// that each move to the next tree is as small as it gets; skip is told
// why each other one cannot (no mirror, its commit not in the mirror, no
// problem statement, no gold file). With none to run, the tree is nil;
// else Close it, which removes the directory.
func Follow(ctx context.Context, work, mirrors, repo string, insts []Instance, skip func(Instance, string)) (*Tree, []Instance, error) {
	git := FindMirror(mirrors, repo)
	if git == "" {
		why := "no mirror of " + repo
		if f, ok := MirrorForks[repo]; ok {
			why += " nor of its fork " + f
		}
		for _, x := range insts {
			skip(x, why+" in the mirrors' folder")
		}
		return nil, nil, nil
	}
	tree, err := NewTree(ctx, git, filepath.Join(work, "swe-"+strings.ReplaceAll(repo, "/", "_")))
	if err != nil {
		return nil, nil, err
	}
	var ok []Instance
	for _, x := range insts {
		has, err := tree.Has(x.Commit)
		switch {
		case err != nil:
			tree.Close()
			return nil, nil, err
		case !has:
			skip(x, "its base commit is not in the mirror")
		case strings.TrimSpace(x.Problem) == "":
			skip(x, "no problem statement")
		case len(x.GoldFiles) == 0:
			skip(x, "no gold file")
		default:
			ok = append(ok, x)
		}
	}
	var times map[string]int64
	if len(ok) > 0 {
		times, err = CommitTimes(ctx, git, ok)
	}
	if err != nil || len(ok) == 0 {
		tree.Close()
		return nil, nil, err
	}
	sort.SliceStable(ok, func(i, j int) bool { return times[ok[i].Commit] < times[ok[j].Commit] })
	return tree, ok, nil
}
