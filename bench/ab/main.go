// Command ab is rubi's A/B harness: agent sessions with and without rubi
// on chained tasks, each run by the real agent CLI (Claude Code, Codex
// CLI) and measured from the log the agent wrote: steps, tokens by kind,
// context re-read, wall time and cost.
//
//	go run -C bench ./ab                      # the task set, both agents, three arms, against the scripted mock
//	go run -C bench ./ab -short               # its first chain's first two tasks, once (the test suite runs it)
//	go run -C bench ./ab -real -agents claude -runs 3 -mirrors DIR   # the real model: costs money (bench/ab/README.md)
//
// The arms: none (the agent alone), map (rubi installed as a user
// installs it, an empty graph) and mature (the same, with a graph of notes
// from the start). Without -real the model is a loopback mock playing
// each task's script (internal/mockapi): it checks the plumbing and the
// accounting, not the model. The report (markdown and JSON) gives every
// figure per arm and task, medians over -runs, each beside its relative
// difference with the arm without rubi.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/rubi-dev/rubi/bench/internal/perf"
	"github.com/rubi-dev/rubi/internal/mockapi"
)

type options struct {
	tasks   string
	chains  []string
	agents  []string
	arms    []string
	runs    int
	short   bool
	real    bool
	mirrors string
	claude  string
	codex   string
	// models by agent
	models  map[string]string
	rubi    string
	out     string
	timeout time.Duration
	sandbox string
	// keep keeps the run's temporary folder (the projects, the agents'
	// homes and logs) for inspection.
	keep bool
	// root is the checkout the harness runs from.
	root string
	// log gets a line per session.
	log func(format string, args ...any)
}

