// Command report is rubi's benchmark harness: one command that fetches a
// corpus through the Go module proxy, measures rubi on it beside the
// floors of the same machine in the same run, and writes a dated report
// with tables and plots.
//
//	go run -C bench ./report               # kubernetes v1.31.0, 5 runs, scale to 200k files, other corpora, quality (~25 min)
//	go run -C bench ./report -short        # smoke run on a small corpus (CI runs it; under a minute)
//	go run -C bench ./report -corpus MODULE@VERSION -runs 3 -scale 10000,50000 -quality=false
//
// Measures: cold index, no-change and one-change re-index with peak RSS,
// the index's size on disk; `rubi context` as a fresh process and
// in-process (p50, p95); the no-change `rubi index` and the default
// `rubi context` (its refresh included) in turns with `rubi-hook version`;
// note registration throughput; each hook as a fresh process; a scale
// series replicating the corpus, with the slope of time and memory
// against files; retrieval quality (bench/quality). Floors: universal-ctags
// tagging the tree (Debian: universal-ctags), rg scanning it for
// import-like lines (Debian: ripgrep), a stat-only walk (find -printf %s)
// and reading every file once (a worker per core); a floor whose program
// is missing is said so. The report states each target as a ratio and
// says by how much a missed one is missed.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/bench/internal/perf"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/pipeline"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
	"github.com/rubi-dev/rubi/plugins/standard"
)

type options struct {
	short   bool
	corpus  string
	runs    int
	scale   []int
	notes   int
	quality bool
	extra   []string
	out     string
	// root is the rubi checkout: what is built and measured, where the
	// report goes by default.
	root string
}

func main() {
	var o options
	var scale string
	flag.BoolVar(&o.short, "short", false, "smoke run: a small corpus, few runs, no quality (what CI runs)")
	flag.StringVar(&o.corpus, "corpus", "", "module@version from the Go module proxy (default k8s.io/kubernetes@v1.31.0; -short: github.com/hashicorp/hcl/v2@v2.25.0)")
	flag.IntVar(&o.runs, "runs", 0, "runs of each index measure (default 5; -short: 2)")
	flag.StringVar(&scale, "scale", "", "file counts of the scale series (default 10000,50000,100000; -short: 1000,2000)")
	flag.IntVar(&o.notes, "notes", 0, "synthetic notes registered for the latency measures (default 2000; -short: 100)")
	flag.BoolVar(&o.quality, "quality", true, "run the retrieval quality benchmark too (never with -short)")
	var extra string
	flag.StringVar(&extra, "extra", "github.com/aws/aws-sdk-go@v1.55.5,npm:rxjs@7.8.1,deb:python3-django", "other corpora, measured in brief: npm:NAME@VERSION, deb:NAME or MODULE@VERSION (never with -short)")
	flag.StringVar(&o.out, "out", "", "where the report goes (default the checkout's bench/results)")
	flag.Parse()
	root, err := perf.Checkout()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/report:", err)
		os.Exit(1)
	}
	o.root = root
	if o.out == "" {
		o.out = filepath.Join(root, "bench", "results")
	}
	if !o.short {
		for _, e := range strings.Split(extra, ",") {
			if e = strings.TrimSpace(e); e != "" {
				o.extra = append(o.extra, e)
			}
		}
	}
	o.defaults(scale)
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "bench/report:", err)
		os.Exit(1)
	}
}

func (o *options) defaults(scale string) {
	pick := func(full, short int) int {
		if o.short {
			return short
		}
		return full
	}
	if o.corpus == "" {
		o.corpus = "k8s.io/kubernetes@v1.31.0"
		if o.short {
			o.corpus = "github.com/hashicorp/hcl/v2@v2.25.0"
		}
	}
	if o.runs <= 0 {
		o.runs = pick(5, 2)
	}
	if o.notes <= 0 {
		o.notes = pick(2000, 100)
	}
	if scale == "" {
		scale = "10000,48000,200000"
		if o.short {
			scale = "1000,2000"
		}
	}
	for _, f := range strings.Split(scale, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil && n > 0 {
			o.scale = append(o.scale, n)
		}
	}
	o.quality = o.quality && !o.short
}

