package main

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
)

// Leave-one-conversation-out: every setting the memory's figures depend
// on is chosen the way it will be judged, on conversations it was not
// chosen on. Each conversation of the dev set is held out in turn; the
// setting of the grid that does best on the others (locoObjective) is
// the one its questions are scored with. The report gives each fold and
// the mean and spread over the folds, overall and per category, for
// chunks and notes, through the CLI (the user's path) and the batch
// harness beside it.

// locoSetting is one setting of the grid: a rubi.hcl layer over the
// configuration measured ("" for the configuration as it is). Off names
// the stages the setting switches off: the ablation of a stage is the
// cross-validation over the settings that switch it off.
type locoSetting struct {
	Name   string   `json:"name"`
	Config string   `json:"config,omitempty"`
	Off    []string `json:"off,omitempty"`
}

// locoGrid are the settings chosen among, each a rubi.hcl layer over the
// configuration measured; on a tie the first wins. rerank.floor's floor
// for notes of type note, the type a conversation's turn is saved as (the
// other types keep the floor the recall hook's dev set chose), is 0.30,
// the floor of every other note, or none, with rank.neighbours off; with
// it on, none (every fold chose none before it existed) and rank.neighbours
// at the weights below: its weight in the fusion, previous, next and
// sitting (see its package). The region of the grid was found on the dev
// conversations; each fold chooses within it on the other four. Every
// setting is written out, so the choice does not depend on the built-in
// values.
var locoGrid = func() []locoSetting {
	var g []locoSetting
	floor := func(f float64) string {
		return fmt.Sprintf("reranker \"rerank.floor\" {\n  type_floors = { note = %g }\n}\n", f)
	}
	for _, f := range []float64{0.30, 0} {
		g = append(g, locoSetting{Name: fmt.Sprintf("note floor %.2f, rank.neighbours off", f), Off: []string{locoNeighbours, locoSitting},
			Config: floor(f) + "ranker \"rank.neighbours\" {\n  enabled = false\n}\n"})
	}
	for _, n := range []struct{ weight, previous, next, sitting float64 }{
		{1, 1, 0.5, 0}, {2.5, 2, 1, 0}, {1.5, 2, 0.5, 1}, {2, 2, 0.5, 2}, {2.5, 2, 1, 3}, {2.5, 2, 1, 4}, {3, 2, 1, 3},
	} {
		set := locoSetting{Name: fmt.Sprintf("note floor 0.00, rank.neighbours weight %g previous %g next %g sitting %g", n.weight, n.previous, n.next, n.sitting),
			Config: floor(0) + fmt.Sprintf("ranker \"rank.neighbours\" {\n  enabled = true\n  weight = %g\n  previous = %g\n  next = %g\n  sitting = %g\n  own = 1\n  candidates = 50\n  kinds = [\"node\"]\n  questions = \"notes\"\n}\n", n.weight, n.previous, n.next, n.sitting)}
		if n.sitting == 0 {
			set.Off = []string{locoSitting}
		}
		g = append(g, set)
	}
	return g
}()

// The stages, and parts of stages, whose ablation the report gives.
const (
	locoNeighbours = "rank.neighbours"
	locoSitting    = "rank.neighbours' sitting term"
)

// locoStages are those whose ablation the report gives: each is switched
// off by some settings of the grid (locoSetting.Off).
var locoStages = []string{locoNeighbours, locoSitting}

// The systems of the cross-validation: each kind of memory through each
// path.
const (
	locoChunksCLI   = "chunks, CLI"
	locoNotesCLI    = "notes, CLI"
	locoChunksBatch = "chunks, batch harness"
	locoNotesBatch  = "notes, batch harness"
)

// locoSystems in the order the report shows them.
var locoSystems = []string{locoChunksCLI, locoNotesCLI, locoChunksBatch, locoNotesBatch}

// locoChosenBy are the systems whose figures choose the setting: the
// user's path, both kinds alike.
var locoChosenBy = []string{locoChunksCLI, locoNotesCLI}

