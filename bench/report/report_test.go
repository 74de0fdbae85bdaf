package main

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/bench/internal/perf"
)

func TestSlope(t *testing.T) {
	xs := []float64{1000, 10000, 100000}
	for _, tc := range []struct {
		name string
		f    func(float64) float64
		want float64
	}{
		{"linear", func(x float64) float64 { return 3 * x }, 1},
		{"square root", math.Sqrt, 0.5},
		{"quadratic", func(x float64) float64 { return x * x / 7 }, 2},
	} {
		var ys []float64
		for _, x := range xs {
			ys = append(ys, tc.f(x))
		}
		if got := slope(xs, ys); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: slope %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := slope([]float64{5, 5}, []float64{1, 2}); !math.IsNaN(got) {
		t.Errorf("one corpus size twice: slope %v, want NaN", got)
	}
}

func TestStatIsMedianAndSpread(t *testing.T) {
	s := statOf([]perf.Run{{Took: 3 * time.Second, PeakKB: 10}, {Took: time.Second, PeakKB: 30}, {Took: 2 * time.Second, PeakKB: 20}})
	if s.med != 2*time.Second || s.lo != time.Second || s.hi != 3*time.Second || s.peakKB != 30 {
		t.Errorf("%+v", s)
	}
	if got := s.String(); got != "2.000 s (1.000–3.000)" {
		t.Errorf("%q", got)
	}
}

// A missed target says by how much; a met one says met.
func TestTargetsSayByHowMuch(t *testing.T) {
	r := &report{o: options{notes: 2000}}
	r.rg = stat{med: 100 * time.Millisecond}
	r.cold = stat{med: 1500 * time.Millisecond, peakKB: 600 * 1024}
	r.walk = stat{med: 100 * time.Millisecond}
	r.nochange = stat{med: 200 * time.Millisecond}
	r.ctxNotes = []time.Duration{40 * time.Millisecond}
	r.hooks = []perf.Row{{Name: "floor: rubi-hook version", P50: 30 * time.Millisecond}, {Name: "UserPromptSubmit, a prompt that matches notes", P50: 62 * time.Millisecond},
		{Name: "PostToolUse (meter on a 10 MB transcript)", P50: 40 * time.Millisecond},
		{Name: "UserPromptSubmit after a note changed (its index refreshed first)", P50: 90 * time.Millisecond}, {Name: "floor, in the same turns as the row above", P50: 20 * time.Millisecond},
		{Name: "SessionStart (startup, index refresh left running)", P50: 150 * time.Millisecond}}
	r.series = []point{{files: 10000, took: time.Second, peakKB: 100}, {files: 100000, took: 10 * time.Second, peakKB: 1000}}
	r.ctags = stat{med: 500 * time.Millisecond}
	r.refresh = [3][]time.Duration{{4 * time.Millisecond}, {40 * time.Millisecond}, {10 * time.Millisecond}}
	out := r.markdown("")
	for _, want := range []string{
		"| cold index wall ≤ 2× universal-ctags | 3.0× | **missed**: 50% over |",
		"| no-change `rubi index` p50 ≤ 3× `rubi-hook version` (in turns) | 10.0× | **missed**: 233% over |",
		"| default `rubi context` p50 ≤ 3× `rubi-hook version` (in turns) | 2.5× | met |",
		"| memory grows with files at slope ≤ 0.5 on log axes | slope 1.00 | **missed**: slope 1.00 |",
		"| `rubi index`, nothing changed | 40.0 | 40.0 | 10.0× |",
		"| rubi index, cold | 1.500 s (0.000–0.000) | 600 MiB | 3.0× ctags |",
		"| cold index ≤ 10× the rg floor | 15.0× | **missed**: 50% over |",
		"| no-change re-index ≤ 3× the stat-only walk | 2.0× | met |",
		"| time grows linearly or better with files (slope ≤ 1.1) | slope 1.00 | met |",
		"| fresh-process `rubi context` p50 < 50 ms (with 2000 notes) | 40.0 ms | met |",
		"| recall hook (UserPromptSubmit, matching notes) p50 < 50 ms | 62.0 ms | **missed**: 12.0 ms over |",
		"| meter hook (PostToolUse) p50 < 50 ms | 40.0 ms | met |",
		"| recall after a changed note p50 ≤ 3× `rubi-hook version` (same turns) | 4.5× (90.0 ms) | **missed**: 50% over |",
		"| SessionStart hook returns in < 200 ms | 150.0 ms | met |",
		"| peak RSS of a cold index ≤ 250 MB | 629 MB | **missed**: 379 MB over |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}

// Without GNU time, memory is not measured, and the report says so
// rather than claim a target met at 0 MB.
func TestMemoryNotMeasuredSaysSo(t *testing.T) {
	r := &report{o: options{notes: 10}, rgMissing: true}
	r.walk, r.nochange = stat{med: time.Second}, stat{med: time.Second}
	r.series = []point{{files: 100, took: time.Second}, {files: 1000, took: 10 * time.Second}}
	out := r.markdown("")
	if !strings.Contains(out, "| peak RSS of a cold index ≤ 250 MB | — | **missed**: not measured: GNU time is missing (Debian: time) |") || strings.Contains(out, "memory grows") {
		t.Errorf("%s", out)
	}
}

// A floor whose program is missing is said so, never taken as met; the
// scale series' bounds are checked at the sizes they name.
func TestMissingCtagsAndTheScaleBounds(t *testing.T) {
	r := &report{o: options{notes: 10}, rgMissing: true, ctagsMissing: true}
	r.walk, r.nochange = stat{med: time.Second}, stat{med: time.Second}
	r.cold = stat{med: time.Second, peakKB: 200 * 1000}
	r.series = []point{{files: 10000, took: time.Second, peakKB: 150 * 1000}, {files: 47754, took: 5 * time.Second, peakKB: 904 * 1024},
		{files: 198975, took: 30 * time.Second, peakKB: 1400 * 1000}}
	out := r.markdown("")
	for _, want := range []string{
		"| cold index wall ≤ 2× universal-ctags | — | **missed**: not measured: universal-ctags is missing (Debian: universal-ctags) |",
		"| floor: universal-ctags (not installed: `apt-get install universal-ctags`) | | | |",
		"| about 48,000 files: peak RSS ≤ 700 MB (47754 files) | 948 MB | **missed**: 248 MB over |",
		"| about 200,000 files: peak RSS ≤ 1.5 GB (198975 files) | 1434 MB | met |",
		"| peak RSS of a cold index ≤ 250 MB | 205 MB | met |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "(10000 files)") || strings.Contains(out, "in turns") {
		t.Errorf("a bound at a size the series does not have, or turns never measured:\n%s", out)
	}
}