// stat is the median and spread of repeated runs.
type stat struct {
	med, lo, hi time.Duration
	peakKB      int64
}

func statOf(runs []perf.Run) stat {
	ds := make([]time.Duration, len(runs))
	var peak int64
	for i, r := range runs {
		ds[i] = r.Took
		peak = max(peak, r.PeakKB)
	}
	slices.Sort(ds)
	return stat{med: ds[len(ds)/2], lo: ds[0], hi: ds[len(ds)-1], peakKB: peak}
}

func (s stat) String() string {
	return fmt.Sprintf("%.3f s (%.3f–%.3f)", s.med.Seconds(), s.lo.Seconds(), s.hi.Seconds())
}

// report collects what the run measured.
type report struct {
	o              options
	date           string
	files          int
	bytes          int64
	rg, walk, read stat
	rgMissing      bool
	// ctags is universal-ctags tagging the tree; ctagsMissing says it is
	// not installed (or another ctags is, whose work is not comparable).
	ctags        stat
	ctagsMissing bool
	// refresh is `rubi-hook version`, the no-change `rubi index` and the
	// default `rubi context` (its refresh included), timed in turns.
	refresh        [3][]time.Duration
	cold, nochange stat
	onechange      stat
	indexBytes     int64
	ctxFresh       []time.Duration
	ctxFirst       time.Duration
	ctxWarm        []time.Duration
	notes          *perf.Prepared
	ctxNotes       []time.Duration
	hooks          []perf.Row
	series         []point
	others         []other
	quality        *quality
	took           time.Duration
}

// other is a corpus measured in brief.
type other struct {
	corpus         string
	files          int
	bytes          int64
	rg             stat
	cold, nochange stat
	context        time.Duration
}

type point struct {
	files  int
	took   time.Duration
	peakKB int64
}

func run(o options) error {
	start := time.Now()
	r := &report{o: o, date: time.Now().UTC().Format("2006-01-02")}
	work, err := os.MkdirTemp("", "rubi-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	step := func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "%6.1fs %s\n", time.Since(start).Seconds(), fmt.Sprintf(format, args...))
	}

	rubi, hook := filepath.Join(work, "rubi"), filepath.Join(work, "rubi-hook")
	// Built as the README installs them: static, without cgo.
	build := exec.Command("go", "build", "-o", work, "./cmd/rubi", "./cmd/rubi-hook")
	build.Dir = o.root
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	tree := filepath.Join(work, "tree")
	step("fetching %s", o.corpus)
	if err := perf.Fetch(o.corpus, tree); err != nil {
		return err
	}
	if err := os.Mkdir(filepath.Join(tree, ".git"), 0o755); err != nil { // a project, for the hooks
		return err
	}
	r.files, r.bytes = countFiles(tree)
	step("%d files, %.0f MB", r.files, float64(r.bytes)/1e6)

	if err := r.floors(tree); err != nil {
		return err
	}
	step("floors: ctags %v, rg %v, stat walk %v, read %v", r.ctags.med, r.rg.med, r.walk.med, r.read.med)
	if err := r.index(rubi, tree); err != nil {
		return err
	}
	step("index: cold %v, no change %v, one change %v", r.cold.med, r.nochange.med, r.onechange.med)
	if err := r.context(rubi, tree); err != nil {
		return err
	}
	step("context: fresh process p50 %v", perf.Pct(r.ctxFresh, 50))
	if r.refresh, err = refreshTurns(rubi, hook, tree, o.runs*6); err != nil {
		return err
	}
	step("in turns with the floor: no-change index p50 %v, default context p50 %v", perf.Pct(r.refresh[1], 50), perf.Pct(r.refresh[2], 50))
	if r.notes, err = perf.Prepare(context.Background(), tree, o.notes, 0); err != nil {
		return err
	}
	if r.ctxNotes, err = contextRuns(rubi, tree, o.runs*6); err != nil {
		return err
	}
	// Agents run rubi-hook (rubi install and rubi connect write it).
	if r.hooks, err = perf.HookRows(hook, r.notes, o.runs*6); err != nil {
		return err
	}
	step("notes and hooks measured")
	for _, n := range o.scale {
		p, err := scalePoint(rubi, tree, work, r.files, n)
		if err != nil {
			return err
		}
		r.series = append(r.series, p)
		step("scale: %d files indexed in %v, %d MB", p.files, p.took, p.peakKB/1024)
	}
	for _, c := range o.extra {
		step("fetching %s", c)
		ot, err := r.other(rubi, work, c)
		if err != nil {
			return err
		}
		r.others = append(r.others, ot)
		step("%s: %d files, cold %v", c, ot.files, ot.cold.med)
	}
	if o.quality {
		step("retrieval quality (bench/quality)")
		if r.quality, err = runQuality(o.root); err != nil {
			return err
		}
	}
	r.took = time.Since(start)
	path, err := r.write()
	if err != nil {
		return err
	}
	step("wrote %s", path)
	return nil
}

