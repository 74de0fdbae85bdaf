package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/bench/internal/sets"
	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/pipeline"
)

// The SWE-bench part: real issues of Python projects, each to be located
// in its repository's tree at the base commit.

const (
	defaultCLISample = 20
	quickCLISample   = 5
	// sweLimit is how many files a query asks for (MRR counts within it).
	sweLimit = 50
	// fnBaselineDepth is how many units the function-level baseline
	// ranks, from which its file ranking is read too.
	fnBaselineDepth = 1000
)

// quickSWEProjects are the projects of a -quick run (8 instances).
var quickSWEProjects = []string{"psf/requests", "pallets/flask"}

// sweOptions are the SWE-bench part's flags.
type sweOptions struct {
	data      string
	mirrors   string
	instances int
	projects  []string
	cliSample int
	// unitBounds adds the unit bounds' rows (unitbounds.go).
	unitBounds bool
	// dump, when set, is a file that receives one JSON line per measured
	// instance: what the full pipeline ranked beside the gold files and
	// functions, for error analysis.
	dump string
}

// sweFlags declares the SWE-bench part's flags on fs; the function it
// returns completes o after parsing.
func sweFlags(fs *flag.FlagSet, o *sweOptions) func(quick bool) {
	fs.StringVar(&o.data, "swebench-data", "", "SWE-bench data file (default "+sets.SWEPath+" from the repository root)")
	fs.StringVar(&o.mirrors, "mirrors", os.Getenv(sets.MirrorsEnv), "folder of the projects' bare git mirrors, OWNER+NAME/repo each (default $"+sets.MirrorsEnv+")")
	fs.StringVar(&o.dump, "swebench-dump", "", "write one JSON line per SWE-bench instance to this file: the full pipeline's files and units beside the gold ones")
	fs.BoolVar(&o.unitBounds, "unit-bounds", false, "add the SWE-bench unit bounds: function-level scores of other ways to list the full pipeline's units (oracles within and across files, a merged listing), from one more engine on the same index")
	fs.IntVar(&o.instances, "instances", 0, "SWE-bench instances to measure: a sample of this many, proportional to each project's share, seeded by -seed (0 = all)")
	projects := fs.String("projects", "", "comma-separated SWE-bench projects to measure, e.g. psf/requests,pallets/flask (default all; with -quick, "+strings.Join(quickSWEProjects, ",")+")")
	cli := fs.Int("cli-sample", -1, fmt.Sprintf("SWE-bench instances also asked through the rubi binary, as agents call it (default %d; with -quick, %d; 0 = none)", defaultCLISample, quickCLISample))
	return func(quick bool) {
		o.projects = splitList(*projects)
		if len(o.projects) == 0 && quick && o.instances == 0 {
			o.projects = quickSWEProjects
		}
		o.cliSample = *cli
		if o.cliSample < 0 {
			o.cliSample = defaultCLISample
			if quick {
				o.cliSample = quickCLISample
			}
		}
	}
}

// sweReport is the SWE-bench part of the report.
type sweReport struct {
	Data string `json:"data"`
	// Selection says which instances were measured and how they were
	// chosen.
	Selection string `json:"selection"`
	InFile    int    `json:"in_file"`
	Selected  int    `json:"selected"`
	Measured  int    `json:"measured"`
	// Skipped are selected instances not measured, with the reason.
	Skipped []sweSkip `json:"skipped,omitempty"`
	// FnLeftOut counts measured instances with no function or class span
	// (only imports, a docstring, module code): left out of the function
	// scores.
	FnLeftOut int `json:"fn_left_out"`
	// GoldAbsent counts instances with a gold file the tree at the base
	// commit lacks (the fix created it): no system can rank it.
	GoldAbsent int `json:"gold_absent"`
	// Units counts the units rubi's answers carried, over every query of
	// the full pipeline.
	Units int `json:"units"`
	// OpenFirst counts the units the full pipeline's answers listed
	// first, across files (Result.OpenFirst).
	OpenFirst int `json:"open_first_units"`
	// With -unit-bounds: the instances whose first 10 files the wide
	// engine ranked otherwise than the full pipeline, and the gold units
	// over the instances with function spans, BoundGoldKnown of them
	// units rubi's index defines in their files.
	BoundFilesDiffer int `json:"bound_files_differ,omitempty"`
	BoundGold        int `json:"bound_gold_units,omitempty"`
	BoundGoldKnown   int `json:"bound_gold_units_known,omitempty"`
	// Systems names the systems in the order of Instances' ranks.
	Systems   []string     `json:"systems"`
	Projects  []sweProject `json:"projects"`
	Pooled    []sweSystem  `json:"pooled"`
	CLI       *sweCLI      `json:"cli,omitempty"`
	Instances []sweRanks   `json:"instances"`
	// dump receives the per-instance lines of -swebench-dump, when set.
	dump    *json.Encoder
	Seconds float64 `json:"seconds"`
}