func main() {
	o := options{models: map[string]string{}}
	var chains, agentsFlag, arms, claudeModel, codexModel string
	flag.StringVar(&o.tasks, "tasks", "", "the task file (default bench/ab/tasks.hcl)")
	flag.StringVar(&chains, "chains", "", "run only these chains, comma-separated (default all; -short: the first)")
	flag.StringVar(&agentsFlag, "agents", "claude,codex", "the agent CLIs to run: claude, codex")
	flag.StringVar(&arms, "arms", "none,map,mature", "the arms: none, map, mature")
	flag.IntVar(&o.runs, "runs", 1, "runs of each chain per arm; the report gives medians")
	flag.BoolVar(&o.short, "short", false, "smoke run: the first chain's first two tasks, one run")
	flag.BoolVar(&o.real, "real", false, "run against the real model APIs (needs ANTHROPIC_API_KEY / OPENAI_API_KEY; costs money)")
	flag.StringVar(&o.mirrors, "mirrors", os.Getenv("RUBI_MIRRORS"), "the folder of OWNER+NAME/repo bare git repositories the chains' mirror names")
	flag.StringVar(&o.claude, "claude", "", "the Claude Code CLI (default the pinned one of agent/connect/testdata/claude, else claude on PATH)")
	flag.StringVar(&o.codex, "codex", "", "the Codex CLI (default the pinned one of agent/connect/testdata/codex, else codex on PATH)")
	flag.StringVar(&claudeModel, "claude-model", "claude-sonnet-4-5", "Claude Code's model")
	flag.StringVar(&codexModel, "codex-model", "gpt-5", "Codex's model")
	flag.StringVar(&o.rubi, "rubi", "", "a folder holding rubi, rubi-hook, rubi-mcp and rubi-full (default: built from this checkout)")
	flag.StringVar(&o.out, "out", "", "where the report goes (default the checkout's bench/results)")
	flag.DurationVar(&o.timeout, "timeout", 0, "the longest one session may take (default 2m against the mock, 20m with -real)")
	flag.StringVar(&o.sandbox, "codex-sandbox", "workspace-write", "Codex's --sandbox for the sessions")
	flag.BoolVar(&o.keep, "keep", false, "keep the run's temporary folder (projects, agents' homes and logs) and print where it is")
	flag.Parse()
	o.chains = list(chains)
	o.agents = list(agentsFlag)
	o.arms = list(arms)
	o.models["claude"], o.models["codex"] = claudeModel, codexModel
	o.log = func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
	root, err := perf.Checkout()
	if err == nil {
		o.root = root
		if o.out == "" {
			o.out = filepath.Join(root, "bench", "results")
		}
		// Ctrl-C stops the session under way (its process group is
		// killed), the mocks and the run's folder go.
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		var rep *report
		rep, err = run(ctx, o)
		if err == nil {
			var md string
			md, err = rep.write(o.out)
			if err == nil {
				fmt.Println(md)
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/ab:", err)
		os.Exit(1)
	}
}

func list(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// harness is one run's state.
type harness struct {
	o        options
	work     string // the run's temporary folder
	rubiDir  string
	basePath string

	script    *scripted
	messages  *mockapi.Messages
	responses *mockapi.Responses
	// other counts the requests beyond the mocks already reported.
	other    int
	sessions int
}

// check validates the options before anything runs.
func (o *options) check() error {
	if o.runs < 1 {
		return fmt.Errorf("-runs %d: at least one run", o.runs)
	}
	if o.short {
		o.runs = 1
	}
	if o.timeout == 0 {
		o.timeout = 2 * time.Minute
		if o.real {
			o.timeout = 20 * time.Minute
		}
	}
	if len(o.agents) == 0 || len(o.arms) == 0 {
		return errors.New("-agents and -arms name at least one each")
	}
	for _, a := range o.agents {
		if !slices.Contains(agentNames, a) {
			return fmt.Errorf("-agents: %q is not one of %s", a, strings.Join(agentNames, ", "))
		}
		if o.real && os.Getenv(keyFor(a)) == "" && (a != "codex" || os.Getenv("CODEX_API_KEY") == "") {
			return fmt.Errorf("-real runs %s against the real API: set %s", agentTitle(a), keyFor(a))
		}
	}
	for _, a := range o.arms {
		if !slices.Contains(armNames, a) {
			return fmt.Errorf("-arms: %q is not one of %s", a, strings.Join(armNames, ", "))
		}
	}
	if !slices.Contains(o.arms, armNone) {
		return errors.New("-arms: the report compares every arm with none: keep it")
	}
	if o.tasks == "" {
		o.tasks = filepath.Join(o.root, "bench", "ab", "tasks.hcl")
	}
	return nil
}

// run runs every session and returns the report.
func run(ctx context.Context, o options) (*report, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	ts, err := loadTasks(o.tasks)
	if err != nil {
		return nil, err
	}
	chains, err := pick(ts, o)
	if err != nil {
		return nil, err
	}
	h := &harness{o: o}
	if h.work, err = os.MkdirTemp("", "rubi-ab-"); err != nil {
		return nil, err
	}
	if o.keep {
		o.log("keeping the run's folder %s", h.work)
	} else {
		defer os.RemoveAll(h.work)
	}
	if err := h.prepare(); err != nil {
		return nil, err
	}
	defer h.close()

	rep := &report{Date: time.Now().UTC().Format("2006-01-02"), Real: o.real, Runs: o.runs, Short: o.short, Tasks: relTo(o.root, ts.Path)}
	for _, name := range o.agents {
		a, err := h.agent(ctx, name)
		if err != nil {
			return nil, err
		}
		rep.Agents = append(rep.Agents, agentInfo{Name: a.Name, Title: a.Title, Version: a.Version, Model: a.Model})
		for _, c := range chains {
			if err := h.chain(ctx, a, c, rep); err != nil {
				return nil, err
			}
		}
	}
	rep.summarize(o.arms)
	return rep, nil
}

// pick selects the chains and tasks the options ask for.
func pick(ts *taskSet, o options) ([]*chain, error) {
	var out []*chain
	for _, c := range ts.Chains {
		if len(o.chains) > 0 && !slices.Contains(o.chains, c.Name) {
			continue
		}
		out = append(out, c)
	}
	for _, want := range o.chains {
		if !slices.ContainsFunc(ts.Chains, func(c *chain) bool { return c.Name == want }) {
			return nil, fmt.Errorf("-chains: %s has no chain %q", ts.Path, want)
		}
	}
	if o.short && len(out) > 0 {
		c := *out[0]
		c.Tasks = c.Tasks[:min(2, len(c.Tasks))]
		out = []*chain{&c}
	}
	return out, nil
}

// prepare finds or builds rubi, sets PATH up, and starts the mocks.
func (h *harness) prepare() error {
	h.basePath = basePath(h.o.root)
	if h.o.rubi != "" {
		if _, err := os.Stat(filepath.Join(h.o.rubi, "rubi")); err != nil {
			return fmt.Errorf("-rubi %s: no rubi there", h.o.rubi)
		}
		h.rubiDir = h.o.rubi
	} else {
		h.rubiDir = filepath.Join(h.work, "bin")
		h.o.log("building rubi from %s", h.o.root)
		cmd := exec.Command("go", "build", "-o", h.rubiDir+string(os.PathSeparator), "./cmd/...")
		cmd.Dir = h.o.root
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build ./cmd/...: %v\n%s", err, out)
		}
	}
	if h.o.real {
		return nil
	}
	h.script = &scripted{}
	var err error
	if slices.Contains(h.o.agents, "claude") {
		if h.messages, err = mockapi.NewMessages(h.script.claude); err != nil {
			return err
		}
	}
	if slices.Contains(h.o.agents, "codex") {
		if h.responses, err = mockapi.NewResponses(h.script.codex); err != nil {
			return err
		}
	}
	return nil
}

// close stops the mocks.
func (h *harness) close() {
	if h.messages != nil {
		h.messages.Close()
	}
	if h.responses != nil {
		h.responses.Close()
	}
}

// basePath is the sessions' PATH: the user's, without any folder holding
// a rubi (the arm without rubi must not find one; the others get the one
// built for the run first), with the checkout's Node.js 22 first where
// make test installed it (testdata/node; the pinned Claude Code needs 22).
func basePath(root string) string {
	var dirs []string
	if node := filepath.Join(root, "testdata", "node", "node_modules", ".bin"); isFile(filepath.Join(node, "node")) {
		dirs = append(dirs, node)
	}
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if d != "" && !isFile(filepath.Join(d, "rubi")) {
			dirs = append(dirs, d)
		}
	}
	return strings.Join(dirs, string(os.PathListSeparator))
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// agent finds an agent's CLI and asks its version.
func (h *harness) agent(ctx context.Context, name string) (*agent, error) {
	a := &agent{Name: name, Title: agentTitle(name), Model: h.o.models[name]}
	a.Bin = h.o.claude
	if name == "codex" {
		a.Bin = h.o.codex
	}
	if a.Bin == "" {
		a.Bin = pinnedCLI(h.o.root, name)
	}
	if a.Bin == "" {
		return nil, fmt.Errorf("%s: not found: run `(cd agent/connect/testdata/%s && npm ci)` (make test does), or give -%s PATH", a.Title, name, name)
	}
	v, err := h.version(ctx, a)
	if err != nil {
		return nil, err
	}
	a.Version = v
	return a, nil
}

// pinnedCLI is the CLI the tests pin (agent/connect/testdata/NAME), else the one
// on PATH, else "".
func pinnedCLI(root, name string) string {
	if p := filepath.Join(root, "agent", "connect", "testdata", name, "node_modules", ".bin", name); isFile(p) {
		return p
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	return ""
}

func relTo(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return p
}

// chain runs a chain for every arm and run, appending its sessions to rep.
func (h *harness) chain(ctx context.Context, a *agent, c *chain, rep *report) error {
	src, err := h.source(c)
	if err != nil {
		return err
	}
	commit, err := gitOutput(src, "rev-parse", "--verify", c.Rev+"^{commit}")
	if err != nil {
		return fmt.Errorf("%s: chain %q: revision %s of %s: %w", c.Where, c.Name, c.Rev, src, err)
	}
	seed := c.Knowledge
	if slices.Contains(h.o.arms, armMature) && seed == "" && !slices.Contains(h.o.arms, armMap) {
		return fmt.Errorf("%s: chain %q has no knowledge folder, so the mature arm starts from the graph the map arm leaves: run -arms with map too", c.Where, c.Name)
	}
	for run := 1; run <= h.o.runs; run++ {
		for _, arm := range h.o.arms {
			dir, err := os.MkdirTemp(h.work, a.Name+"-"+arm+"-")
			if err != nil {
				return err
			}
			project, home := filepath.Join(dir, c.Name), filepath.Join(dir, "home")
			armSeed := ""
			if arm == armMature {
				armSeed = seed
			}
			if err := copyProject(src, commit, project, armSeed); err != nil {
				return fmt.Errorf("chain %q: %w", c.Name, err)
			}
			if err := newHome(home); err != nil {
				return err
			}
			if err := h.setupHome(ctx, a, home, project, arm != armNone); err != nil {
				return fmt.Errorf("%s, chain %q, arm %s: %w", a.Title, c.Name, arm, err)
			}
			for _, t := range c.Tasks {
				s, err := h.runSession(ctx, a, c, t, arm, run, home, project)
				if err != nil {
					return err
				}
				h.o.log("%s %s/%s %s run %d: %d calls, %d tool calls, re-read %d, %.1f s", a.Name, c.Name, t.Name, arm, run, s.Calls, s.ToolCalls, s.ReRead, s.Wall)
				rep.Sessions = append(rep.Sessions, s)
			}
			if arm == armMap && run == 1 && c.Knowledge == "" {
				// The mature arm starts from the graph this run left.
				seed = filepath.Join(h.work, "seed-"+a.Name+"-"+c.Name)
				if err := os.MkdirAll(seed, 0o755); err != nil {
					return err
				}
				if kn := filepath.Join(project, ".rubi", "knowledge"); isDir(kn) {
					if err := perf.CopyTree(kn, seed); err != nil {
						return err
					}
				}
				h.o.log("%s, chain %s: the mature arm starts from the map arm's first run's graph: %d note(s)", a.Title, c.Name, countMarkdown(seed))
			}
			// The project and its home go: nothing of a run outlives it.
			if !h.o.keep {
				if err := os.RemoveAll(dir); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
