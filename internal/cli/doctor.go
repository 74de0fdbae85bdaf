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
	"github.com/rubi-dev/rubi/agent/connect"
	"github.com/rubi-dev/rubi/agent/hooks"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/core/project"
	"github.com/rubi-dev/rubi/core/store"
	"github.com/rubi-dev/rubi/internal/programs"
)

// installFix is the command that installs rubi's four programs together
// (the README's), and from a clone.
var installFix = say(messages.DoctorInstallFix, "go install github.com/rubi-dev/rubi/cmd/...@latest", "go install ./cmd/...")

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
	Check string `json:"check"`
	Name  string `json:"name"`
	OK    bool   `json:"ok"`
	// Detail and Fix are in English whatever the language: --json is
	// the same in every language. The terminal's text renders detail and
	// fix in the user's.
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
	detail note
	fix    note
}

// doctorReport is rubi doctor --json.
type doctorReport struct {
	Version  string        `json:"version"`
	Root     string        `json:"root"`
	Checks   []doctorCheck `json:"checks"`
	Problems int           `json:"problems"`
}

func (r *doctorReport) ok(check, name string, detail note) {
	r.Checks = append(r.Checks, doctorCheck{Check: check, Name: name, OK: true, Detail: detail.in(messages.English), detail: detail})
}

// okFix is a check that passes but leaves something to do: its fix is
// said as a problem's is.
func (r *doctorReport) okFix(check, name string, detail, fix note) {
	r.ok(check, name, detail)
	c := &r.Checks[len(r.Checks)-1]
	c.Fix, c.fix = fix.in(messages.English), fix
}

func (r *doctorReport) problem(check, name string, detail, fix note) {
	r.Checks = append(r.Checks, doctorCheck{Check: check, Name: name, Detail: detail.in(messages.English), Fix: fix.in(messages.English), detail: detail, fix: fix})
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
  config     the project's rubi.hcl loads, and the plugins it names run:
             you trusted the project (rubi trust) and nothing changed since;
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
			if g.JSON {
				if err := writeJSON(g.stdout, r); err != nil {
					return err
				}
			} else {
				writeDoctor(g.stdout, g.lang(), r)
			}
			if r.Problems > 0 {
				return &programs.ExitError{Code: 1}
			}
			return nil
		},
	}
}

// writeDoctor prints the report in l, grouped by check, ✓ or ✗ on each
// line, a problem's fix under it; on a terminal, the marks and headings
// in colour.
func writeDoctor(w io.Writer, l messages.Lang, r *doctorReport) {
	st := styleFor(w)
	fmt.Fprintln(w, st.heading(l.Format(messages.DoctorHeader, r.Version, r.Root)))
	group := ""
	for _, c := range r.Checks {
		if c.Check != group {
			group = c.Check
			heading := group
			if k, ok := doctorGroups[group]; ok {
				heading = l.Get(k)
			}
			fmt.Fprintf(w, "\n%s\n", st.heading(heading))
		}
		mark := st.ok("✓")
		if !c.OK {
			mark = st.bad("✗")
		}
		fmt.Fprintf(w, "  %s %s: %s\n", mark, c.Name, c.detail.in(l))
		if !c.fix.isZero() {
			fmt.Fprintln(w, "      "+l.Format(messages.DoctorFix, c.fix.in(l)))
		}
	}
	if r.Problems == 0 {
		fmt.Fprintln(w, "\n"+l.Get(messages.DoctorNoProblem))
	} else {
		fmt.Fprintln(w, "\n"+l.Count(r.Problems, messages.NounProblem))
	}
}