type sweSkip struct {
	ID     string `json:"instance_id"`
	Reason string `json:"reason"`
}

// sweProject is one repository's instances.
type sweProject struct {
	Repo string `json:"repo"`
	// Mirror is the mirror's name (a fork for some).
	Mirror    string `json:"mirror"`
	Instances int    `json:"instances"`
	// Files, PyFiles and Left are the first tree's: files written, Python
	// files among them, and what the listing left out.
	Files   int            `json:"files"`
	PyFiles int            `json:"py_files"`
	Left    sets.TreeSkips `json:"left_out"`
	// ColdIndexSeconds is the first tree's index; the incremental ones
	// follow each move to the next commit (instances in commit order).
	ColdIndexSeconds   float64     `json:"cold_index_seconds"`
	IncrementalMedian  float64     `json:"incremental_index_median_seconds"`
	IncrementalMax     float64     `json:"incremental_index_max_seconds"`
	Incremental        int         `json:"incremental_indexes"`
	RewrittenMedian    int         `json:"files_rewritten_median"`
	SyncMedianSeconds  float64     `json:"sync_median_seconds"`
	BaselineBagSeconds float64     `json:"baseline_tokenize_seconds"`
	Systems            []sweSystem `json:"systems"`
}

// sweSystem is one system's scores.
type sweSystem struct {
	Name   string    `json:"name"`
	Role   string    `json:"role"`
	Scores sweScores `json:"scores"`
	// Latency is over warm queries (each query asked a second time);
	// First is a fresh engine's first query.
	Latency latencySummary `json:"latency"`
	// AfterIndex is the first query after each re-index, when the
	// rankers reload their state.
	AfterIndex *latencySummary `json:"after_index,omitempty"`
}

// sweCLI is the check of the rubi binary against the engine.
type sweCLI struct {
	Sample int `json:"sample"`
	// Agree counts instances whose top 10 paths are the engine's, in
	// order; Overlap is the mean share of the engine's top 10 in the
	// binary's.
	Agree      int            `json:"agree"`
	AgreeShare float64        `json:"agree_share"`
	Overlap    float64        `json:"overlap"`
	Latency    latencySummary `json:"latency"`
	Differ     []string       `json:"differ,omitempty"`
}

// sweRanks is one instance's outcome: for each system (sweReport.Systems),
// the rank of its first gold file (0: not in the top 50) and whether all
// its gold files are in the top 5.
type sweRanks struct {
	ID    string `json:"instance_id"`
	Gold  int    `json:"gold_files"`
	First []int  `json:"first_gold_rank"`
	Acc5  []bool `json:"acc5"`
}

// sweAcc accumulates one row: the two baselines, rubi's variants, and the
// full pipeline with its non-Python files dropped afterwards (what it
// would score if it ranked code only).
type sweAcc struct {
	name, role string
	sum        sweSum
	warm       latencies
	after      latencies
	first      time.Duration
}

const (
	fileBaselineName = "baseline: file BM25"
	fnBaselineName   = "baseline: function BM25"
)

// pyDoc is a Python file version tokenized for the baselines.
type pyDoc struct {
	file  *termBag
	units []pyUnitDoc
}

type pyUnitDoc struct {
	key string
	bag *termBag
}

type blobKey struct{ path, blob string }

