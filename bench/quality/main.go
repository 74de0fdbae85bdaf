// Command quality measures how well rubi's retrieval finds what a question
// is about, through the engine's public API, beside a textbook BM25
// written here as the reference:
//
//   - memory: LoCoMo (long conversations, read from ../shared/data next to
//     the repository; its licence forbids copying it here): every turn a
//     knowledge note, turn recall at 5, 10, 25 and 50, overall and per
//     question category;
//   - code: file localization on Go modules fetched through the Go module
//     proxy: a doc comment with its name masked finds its defining file;
//     Acc@1, Acc@3, Acc@5 and MRR;
//   - self: questions about rubi's own code (testdata/rubi-questions.txt)
//     with the files a maintainer would open, on rubi's committed tree;
//     Acc@1, Acc@3, Acc@5 and MRR, and each question's rank;
//   - swebench: file and function localization of real issues (the
//     SWE-bench dev set, read from ../shared/data too) in their projects'
//     trees at the base commit, read from bare git mirrors
//     (-mirrors or $RUBI_MIRRORS); Acc@1/3/5/10, Recall@5, MRR and
//     function Acc@5/10, beside a file-level and a function-level BM25;
//   - an ablation over whatever rankers the configuration enables (the
//     full pipeline, each ranker off in turn, each alone) and the
//     in-process latency of each;
//   - with -embed-endpoint, the full pipeline with the semantic ranker
//     examples/rank-embed beside it ("full + rank.embed"), its vectors
//     made by the OpenAI-compatible endpoint given (Ollama, llama-server).
//
// It writes a dated markdown report and its JSON twin:
//
//	go run -C bench ./quality                 # everything (about an hour on 2 cores)
//	go run -C bench ./quality -quick          # a smoke run
//	go run -C bench ./quality -memory         # LoCoMo only
//	go run -C bench ./quality -self           # the questions about rubi's own code only
//	go run -C bench ./quality -code -modules github.com/caddyserver/caddy/v2@v2.8.4 -queries 100
//	go run -C bench ./quality -swebench -mirrors DIR -projects psf/requests,pallets/flask
//	go run -C bench ./quality -self -embed-endpoint http://127.0.0.1:11434/v1 -embed-model nomic-embed-text
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/rubi-dev/rubi"
	"github.com/rubi-dev/rubi/bench/internal/perf"
	_ "github.com/rubi-dev/rubi/plugins/standard"
)

// Defaults of a full run.
const (
	defaultModules = "k8s.io/kubernetes@v1.31.0,github.com/hashicorp/terraform@v1.9.8,github.com/prometheus/prometheus@v0.54.1"
	quickModule    = "github.com/caddyserver/caddy/v2@v2.8.4"
	defaultQueries = 150
	quickQueries   = 40
	// locomoPath is where the data lives, relative to the repository root.
	locomoPath = "../shared/data/locomo-dev.json"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	done, err := ownState()
	if err == nil {
		err = run(ctx, os.Args[1:], os.Stderr)
		done()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "quality:", err)
		os.Exit(1)
	}
}

// ownState points the user's state folder (XDG_STATE_HOME), for this
// process and the rubi processes it starts, at a temporary folder of its
// own: every project the benchmark makes would otherwise leave a record
// of the notes it registered in ~/.local/state/rubi/projects. done
// removes the folder.
func ownState() (done func(), err error) {
	dir, err := os.MkdirTemp("", "rubi-quality-state-")
	if err != nil {
		return nil, err
	}
	if err := os.Setenv("XDG_STATE_HOME", dir); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return func() { os.RemoveAll(dir) }, nil
}

