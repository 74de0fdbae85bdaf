package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi"
	"github.com/rubi-dev/rubi/agents"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/hooks"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/core/store"
	"github.com/rubi-dev/rubi/internal/programs"
)

// installFix is the command that installs rubi's four programs together
// (the README's), and from a clone.
const installFix = "go install github.com/rubi-dev/rubi/cmd/...@latest (from a clone: go install ./cmd/...)"

// Doctor's limits: how long a program may take to answer (the machine
// may be busy), how much of hooks.log is read (its end), how far back an
// error counts, how many are shown.
const (
	doctorTimeout  = 20 * time.Second
	doctorLogTail  = 256 << 10
	doctorLogSince = 24 * time.Hour
	doctorLogShown = 3
)

// doctorCheck is one finding of rubi doctor: ok, or a problem with the
// command that fixes it.
type doctorCheck struct {
	// Check is the group: programs, config, index, agents, hooks.log,
	// fixed cost.
	Check  string `json:"check"`
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// doctorReport is rubi doctor --json.
type doctorReport struct {
	Version  string        `json:"version"`
	Root     string        `json:"root"`
	Checks   []doctorCheck `json:"checks"`
	Problems int           `json:"problems"`
}

func (r *doctorReport) ok(check, name, detail string) {
	r.Checks = append(r.Checks, doctorCheck{Check: check, Name: name, OK: true, Detail: detail})
}

func (r *doctorReport) problem(check, name, detail, fix string) {
	r.Checks = append(r.Checks, doctorCheck{Check: check, Name: name, Detail: detail, Fix: fix})
	r.Problems++
}

// newDoctorCmd is rubi doctor: the installation's self-check.
func newDoctorCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Check rubi's programs, index, agent connections and hook errors; each problem with its fix",
		Long: `doctor checks that rubi works here, and changes nothing:
  programs   rubi-hook, rubi-mcp and rubi-full beside rubi or on PATH, and
             the rubi on PATH, each answering with rubi's version;
  config     the project's rubi.hcl loads;
  index      the index is built and sound (as rubi status checks it);
  agents     every agent file that starts rubi (MCP entries, hooks; the
             project's and the user's) names programs that exist, and
             Codex trusts a project whose .codex/config.toml starts rubi;
  hooks.log  no hook error was logged in .rubi/hooks.log in the last 24 hours;
  fixed cost what rubi's MCP tools cost in every message, within its limit.
Each problem is printed with the command that fixes it. The exit status is
0 when there is no problem, 1 when there is one.`,
		Example: "  rubi doctor\n  rubi doctor --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, err := g.projectRoot()
			if err != nil {
				return err
			}
			r := &doctorReport{Version: rubi.Version, Root: root, Checks: []doctorCheck{}}
			mcp := doctorPrograms(cmd.Context(), r)
			g.doctorIndex(cmd.Context(), r, root)
			doctorAgents(r, root)
			doctorHookLog(r, root, time.Now())
			doctorCost(cmd.Context(), r, root, mcp)
			if g.json {
				if err := writeJSON(g.stdout, r); err != nil {
					return err
				}
			} else {
				writeDoctor(g.stdout, r)
			}
			if r.Problems > 0 {
				return &exitError{code: 1}
			}
			return nil
		},
	}
}

// writeDoctor prints the report grouped by check, ✓ or ✗ on each line,
// a problem's fix under it.
func writeDoctor(w io.Writer, r *doctorReport) {
	fmt.Fprintf(w, "rubi doctor %s, project %s\n", r.Version, r.Root)
	group := ""
	for _, c := range r.Checks {
		if c.Check != group {
			group = c.Check
			fmt.Fprintf(w, "\n%s\n", group)
		}
		mark := "✓"
		if !c.OK {
			mark = "✗"
		}
		fmt.Fprintf(w, "  %s %s: %s\n", mark, c.Name, c.Detail)
		if c.Fix != "" {
			fmt.Fprintf(w, "      fix: %s\n", c.Fix)
		}
	}
	switch r.Problems {
	case 0:
		fmt.Fprintln(w, "\nno problem found")
	case 1:
		fmt.Fprintln(w, "\n1 problem")
	default:
		fmt.Fprintf(w, "\n%d problems\n", r.Problems)
	}
}