// runSWE measures the SWE-bench part. It returns a non-empty missing when
// the part cannot run (no data, no mirrors), saying why.
func runSWE(ctx context.Context, h *harness, work, root string, o sweOptions, seed uint64, vs []variant, progress func(string)) (rep *sweReport, missing string, err error) {
	started := time.Now()
	path := o.data
	if path == "" {
		path = filepath.Join(root, sets.SWEPath)
	}
	all, err := sets.ReadSWE(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Sprintf("the SWE-bench part needs its data at %s, which is not there (see bench/README.md).", path), nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	if o.mirrors == "" {
		return nil, "the SWE-bench part needs the projects' bare git mirrors: give their folder with -mirrors DIR or $" + sets.MirrorsEnv + " (see bench/README.md).", nil
	}
	if fi, err := os.Stat(o.mirrors); err != nil || !fi.IsDir() {
		return nil, fmt.Sprintf("the SWE-bench part needs the projects' bare git mirrors in %s, which is not a folder (see bench/README.md).", o.mirrors), nil
	}
	set := all
	if len(o.projects) > 0 {
		set = nil
		for _, p := range o.projects {
			if !slices.ContainsFunc(all, func(x sets.Instance) bool { return x.Repo == p }) {
				return nil, "", fmt.Errorf("-projects: no instance of %q in %s", p, path)
			}
		}
		for _, x := range all {
			if slices.Contains(o.projects, x.Repo) {
				set = append(set, x)
			}
		}
	}
	set = sets.SampleSWE(set, o.instances, seed)
	rep = &sweReport{Data: filepath.Base(path), InFile: len(all), Selected: len(set)}
	switch {
	case len(set) == len(all):
		rep.Selection = fmt.Sprintf("all %d instances", len(all))
	case o.instances > 0 && o.instances < len(all):
		rep.Selection = fmt.Sprintf("a sample of %d instances, each project its share, seed %d", len(set), seed)
	default:
		rep.Selection = fmt.Sprintf("%d instances", len(set))
	}
	if len(o.projects) > 0 {
		rep.Selection += " of " + strings.Join(o.projects, ", ")
	}
	cliIDs := map[string]bool{}
	for _, i := range sets.Spread(len(set), o.cliSample) {
		cliIDs[set[i].ID] = true
	}
	var bin string
	if len(cliIDs) > 0 {
		bin = filepath.Join(work, "bin")
		progress("swebench: building rubi for the CLI check")
		cmd := exec.CommandContext(ctx, "go", "build", "-o", bin+string(filepath.Separator), "./cmd/rubi", "./cmd/rubi-full")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, "", fmt.Errorf("go build ./cmd/rubi ./cmd/rubi-full: %v\n%s", err, out)
		}
	}

	// The rows.
	accs := []*sweAcc{
		{name: fileBaselineName, role: "reference"},
		{name: fnBaselineName, role: "reference; its files are its units' files"},
	}
	full := -1
	for _, v := range vs {
		if v.Full() {
			full = len(accs)
		}
		accs = append(accs, &sweAcc{name: v.Name(), role: v.Role()})
	}
	pyOnly, byFile := -1, -1
	if full >= 0 {
		pyOnly = len(accs)
		accs = append(accs, &sweAcc{name: accs[full].name + ", .py files only", role: "diagnostic: the full pipeline, files other than .py dropped from its answer"})
		byFile = len(accs)
		accs = append(accs, &sweAcc{name: accs[full].name + ", units file by file", role: "reference: the full pipeline's units read under each file in turn, its listing across files (open first) left out, as answers gave them before it"})
	}
	rows := sweRows{full: full, pyOnly: pyOnly, byFile: byFile}
	if o.unitBounds && full >= 0 {
		rows.boundsAt, rows.bounds = len(accs), unitBounds()
		for _, b := range rows.bounds {
			accs = append(accs, &sweAcc{name: b.name, role: b.role})
		}
	}
	for _, a := range accs {
		rep.Systems = append(rep.Systems, a.name)
	}
	var cli *cliCheck
	if bin != "" {
		cli = &cliCheck{bin: filepath.Join(bin, "rubi"), extra: h.extra}
		if cli.env, err = cliEnv(work); err != nil {
			return nil, "", err
		}
	}

	var repos []string
	groups := map[string][]sets.Instance{}
	for _, x := range set {
		if _, ok := groups[x.Repo]; !ok {
			repos = append(repos, x.Repo)
		}
		groups[x.Repo] = append(groups[x.Repo], x)
	}
	if o.dump != "" {
		f, err := os.Create(o.dump)
		if err != nil {
			return nil, "", err
		}
		defer f.Close()
		rep.dump = json.NewEncoder(f)
	}
	for _, repo := range repos {
		p, err := runSWEProject(ctx, h, work, o.mirrors, repo, groups[repo], vs, accs, rows, cli, cliIDs, rep, progress)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", repo, err)
		}
		if p != nil {
			rep.Projects = append(rep.Projects, *p)
		}
	}
	for _, a := range accs {
		rep.Pooled = append(rep.Pooled, a.system())
	}
	if cli != nil && cli.n > 0 {
		rep.CLI = &sweCLI{Sample: cli.n, Agree: cli.agree, AgreeShare: 100 * float64(cli.agree) / float64(cli.n), Overlap: 100 * cli.overlap / float64(cli.n), Latency: summarize(cli.lat, 0), Differ: cli.differ}
	}
	rep.Seconds = time.Since(started).Seconds()
	return rep, "", nil
}