// options are the command line.
type options struct {
	memory, code bool
	self         bool
	swebench     bool
	swe          sweOptions
	modules      []string
	queries      int
	out          string
	quick        bool
	locomo       string
	configs      []string
	seed         uint64
	keep         bool
	cpuprofile   string
	// ablation runs every variant; without it only the full pipeline is
	// measured (a quicker run while tuning).
	ablation bool
	// embed, when it names an endpoint, adds the rank.embed system.
	embed embedOptions
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("quality", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&o.memory, "memory", false, "run the memory (LoCoMo) part; given alone, only that part (-memory=false: all but it)")
	fs.BoolVar(&o.code, "code", false, "run the code localization part; given alone, only that part (-code=false: all but it)")
	fs.BoolVar(&o.self, "self", false, "run the questions about rubi's own code; given alone, only that part (-self=false: all but it)")
	modules := fs.String("modules", "", "comma-separated MODULE@VERSION list for the code part (default "+defaultModules+"; with -quick, "+quickModule+")")
	fs.IntVar(&o.queries, "queries", 0, fmt.Sprintf("code queries per module (default %d; with -quick, %d)", defaultQueries, quickQueries))
	fs.StringVar(&o.out, "out", "", "report path; the JSON goes beside it (default bench/results/quality-YYYY-MM-DD.md; a run of some parts adds their names, a quick run -quick)")
	fs.BoolVar(&o.quick, "quick", false, "a smoke run: one conversation, one small module, few queries")
	fs.StringVar(&o.locomo, "locomo", "", "LoCoMo data file (default "+locomoPath+" from the repository root)")
	configs := fs.String("config", "", "comma-separated rubi.hcl files layered over the defaults, e.g. to measure a tuning")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the code query sample and of the SWE-bench sample (-instances)")
	fs.BoolVar(&o.keep, "keep", false, "keep the temporary projects and print where they are")
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the run to this file")
	fs.BoolVar(&o.ablation, "ablation", true, "measure every ablation variant (-ablation=false: the full pipeline only, beside the baselines)")
	fs.BoolVar(&o.swebench, "swebench", false, "run the SWE-bench localization part; given alone, only that part (-swebench=false: all but it)")
	fs.StringVar(&o.embed.Endpoint, "embed-endpoint", "", "an OpenAI-compatible embeddings endpoint on this machine (e.g. http://127.0.0.1:11434/v1): adds the system full + rank.embed (examples/rank-embed)")
	fs.StringVar(&o.embed.Model, "embed-model", "nomic-embed-text", "with -embed-endpoint: the embedding model")
	fs.StringVar(&o.embed.QueryPrefix, "embed-query-prefix", "", "with -embed-endpoint: text put before each question (nomic-embed-text: \"search_query: \")")
	fs.StringVar(&o.embed.DocumentPrefix, "embed-document-prefix", "", "with -embed-endpoint: text put before each document (nomic-embed-text: \"search_document: \")")
	sweDone := sweFlags(fs, &o.swe)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q: every option is a flag", fs.Args())
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if err := selectParts(set, map[string]*bool{"memory": &o.memory, "code": &o.code, "swebench": &o.swebench, "self": &o.self}); err != nil {
		return nil, err
	}
	sweDone(o.quick)
	switch {
	case *modules != "":
		o.modules = splitList(*modules)
	case o.quick:
		o.modules = []string{quickModule}
	default:
		o.modules = splitList(defaultModules)
	}
	if o.queries <= 0 {
		o.queries = defaultQueries
		if o.quick {
			o.queries = quickQueries
		}
	}
	for _, c := range splitList(*configs) {
		abs, err := filepath.Abs(c)
		if err != nil {
			return nil, err
		}
		o.configs = append(o.configs, abs)
	}
	return o, nil
}

