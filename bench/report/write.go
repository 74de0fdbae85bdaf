package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/rubi-dev/rubi/bench/internal/perf"
)

// target is one goal of the report: met or missed, and by how much.
type target struct {
	what     string
	measured string
	ok       bool
	miss     string
}

func (r *report) targets() []target {
	var ts []target
	ratio := func(a, b time.Duration) float64 { return float64(a) / float64(b) }
	times := func(what string, x, limit float64) target {
		return target{what, fmt.Sprintf("%.1f×", x), x <= limit, fmt.Sprintf("%.0f%% over", (x/limit-1)*100)}
	}
	if r.ctagsMissing {
		ts = append(ts, target{"cold index wall ≤ 2× universal-ctags", "—", false, "not measured: universal-ctags is missing (Debian: universal-ctags)"})
	} else {
		ts = append(ts, times("cold index wall ≤ 2× universal-ctags", ratio(r.cold.med, r.ctags.med), 2))
	}
	if floor := perf.Pct(r.refresh[0], 50); floor > 0 {
		ts = append(ts, times("no-change `rubi index` p50 ≤ 3× `rubi-hook version` (in turns)", ratio(perf.Pct(r.refresh[1], 50), floor), 3))
		ts = append(ts, times("default `rubi context` p50 ≤ 3× `rubi-hook version` (in turns)", ratio(perf.Pct(r.refresh[2], 50), floor), 3))
	}
	if !r.rgMissing {
		x := ratio(r.cold.med, r.rg.med)
		ts = append(ts, target{"cold index ≤ 10× the rg floor", fmt.Sprintf("%.1f×", x), x <= 10, fmt.Sprintf("%.0f%% over", (x/10-1)*100)})
	}
	x := ratio(r.nochange.med, r.walk.med)
	ts = append(ts, target{"no-change re-index ≤ 3× the stat-only walk", fmt.Sprintf("%.1f×", x), x <= 3, fmt.Sprintf("%.0f%% over", (x/3-1)*100)})
	measuredRSS := r.cold.peakKB > 0
	if len(r.series) >= 2 {
		st, sm := r.slopes()
		ts = append(ts, target{"time grows linearly or better with files (slope ≤ 1.1)", fmt.Sprintf("slope %.2f", st), st <= 1.1, fmt.Sprintf("slope %.2f", st)})
		if measuredRSS {
			ts = append(ts, target{"memory grows with files at slope ≤ 0.5 on log axes", fmt.Sprintf("slope %.2f", sm), sm <= 0.5, fmt.Sprintf("slope %.2f", sm)})
		}
	}
	under := func(what string, d time.Duration, limit time.Duration) target {
		return target{what, fmt.Sprintf("%.1f ms", perf.Ms(d)), d < limit, fmt.Sprintf("%.1f ms over", perf.Ms(d-limit))}
	}
	ts = append(ts, under(fmt.Sprintf("fresh-process `rubi context` p50 < 50 ms (with %d notes)", r.o.notes), perf.Pct(r.ctxNotes, 50), 50*time.Millisecond))
	for i, h := range r.hooks {
		switch {
		case strings.HasPrefix(h.Name, "UserPromptSubmit after a note changed") && i+1 < len(r.hooks) && strings.HasPrefix(r.hooks[i+1].Name, "floor, in the same turns"):
			x := ratio(h.P50, r.hooks[i+1].P50)
			ts = append(ts, target{"recall after a changed note p50 ≤ 3× `rubi-hook version` (same turns)", fmt.Sprintf("%.1f× (%.1f ms)", x, perf.Ms(h.P50)), x <= 3, fmt.Sprintf("%.0f%% over", (x/3-1)*100)})
		case strings.HasPrefix(h.Name, "UserPromptSubmit, a prompt that matches notes"):
			ts = append(ts, under("recall hook (UserPromptSubmit, matching notes) p50 < 50 ms", h.P50, 50*time.Millisecond))
		case strings.HasPrefix(h.Name, "PostToolUse"):
			ts = append(ts, under("meter hook (PostToolUse) p50 < 50 ms", h.P50, 50*time.Millisecond))
		case strings.HasPrefix(h.Name, "PreToolUse, Read of a 20,000-line"):
			ts = append(ts, under("read guard hook (PreToolUse, denying) p50 < 50 ms", h.P50, 50*time.Millisecond))
		case strings.HasPrefix(h.Name, "SessionStart"):
			ts = append(ts, under("SessionStart hook returns in < 200 ms", h.P50, 200*time.Millisecond))
		}
	}
	if !measuredRSS {
		return append(ts, target{"peak RSS of a cold index ≤ 250 MB", "—", false, "not measured: GNU time is missing (Debian: time)"})
	}
	peak := func(what string, kb int64, limitMB float64) target {
		mb := float64(kb) * 1024 / 1e6
		return target{what, fmt.Sprintf("%.0f MB", mb), mb <= limitMB, fmt.Sprintf("%.0f MB over", mb-limitMB)}
	}
	ts = append(ts, peak("peak RSS of a cold index ≤ 250 MB", r.cold.peakKB, 250))
	// The scale series' bounds, at the sizes they name (within 15%).
	for _, b := range []struct {
		files   int
		limitMB float64
		what    string
	}{{48000, 700, "about 48,000 files: peak RSS ≤ 700 MB"}, {200000, 1500, "about 200,000 files: peak RSS ≤ 1.5 GB"}} {
		for _, pt := range r.series {
			if d := pt.files - b.files; d*d <= (b.files*15/100)*(b.files*15/100) && pt.peakKB > 0 {
				ts = append(ts, peak(fmt.Sprintf("%s (%d files)", b.what, pt.files), pt.peakKB, b.limitMB))
			}
		}
	}
	return ts
}