func (a *sweAcc) system() sweSystem {
	s := sweSystem{Name: a.name, Role: a.role, Scores: a.sum.scores(), Latency: summarize(a.warm, a.first)}
	if len(a.after) > 0 {
		l := summarize(a.after, 0)
		s.AfterIndex = &l
	}
	return s
}

// runSWEProject measures one repository's instances in one project
// directory that follows them from commit to commit. It returns nil when
// none could be measured (each skip is in rep).
func runSWEProject(ctx context.Context, h *harness, work, mirrors, repo string, insts []sets.Instance, vs []variant, pooled []*sweAcc, rows sweRows, cli *cliCheck, cliIDs map[string]bool, rep *sweReport, progress func(string)) (*sweProject, error) {
	skip := func(x sets.Instance, why string) {
		rep.Skipped = append(rep.Skipped, sweSkip{x.ID, why})
	}
	tree, ok, err := sets.Follow(ctx, work, mirrors, repo, insts, skip)
	if err != nil || tree == nil {
		if err == nil && sets.FindMirror(mirrors, repo) == "" {
			progress("swebench: " + repo + ": no mirror in the mirrors' folder")
		}
		return nil, err
	}
	defer tree.Close()
	dir := tree.Dir()

	p := &sweProject{Repo: repo, Mirror: tree.Mirror(), Instances: len(ok)}
	accs := make([]*sweAcc, len(pooled))
	for i, a := range pooled {
		accs[i] = &sweAcc{name: a.name, role: a.role}
	}
	indexer, err := h.engine(dir, nil)
	if err != nil {
		return nil, err
	}
	defer indexer.Close()
	full, pyOnly, byFile := rows.full, rows.pyOnly, rows.byFile
	engines := make([]*pipeline.Engine, len(vs))
	for i, v := range vs {
		if engines[i], err = h.variantEngine(dir, v); err != nil {
			return nil, err
		}
		defer engines[i].Close()
	}
	// The unit bounds' engine: the full pipeline listing every unit.
	var wide *pipeline.Engine
	if len(rows.bounds) > 0 {
		v := vs[full-2]
		v.Config = wideUnitsLayer
		if wide, err = h.variantEngine(dir, v); err != nil {
			return nil, err
		}
		defer wide.Close()
	}

	dict := newTermDict()
	docs := map[blobKey]*pyDoc{}
	var incr, syncs []time.Duration
	var written []int
	var bagTime time.Duration
	for n, x := range ok {
		start := time.Now()
		st, err := tree.Sync(ctx, x.Commit)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", x.ID, err)
		}
		synced := time.Since(start)
		start = time.Now()
		if _, err := indexer.Index(ctx, pipeline.IndexOptions{}); err != nil {
			return nil, fmt.Errorf("%s: index: %w", x.ID, err)
		}
		indexed := time.Since(start)
		if n == 0 {
			p.ColdIndexSeconds = indexed.Seconds()
			p.Files, p.Left = st.Files, st.TreeSkips
		} else {
			incr = append(incr, indexed)
			syncs = append(syncs, synced)
			written = append(written, st.Written)
		}

		// The baselines' documents: every Python file of the tree.
		start = time.Now()
		var pyPaths []string
		for f, blob := range tree.Files {
			if strings.HasSuffix(f, ".py") {
				pyPaths = append(pyPaths, f)
				k := blobKey{f, blob}
				if docs[k] != nil {
					continue
				}
				src, err := os.ReadFile(tree.Abs(f))
				if err != nil {
					return nil, err
				}
				docs[k] = tokenizePy(dict, f, string(src))
			}
		}
		for k := range docs {
			if tree.Files[k.path] != k.blob {
				delete(docs, k)
			}
		}
		sort.Strings(pyPaths)
		bagTime += time.Since(start)
		if n == 0 {
			p.PyFiles = len(pyPaths)
		}

		gold := dedupe(x.GoldFiles)
		fnGold := goldUnits(x.Spans)
		if len(fnGold) == 0 {
			rep.FnLeftOut++
		}
		for _, g := range gold {
			if _, ok := tree.Files[g]; !ok {
				rep.GoldAbsent++
				break
			}
		}
		rk := sweRanks{ID: x.ID, Gold: len(gold), First: make([]int, len(accs)), Acc5: make([]bool, len(accs))}
		record := func(i int, files, units []string, warm, after time.Duration) {
			r := scoreSWE(files, gold, units, fnGold)
			for _, a := range []*sweAcc{accs[i], pooled[i]} {
				a.sum.add(r)
				a.warm = append(a.warm, warm)
				if after > 0 {
					a.after = append(a.after, after)
				}
			}
			if r.RR > 0 {
				rk.First[i] = int(1/r.RR + 0.5)
			}
			rk.Acc5[i] = r.Acc[2]
		}

		// The baselines.
		fileBags := make([]*termBag, len(pyPaths))
		var unitBags []*termBag
		var unitKeys []string
		for i, f := range pyPaths {
			d := docs[blobKey{f, tree.Files[f]}]
			fileBags[i] = d.file
			for _, u := range d.units {
				unitBags = append(unitBags, u.bag)
				unitKeys = append(unitKeys, u.key)
			}
		}
		start = time.Now()
		var files []string
		for _, i := range dict.search(fileBags, x.Problem, sweLimit) {
			files = append(files, pyPaths[i])
		}
		record(0, files, nil, time.Since(start), 0)
		start = time.Now()
		var units []string
		files = nil
		for _, i := range dict.search(unitBags, x.Problem, fnBaselineDepth) {
			units = append(units, unitKeys[i])
			f, _, _ := strings.Cut(unitKeys[i], "\x00")
			if len(files) < sweLimit && !slices.Contains(files, f) {
				files = append(files, f)
			}
		}
		record(1, files, units, time.Since(start), 0)

		// rubi, each variant: asked once after the re-index (the rankers
		// reload) and once more, warm; the second answer is scored.
		q := answer.Query{Text: x.Problem, Kinds: []string{core.DocFile}, Limit: sweLimit, Budget: 1 << 30}
		var fullTop []string
		for i, eng := range engines {
			start := time.Now()
			if _, err := eng.Retrieve(ctx, q); err != nil {
				return nil, fmt.Errorf("%s, %s: %w", x.ID, vs[i].Name(), err)
			}
			after := time.Since(start)
			start = time.Now()
			res, err := eng.Retrieve(ctx, q)
			if err != nil {
				return nil, fmt.Errorf("%s, %s: %w", x.ID, vs[i].Name(), err)
			}
			warm := time.Since(start)
			a := i + 2
			if n == 0 {
				accs[a].first = after
				pooled[a].first = max(pooled[a].first, after)
				after = 0
			}
			files, units := itemRanking(res, true, nil)
			record(a, files, units, warm, after)
			if a == full {
				fullTop = files[:min(10, len(files))]
				for _, it := range res.Items {
					rep.Units += len(it.Units)
				}
				rep.OpenFirst += len(res.OpenFirst)
				if rep.dump != nil {
					if err := rep.dump.Encode(newDumpLine(x, gold, fnGold, res, dir)); err != nil {
						return nil, err
					}
				}
				files, units := itemRanking(res, true, func(p string) bool { return strings.HasSuffix(p, ".py") })
				record(pyOnly, files, units, warm, after)
				files, units = itemRanking(res, false, nil)
				record(byFile, files, units, warm, after)
				if wide != nil {
					if err := recordBounds(ctx, boundRun{wide: wide, eng: eng, q: q, res: res, fnGold: fnGold, rows: rows, rep: rep}, record); err != nil {
						return nil, fmt.Errorf("%s, unit bounds: %w", x.ID, err)
					}
				}
			}
		}
		rep.Instances = append(rep.Instances, rk)
		rep.Measured++

		line := fmt.Sprintf("swebench: %s %d/%d %s: %d files, %d written, %d deleted; sync %.2fs, index %.2fs", repo, n+1, len(ok), x.ID, st.Files, st.Written, st.Deleted, synced.Seconds(), indexed.Seconds())
		if cli != nil && cliIDs[x.ID] {
			same, err := cli.check(ctx, dir, x, fullTop)
			if err != nil {
				return nil, fmt.Errorf("%s: rubi context: %w", x.ID, err)
			}
			line += fmt.Sprintf("; rubi context agrees: %v", same)
		}
		progress(line)
	}
	p.Incremental = len(incr)
	if len(incr) > 0 {
		p.IncrementalMedian = latencies(incr).percentile(50).Seconds()
		p.IncrementalMax = latencies(incr).percentile(100).Seconds()
		p.SyncMedianSeconds = latencies(syncs).percentile(50).Seconds()
		slices.Sort(written)
		p.RewrittenMedian = written[(len(written)-1)/2]
	}
	p.BaselineBagSeconds = bagTime.Seconds()
	for _, a := range accs {
		p.Systems = append(p.Systems, a.system())
	}
	progress(fmt.Sprintf("swebench: %s: %d instances; cold index %.1fs, incremental median %.2fs", repo, len(ok), p.ColdIndexSeconds, p.IncrementalMedian))
	return p, nil
}