// locoObjective is what a setting is chosen for: the mean of recall at 5
// and at 10 (the targets), over the questions of the training
// conversations pooled, averaged over locoChosenBy.
const locoObjective = "mean of recall@5 and recall@10 over the training conversations' questions pooled, averaged over chunks and notes through the CLI"

// locoAnswer is one question's recall at each k of recallKs (as a
// share, not a percent) and its category.
type locoAnswer struct {
	Category int
	Recall   [4]float64
}

// locoRuns are the answers of every conversation under every setting:
// runs[conversation][setting][system], the questions in order.
type locoRuns struct {
	convs []string
	runs  [][]map[string][]locoAnswer
}

// add records a conversation's answers under the grid's settings.
func (l *locoRuns) add(conv string, bySetting []map[string][]locoAnswer) {
	l.convs = append(l.convs, conv)
	l.runs = append(l.runs, bySetting)
}

// locoReport is the cross-validation's outcome.
type locoReport struct {
	Grid      []locoSetting `json:"grid"`
	Objective string        `json:"objective"`
	Folds     []locoFold    `json:"folds"`
	// AllChoose is the setting every conversation together chooses: the
	// one to build in.
	AllChoose string `json:"all_choose"`
	// Mean, by system, is the mean and spread over the folds of each
	// fold's held-out recall (percent at 5, 10, 25, 50).
	Mean map[string]locoStat `json:"mean"`
	// ByCategory is the same per question category, by system.
	ByCategory map[string]map[string]locoStat `json:"by_category"`
	// CLIBatchGap is, per k, the largest difference over the folds
	// between a kind's CLI and batch figures, in points.
	CLIBatchGap [4]float64 `json:"cli_batch_gap"`
	// Without is, by stage of locoStages, the same cross-validation over
	// the settings of the grid that switch the stage off: the ablation.
	Without map[string]*locoReport `json:"without,omitempty"`
}

// locoFold is one held-out conversation.
type locoFold struct {
	HeldOut   string `json:"held_out"`
	Chosen    string `json:"chosen"`
	Questions int    `json:"questions"`
	// Objective is the chosen setting's objective on the training
	// conversations.
	Objective  float64                          `json:"training_objective"`
	Recall     map[string][4]float64            `json:"recall"`
	ByCategory map[string]map[string][4]float64 `json:"by_category"`
}

// locoStat is a figure's mean and spread over the folds, per k.
type locoStat struct {
	Mean [4]float64 `json:"mean"`
	SD   [4]float64 `json:"sd"`
	Min  [4]float64 `json:"min"`
	Max  [4]float64 `json:"max"`
}

// crossValidate runs the leave-one-conversation-out over the grid; nil
// with fewer than two conversations.
func (l *locoRuns) crossValidate(grid []locoSetting) *locoReport {
	if len(l.convs) < 2 {
		return nil
	}
	rep := &locoReport{Grid: grid, Objective: locoObjective, Mean: map[string]locoStat{}, ByCategory: map[string]map[string]locoStat{}}
	perSystem := map[string][][4]float64{}
	perCat := map[string]map[string][][4]float64{}
	choose := func(train func(c int) bool) (int, float64) {
		best, bestObj := 0, math.Inf(-1)
		for s := range grid {
			if obj := l.objective(s, train); obj > bestObj {
				best, bestObj = s, obj
			}
		}
		return best, bestObj
	}
	all, _ := choose(func(int) bool { return true })
	rep.AllChoose = grid[all].Name
	for held := range l.convs {
		best, bestObj := choose(func(c int) bool { return c != held })
		f := locoFold{HeldOut: l.convs[held], Chosen: grid[best].Name, Objective: 100 * bestObj,
			Recall: map[string][4]float64{}, ByCategory: map[string]map[string][4]float64{}}
		for _, sys := range locoSystems {
			answers := l.runs[held][best][sys]
			f.Questions = len(answers)
			var all recallSum
			cats := map[int]*recallSum{}
			for _, a := range answers {
				all.addRecall(a.Recall)
				if cats[a.Category] == nil {
					cats[a.Category] = &recallSum{}
				}
				cats[a.Category].addRecall(a.Recall)
			}
			f.Recall[sys] = all.percent()
			perSystem[sys] = append(perSystem[sys], all.percent())
			f.ByCategory[sys] = map[string][4]float64{}
			if perCat[sys] == nil {
				perCat[sys] = map[string][][4]float64{}
			}
			for c, r := range cats {
				f.ByCategory[sys][categoryLabel(c)] = r.percent()
				perCat[sys][categoryLabel(c)] = append(perCat[sys][categoryLabel(c)], r.percent())
			}
		}
		for i := range rep.CLIBatchGap {
			for _, pair := range [][2]string{{locoChunksCLI, locoChunksBatch}, {locoNotesCLI, locoNotesBatch}} {
				rep.CLIBatchGap[i] = max(rep.CLIBatchGap[i], math.Abs(f.Recall[pair[0]][i]-f.Recall[pair[1]][i]))
			}
		}
		rep.Folds = append(rep.Folds, f)
	}
	for sys, figs := range perSystem {
		rep.Mean[sys] = spread(figs)
	}
	for sys, cats := range perCat {
		rep.ByCategory[sys] = map[string]locoStat{}
		for c, figs := range cats {
			rep.ByCategory[sys][c] = spread(figs)
		}
	}
	return rep
}