// doctorGroups are the checks' headings in the terminal's text (hooks.log
// is a file's name).
var doctorGroups = map[string]messages.Key{
	"programs":   messages.DoctorGroupPrograms,
	"config":     messages.DoctorGroupConfig,
	"index":      messages.DoctorGroupIndex,
	"agents":     messages.DoctorGroupAgents,
	"fixed cost": messages.DoctorGroupCost,
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
		r.problem(check, "rubi", say(messages.DoctorNoExecutable, err.Error()), installFix)
	} else {
		r.ok(check, "rubi", raw(rubi.Version+" ("+exe+")"))
	}
	switch path, err := exec.LookPath("rubi"); {
	case err != nil:
		r.ok(check, "rubi on PATH", say(messages.DoctorNoRubiOnPath))
	case exe != "" && sameExecutable(path, exe):
		r.ok(check, "rubi on PATH", say(messages.DoctorThisOne, path))
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
			missing := say(messages.DoctorMissing)
			if exe != "" {
				missing = say(messages.DoctorMissingBeside, exe)
			}
			r.problem(check, p.name, missing, installFix)
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
		r.problem(check, name, say(messages.DoctorNoAnswer, path, flag, errText(err, out)), installFix)
		return false
	}
	if f[1] != rubi.Version {
		r.problem(check, name, say(messages.DoctorVersion, path, store.EscapeLine(f[1]), rubi.Version), installFix)
		return true
	}
	r.ok(check, name, raw(f[1]+" ("+path+")"))
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

func errText(err error, out string) note {
	if err != nil {
		return raw(err.Error())
	}
	return say(messages.DoctorUnexpected, store.EscapeLine(strings.TrimSpace(out)))
}