// doctorPrograms checks rubi's programs: each one found as rubi finds it
// (beside the running rubi, else on PATH) and answering with rubi's
// version, and the rubi on PATH, which agents connected by name start.
// It returns rubi-mcp's path, or "".
func doctorPrograms(ctx context.Context, r *doctorReport) string {
	const check = "programs"
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		r.problem(check, "rubi", "cannot find the running rubi's executable: "+err.Error(), installFix)
	} else {
		r.ok(check, "rubi", rubi.Version+" ("+exe+")")
	}
	switch path, err := exec.LookPath("rubi"); {
	case err != nil:
		r.ok(check, "rubi on PATH", "none: agents must start rubi by its path (rubi connect writes it)")
	case exe != "" && sameExecutable(path, exe):
		r.ok(check, "rubi on PATH", path+" (this one)")
	default:
		doctorVersion(ctx, r, check, "rubi on PATH", path, "version")
	}
	mcpPath := ""
	for _, p := range []struct{ name, flag string }{{programs.Hook, "version"}, {programs.MCP, "--version"}, {programs.Full, "version"}} {
		path, ok := "", false
		if exe != "" {
			path, ok = programs.Beside(exe, p.name)
		}
		if !ok {
			if lp, err := exec.LookPath(p.name); err == nil {
				path, ok = lp, true
			}
		}
		if !ok {
			where := "on PATH"
			if exe != "" {
				where = "beside " + exe + " nor on PATH"
			}
			r.problem(check, p.name, "missing: not "+where, installFix)
			continue
		}
		if doctorVersion(ctx, r, check, p.name, path, p.flag) && p.name == programs.MCP {
			mcpPath = path
		}
	}
	return mcpPath
}

// doctorVersion runs a program's version command and checks it answers
// with rubi's version; it reports whether the program ran.
func doctorVersion(ctx context.Context, r *doctorReport, check, name, path, flag string) bool {
	out, err := runProgram(ctx, path, flag)
	f := strings.Fields(out)
	if err != nil || len(f) < 2 {
		r.problem(check, name, fmt.Sprintf("%s does not answer %q: %s", path, flag, errText(err, out)), installFix)
		return false
	}
	if f[1] != rubi.Version {
		r.problem(check, name, fmt.Sprintf("%s is version %s, this rubi is %s", path, store.EscapeLine(f[1]), rubi.Version), installFix)
		return true
	}
	r.ok(check, name, f[1]+" ("+path+")")
	return true
}

// runProgram runs path with args, its output capped, within doctor's
// timeout.
func runProgram(ctx context.Context, path string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, doctorTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	var out, errb capped
	out.max, errb.max = 1<<20, 4<<10
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if err != nil && errb.Len() > 0 {
		err = fmt.Errorf("%w: %s", err, store.EscapeLine(strings.TrimSpace(errb.String())))
	}
	return out.String(), err
}

