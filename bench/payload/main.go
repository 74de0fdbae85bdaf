// Command payload measures what an agent receives from rubi: per question
// of the dev sets, the tokens each transport delivers (the CLI's text, the
// MCP text content, the MCP structured content as sent), the tokens on
// the gold items and the gold's rank in the answer, through the built
// binaries, one call at a time; and, for the recall set, what the recall
// hook injects. See bench/README.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/bench/internal/perf"
	"github.com/rubi-dev/rubi/bench/internal/sets"
)

// The sets a run may measure.
const (
	setSelf     = "self"
	setSWE      = "swebench"
	setRecall   = "recall"
	defaultSWEN = 40
)

var allSets = []string{setSelf, setSWE, setRecall}

type options struct {
	bin       string
	out       string
	sets      []string
	budgets   []int
	instances int
	seed      uint64
	mirrors   string
	data      string
	selfRev   string
	recallDir string
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "payload:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("payload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.bin, "bin", "", "folder holding the rubi, rubi-mcp and rubi-hook to measure (default: built from this checkout into a temporary folder)")
	fs.StringVar(&o.out, "out", "", "report file, its JSON twin beside it (default bench/results/payload-YYYY-MM-DD.md)")
	setList := fs.String("sets", strings.Join(allSets, ","), "comma-separated sets to measure: "+strings.Join(allSets, ", "))
	budgets := fs.String("budgets", "600,default", "comma-separated budgets of the context calls; default is the call without one")
	fs.IntVar(&o.instances, "instances", defaultSWEN, "SWE-bench instances: a sample of this many, each project its share, seeded by -seed (0 = all)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the SWE-bench sample")
	fs.StringVar(&o.mirrors, "mirrors", os.Getenv(sets.MirrorsEnv), "folder of the SWE-bench projects' bare git mirrors, OWNER+NAME/repo each (default $"+sets.MirrorsEnv+")")
	fs.StringVar(&o.data, "swebench-data", "", "SWE-bench data file (default "+sets.SWEPath+" from the repository root)")
	fs.StringVar(&o.selfRev, "self-rev", "HEAD", "the commit of this checkout whose tree the self set is asked of")
	fs.StringVar(&o.recallDir, "recall", "", "the recall set's folder (default "+recallDir+" of this checkout)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q: the flags say what to measure", fs.Args())
	}
	for _, s := range strings.Split(*setList, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		if !slices.Contains(allSets, s) {
			return nil, fmt.Errorf("-sets: unknown set %q (want %s)", s, strings.Join(allSets, ", "))
		}
		if !slices.Contains(o.sets, s) {
			o.sets = append(o.sets, s)
		}
	}
	if len(o.sets) == 0 {
		return nil, errors.New("-sets: no set to measure")
	}
	var err error
	if o.budgets, err = parseBudgets(*budgets); err != nil {
		return nil, err
	}
	if o.instances < 0 {
		return nil, fmt.Errorf("-instances %d: want 0 (all) or more", o.instances)
	}
	return o, nil
}

// parseBudgets reads -budgets: positive numbers, or "default" (0).
func parseBudgets(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		b := 0
		if f != "default" {
			n, err := strconv.Atoi(f)
			if err != nil || n <= 0 {
				return nil, fmt.Errorf("-budgets: %q is neither a positive number of tokens nor default", f)
			}
			b = n
		}
		if slices.Contains(out, b) {
			return nil, fmt.Errorf("-budgets: %s twice", f)
		}
		out = append(out, b)
	}
	return out, nil
}

// report is the run's report; its JSON twin is this struct.
type report struct {
	Date   string `json:"date"`
	Commit string `json:"commit"`
	// Binaries says what was measured.
	Binaries string   `json:"binaries"`
	Budgets  []string `json:"budgets"`
	Sets     []setRun `json:"sets"`
	// Missing are the sets asked for that could not run, and why.
	Missing   []string       `json:"missing,omitempty"`
	Summaries []summary      `json:"summaries"`
	Recall    *recallSummary `json:"recall,omitempty"`
	Seconds   float64        `json:"seconds"`
	// Rows are every answer, for error analysis; RecallRows every prompt.
	Rows       []row       `json:"rows"`
	RecallRows []recallRow `json:"recall_rows,omitempty"`
}

// setRun says what a set measured.
type setRun struct {
	Name      string   `json:"name"`
	Selection string   `json:"selection"`
	Questions int      `json:"questions"`
	Skipped   []string `json:"skipped,omitempty"`
	Seconds   float64  `json:"seconds"`
}