// sweRows says where the rows measured apart from the variants are among
// a run's rows: the full pipeline's, its .py-only diagnostic, and the
// unit bounds from boundsAt on (-1: not measured).
type sweRows struct {
	full, pyOnly, byFile, boundsAt int
	bounds                         []unitBound
}

// boundRun is one instance's unit bounds to measure: the wide engine, the
// full pipeline's engine and answer to the query q, and the gold units.
type boundRun struct {
	wide, eng *pipeline.Engine
	q         answer.Query
	res       *answer.Result
	fnGold    []string
	rows      sweRows
	rep       *sweReport
}

// recordBounds asks the wide engine the query (once: its latency is
// the first answer after the re-index, not the warm one) and records each
// bound's ranking.
func recordBounds(ctx context.Context, b boundRun, record func(i int, files, units []string, warm, after time.Duration)) error {
	start := time.Now()
	wres, err := b.wide.Retrieve(ctx, b.q)
	if err != nil {
		return err
	}
	took := time.Since(start)
	files, today := itemUnits(b.res.Items)
	wfiles, wide := itemUnits(wres.Items)
	if !slices.Equal(files[:min(10, len(files))], wfiles[:min(10, len(wfiles))]) {
		b.rep.BoundFilesDiffer++
	}
	gold, err := knownGold(b.eng, b.fnGold, wide)
	if err != nil {
		return err
	}
	b.rep.BoundGold += len(b.fnGold)
	for _, g := range gold {
		b.rep.BoundGoldKnown += len(g)
	}
	in := boundInput{files: wfiles, today: today, wide: wide, gold: gold}
	for j, ub := range b.rows.bounds {
		record(b.rows.boundsAt+j, wfiles, ub.rank(in), took, 0)
	}
	return nil
}