// crossValidateAll is crossValidate over the grid, with the ablation of
// each stage of locoStages that some settings of the grid switch off and
// others do not.
func (l *locoRuns) crossValidateAll(grid []locoSetting) *locoReport {
	rep := l.crossValidate(grid)
	if rep == nil {
		return nil
	}
	for _, stage := range locoStages {
		var keep []int
		for i, s := range grid {
			if slices.Contains(s.Off, stage) {
				keep = append(keep, i)
			}
		}
		if len(keep) == 0 || len(keep) == len(grid) {
			continue
		}
		sub := &locoRuns{convs: l.convs}
		var subGrid []locoSetting
		for _, i := range keep {
			subGrid = append(subGrid, grid[i])
		}
		for _, bySetting := range l.runs {
			var runs []map[string][]locoAnswer
			for _, i := range keep {
				runs = append(runs, bySetting[i])
			}
			sub.runs = append(sub.runs, runs)
		}
		if rep.Without == nil {
			rep.Without = map[string]*locoReport{}
		}
		rep.Without[stage] = sub.crossValidate(subGrid)
	}
	return rep
}

// objective is setting s's locoObjective over the conversations train
// keeps.
func (l *locoRuns) objective(s int, train func(conv int) bool) float64 {
	total := 0.0
	for _, sys := range locoChosenBy {
		var sum recallSum
		for c := range l.convs {
			if !train(c) {
				continue
			}
			for _, a := range l.runs[c][s][sys] {
				sum.addRecall(a.Recall)
			}
		}
		if sum.N > 0 {
			total += (sum.Sum[0] + sum.Sum[1]) / 2 / float64(sum.N)
		}
	}
	return total / float64(len(locoChosenBy))
}

// spread is the mean, standard deviation (of the folds as a population)
// and range of figures, per k. A category a fold lacks is not counted
// for that fold.
func spread(figs [][4]float64) locoStat {
	var s locoStat
	if len(figs) == 0 {
		return s
	}
	n := float64(len(figs))
	for i := range s.Mean {
		s.Min[i], s.Max[i] = math.Inf(1), math.Inf(-1)
		for _, f := range figs {
			s.Mean[i] += f[i] / n
			s.Min[i], s.Max[i] = min(s.Min[i], f[i]), max(s.Max[i], f[i])
		}
		for _, f := range figs {
			s.SD[i] += (f[i] - s.Mean[i]) * (f[i] - s.Mean[i]) / n
		}
		s.SD[i] = math.Sqrt(s.SD[i])
	}
	return s
}