func countFiles(dir string) (n int, bytes int64) {
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			n++
			if fi, err := d.Info(); err == nil {
				bytes += fi.Size()
			}
		}
		return nil
	})
	return n, bytes
}

// repeat runs fn o.runs times after a warm-up and returns the stat.
func (r *report) repeat(before func() error, fn func() (perf.Run, error)) (stat, error) {
	var runs []perf.Run
	for i := range r.o.runs + 1 {
		if before != nil {
			if err := before(); err != nil {
				return stat{}, err
			}
		}
		run, err := fn()
		if err != nil {
			return stat{}, err
		}
		if i > 0 {
			runs = append(runs, run)
		}
	}
	return statOf(runs), nil
}

func (r *report) floors(tree string) error {
	perf.Settle()
	var err error
	if !universalCtags() {
		r.ctagsMissing = true
	} else if r.ctags, err = r.repeat(nil, func() (perf.Run, error) {
		// What rubi's index leaves out by default is left out here.
		return perf.ExecPeak(tree, nil, "ctags", "-R", "--exclude=.git", "--exclude=vendor", "--exclude=node_modules", "-f", "/dev/null", ".")
	}); err != nil {
		return err
	}
	if _, lerr := exec.LookPath("rg"); lerr != nil {
		r.rgMissing = true
	} else if r.rg, err = r.repeat(nil, func() (perf.Run, error) {
		run, err := perf.Exec(tree, nil, "rg", "-c", "--no-messages", `^import|^[[:space:]]*"|require\(|#include`, ".")
		if err != nil && strings.Contains(err.Error(), "exit status 1") {
			err = nil // rg exits 1 when nothing matches
		}
		return run, err
	}); err != nil {
		return err
	}
	if r.walk, err = r.repeat(nil, func() (perf.Run, error) {
		return perf.Exec(tree, nil, "find", ".", "-type", "f", "-printf", "%s\n")
	}); err != nil {
		return err
	}
	r.read, err = r.repeat(nil, func() (perf.Run, error) { return readAll(tree) })
	return err
}

// universalCtags says whether the ctags on PATH is universal-ctags: an
// older ctags (Exuberant, BSD) tags fewer languages and is no floor of
// the same work.
func universalCtags() bool {
	out, err := exec.Command("ctags", "--version").Output()
	return err == nil && strings.Contains(string(out), "Universal Ctags")
}

// refreshTurns times `rubi-hook version`, a no-change `rubi index` and
// the default `rubi context` (which refreshes the index first) in turns,
// n of each.
func refreshTurns(rubi, hook, tree string, n int) ([3][]time.Duration, error) {
	var failed error
	call := func(bin string, args ...string) func() {
		return func() {
			if _, err := perf.Exec(tree, nil, bin, args...); err != nil && failed == nil {
				failed = err
			}
		}
	}
	ds := perf.TimeTurns(n, []func(){call(hook, "version"), call(rubi, "index", "--root", tree), call(rubi, "context", queries[0], "--root", tree)}, nil)
	return [3][]time.Duration{ds[0], ds[1], ds[2]}, failed
}