// sweDumpLine is one line of -swebench-dump: an instance's gold files and
// units (unitKey, the NUL written as \u0000) beside the full pipeline's:
// its files in order with their scores, its units as scored (the listing
// across files first), and the listing's units with the parts of their
// score (what -unit-tune reads).
type sweDumpLine struct {
	ID         string     `json:"instance_id"`
	Repo       string     `json:"repo"`
	Gold       []string   `json:"gold_files"`
	FnGold     []string   `json:"gold_units,omitempty"`
	Files      []string   `json:"files"`
	FileScores []float64  `json:"file_scores"`
	Units      []string   `json:"units"`
	OpenFirst  []dumpUnit `json:"open_first,omitempty"`
	// FileSizes are the bytes of the first files, in the order of Files:
	// what rerank.units' reading budget (read_bytes) counts.
	FileSizes []int64 `json:"file_sizes"`
}

// dumpUnit is a unit of the listing across files in a dump line.
type dumpUnit struct {
	Key   string             `json:"key"`
	Kind  string             `json:"kind"`
	Parts map[string]float64 `json:"parts"`
}

// dumpSizes is how many of an answer's first files have their sizes in
// a dump line.
const dumpSizes = 20

// newDumpLine is an instance's dump line; dir is its tree, where the
// files' sizes are read.
func newDumpLine(x sets.Instance, gold, fnGold []string, res *answer.Result, dir string) sweDumpLine {
	files, units := itemRanking(res, true, nil)
	d := sweDumpLine{ID: x.ID, Repo: x.Repo, Gold: gold, FnGold: fnGold, Files: files, Units: units}
	for _, f := range files[:min(len(files), dumpSizes)] {
		size := int64(-1)
		if fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(f))); err == nil {
			size = fi.Size()
		}
		d.FileSizes = append(d.FileSizes, size)
	}
	seen := map[string]bool{}
	for _, it := range res.Items {
		if it.Kind == core.DocFile && !seen[it.Path] {
			seen[it.Path] = true
			d.FileScores = append(d.FileScores, it.Score)
		}
	}
	for _, u := range res.OpenFirst {
		d.OpenFirst = append(d.OpenFirst, dumpUnit{Key: unitKey(u.Path, u.Name), Kind: u.Kind, Parts: u.Parts})
	}
	return d
}