func run(ctx context.Context, args []string, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	root, err := perf.Checkout()
	if err != nil {
		return err
	}
	started := time.Now()
	progress := func(s string) { fmt.Fprintf(stderr, "%6.1fs %s\n", time.Since(started).Seconds(), s) }
	rep := &report{Date: started.Format("2006-01-02"), Commit: gitHead(root)}
	if o.out == "" {
		o.out = filepath.Join(root, "bench", "results", "payload-"+rep.Date+".md")
	}
	for _, b := range o.budgets {
		rep.Budgets = append(rep.Budgets, budgetLabel(b))
	}
	work, err := os.MkdirTemp("", "rubi-payload-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	bin := o.bin
	if bin == "" {
		bin = filepath.Join(work, "bin")
		progress("building rubi, rubi-mcp and rubi-hook from " + root)
		if err := buildBins(ctx, root, bin); err != nil {
			return err
		}
		rep.Binaries = "built from the checkout at " + rep.Commit
	} else {
		if bin, err = filepath.Abs(bin); err != nil {
			return err
		}
		rep.Binaries = bin + " (" + binVersion(ctx, filepath.Join(bin, "rubi")) + ")"
	}
	b, err := newBins(bin, work)
	if err != nil {
		return err
	}

	for _, s := range o.sets {
		t := time.Now()
		var sr *setRun
		var rows []row
		var missing string
		switch s {
		case setSelf:
			sr, rows, err = runSelf(ctx, b, root, work, o, progress)
		case setSWE:
			sr, rows, missing, err = runSWE(ctx, b, root, work, o, progress)
		case setRecall:
			sr, missing, err = runRecall(ctx, b, root, work, o, rep, progress)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
		if missing != "" {
			progress(s + ": " + missing)
			rep.Missing = append(rep.Missing, s+": "+missing)
			continue
		}
		sr.Seconds = time.Since(t).Seconds()
		rep.Sets = append(rep.Sets, *sr)
		rep.Rows = append(rep.Rows, rows...)
	}
	rep.Summaries = summarize(rep.Rows)
	rep.Seconds = time.Since(started).Seconds()
	if err := writeReport(rep, o.out); err != nil {
		return err
	}
	progress("wrote " + o.out)
	return nil
}

func gitHead(root string) string {
	out, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	return sets.ShortCommit(strings.TrimSpace(string(out)))
}

func binVersion(ctx context.Context, rubi string) string {
	out, err := exec.CommandContext(ctx, rubi, "version").Output()
	if err != nil {
		return "version unknown"
	}
	return strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
}

// runSelf asks the self set of the committed tree o.selfRev.
func runSelf(ctx context.Context, b *bins, root, work string, o *options, progress func(string)) (*setRun, []row, error) {
	qs, err := sets.ReadSelfSet(root)
	if err != nil {
		return nil, nil, err
	}
	dir := filepath.Join(work, "self")
	commit, _, err := sets.ExportTree(ctx, root, o.selfRev, dir, qs)
	if err != nil {
		return nil, nil, err
	}
	progress("self: indexing the tree of " + commit)
	if err := b.index(ctx, dir); err != nil {
		return nil, nil, err
	}
	m, err := b.startMCP(ctx, dir)
	if err != nil {
		return nil, nil, err
	}
	defer m.close()
	var rows []row
	for i, q := range qs {
		rs, err := ask(ctx, b, m, dir, setSelf, q.Text, q.Text, gold{Files: q.Gold}, o.budgets)
		if err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %w", sets.SelfSetFile, q.Line, err)
		}
		rows = append(rows, rs...)
		if (i+1)%10 == 0 {
			progress(fmt.Sprintf("self: %d of %d questions", i+1, len(qs)))
		}
	}
	return &setRun{Name: setSelf, Selection: fmt.Sprintf("all %d questions of %s, asked of the tree of %s", len(qs), sets.SelfSetFile, commit), Questions: len(qs)}, rows, nil
}

// runSWE asks a sample of the SWE-bench dev set, each issue of the tree
// at its base commit; missing says why it cannot run.
func runSWE(ctx context.Context, b *bins, root, work string, o *options, progress func(string)) (sr *setRun, rows []row, missing string, err error) {
	path := o.data
	if path == "" {
		path = filepath.Join(root, sets.SWEPath)
	}
	all, err := sets.ReadSWE(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, "no SWE-bench data at " + path, nil
	}
	if err != nil {
		return nil, nil, "", fmt.Errorf("%s: %w", path, err)
	}
	if o.mirrors == "" {
		return nil, nil, "no mirrors' folder: give -mirrors DIR or $" + sets.MirrorsEnv, nil
	}
	sample := sets.SampleSWE(all, o.instances, o.seed)
	sr = &setRun{Name: setSWE, Selection: fmt.Sprintf("a sample of %d of the %d instances of %s, each project its share, seed %d", len(sample), len(all), filepath.Base(path), o.seed)}
	if len(sample) == len(all) {
		sr.Selection = fmt.Sprintf("all %d instances of %s", len(all), filepath.Base(path))
	}
	var repos []string
	groups := map[string][]sets.Instance{}
	for _, x := range sample {
		if _, ok := groups[x.Repo]; !ok {
			repos = append(repos, x.Repo)
		}
		groups[x.Repo] = append(groups[x.Repo], x)
	}
	for _, repo := range repos {
		rs, err := sweProject(ctx, b, work, o.mirrors, repo, groups[repo], o.budgets, sr, progress)
		if err != nil {
			return nil, nil, "", fmt.Errorf("%s: %w", repo, err)
		}
		rows = append(rows, rs...)
	}
	return sr, rows, "", nil
}

// sweProject asks one repository's instances in one directory that
// follows them in commit order.
func sweProject(ctx context.Context, b *bins, work, mirrors, repo string, insts []sets.Instance, budgets []int, sr *setRun, progress func(string)) ([]row, error) {
	skip := func(x sets.Instance, why string) { sr.Skipped = append(sr.Skipped, x.ID+": "+why) }
	tree, ok, err := sets.Follow(ctx, work, mirrors, repo, insts, skip)
	if err != nil || tree == nil {
		return nil, err
	}
	defer tree.Close()
	var rows []row
	var m *mcpSession
	defer func() {
		if m != nil {
			m.close()
		}
	}()
	for _, x := range ok {
		if _, err := tree.Sync(ctx, x.Commit); err != nil {
			return nil, fmt.Errorf("%s: %w", x.ID, err)
		}
		if err := b.index(ctx, tree.Dir()); err != nil {
			return nil, fmt.Errorf("%s: %w", x.ID, err)
		}
		if m == nil {
			if m, err = b.startMCP(ctx, tree.Dir()); err != nil {
				return nil, err
			}
		}
		rs, err := ask(ctx, b, m, tree.Dir(), setSWE, x.ID, x.Problem, gold{Files: x.GoldFiles}, budgets)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", x.ID, err)
		}
		rows = append(rows, rs...)
		sr.Questions++
	}
	progress(fmt.Sprintf("swebench: %s: %d of %d instances", repo, len(ok), len(insts)))
	return rows, nil
}

