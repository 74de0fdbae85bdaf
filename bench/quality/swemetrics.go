package main

import (
	"regexp"
	"slices"
	"sort"
)

// The cut-offs of SWE-bench localization: file Acc@k at sweKs, function
// Acc@k at sweFnKs.
var (
	sweKs   = [4]int{1, 3, 5, 10}
	sweFnKs = [2]int{5, 10}
)

// accAt is SWE-bench localization's accuracy at k for one instance: every
// gold item is among the first k ranked, or, for an instance with more
// than k gold items, the first k are all gold. ranked and gold hold no
// duplicates.
func accAt(ranked, gold []string, k int) bool {
	if len(gold) == 0 || k <= 0 {
		return false
	}
	top := ranked[:min(k, len(ranked))]
	if len(gold) > k {
		if len(top) < k {
			return false
		}
		for _, r := range top {
			if !slices.Contains(gold, r) {
				return false
			}
		}
		return true
	}
	for _, g := range gold {
		if !slices.Contains(top, g) {
			return false
		}
	}
	return true
}

// reciprocalRank is 1 / the rank of the first gold item in ranked, 0 when
// none is there.
func reciprocalRank(ranked, gold []string) float64 {
	for i, r := range ranked {
		if slices.Contains(gold, r) {
			return 1 / float64(i+1)
		}
	}
	return 0
}

// dedupe keeps the first of each string, in order.
func dedupe(xs []string) []string {
	seen := make(map[string]bool, len(xs))
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// pyQualified is a dotted Python name: "func", "Class.method".
var pyQualified = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)

// isFunctionSpan reports whether an expected span names a function or a
// class. The data also holds pseudo-spans for code outside any: "imports",
// "docstring", "impl:3".
func isFunctionSpan(s string) bool {
	return s != "imports" && s != "docstring" && pyQualified.MatchString(s)
}

// unitKey names a function or class of a file, for the function-level
// scores.
func unitKey(path, name string) string { return path + "\x00" + name }

// goldUnits is an instance's function-level gold set: each (file, span)
// that names a function or class, sorted.
func goldUnits(spans map[string][]string) []string {
	var out []string
	for f, ss := range spans {
		for _, s := range ss {
			if isFunctionSpan(s) {
				out = append(out, unitKey(f, s))
			}
		}
	}
	out = dedupe(out)
	sort.Strings(out)
	return out
}

// sweResult is one instance's scores for one system.
type sweResult struct {
	// Acc is file Acc@k at sweKs.
	Acc [4]bool
	// R5 is the share of gold files in the top 5; RR the reciprocal rank
	// of the first gold file.
	R5, RR float64
	// Fn says the instance has function spans; FnAcc is function Acc@k at
	// sweFnKs.
	Fn    bool
	FnAcc [2]bool
}

// scoreSWE scores one instance: files and units are what a system ranked
// (unit keys from unitKey), best first; gold and fnGold the gold files and
// units (fnGold empty: no function-level score).
func scoreSWE(files, gold, units, fnGold []string) sweResult {
	files, gold = dedupe(files), dedupe(gold)
	var r sweResult
	for i, k := range sweKs {
		r.Acc[i] = accAt(files, gold, k)
	}
	r.R5 = recallAt(gold, files, 5)
	r.RR = reciprocalRank(files, gold)
	if len(fnGold) > 0 {
		r.Fn = true
		units, fnGold = dedupe(units), dedupe(fnGold)
		for i, k := range sweFnKs {
			r.FnAcc[i] = accAt(units, fnGold, k)
		}
	}
	return r
}

// sweSum accumulates sweResults.
type sweSum struct {
	N     int
	Acc   [4]int
	R5    float64
	RR    float64
	FnN   int
	FnAcc [2]int
}

func (s *sweSum) add(r sweResult) {
	s.N++
	for i, ok := range r.Acc {
		if ok {
			s.Acc[i]++
		}
	}
	s.R5 += r.R5
	s.RR += r.RR
	if r.Fn {
		s.FnN++
		for i, ok := range r.FnAcc {
			if ok {
				s.FnAcc[i]++
			}
		}
	}
}

// sweScores are a sweSum's means: accuracies and recall in percent, MRR as
// a fraction.
type sweScores struct {
	N       int     `json:"n"`
	Acc1    float64 `json:"acc1"`
	Acc3    float64 `json:"acc3"`
	Acc5    float64 `json:"acc5"`
	Acc10   float64 `json:"acc10"`
	Recall5 float64 `json:"recall5"`
	MRR     float64 `json:"mrr"`
	// FnN instances have function spans; the function scores are over
	// them.
	FnN     int     `json:"fn_n"`
	FnAcc5  float64 `json:"fn_acc5"`
	FnAcc10 float64 `json:"fn_acc10"`
}

func (s sweSum) scores() sweScores {
	out := sweScores{N: s.N, FnN: s.FnN}
	if s.N > 0 {
		n := float64(s.N)
		out.Acc1, out.Acc3, out.Acc5, out.Acc10 = 100*float64(s.Acc[0])/n, 100*float64(s.Acc[1])/n, 100*float64(s.Acc[2])/n, 100*float64(s.Acc[3])/n
		out.Recall5 = 100 * s.R5 / n
		out.MRR = s.RR / n
	}
	if s.FnN > 0 {
		n := float64(s.FnN)
		out.FnAcc5, out.FnAcc10 = 100*float64(s.FnAcc[0])/n, 100*float64(s.FnAcc[1])/n
	}
	return out
}