// selectParts decides which parts run from the part flags given (set)
// and their values: the parts given true run alone; with none given true,
// every part runs but those given false.
func selectParts(set map[string]bool, parts map[string]*bool) error {
	anyOn := false
	for name, on := range parts {
		anyOn = anyOn || (set[name] && *on)
	}
	some := false
	for name, on := range parts {
		if anyOn {
			*on = set[name] && *on
		} else {
			*on = !set[name]
		}
		some = some || *on
	}
	if !some {
		names := make([]string, 0, len(parts))
		for name := range parts {
			names = append(names, "-"+name+"=false")
		}
		sort.Strings(names)
		return errors.New(strings.Join(names, " and ") + " leave nothing to measure")
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for part := range strings.SplitSeq(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
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
	if o.cpuprofile != "" {
		f, err := os.Create(o.cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	started := time.Now()
	date := started.Format("2006-01-02")
	if o.out == "" {
		o.out = filepath.Join(root, "bench", "results", reportName(date, *o))
	}
	progress := func(s string) { fmt.Fprintf(stderr, "%6.1fs %s\n", time.Since(started).Seconds(), s) }

	// The personal vault would add the user's own notes to every project.
	os.Unsetenv("RUBI_VAULT")
	h := &harness{extra: o.configs, logger: hclog.New(&hclog.LoggerOptions{Name: "rubi", Level: hclog.Warn, Output: stderr})}
	work, err := os.MkdirTemp("", "rubi-quality-*")
	if err != nil {
		return err
	}
	h.work = work
	if o.keep {
		defer progress("kept the projects in " + work)
	} else {
		defer os.RemoveAll(work)
	}

	// The ablation sets come from the configuration as it resolves for
	// an empty project: the defaults plus -config layers.
	probe := filepath.Join(work, "probe")
	if err := os.MkdirAll(probe, 0o755); err != nil {
		return err
	}
	cfg, err := h.config(probe, nil)
	if err != nil {
		return err
	}
	rankers := enabledRankers(cfg)
	vs, skipped := variants(rankers)
	vs = append(vs, featureVariants(rankers)...)
	if !o.ablation && len(vs) > 0 {
		vs = vs[:1]
		skipped = append(skipped, "the ablation: -ablation=false measures the full pipeline only")
	}
	if len(vs) == 0 {
		return errors.New("no ranker is enabled: nothing to measure")
	}
	var embed *embedOptions
	if o.embed.Endpoint != "" {
		progress("building examples/rank-embed")
		if o.embed.Plugin, err = buildEmbed(ctx, root, work); err != nil {
			return err
		}
		// Every index the run makes embeds too; only the embed variant
		// queries with it.
		layer, err := h.layer(o.embed.layer())
		if err != nil {
			return err
		}
		h.indexExtra = []string{layer}
		vs = append(vs, embedVariant(vs[0], &o.embed))
		embed = &o.embed
	}
	rep := &report{
		Date: date, Commit: gitCommit(root), Version: rubi.Version, GoVersion: runtime.Version(), CPUs: runtime.NumCPU(),
		Quick: o.quick, Rankers: rankers, Variants: vs, Skipped: skipped, Embed: embed,
		Command: strings.Join(append([]string{"go run -C bench ./quality"}, args...), " "),
	}
	for _, l := range cfg.Layers {
		if strings.HasPrefix(l, "(built-in defaults)") {
			l = "built-in defaults"
		}
		rep.Config = append(rep.Config, l)
	}
	for _, v := range vs {
		progress(fmt.Sprintf("variant %s (%s)", v.Name(), v.Role()))
	}

	if o.memory {
		path := o.locomo
		if path == "" {
			path = filepath.Join(root, locomoPath)
		}
		convs, err := readLoCoMo(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			msg := fmt.Sprintf("the memory part needs the LoCoMo data at %s, which is not there (see bench/README.md).", path)
			progress(msg)
			rep.Missing = append(rep.Missing, msg)
		case err != nil:
			return err
		default:
			if o.quick {
				convs = convs[:min(1, len(convs))]
			}
			progress("memory: building rubi for the CLI path")
			cli, err := newMemoryCLI(ctx, h, root, work)
			if err != nil {
				return err
			}
			if rep.Memory, err = runMemory(ctx, h, cli, work, convs, vs, progress); err != nil {
				return fmt.Errorf("memory: %w", err)
			}
			rep.Memory.Data = filepath.Base(path)
		}
	}
	if o.code {
		if rep.Code, err = runCode(ctx, h, work, o.modules, o.queries, o.seed, vs, progress); err != nil {
			return fmt.Errorf("code: %w", err)
		}
	}
	if o.swebench {
		var missing string
		if rep.SWE, missing, err = runSWE(ctx, h, work, root, o.swe, o.seed, vs, progress); err != nil {
			return fmt.Errorf("swebench: %w", err)
		}
		if missing != "" {
			progress(missing)
			rep.Missing = append(rep.Missing, missing)
		}
	}
	if o.self {
		if rep.Self, err = runSelf(ctx, h, work, root, vs, progress); err != nil {
			return fmt.Errorf("self: %w", err)
		}
	}
	rep.Seconds = time.Since(started).Seconds()
	if err := writeReport(rep, o.out); err != nil {
		return err
	}
	progress("wrote " + o.out)
	return nil
}

func readLoCoMo(path string) ([]conversation, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return loadLoCoMo(f)
}

// writeReport writes the markdown report to path and the JSON beside it.
func writeReport(rep *report, path string) error {
	var md strings.Builder
	rep.markdown(&md)
	return perf.WriteReport(path, md.String(), rep)
}

// reportName is the default report file of a run: a run of some of the
// parts is named for them, so that it does not replace the day's whole
// report.
func reportName(date string, o options) string {
	name := "quality-" + date
	var parts []string
	for _, p := range []struct {
		name string
		on   bool
	}{{"memory", o.memory}, {"code", o.code}, {"swebench", o.swebench}, {"self", o.self}} {
		if p.on {
			parts = append(parts, p.name)
		}
	}
	if len(parts) < 4 {
		name += "-" + strings.Join(parts, "-")
	}
	if o.quick {
		name += "-quick"
	}
	return name + ".md"
}