// markdown writes the cross-validation's section of the report.
func (r *locoReport) markdown(w io.Writer) {
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	p("\n### Leave one conversation out\n\n")
	names := make([]string, len(r.Grid))
	for i, s := range r.Grid {
		names[i] = s.Name
	}
	p("Each conversation held out in turn; on the other %d, the setting of the grid with the best %s is chosen and the held-out conversation is scored with it. Grid: %s (each a rubi.hcl layer; on a tie the first listed).\n\n", len(r.Folds)-1, locoObjective, strings.Join(names, "; "))
	p("| held out | questions | chosen | training objective |")
	for _, sys := range locoSystems {
		p(" %s @5 / @10 / @25 / @50 |", sys)
	}
	p("\n|---|---:|---|---:|%s\n", strings.Repeat("---|", len(locoSystems)))
	for _, f := range r.Folds {
		p("| %s | %d | %s | %.2f |", f.HeldOut, f.Questions, f.Chosen, f.Objective)
		for _, sys := range locoSystems {
			v := f.Recall[sys]
			p(" %.1f / %.1f / %.1f / %.1f |", v[0], v[1], v[2], v[3])
		}
		p("\n")
	}
	p("\nAll %d conversations together choose %s.\n", len(r.Folds), r.AllChoose)
	p("\nMean over the folds ± sd (min–max), recall %% at k:\n\n| system | @5 | @10 | @25 | @50 |\n|---|---:|---:|---:|---:|\n")
	for _, sys := range locoSystems {
		s := r.Mean[sys]
		p("| %s |", sys)
		for i := range s.Mean {
			p(" %.1f ± %.1f (%.1f–%.1f) |", s.Mean[i], s.SD[i], s.Min[i], s.Max[i])
		}
		p("\n")
	}
	for _, stage := range locoStages {
		w := r.Without[stage]
		if w == nil {
			continue
		}
		p("\nAblation of %s: the same cross-validation over the settings of the grid that switch it off; full minus without, in points, mean over the folds (recall at 5 / 10 / 25 / 50), overall and at 5 / 10 per category:\n\n| system | without: @5 / @10 / @25 / @50 | full minus without |", stage)
		cats := slices.Sorted(maps.Keys(r.ByCategory[locoNotesCLI]))
		for _, c := range cats {
			p(" %s |", c)
		}
		p("\n|---|---|---|%s\n", strings.Repeat("---|", len(cats)))
		for _, sys := range locoSystems {
			full, off := r.Mean[sys], w.Mean[sys]
			p("| %s | %.1f / %.1f / %.1f / %.1f | %+.1f / %+.1f / %+.1f / %+.1f |", sys, off.Mean[0], off.Mean[1], off.Mean[2], off.Mean[3],
				full.Mean[0]-off.Mean[0], full.Mean[1]-off.Mean[1], full.Mean[2]-off.Mean[2], full.Mean[3]-off.Mean[3])
			for _, c := range cats {
				f, o := r.ByCategory[sys][c], w.ByCategory[sys][c]
				p(" %+.1f / %+.1f |", f.Mean[0]-o.Mean[0], f.Mean[1]-o.Mean[1])
			}
			p("\n")
		}
		choices := make([]string, len(w.Folds))
		for i, f := range w.Folds {
			choices[i] = f.HeldOut + ": " + f.Chosen
		}
		p("\nWithout it the folds choose %s.\n", strings.Join(choices, "; "))
	}
	p("\nThe CLI and the batch harness differ by at most %.1f / %.1f / %.1f / %.1f points in any fold (either kind).\n", r.CLIBatchGap[0], r.CLIBatchGap[1], r.CLIBatchGap[2], r.CLIBatchGap[3])
	cats := map[string]bool{}
	for _, byCat := range r.ByCategory {
		for c := range byCat {
			cats[c] = true
		}
	}
	sorted := slices.Sorted(maps.Keys(cats))
	p("\nPer category, mean over the folds ± sd, recall %% at 5 / 10 (min–max at 10):\n\n| system |")
	for _, c := range sorted {
		p(" %s |", c)
	}
	p("\n|---|%s\n", strings.Repeat("---|", len(sorted)))
	for _, sys := range locoSystems {
		p("| %s |", sys)
		for _, c := range sorted {
			s, ok := r.ByCategory[sys][c]
			if !ok {
				p(" |")
				continue
			}
			p(" %.1f ± %.1f / %.1f ± %.1f (%.1f–%.1f) |", s.Mean[0], s.SD[0], s.Mean[1], s.SD[1], s.Min[1], s.Max[1])
		}
		p("\n")
	}
}
