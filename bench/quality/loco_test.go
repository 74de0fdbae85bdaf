package main

import (
	"math"
	"strings"
	"testing"
)

// TestCrossValidateChoosesOnTheOthers checks that each held-out
// conversation is scored with the setting the other conversations
// choose, never the one that suits it best, and that the mean and
// spread are over the folds.
func TestCrossValidateChoosesOnTheOthers(t *testing.T) {
	at := func(r float64) []locoAnswer { return []locoAnswer{{Category: 1, Recall: [4]float64{r, r, r, r}}} }
	run := func(a, b float64) []map[string][]locoAnswer {
		var out []map[string][]locoAnswer
		for _, r := range []float64{a, b} {
			m := map[string][]locoAnswer{}
			for _, sys := range locoSystems {
				m[sys] = at(r)
			}
			out = append(out, m)
		}
		return out
	}
	l := &locoRuns{}
	// Setting B is better on conv-a and conv-b, A on conv-c; held out,
	// conv-c is scored with B, chosen on the other two.
	l.add("conv-a", run(0.4, 0.6))
	l.add("conv-b", run(0.5, 0.7))
	l.add("conv-c", run(0.9, 0.1))
	grid := []locoSetting{{Name: "A"}, {Name: "B"}}
	rep := l.crossValidate(grid)
	var chosen []string
	for _, f := range rep.Folds {
		chosen = append(chosen, f.HeldOut+"="+f.Chosen)
	}
	// Held out conv-a: on b and c, A scores (0.5+0.9)/2 = 0.7, B 0.4: A.
	if got, want := strings.Join(chosen, " "), "conv-a=A conv-b=A conv-c=B"; got != want {
		t.Errorf("chosen %s, want %s", got, want)
	}
	m := rep.Mean[locoNotesCLI]
	if want := (40.0 + 50 + 10) / 3; math.Abs(m.Mean[0]-want) > 1e-9 || m.Min[0] != 10 || m.Max[0] != 50 {
		t.Errorf("mean %.2f (%.1f–%.1f), want %.2f (10.0–50.0)", m.Mean[0], m.Min[0], m.Max[0], want)
	}
	if (&locoRuns{convs: []string{"one"}}).crossValidate(grid) != nil {
		t.Error("one conversation cannot be cross-validated, yet a report was made")
	}
}

// TestCrossValidateAblation checks that a stage's ablation is the same
// cross-validation over the settings that switch it off alone: with the
// stage on everywhere better, the folds without it choose among the
// settings without it, and the report says by how much the stage helps.
func TestCrossValidateAblation(t *testing.T) {
	at := func(r float64) map[string][]locoAnswer {
		m := map[string][]locoAnswer{}
		for _, sys := range locoSystems {
			m[sys] = []locoAnswer{{Category: 4, Recall: [4]float64{r, r, r, r}}}
		}
		return m
	}
	l := &locoRuns{}
	for _, c := range []string{"conv-a", "conv-b"} {
		l.add(c, []map[string][]locoAnswer{at(0.5), at(0.6), at(0.8)})
	}
	stage := locoStages[0]
	grid := []locoSetting{{Name: "off, low", Off: []string{stage}}, {Name: "off, high", Off: []string{stage}}, {Name: "on"}}
	rep := l.crossValidateAll(grid)
	w := rep.Without[stage]
	if w == nil {
		t.Fatalf("no ablation of %s", stage)
	}
	for _, f := range w.Folds {
		if f.Chosen != "off, high" {
			t.Errorf("without %s, %s chose %q, want the best setting without it", stage, f.HeldOut, f.Chosen)
		}
	}
	if got := rep.Mean[locoNotesCLI].Mean[0] - w.Mean[locoNotesCLI].Mean[0]; math.Abs(got-20) > 1e-9 {
		t.Errorf("full minus without %s = %.2f points, want 20", stage, got)
	}
	var md strings.Builder
	rep.markdown(&md)
	if !strings.Contains(md.String(), "Ablation of "+stage) || !strings.Contains(md.String(), "+20.0 / +20.0 / +20.0 / +20.0") {
		t.Errorf("the report does not give the ablation:\n%s", md.String())
	}
}
