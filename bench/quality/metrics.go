package main

import (
	"math"
	"slices"
	"time"
)

// recallAt is LoCoMo's retrieval score for one question: the share of its
// evidence turns found among the first k retrieved.
func recallAt(evidence, retrieved []string, k int) float64 {
	if len(evidence) == 0 {
		return 0
	}
	top := retrieved[:min(k, len(retrieved))]
	found := 0
	for _, e := range evidence {
		if slices.Contains(top, e) {
			found++
		}
	}
	return float64(found) / float64(len(evidence))
}

// rankOf is the 1-based position of gold in ranked, 0 when absent.
func rankOf(ranked []string, gold string) int {
	if i := slices.Index(ranked, gold); i >= 0 {
		return i + 1
	}
	return 0
}

// recallKs are the cut-offs LoCoMo reports.
var recallKs = []int{5, 10, 25, 50}

// recallSum accumulates recall at every k over questions.
type recallSum struct {
	N   int
	Sum [4]float64 // per recallKs
}

func (r *recallSum) add(evidence, retrieved []string) {
	r.N++
	for i, k := range recallKs {
		r.Sum[i] += recallAt(evidence, retrieved, k)
	}
}

// addRecall adds a question whose recall at each k is already known.
func (r *recallSum) addRecall(at [4]float64) {
	r.N++
	for i := range r.Sum {
		r.Sum[i] += at[i]
	}
}

// percent returns the mean recall at each k, in percent.
func (r recallSum) percent() [4]float64 {
	var out [4]float64
	if r.N == 0 {
		return out
	}
	for i := range out {
		out[i] = 100 * r.Sum[i] / float64(r.N)
	}
	return out
}

// locSum accumulates file-localization scores: accuracy at 1, 3 and 5
// (the gold file among the first k) and the reciprocal rank.
type locSum struct {
	N                int
	Top1, Top3, Top5 int
	RR               float64
}

// add records a query whose gold file came at rank (1-based; 0 = not
// retrieved).
func (l *locSum) add(rank int) {
	l.N++
	if rank <= 0 {
		return
	}
	if rank <= 1 {
		l.Top1++
	}
	if rank <= 3 {
		l.Top3++
	}
	if rank <= 5 {
		l.Top5++
	}
	l.RR += 1 / float64(rank)
}

// locScores are locSum's means, in percent (MRR as a fraction).
type locScores struct {
	Acc1 float64 `json:"acc1"`
	Acc3 float64 `json:"acc3"`
	Acc5 float64 `json:"acc5"`
	MRR  float64 `json:"mrr"`
	N    int     `json:"n"`
}

func (l locSum) scores() locScores {
	if l.N == 0 {
		return locScores{}
	}
	n := float64(l.N)
	return locScores{Acc1: 100 * float64(l.Top1) / n, Acc3: 100 * float64(l.Top3) / n, Acc5: 100 * float64(l.Top5) / n, MRR: l.RR / n, N: l.N}
}

// latencies collects query durations.
type latencies []time.Duration

// percentile returns the p-th percentile (0 < p ≤ 100) by the
// nearest-rank method, 0 for no samples.
func (l latencies) percentile(p float64) time.Duration {
	if len(l) == 0 {
		return 0
	}
	s := slices.Clone(l)
	slices.Sort(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

// ms renders a duration in milliseconds.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