// itemRanking reads an answer as the scores need it: the files in order,
// and the units it gives in order (unitKey), flattened: with first, the
// listing across files (Result.OpenFirst), then each item's under it;
// keep, when set, says which files count.
func itemRanking(res *answer.Result, first bool, keep func(string) bool) (files, units []string) {
	if first {
		for _, u := range res.OpenFirst {
			if u.Name != "" && (keep == nil || keep(u.Path)) {
				units = append(units, unitKey(u.Path, u.Name))
			}
		}
	}
	for _, it := range res.Items {
		if it.Kind != core.DocFile || it.Path == "" || (keep != nil && !keep(it.Path)) {
			continue
		}
		files = append(files, it.Path)
		for _, u := range it.Units {
			if u.Name != "" {
				units = append(units, unitKey(it.Path, u.Name))
			}
		}
	}
	return dedupe(files), dedupe(units)
}

// tokenizePy makes a Python file's baseline documents: the file (path and
// content) and each unit (path, qualified name and text).
func tokenizePy(dict *termDict, path, src string) *pyDoc {
	d := &pyDoc{file: dict.bag(path + "\n" + src)}
	for _, u := range pyUnits(src) {
		d.units = append(d.units, pyUnitDoc{key: unitKey(path, u.Name), bag: dict.bag(path + "\n" + u.Name + "\n" + u.Text)})
	}
	return d
}

// cliCheck runs the rubi binary as an agent calls it, on the project as
// the engine left it, and compares its top 10 with the engine's.
type cliCheck struct {
	bin     string
	extra   []string
	env     []string
	n       int
	agree   int
	overlap float64
	lat     latencies
	differ  []string
}

// cliEnv is the binary's environment: the personal configuration and
// vault kept out, as the harness keeps them out of the engine.
func cliEnv(work string) ([]string, error) {
	xdg, vault := filepath.Join(work, "cli-config"), filepath.Join(work, "cli-vault")
	for _, d := range []string{xdg, vault} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	return append(os.Environ(), "XDG_CONFIG_HOME="+xdg, "RUBI_VAULT="+vault), nil
}

func (c *cliCheck) check(ctx context.Context, dir string, x sets.Instance, engineTop []string) (bool, error) {
	args := []string{"context", "--json", "--kinds", "file", "--limit", strconv.Itoa(sweLimit), "--budget", "1000000000", "--no-refresh", "--root", dir}
	for _, e := range c.extra {
		args = append(args, "--config", e)
	}
	args = append(args, "--", x.Problem)
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Dir, cmd.Env = dir, c.env
	start := time.Now()
	out, err := cmd.Output()
	d := time.Since(start)
	if err != nil {
		return false, fmt.Errorf("%w%s", err, sets.StderrOf(err))
	}
	var res answer.Result
	if err := json.Unmarshal(out, &res); err != nil {
		return false, fmt.Errorf("reading its JSON: %w", err)
	}
	files, _ := itemRanking(&res, false, nil)
	top := files[:min(10, len(files))]
	c.n++
	c.lat = append(c.lat, d)
	same := slices.Equal(top, engineTop)
	if same {
		c.agree++
	} else {
		c.differ = append(c.differ, x.ID)
	}
	if len(engineTop) > 0 {
		common := 0
		for _, f := range engineTop {
			if slices.Contains(top, f) {
				common++
			}
		}
		c.overlap += float64(common) / float64(len(engineTop))
	} else if len(top) == 0 {
		c.overlap++
	}
	return same, nil
}