// capped is a buffer that keeps its first max bytes.
type capped struct {
	bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func errText(err error, out string) string {
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("unexpected answer %q", store.EscapeLine(strings.TrimSpace(out)))
}

func sameExecutable(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// doctorIndex checks the configuration loads and the index is built and
// sound, as rubi status sees it.
func (g *globals) doctorIndex(ctx context.Context, r *doctorReport, root string) {
	cfg, diags := config.Load(config.Options{Root: root, Extra: g.configs})
	if diags.HasErrors() {
		var b strings.Builder
		config.WriteDiagnostics(&b, nil, diags)
		r.problem("config", "rubi.hcl", strings.TrimSpace(b.String()), "rubi config check")
		r.problem("index", "index", "not checked: the configuration does not load", "rubi config check")
		return
	}
	r.ok("config", "rubi.hcl", "loads")
	eng := pipeline.New(cfg, g.logger)
	defer eng.Close()
	fix := "rubi index"
	if g.root != "" {
		fix += " --root " + agents.ShellQuote(root)
	}
	is := eng.Status(ctx, time.Now()).Index
	var why []string
	for _, rk := range is.Rankers {
		if rk.State != pipeline.IndexOK && rk.State != "not checked" {
			s := rk.Name + " " + rk.State
			if rk.Error != "" {
				s += ": " + rk.Error
			}
			why = append(why, s)
		}
	}
	switch {
	case is.State == pipeline.IndexNone:
		r.problem("index", "index", "never built", fix)
	case is.State == pipeline.IndexDamaged:
		r.problem("index", "index", "damaged: "+strings.Join(why, "; "), fix)
	case len(why) > 0:
		r.problem("index", "index", "outdated: "+strings.Join(why, "; "), fix)
	default:
		detail := fmt.Sprintf("%d files, %d nodes, indexed %s ago", is.Files, is.Nodes, (time.Duration(is.AgeSeconds) * time.Second).String())
		if is.NotesChanged {
			detail += "; notes changed since (the next query catches up)"
		}
		r.ok("index", "index", detail)
	}
}

// doctorAgents checks every agent file that starts rubi, the project's
// and the user's: each program it names exists (a path that is an
// executable file, a name PATH finds), and Codex trusts a project whose
// .codex/config.toml starts rubi.
func doctorAgents(r *doctorReport, root string) {
	const check = "agents"
	home, _ := os.UserHomeDir()
	found := false
	for _, scope := range []agents.Scope{agents.ScopeProject, agents.ScopeGlobal} {
		o := agents.ConnectOptions{Project: root, Home: home, Scope: scope}
		codexHere := false
		for _, e := range agents.Entries(o) {
			found = true
			fix := "rubi connect " + e.Agent
			switch {
			case e.Agent == "claude-code":
				fix = "rubi install --hooks"
			case scope == agents.ScopeGlobal:
				fix += " --global"
			}
			name := e.Agent + " (" + string(scope) + ")"
			if e.Problem != "" {
				r.problem(check, name, "cannot read "+e.Path+": "+store.EscapeLine(e.Problem), "correct "+e.Path+", then "+fix)
				continue
			}
			var missing []string
			for _, c := range e.Commands {
				if why := commandMissing(c); why != "" {
					missing = append(missing, why)
				}
			}
			if len(missing) > 0 {
				r.problem(check, name, e.Path+" starts "+strings.Join(missing, ", "), fix)
				continue
			}
			r.ok(check, name, e.Path+" starts "+store.EscapeLine(strings.Join(e.Commands, ", ")))
			codexHere = codexHere || e.Agent == "codex" && scope == agents.ScopeProject
		}
		if codexHere {
			switch trusted, path, err := agents.CodexTrusted(o); {
			case err != nil:
				r.problem(check, "codex trust", "cannot read "+path+": "+store.EscapeLine(firstLineOf(err.Error())), "correct "+path)
			case !trusted:
				key := fmt.Sprintf("[projects.%q]", root)
				r.problem(check, "codex trust", "Codex does not trust "+root+", so it ignores the project's .codex/config.toml",
					fmt.Sprintf("printf '%%s\\n' %s 'trust_level = \"trusted\"' >> %s (or start codex there and trust the folder)", agents.ShellQuote(key), agents.ShellQuote(path)))
			default:
				r.ok(check, "codex trust", "Codex trusts "+root+" ("+path+")")
			}
		}
	}
	if !found {
		r.ok(check, "agents", "no agent's configuration starts rubi (rubi connect lists the agents)")
	}
}

// commandMissing says why an agent cannot start the program cmd, or "".
func commandMissing(cmd string) string {
	q := store.EscapeLine(cmd)
	if !strings.ContainsAny(cmd, `/\`) {
		if _, err := exec.LookPath(cmd); err != nil {
			return q + ", which is not on PATH"
		}
		return ""
	}
	fi, err := os.Stat(cmd)
	switch {
	case err != nil:
		return q + ", which no longer exists"
	case !fi.Mode().IsRegular() || runtime.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0:
		return q + ", which is not an executable file"
	}
	return ""
}

func firstLineOf(s string) string { return strings.SplitN(s, "\n", 2)[0] }

// doctorHookLog looks for errors the hooks logged in .rubi/hooks.log in
// the last 24 hours (lines that start with their time, as the hooks write
// them). The file is the project's, so untrusted: only a regular file in
// a .rubi/ folder that is not a link is read, its last 256 KiB, and what
// is shown is escaped.
func doctorHookLog(r *doctorReport, root string, now time.Time) {
	const check = "hooks.log"
	dir := filepath.Join(root, pipeline.DataDir)
	path := filepath.Join(dir, hooks.LogName)
	if fi, err := os.Lstat(dir); err == nil && !fi.IsDir() {
		r.problem(check, "hooks.log", dir+" is not a folder (a link or a file): hooks log nothing there", "rm "+agents.ShellQuote(dir))
		return
	}
	lfi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		r.ok(check, "hooks.log", "no hook error logged")
		return
	}
	if err == nil && !lfi.Mode().IsRegular() {
		r.problem(check, "hooks.log", path+" is not a regular file (a link?): hooks do not write it", "rm "+agents.ShellQuote(path))
		return
	}
	var f *os.File
	if err == nil {
		f, err = store.OpenRegular(path)
	}
	if err != nil {
		r.problem(check, "hooks.log", "cannot read "+path+": "+err.Error(), "ls -l "+agents.ShellQuote(path))
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !os.SameFile(fi, lfi) {
		r.problem(check, "hooks.log", path+" changed while it was opened", "rubi doctor")
		return
	}
	start := max(0, fi.Size()-doctorLogTail)
	data, err := io.ReadAll(io.NewSectionReader(f, start, fi.Size()-start))
	if err != nil {
		r.problem(check, "hooks.log", "cannot read "+path+": "+err.Error(), "ls -l "+agents.ShellQuote(path))
		return
	}
	if start > 0 { // the first line is cut
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:]
		}
	}
	var recent []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), doctorLogTail+1)
	for sc.Scan() {
		stamp, _, ok := strings.Cut(sc.Text(), " ")
		at, err := time.Parse(time.RFC3339, stamp)
		if ok && err == nil && now.Sub(at) < doctorLogSince && at.Before(now.Add(time.Hour)) {
			recent = append(recent, sc.Text())
		}
	}
	if len(recent) == 0 {
		r.ok(check, "hooks.log", "no hook error in the last 24 hours")
		return
	}
	shown := recent[max(0, len(recent)-doctorLogShown):]
	for i, l := range shown {
		if len(l) > 300 {
			l = l[:300] + "…"
		}
		shown[i] = store.EscapeLine(l)
	}
	r.problem(check, "hooks.log", fmt.Sprintf("%d hook error(s) in the last 24 hours; the last: %s", len(recent), strings.Join(shown, " · ")),
		"read "+path+" (an error stops counting 24 hours after it was logged)")
}

// doctorCost measures the MCP tools' fixed cost with rubi-mcp --cost.
func doctorCost(ctx context.Context, r *doctorReport, root, mcp string) {
	const check = "fixed cost"
	if mcp == "" {
		r.ok(check, "MCP tools", "not measured: "+programs.MCP+" does not run (see programs)")
		return
	}
	out, err := runProgram(ctx, mcp, "--cost", "--json", "--root", root)
	var c struct {
		Total int `json:"total"`
		Limit int `json:"limit"`
	}
	if jerr := json.Unmarshal([]byte(out), &c); jerr != nil || c.Limit == 0 {
		r.problem(check, "MCP tools", "rubi mcp --cost failed: "+errText(err, out), "rubi mcp --cost")
		return
	}
	detail := fmt.Sprintf("~%d tokens in every message (limit %d)", c.Total, c.Limit)
	if c.Total > c.Limit {
		r.problem(check, "MCP tools", detail+": over the limit", "rubi mcp --cost (it names what costs most)")
		return
	}
	r.ok(check, "MCP tools", detail)
}