// runRecall sends the recall set's prompts to the recall hook.
func runRecall(ctx context.Context, b *bins, root, work string, o *options, rep *report, progress func(string)) (*setRun, string, error) {
	dir := o.recallDir
	if dir == "" {
		dir = filepath.Join(root, filepath.FromSlash(recallDir))
	}
	set, err := readRecallSet(dir)
	if err != nil {
		return nil, "", err
	}
	if set == nil {
		return nil, "no recall set at " + dir, nil
	}
	proj := filepath.Join(work, "recall")
	if err := perf.CopyTree(set.Project, proj); err != nil {
		return nil, "", err
	}
	if err := b.index(ctx, proj); err != nil {
		return nil, "", err
	}
	answer, err := b.register(ctx, proj, set.Notes)
	if err != nil {
		return nil, "", err
	}
	titles, err := registered(set.NotesFile, set.Notes, answer)
	if err != nil {
		return nil, "", err
	}
	for _, p := range set.Prompts {
		if p.Note != "" && titles[p.Note] == "" {
			return nil, "", fmt.Errorf("%s:%d: no note %q in %s", filepath.Join(dir, "prompts.txt"), p.Line, p.Note, set.NotesFile)
		}
	}
	if err := b.index(ctx, proj); err != nil {
		return nil, "", err
	}
	progress(fmt.Sprintf("recall: %d notes registered, %d prompts", len(titles), len(set.Prompts)))
	for i, p := range set.Prompts {
		injected, err := b.prompt(ctx, proj, fmt.Sprintf("payload-%d", i+1), p.Text)
		if err != nil {
			return nil, "", fmt.Errorf("prompts.txt:%d: %w", p.Line, err)
		}
		rep.RecallRows = append(rep.RecallRows, recallRowOf(p, injected, titles))
	}
	// A hook never fails the agent: its errors go to .rubi/hooks.log, and
	// an error would read here as nothing injected.
	if data, err := os.ReadFile(filepath.Join(proj, ".rubi", "hooks.log")); err == nil && len(strings.TrimSpace(string(data))) > 0 {
		return nil, "", fmt.Errorf("the recall hook logged errors: %.2000s", data)
	}
	s := summarizeRecall(rep.RecallRows)
	rep.Recall = &s
	rel, err := filepath.Rel(root, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		rel = dir
	}
	return &setRun{Name: setRecall, Selection: fmt.Sprintf("the %d prompts of %s over %d notes, through rubi-hook UserPromptSubmit", len(set.Prompts), filepath.ToSlash(rel), len(titles)), Questions: len(set.Prompts)}, "", nil
}

// writeReport writes the markdown report to path and the JSON beside it.
func writeReport(rep *report, path string) error {
	var md strings.Builder
	rep.markdown(&md)
	return perf.WriteReport(path, md.String(), rep)
}