// readAll reads every file of dir once, a worker per core, as rubi's
// index does: the read floor.
func readAll(dir string) (perf.Run, error) {
	var paths []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			paths = append(paths, p)
		}
		return nil
	})
	start := time.Now()
	next := make(chan string)
	errs := make(chan error, runtime.NumCPU())
	for range runtime.NumCPU() {
		go func() {
			var first error
			for p := range next {
				if _, err := os.ReadFile(p); err != nil && first == nil {
					first = err
				}
			}
			errs <- first
		}()
	}
	for _, p := range paths {
		next <- p
	}
	close(next)
	var err error
	for range runtime.NumCPU() {
		if e := <-errs; e != nil && err == nil {
			err = e
		}
	}
	return perf.Run{Took: time.Since(start)}, err
}

func (r *report) index(rubi, tree string) error {
	index := func() (perf.Run, error) { return perf.ExecPeak(tree, nil, rubi, "index", "--root", tree) }
	var err error
	if r.cold, err = r.repeat(func() error { return os.RemoveAll(filepath.Join(tree, ".rubi")) }, index); err != nil {
		return err
	}
	if r.nochange, err = r.repeat(nil, index); err != nil {
		return err
	}
	target := ""
	filepath.WalkDir(tree, func(p string, d os.DirEntry, err error) error {
		if err == nil && target == "" && strings.HasSuffix(p, ".go") && !strings.Contains(p, "/vendor/") && !strings.Contains(p, "/testdata/") {
			target = p
		}
		return nil
	})
	if target == "" {
		return fmt.Errorf("%s has no Go file to change", tree)
	}
	if r.onechange, err = r.repeat(func() error {
		f, err := os.OpenFile(target, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		_, err = f.WriteString("\n// bench\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}, index); err != nil {
		return err
	}
	r.indexBytes = perf.DirSize(filepath.Join(tree, ".rubi"))
	return nil
}

var queries = []string{"graceful shutdown of the server", "retry with backoff", "parse the configuration file", "LoadPlugin"}

// contextRuns runs `rubi context` as fresh processes, n in all, over the
// queries.
func contextRuns(rubi, tree string, n int) ([]time.Duration, error) {
	var failed error
	fns := make([]func(), len(queries))
	for i, q := range queries {
		fns[i] = func() {
			if _, err := perf.Exec(tree, nil, rubi, "context", q, "--root", tree, "--no-refresh"); err != nil && failed == nil {
				failed = err
			}
		}
	}
	var all []time.Duration
	for _, ds := range perf.TimeTurns(max(1, n/len(queries)), fns, nil) {
		all = append(all, ds...)
	}
	slices.Sort(all)
	return all, failed
}

func (r *report) context(rubi, tree string) error {
	var err error
	if r.ctxFresh, err = contextRuns(rubi, tree, r.o.runs*6); err != nil {
		return err
	}
	cfg, diags := config.Load(config.Options{Root: tree})
	if diags.HasErrors() {
		return diags
	}
	eng := pipeline.New(cfg, pipeline.Options{MaskComments: regex.MaskComments, Resolvers: standard.Resolvers()})
	defer eng.Close()
	ctx := context.Background()
	t := time.Now()
	if _, err := eng.Retrieve(ctx, answer.Query{Text: queries[0]}); err != nil {
		return err
	}
	r.ctxFirst = time.Since(t)
	for range 20 {
		for _, q := range queries {
			t := time.Now()
			if _, err := eng.Retrieve(ctx, answer.Query{Text: q}); err != nil {
				return err
			}
			r.ctxWarm = append(r.ctxWarm, time.Since(t))
		}
	}
	slices.Sort(r.ctxWarm)
	return nil
}

// other measures a corpus in brief: its rg floor, cold and no-change
// index, and a fresh-process query.
func (r *report) other(rubi, work, corpus string) (other, error) {
	dir := filepath.Join(work, "other-"+strings.NewReplacer("/", "_", ":", "_", "@", "_").Replace(corpus))
	defer os.RemoveAll(dir)
	if err := perf.Fetch(corpus, dir); err != nil {
		return other{}, err
	}
	ot := other{corpus: corpus}
	ot.files, ot.bytes = countFiles(dir)
	perf.Settle()
	var err error
	if !r.rgMissing {
		if ot.rg, err = r.repeat(nil, func() (perf.Run, error) {
			run, err := perf.Exec(dir, nil, "rg", "-c", "--no-messages", `^import|^[[:space:]]*"|require\(|#include|^from `, ".")
			if err != nil && strings.Contains(err.Error(), "exit status 1") {
				err = nil
			}
			return run, err
		}); err != nil {
			return ot, err
		}
	}
	index := func() (perf.Run, error) { return perf.ExecPeak(dir, nil, rubi, "index", "--root", dir) }
	if ot.cold, err = r.repeat(func() error { return os.RemoveAll(filepath.Join(dir, ".rubi")) }, index); err != nil {
		return ot, err
	}
	if ot.nochange, err = r.repeat(nil, index); err != nil {
		return ot, err
	}
	ds, err := contextRuns(rubi, dir, r.o.runs*4)
	ot.context = perf.Pct(ds, 50)
	return ot, err
}

// scalePoint replicates the corpus (hard links: the bytes are the same,
// the paths differ) until it holds at least n files, and indexes it cold.
func scalePoint(rubi, tree, work string, files, n int) (point, error) {
	dir := filepath.Join(work, fmt.Sprintf("scale-%d", n))
	defer os.RemoveAll(dir)
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		return point{}, err
	}
	for i := 0; i*files < n; i++ {
		if out, err := exec.Command("cp", "-al", tree, filepath.Join(dir, fmt.Sprintf("copy%d", i))).CombinedOutput(); err != nil {
			return point{}, fmt.Errorf("cp -al: %v: %s", err, out)
		}
		os.RemoveAll(filepath.Join(dir, fmt.Sprintf("copy%d", i), ".rubi"))
		os.RemoveAll(filepath.Join(dir, fmt.Sprintf("copy%d", i), ".git"))
	}
	total, _ := countFiles(dir)
	run, err := perf.ExecPeak(dir, nil, rubi, "index", "--root", dir)
	if err != nil {
		return point{}, err
	}
	return point{files: total, took: run.Took, peakKB: run.PeakKB}, nil
}

// quality is the headline of bench/quality's report.
type quality struct {
	path                   string
	locomo5, locomo10      float64
	acc1, acc3, acc5       float64
	baseAcc1, baseLocomo10 float64
}

func runQuality(root string) (*quality, error) {
	cmd := exec.Command("go", "run", "./quality")
	cmd.Dir = filepath.Join(root, "bench")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("bench/quality: %v", err)
	}
	path := filepath.Join(root, "bench", "results", "quality-"+time.Now().UTC().Format("2006-01-02")+".json")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	type system struct {
		Role   string    `json:"role"`
		Recall []float64 `json:"recall"`
		Scores struct {
			Acc1, Acc3, Acc5 float64
		} `json:"scores"`
	}
	var doc struct {
		Memory struct {
			Systems []system `json:"systems"`
		} `json:"memory"`
		Code struct {
			Pooled []system `json:"pooled"`
		} `json:"code"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	q := &quality{path: strings.TrimSuffix(path, ".json") + ".md"}
	for _, s := range doc.Memory.Systems {
		switch {
		case s.Role == "full" && len(s.Recall) >= 2:
			q.locomo5, q.locomo10 = s.Recall[0], s.Recall[1]
		case s.Role == "reference" && len(s.Recall) >= 2:
			q.baseLocomo10 = s.Recall[1]
		}
	}
	for _, s := range doc.Code.Pooled {
		switch s.Role {
		case "full":
			q.acc1, q.acc3, q.acc5 = s.Scores.Acc1, s.Scores.Acc3, s.Scores.Acc5
		case "reference":
			q.baseAcc1 = s.Scores.Acc1
		}
	}
	return q, nil
}

// slope fits log(y) = a + b·log(x) by least squares and returns b: 1 is
// linear growth, under 1 better than linear.
func slope(xs, ys []float64) float64 {
	n := float64(len(xs))
	var sx, sy, sxx, sxy float64
	for i := range xs {
		x, y := math.Log(xs[i]), math.Log(ys[i])
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	den := n*sxx - sx*sx
	if den == 0 {
		return math.NaN()
	}
	return (n*sxy - sx*sy) / den
}

func machine() string {
	return fmt.Sprintf("%d cores, %s, %s", runtime.NumCPU(), runtime.GOOS+"/"+runtime.GOARCH, runtime.Version())
}