func (r *report) slopes() (timeSlope, memSlope float64) {
	var xs, ts, ms []float64
	for _, p := range r.series {
		xs = append(xs, float64(p.files))
		ts = append(ts, p.took.Seconds())
		ms = append(ms, float64(p.peakKB))
	}
	return slope(xs, ts), slope(xs, ms)
}

// write saves the report and its plots; -short runs get a -short name.
func (r *report) write() (string, error) {
	if err := os.MkdirAll(r.o.out, 0o755); err != nil {
		return "", err
	}
	name := "perf-" + r.date
	if r.o.short {
		name += "-short"
	}
	plots := ""
	if len(r.series) >= 2 {
		svg := name + ".svg"
		if err := r.plot(filepath.Join(r.o.out, svg)); err != nil {
			return "", err
		}
		plots = svg
	}
	path := filepath.Join(r.o.out, name+".md")
	return path, os.WriteFile(path, []byte(r.markdown(plots)), 0o644)
}

func (r *report) markdown(svg string) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	mode := ""
	if r.o.short {
		mode = " (-short smoke run: a small corpus, figures not comparable)"
	}
	p("# rubi performance — %s%s\n\n", r.date, mode)
	p("Corpus `%s`: %d files, %.0f MB. %s; %d runs of each index measure (median and spread), %.0f s in all. Reproduce with `go run -C bench ./report`.\n\n",
		r.o.corpus, r.files, float64(r.bytes)/1e6, machine(), r.o.runs, r.took.Seconds())

	p("## Targets\n\n| target | measured | |\n|---|---:|---|\n")
	for _, t := range r.targets() {
		verdict := "met"
		if !t.ok {
			verdict = "**missed**: " + t.miss
		}
		p("| %s | %s | %s |\n", t.what, t.measured, verdict)
	}

	p("\n## Index, beside the floors of the same tree\n\n| measure | time | peak RSS | ratio |\n|---|---:|---:|---:|\n")
	if r.ctagsMissing {
		p("| floor: universal-ctags (not installed: `apt-get install universal-ctags`) | | | |\n")
	} else {
		p("| floor: universal-ctags tagging the tree (`ctags -R`, vendor left out) | %s | %d MiB | 1.0× ctags |\n", r.ctags, r.ctags.peakKB/1024)
	}
	if r.rgMissing {
		p("| floor: rg (not installed: `apt-get install ripgrep`) | | | |\n")
	} else {
		p("| floor: rg for import-like lines | %s | | 1.0× rg |\n", r.rg)
	}
	p("| floor: stat-only walk (find -printf %%s) | %s | | 1.0× walk |\n", r.walk)
	p("| floor: read every file once (a worker per core) | %s | | |\n", r.read)
	ratio := func(a, b time.Duration) float64 { return float64(a) / float64(b) }
	switch {
	case !r.ctagsMissing:
		p("| rubi index, cold | %s | %d MiB | %.1f× ctags |\n", r.cold, r.cold.peakKB/1024, ratio(r.cold.med, r.ctags.med))
	case !r.rgMissing:
		p("| rubi index, cold | %s | %d MiB | %.1f× rg |\n", r.cold, r.cold.peakKB/1024, ratio(r.cold.med, r.rg.med))
	default:
		p("| rubi index, cold | %s | %d MiB | %.1f× read |\n", r.cold, r.cold.peakKB/1024, ratio(r.cold.med, r.read.med))
	}
	p("| rubi index, no change | %s | %d MiB | %.1f× walk |\n", r.nochange, r.nochange.peakKB/1024, ratio(r.nochange.med, r.walk.med))
	p("| rubi index, one file changed | %s | %d MiB | %.1f× walk |\n", r.onechange, r.onechange.peakKB/1024, ratio(r.onechange.med, r.walk.med))
	p("\nIndex on disk (`.rubi/`): %.1f MB, %.2f× the corpus.\n", float64(r.indexBytes)/1e6, float64(r.indexBytes)/float64(r.bytes))

	if floor := perf.Pct(r.refresh[0], 50); floor > 0 {
		p("\n## The refresh, in turns with the floor (%d runs each)\n\n| measure | p50 ms | p95 ms | over the floor |\n|---|---:|---:|---:|\n", len(r.refresh[0]))
		for i, name := range []string{"floor: `rubi-hook version`", "`rubi index`, nothing changed", "`rubi context` with its refresh (the default)"} {
			p("| %s | %.1f | %.1f | %.1f× |\n", name, perf.Ms(perf.Pct(r.refresh[i], 50)), perf.Ms(perf.Pct(r.refresh[i], 95)), float64(perf.Pct(r.refresh[i], 50))/float64(floor))
		}
	}

	p("\n## Queries\n\n| measure | p50 ms | p95 ms |\n|---|---:|---:|\n")
	p("| `rubi context`, fresh process, no notes | %.1f | %.1f |\n", perf.Ms(perf.Pct(r.ctxFresh, 50)), perf.Ms(perf.Pct(r.ctxFresh, 95)))
	p("| `rubi context`, fresh process, %d notes | %.1f | %.1f |\n", r.o.notes, perf.Ms(perf.Pct(r.ctxNotes, 50)), perf.Ms(perf.Pct(r.ctxNotes, 95)))
	p("| in-process, warm (first query of a new engine: %.1f ms) | %.2f | %.2f |\n", perf.Ms(r.ctxFirst), perf.Ms(perf.Pct(r.ctxWarm, 50)), perf.Ms(perf.Pct(r.ctxWarm, 95)))
	if r.notes != nil && r.notes.Registered > 0 {
		p("\nRegistering %d notes in one batch took %.2f s: %.0f notes/s.\n", r.notes.Registered, r.notes.RegisterTook.Seconds(), float64(r.notes.Registered)/r.notes.RegisterTook.Seconds())
	}

	p("\n## Hooks, each a fresh `rubi-hook` process as agents run them (%d notes)\n\n| measure | p50 ms | p95 ms | over the floor |\n|---|---:|---:|---:|\n", r.o.notes)
	for _, h := range r.hooks {
		p("| %s | %.1f | %.1f | %.1f× |\n", h.Name, perf.Ms(h.P50), perf.Ms(h.P95), float64(h.P50)/float64(r.hooks[0].P50))
	}

	if len(r.series) > 0 {
		p("\n## Scale: the corpus replicated\n\n| files | cold index | peak RSS |\n|---:|---:|---:|\n")
		for _, pt := range r.series {
			p("| %d | %.2f s | %d MiB |\n", pt.files, pt.took.Seconds(), pt.peakKB/1024)
		}
		if len(r.series) >= 2 {
			st, sm := r.slopes()
			p("\nSlope on log axes (1 = linear): time %.2f, memory %.2f.\n", st, sm)
		}
		if svg != "" {
			p("\n![time and memory against files](%s)\n", svg)
		}
	}
	if len(r.others) > 0 {
		p("\n## Other corpora, in brief\n\n| corpus | files | MB | rg floor | cold index | no change | `context` p50 (fresh process) |\n|---|---:|---:|---:|---:|---:|---:|\n")
		for _, ot := range r.others {
			rg := "—"
			if !r.rgMissing {
				rg = fmt.Sprintf("%.3f s", ot.rg.med.Seconds())
			}
			p("| `%s` | %d | %.0f | %s | %.3f s (%.1f× rg, %d MB) | %.3f s | %.1f ms |\n", ot.corpus, ot.files, float64(ot.bytes)/1e6, rg,
				ot.cold.med.Seconds(), float64(ot.cold.med)/float64(max(ot.rg.med, 1)), ot.cold.peakKB/1024, ot.nochange.med.Seconds(), perf.Ms(ot.context))
		}
	}
	if q := r.quality; q != nil {
		p("\n## Retrieval quality ([full report](%s))\n\n", filepath.Base(q.path))
		p("| benchmark | rubi | textbook BM25 |\n|---|---:|---:|\n")
		p("| LoCoMo turn recall @5 / @10 | %.1f / %.1f | — / %.1f |\n", q.locomo5, q.locomo10, q.baseLocomo10)
		p("| code localization Acc@1 / @3 / @5 | %.1f / %.1f / %.1f | %.1f / — / — |\n", q.acc1, q.acc3, q.acc5, q.baseAcc1)
	}
	return b.String()
}

// plot draws time and peak memory against files on log axes.
func (r *report) plot(path string) error {
	pl := plot.New()
	pl.Title.Text = "rubi index, cold: time and peak memory against files"
	pl.X.Label.Text = "files"
	pl.Y.Label.Text = "relative to the smallest corpus"
	pl.X.Scale, pl.Y.Scale = plot.LogScale{}, plot.LogScale{}
	pl.X.Tick.Marker, pl.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	var tm, mem, lin plotter.XYs
	base := r.series[0]
	for _, pt := range r.series {
		x := float64(pt.files)
		tm = append(tm, plotter.XY{X: x, Y: pt.took.Seconds() / base.took.Seconds()})
		mem = append(mem, plotter.XY{X: x, Y: float64(pt.peakKB) / float64(base.peakKB)})
		lin = append(lin, plotter.XY{X: x, Y: x / float64(base.files)})
	}
	if err := plotutil.AddLinePoints(pl, "time", tm, "peak RSS", mem, "linear", lin); err != nil {
		return err
	}
	pl.Legend.Top, pl.Legend.Left = true, true
	return pl.Save(6*vg.Inch, 4*vg.Inch, path)
}