func sameExecutable(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// doctorIndex checks the configuration loads and the index is built and
// sound, as rubi status sees it.
func (g *globals) doctorIndex(ctx context.Context, r *doctorReport, root string) {
	cfg, err := config.LoadChecked(config.Options{Root: root, Extra: g.Configs})
	if err != nil {
		r.problem("config", "rubi.hcl", raw(err.Error()), raw("rubi config check"))
		r.problem("index", "index", say(messages.DoctorNotChecked), raw("rubi config check"))
		return
	}
	g.cfg = cfg
	if _, err := os.Lstat(filepath.Join(root, config.FileName)); errors.Is(err, fs.ErrNotExist) {
		r.ok("config", "rubi.hcl", say(messages.DoctorNoConfig))
	} else {
		r.ok("config", "rubi.hcl", say(messages.DoctorLoads))
	}
	doctorTrust(r, cfg)
	eng := pipeline.New(cfg, g.engineOptions())
	defer eng.Close()
	fix := "rubi index"
	if g.Root != "" {
		fix += " --root " + connect.ShellQuote(root)
	}
	is := eng.Status(ctx, time.Now()).Index
	var why []string
	for _, rk := range is.Rankers {
		if rk.State != pipeline.IndexOK && rk.State != pipeline.IndexNotChecked {
			s := rk.Name + " " + rk.State
			if rk.Error != "" {
				s += ": " + rk.Error
			}
			why = append(why, s)
		}
	}
	switch {
	case is.State == pipeline.IndexNone:
		r.problem("index", "index", say(messages.DoctorNeverBuilt), raw(fix))
	case is.State == pipeline.IndexDamaged:
		r.problem("index", "index", say(messages.DoctorDamaged, strings.Join(why, "; ")), raw(fix))
	case len(why) > 0:
		r.problem("index", "index", say(messages.DoctorOutdated, strings.Join(why, "; ")), raw(fix))
	default:
		age := (time.Duration(is.AgeSeconds) * time.Second).String()
		detail := say(messages.DoctorIndexOK, count{is.Files, messages.NounFile}, count{is.Nodes, messages.NounNode}, age)
		if is.NotesChanged {
			detail = say(messages.DoctorIndexNotesChanged, detail)
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
	for _, scope := range []connect.Scope{connect.ScopeProject, connect.ScopeGlobal} {
		o := connect.ConnectOptions{Project: root, Home: home, Scope: scope}
		codexHere := false
		for _, e := range connect.Entries(o) {
			found = true
			fix := "rubi connect " + e.Agent
			switch {
			case e.Agent == "claude-code":
				fix = "rubi install --hooks"
			case scope == connect.ScopeGlobal:
				fix += " --global"
			}
			name := e.Agent + " (" + string(scope) + ")"
			if e.Problem != "" {
				r.problem(check, name, say(messages.DoctorCannotRead, e.Path, store.EscapeLine(e.Problem)), say(messages.DoctorCorrectThen, e.Path, fix))
				continue
			}
			var missing []any
			for _, c := range e.Commands {
				if why, ok := commandMissing(c); ok {
					missing = append(missing, why)
				}
			}
			if len(missing) > 0 {
				r.problem(check, name, say(messages.DoctorStarts, e.Path, list(missing)), raw(fix))
				continue
			}
			r.ok(check, name, say(messages.DoctorStarts, e.Path, store.EscapeLine(strings.Join(e.Commands, ", "))))
			codexHere = codexHere || e.Agent == "codex" && scope == connect.ScopeProject
		}
		if codexHere {
			switch trusted, path, err := connect.CodexTrusted(o); {
			case err != nil:
				r.problem(check, "codex trust", say(messages.DoctorCannotRead, path, store.EscapeLine(firstLineOf(err.Error()))), say(messages.DoctorCorrect, path))
			case !trusted:
				key := fmt.Sprintf("[projects.%q]", root)
				r.problem(check, "codex trust", say(messages.DoctorCodexUntrusted, root),
					say(messages.DoctorCodexTrustFix, fmt.Sprintf("printf '%%s\\n' %s 'trust_level = \"trusted\"' >> %s", connect.ShellQuote(key), connect.ShellQuote(path))))
			default:
				r.ok(check, "codex trust", say(messages.DoctorCodexTrusted, root, path))
			}
		}
	}
	if !found {
		// Not a problem (rubi works from the command line alone), but
		// what to run is said.
		r.okFix(check, "agents", say(messages.DoctorNoAgents), say(messages.DoctorConnectFix, "rubi connect --list", "rubi install"))
	}
}

// list joins notes and texts with commas, in the language of the note it
// is an argument of.
func list(items []any) note {
	n := say(messages.DoctorList, items[0])
	for _, it := range items[1:] {
		n = say(messages.DoctorListMore, n, it)
	}
	return n
}

// commandMissing says why an agent cannot start the program cmd, and
// whether it cannot.
func commandMissing(cmd string) (note, bool) {
	q := store.EscapeLine(cmd)
	if !strings.ContainsAny(cmd, `/\`) {
		if _, err := exec.LookPath(cmd); err != nil {
			return say(messages.DoctorNotOnPath, q), true
		}
		return note{}, false
	}
	fi, err := os.Stat(cmd)
	switch {
	case err != nil:
		return say(messages.DoctorGone, q), true
	case !fi.Mode().IsRegular() || runtime.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0:
		return say(messages.DoctorNotExecutable, q), true
	}
	return note{}, false
}

func firstLineOf(s string) string { return strings.SplitN(s, "\n", 2)[0] }

// doctorHookLog looks for errors the hooks logged in .rubi/hooks.log in
// the last 24 hours (lines that start with their time, as the hooks write
// them). The file is the project's, so untrusted: only a regular file in
// a .rubi/ folder that is not a link is read, its last 256 KiB, and what
// is shown is escaped.
func doctorHookLog(r *doctorReport, root string, now time.Time) {
	const check = "hooks.log"
	dir := filepath.Join(root, project.DataDir)
	path := filepath.Join(dir, hooks.LogName)
	if fi, err := os.Lstat(dir); err == nil && !fi.IsDir() {
		r.problem(check, "hooks.log", say(messages.DoctorNotAFolder, dir), raw("rm "+connect.ShellQuote(dir)))
		return
	}
	lfi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		r.ok(check, "hooks.log", say(messages.DoctorNoHookError))
		return
	}
	if err == nil && !lfi.Mode().IsRegular() {
		r.problem(check, "hooks.log", say(messages.DoctorNotRegular, path), raw("rm "+connect.ShellQuote(path)))
		return
	}
	var f *os.File
	if err == nil {
		f, err = store.OpenRegular(path)
	}
	if err != nil {
		r.problem(check, "hooks.log", say(messages.DoctorCannotRead, path, err.Error()), raw("ls -l "+connect.ShellQuote(path)))
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !os.SameFile(fi, lfi) {
		r.problem(check, "hooks.log", say(messages.DoctorChanged, path), raw("rubi doctor"))
		return
	}
	start := max(0, fi.Size()-doctorLogTail)
	data, err := io.ReadAll(io.NewSectionReader(f, start, fi.Size()-start))
	if err != nil {
		r.problem(check, "hooks.log", say(messages.DoctorCannotRead, path, err.Error()), raw("ls -l "+connect.ShellQuote(path)))
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
		r.ok(check, "hooks.log", say(messages.DoctorNoRecentError))
		return
	}
	shown := recent[max(0, len(recent)-doctorLogShown):]
	for i, l := range shown {
		if len(l) > 300 {
			l = l[:300] + "…"
		}
		shown[i] = store.EscapeLine(l)
	}
	r.problem(check, "hooks.log", say(messages.DoctorHookErrors, len(recent), strings.Join(shown, " · ")), say(messages.DoctorReadLog, path))
}

// doctorCost measures the MCP tools' fixed cost with rubi-mcp --cost.
func doctorCost(ctx context.Context, r *doctorReport, root, mcp string) {
	const check = "fixed cost"
	if mcp == "" {
		r.ok(check, "MCP tools", say(messages.DoctorNotMeasured, programs.MCP))
		return
	}
	// rubi-mcp chooses the server's language as the server does, from the
	// project's configuration and the environment.
	out, err := runProgram(ctx, mcp, "--cost", "--json", "--root", root)
	var c struct {
		Language string `json:"language"`
		Total    int    `json:"total"`
		Limit    int    `json:"limit"`
	}
	if jerr := json.Unmarshal([]byte(out), &c); jerr != nil || c.Limit == 0 {
		r.problem(check, "MCP tools", say(messages.DoctorCostFailed, errText(err, out)), raw("rubi mcp --cost"))
		return
	}
	lang, _ := messages.Parse(c.Language)
	detail := say(messages.DoctorCost, c.Total, say(messages.LangName(lang)), c.Limit)
	if c.Total > c.Limit {
		r.problem(check, "MCP tools", say(messages.DoctorOverLimit, detail), say(messages.DoctorCostFix))
		return
	}
	r.ok(check, "MCP tools", detail)
}

// doctorTrust reports a project whose plugins did not run for want of
// the user's trust (never given, or gone stale as a file changed), with
// the command that trusts it; a record that cannot be read, with its
// error.
func doctorTrust(r *doctorReport, cfg *config.Config) {
	const check, name = "config", "trust"
	fix := raw(config.TrustCommand(cfg.Root))
	if cfg.Trust.Error != "" {
		r.problem(check, name, raw(store.EscapeLine(cfg.Trust.Error)), fix)
		return
	}
	if len(cfg.Trust.LeftOut) > 0 {
		items := make([]string, len(cfg.Trust.LeftOut))
		for i, lo := range cfg.Trust.LeftOut {
			items[i] = fmt.Sprintf("%s %s (%s)", lo.Kind, lo.Name, lo.Where)
		}
		key := messages.DoctorUntrusted
		if cfg.Trust.Stale {
			key = messages.DoctorTrustStale
		}
		r.problem(check, name, say(key, store.EscapeLine(strings.Join(items, ", "))), fix)
		return
	}
	if len(cfg.Trust.Plugins) > 0 {
		r.ok(check, name, say(messages.DoctorTrusted))
		return
	}
	r.ok(check, name, say(messages.DoctorNoPluginsToTrust))
}
