package main

import (
	"math"
	"testing"
	"time"
)

func TestRecallAt(t *testing.T) {
	retrieved := []string{"D1:1", "D1:2", "D2:5", "D3:1", "D1:9", "D4:4"}
	tests := []struct {
		name     string
		evidence []string
		k        int
		want     float64
	}{
		{"one of one in top k", []string{"D2:5"}, 5, 1},
		{"beyond k", []string{"D4:4"}, 5, 0},
		{"half", []string{"D1:2", "D4:4"}, 5, 0.5},
		{"k past the list", []string{"D1:2", "D4:4"}, 50, 1},
		{"none retrieved", []string{"D9:9"}, 50, 0},
		{"no evidence", nil, 5, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := recallAt(tt.evidence, retrieved, tt.k); got != tt.want {
				t.Errorf("recallAt(%v, k=%d) = %v, want %v", tt.evidence, tt.k, got, tt.want)
			}
		})
	}
	if got := recallAt([]string{"D1:1"}, nil, 5); got != 0 {
		t.Errorf("recall of an empty result = %v, want 0", got)
	}
}

func TestRecallSum(t *testing.T) {
	var r recallSum
	r.add([]string{"a"}, []string{"a"})                                    // found at 1
	r.add([]string{"b", "c"}, []string{"x", "x", "x", "x", "x", "b", "x"}) // half, at 6
	r.add([]string{"z"}, []string{"x"})                                    // missed
	got := r.percent()
	want := [4]float64{100.0 / 3, 150.0 / 3, 150.0 / 3, 150.0 / 3}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-9 {
			t.Errorf("recall@%d = %v, want %v", recallKs[i], got[i], want[i])
		}
	}
	if (recallSum{}).percent() != [4]float64{} {
		t.Error("an empty sum is not zero")
	}
}

func TestLocSum(t *testing.T) {
	var l locSum
	for _, rank := range []int{1, 2, 4, 0, 10} {
		l.add(rank)
	}
	s := l.scores()
	want := locScores{Acc1: 20, Acc3: 40, Acc5: 60, MRR: (1 + 0.5 + 0.25 + 0.1) / 5, N: 5}
	if math.Abs(s.MRR-want.MRR) > 1e-12 {
		t.Errorf("MRR = %v, want %v", s.MRR, want.MRR)
	}
	s.MRR = want.MRR
	if s != want {
		t.Errorf("scores = %+v, want %+v", s, want)
	}
	if got := mergeLoc(l, l).scores(); got.N != 10 || got.Acc5 != 60 {
		t.Errorf("merged = %+v", got)
	}
}

func TestRankOf(t *testing.T) {
	ranked := []string{"a.go", "b.go", "c.go"}
	for gold, want := range map[string]int{"a.go": 1, "c.go": 3, "d.go": 0} {
		if got := rankOf(ranked, gold); got != want {
			t.Errorf("rankOf(%q) = %d, want %d", gold, got, want)
		}
	}
}

func TestPercentile(t *testing.T) {
	var l latencies
	for i := 10; i >= 1; i-- {
		l = append(l, time.Duration(i)*time.Millisecond)
	}
	for p, want := range map[float64]time.Duration{50: 5 * time.Millisecond, 95: 10 * time.Millisecond, 10: time.Millisecond, 100: 10 * time.Millisecond} {
		if got := l.percentile(p); got != want {
			t.Errorf("p%v = %v, want %v", p, got, want)
		}
	}
	if l[0] != 10*time.Millisecond {
		t.Error("percentile sorted its input in place")
	}
	if (latencies{}).percentile(50) != 0 {
		t.Error("no samples should give 0")
	}
}

// A run of some parts is named for them and does not replace the day's
// whole report.
func TestReportName(t *testing.T) {
	for _, c := range []struct {
		o    options
		want string
	}{
		{options{memory: true, code: true, swebench: true, self: true}, "quality-2026-12-02.md"},
		{options{self: true}, "quality-2026-12-02-self.md"},
		{options{memory: true, code: true, self: true, quick: true}, "quality-2026-12-02-memory-code-self-quick.md"},
		{options{memory: true, code: true, swebench: true, self: true, quick: true}, "quality-2026-12-02-quick.md"},
	} {
		if got := reportName("2026-12-02", c.o); got != c.want {
			t.Errorf("%+v: %s, want %s", c.o, got, c.want)
		}
	}
}
