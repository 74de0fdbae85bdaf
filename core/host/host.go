// Package host opens pipeline stages. A stage named in rubi.hcl is either a
// built-in, which runs in-process at the cost of a function call, or a
// subprocess plugin reached over gRPC (docs/plugin-protocol.md); Open
// returns the same core interface for both. Stages are opened when first
// needed, once per engine, and each gets Setup.OneShot from Options.
//
// The host starts plugin processes through a Launcher it does not link
// (launcher.go): the main of a program that runs plugins (rubi-full,
// rubi-mcp) makes core/subprocess's and hands it down in Options, and
// stops what it started when it exits (programs.Main calls Cleanup).
// Without one, as in rubi and rubi-hook, which start faster for not
// linking gRPC, a plugin fails to start with ErrNoLauncher and its
// built-in runs; StartsPlugins tells such a program beforehand that a
// configuration needs a plugin, so it can hand the run to rubi-full.
//
// Subprocess stages are wrapped in a guard that gives every call a
// deadline (the block's timeout), checks the answers, and on any failure
// (start, crash, hang, garbage) logs one error line naming the plugin and
// its path, kills the process and runs the call again on the built-in of
// the same name or the kind's default (lang.regex, fuse.rrf); a ranker
// with no built-in is left out (ErrUnavailable) and the query goes on
// without it. A plugin that names itself differently from its block is a
// diagnostic at that block; a project's plugins that the user has not
// trusted never reach the host (core/config).
package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/hcl/v2"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/store"
)

// StateDir is where stages keep their state, relative to the project root.
const StateDir = ".rubi/index"

// Opened describes a stage this host has opened, for `rubi plugins` and for
// tests that must know how a stage ran.
type Opened struct {
	Name       string    `json:"name"`
	Kind       core.Kind `json:"kind"`
	Version    string    `json:"version"`
	Subprocess bool      `json:"subprocess"`
	Path       string    `json:"path,omitempty"`
	PID        int       `json:"pid,omitempty"`
	// FellBack is set when the plugin failed and a built-in took over.
	FellBack string `json:"fell_back_to,omitempty"`
}

// Host starts and stops the stages of one rubi process.
type Host struct {
	cfg      *config.Config
	logger   hclog.Logger
	launcher Launcher
	oneShot  bool

	mu       sync.Mutex
	plugins  []Plugin
	opened   []*Opened
	problems []string
}

// Options are what the program running a host decides for it.
type Options struct {
	// Logger receives the stages' problems and the plugins' log lines;
	// nil discards them.
	Logger hclog.Logger
	// Launcher starts the subprocess plugins cfg names: the one the
	// program's main made (core/subprocess). nil in a program that does
	// not link the plugin transport: a plugin then fails to start with
	// ErrNoLauncher and its built-in runs.
	Launcher Launcher
	// OneShot says the process answers once and exits: every stage is
	// told so (core.Setup.OneShot).
	OneShot bool
}

// New returns a host for cfg. Close must be called to stop its plugins.
func New(cfg *config.Config, o Options) *Host {
	logger := o.Logger
	if logger == nil {
		logger = hclog.NewNullLogger()
	}
	return &Host{cfg: cfg, logger: logger, launcher: o.Launcher, oneShot: o.OneShot}
}

// minStartTimeout is the least time a plugin gets to start, whatever its
// per-call timeout: spawning, the handshake and TLS setup take longer on a
// busy machine than a tight call budget allows.
const minStartTimeout = 5 * time.Second

// Close stops every plugin process this host started and waits for them.
func (h *Host) Close() {
	h.mu.Lock()
	plugins := h.plugins
	h.plugins = nil
	h.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range plugins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.Stop()
		}()
	}
	wg.Wait()
}

// Opened lists the stages opened so far, in opening order.
func (h *Host) Opened() []Opened {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]Opened, len(h.opened))
	for i, o := range h.opened {
		out[i] = *o
	}
	return out
}

// Problems lists the error lines logged for failing plugins.
func (h *Host) Problems() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.problems...)
}

// problem logs one error line and keeps it for Problems.
func (h *Host) problem(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	h.mu.Lock()
	h.problems = append(h.problems, msg)
	h.mu.Unlock()
	h.logger.Error(msg)
}

// Open starts the stage st and configures it. Diagnostics point at
// rubi.hcl; a subprocess plugin that cannot start is not a diagnostic but a
// problem: it is logged, and the built-in fallback of its kind is returned
// when there is one.
func (h *Host) Open(ctx context.Context, st *config.Stage) (core.Stage, hcl.Diagnostics) {
	if st.Plugin == "" {
		return h.openBuiltin(ctx, st, st)
	}
	stage, diags, err := h.openPlugin(ctx, st)
	if err == nil || diags.HasErrors() {
		return stage, diags
	}
	h.problem("%s; %s", err, h.fallbackNote(st))
	fb, fbDiags := h.openFallback(ctx, st)
	return fb, fbDiags
}

// openBuiltin creates and configures the built-in called st.Name, with
// the settings of block (st itself, or the block of the fallback built-in).
func (h *Host) openBuiltin(ctx context.Context, st, block *config.Stage) (core.Stage, hcl.Diagnostics) {
	b, ok := core.LookupBuiltin(st.Name)
	if !ok || b.Kind != st.Kind {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("Unknown built-in %s", st.Kind),
			Detail:   unknownBuiltin(st.Kind, st.Name),
			Subject:  st.DeclRange.Ptr(),
		}}
	}
	stage := b.Factory()
	info := stage.Info()
	if diags := h.configure(ctx, stage, info, block); diags.HasErrors() {
		return nil, diags
	}
	h.record(&Opened{Name: info.Name, Kind: info.Kind, Version: info.Version})
	return stage, nil
}

// unknownBuiltin says that rubi has no built-in of kind called name: the
// one meant, when name is a typo of one, the built-ins of the kind, and how
// to run a plugin instead.
func unknownBuiltin(kind core.Kind, name string) string {
	var names []string
	for _, b := range core.Builtins() {
		if b.Kind == kind {
			names = append(names, b.Name)
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return fmt.Sprintf(`rubi has no built-in %ss. To run the %s %q as a plugin, add plugin = "path/to/binary" to the block.`, kind, kind, name)
	}
	msg := fmt.Sprintf("rubi has no built-in %s called %q.", kind, name)
	if s := config.Suggest(name, names); s != "" {
		msg += fmt.Sprintf(" Did you mean %q?", s)
	}
	switch len(names) {
	case 1:
		msg += fmt.Sprintf(" The built-in %s is %s.", kind, names[0])
	default:
		msg += fmt.Sprintf(" The built-in %ss are %s and %s.", kind, strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
	}
	return msg + ` To run a plugin, add plugin = "path/to/binary" to the block.`
}

func (h *Host) record(o *Opened) {
	h.mu.Lock()
	h.opened = append(h.opened, o)
	h.mu.Unlock()
}

// configure validates block's settings against info's schema and calls
// Configure, mapping a rejected setting back to its line.
func (h *Host) configure(ctx context.Context, stage core.Stage, info core.Info, block *config.Stage) hcl.Diagnostics {
	settings, diags := block.Settings(info.Schema)
	if diags.HasErrors() {
		return diags
	}
	// A stateless stage gets no folder; the others find theirs made. A
	// read-only .rubi/ or a full disk still answers queries: a stage
	// whose folder cannot be made has no state there to read, and what it
	// would write fails at the index run, which says so.
	var stateDir string
	if !info.Stateless {
		stateDir = filepath.Join(h.cfg.Root, StateDir, info.Name)
		if err := os.MkdirAll(stateDir, 0o755); err != nil && !store.CannotWrite(err) {
			return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot create stage state directory", Detail: err.Error()}}
		}
	}
	err := stage.Configure(ctx, core.Setup{Root: h.cfg.Root, StateDir: stateDir, Settings: settings, OneShot: h.oneShot})
	var se *core.SettingError
	if errors.As(err, &se) {
		return hcl.Diagnostics{block.SettingDiagnostic(se)}
	}
	if err != nil {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("Cannot configure %s %q", block.Kind, block.Name),
			Detail:   err.Error(),
			Subject:  block.DeclRange.Ptr(),
		}}
	}
	return nil
}

// fallbackName is the built-in that takes over when st's plugin fails: the
// built-in of the same name, or else the default of its kind.
func fallbackName(st *config.Stage) string {
	if b, ok := core.LookupBuiltin(st.Name); ok && b.Kind == st.Kind {
		return st.Name
	}
	switch st.Kind {
	case core.KindParser:
		return "lang.regex"
	case core.KindFuser:
		return "fuse.rrf"
	}
	return ""
}

func (h *Host) fallbackNote(st *config.Stage) string {
	if name := fallbackName(st); name != "" {
		return fmt.Sprintf("using the built-in %s instead", name)
	}
	return fmt.Sprintf("continuing without %s", st.Name)
}

// openFallback opens the built-in that replaces a failed plugin, or
// returns nil when its kind has none.
func (h *Host) openFallback(ctx context.Context, st *config.Stage) (core.Stage, hcl.Diagnostics) {
	name := fallbackName(st)
	if name == "" {
		return nil, nil
	}
	block := h.cfg.Stage(st.Kind, name)
	if name == st.Name || block == nil {
		// The plugin's own block (same name) or no block: the built-in's
		// defaults, plus whatever of the block it understands.
		block = &config.Stage{Kind: st.Kind, Name: name, DeclRange: st.DeclRange}
		if name == st.Name {
			block.Attrs = st.Attrs
		}
	}
	fb := &config.Stage{Kind: st.Kind, Name: name, DeclRange: st.DeclRange}
	stage, diags := h.openBuiltin(ctx, fb, block)
	if diags.HasErrors() && name == st.Name {
		// The plugin's settings do not fit the built-in: use its defaults.
		stage, diags = h.openBuiltin(ctx, fb, &config.Stage{Kind: st.Kind, Name: name, DeclRange: st.DeclRange})
	}
	if stage != nil {
		h.mu.Lock()
		for _, o := range h.opened {
			if o.Name == st.Name && o.Subprocess {
				o.FellBack = name
			}
		}
		h.mu.Unlock()
	}
	return stage, diags
}

// PluginError is a subprocess plugin's failure, phrased for one log line.
type PluginError struct {
	// Where is the file:line of the block's plugin attribute, set when
	// the executable was not found: the line to fix.
	Where string
	Stage string
	Path  string
	Op    string
	Err   error
}

func (e *PluginError) Error() string {
	msg := fmt.Sprintf("plugin %s (%s) %s: %v", e.Stage, e.Path, e.Op, e.Err)
	if e.Where != "" {
		msg = e.Where + ": " + msg
	}
	return msg
}

// buildHints say how to build the plugins of this repository when one is
// missing.
var buildHints = map[string]string{
	"rubi-lang-treesitter": "build it with `make plugins` in rubi's repository (cgo and a C compiler)",
}

func (e *PluginError) Unwrap() error { return e.Err }

// where is r's file (relative to the project when inside it) and line.
func (h *Host) where(r *hcl.Range) string {
	if r == nil {
		return ""
	}
	name := r.Filename
	if rel, err := filepath.Rel(h.cfg.Root, name); err == nil && !strings.HasPrefix(rel, "..") {
		name = rel
	}
	return fmt.Sprintf("%s:%d", name, r.Start.Line)
}

// openPlugin starts st's plugin. A non-nil error means the plugin failed
// (the caller falls back); diagnostics mean rubi.hcl is wrong.
func (h *Host) openPlugin(ctx context.Context, st *config.Stage) (core.Stage, hcl.Diagnostics, error) {
	path := st.Plugin
	fail := func(op string, err error) (core.Stage, hcl.Diagnostics, error) {
		return nil, nil, &PluginError{Stage: st.Name, Path: path, Op: op, Err: err}
	}
	if resolved, err := config.FindPlugin(path); err == nil {
		path = resolved
	} else {
		if hint := buildHints[filepath.Base(path)]; hint != "" {
			err = fmt.Errorf("%w; %s", err, hint)
		}
		return nil, nil, &PluginError{Where: h.where(st.PluginRange), Stage: st.Name, Path: path, Op: "failed to start", Err: err}
	}
	if h.launcher == nil {
		return fail("failed to start", ErrNoLauncher)
	}
	p, err := h.launcher.Launch(ctx, st.Kind, path, max(st.Timeout, minStartTimeout), h.logger.Named(st.Name))
	if err != nil {
		return fail("failed to start", err)
	}
	h.mu.Lock()
	h.plugins = append(h.plugins, p)
	h.mu.Unlock()

	callCtx, cancel := context.WithTimeout(ctx, st.Timeout)
	info, err := p.Load(callCtx)
	cancel()
	if err != nil {
		p.Kill()
		return fail("answered Info wrongly", err)
	}
	if info.Name != st.Name {
		p.Kill()
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Plugin name mismatch",
			Detail:   fmt.Sprintf("The plugin at %s calls itself %q, but this block names it %q. Rename the block to %s %q.", path, info.Name, st.Name, st.Kind, info.Name),
			Subject:  st.PluginRange,
		}}, nil
	}
	o := &Opened{Name: info.Name, Kind: info.Kind, Version: info.Version, Subprocess: true, Path: path, PID: p.Pid()}
	g := &guard{host: h, st: st, path: path, plugin: p, stage: p.Remote()}
	callCtx, cancel = context.WithTimeout(ctx, st.Timeout)
	diags := h.configure(callCtx, p.Remote(), info, st)
	cancel()
	if diags.HasErrors() {
		// A crash or hang inside Configure is the plugin's failure, not a
		// mistake in rubi.hcl.
		crashed := p.Exited() || callCtx.Err() == context.DeadlineExceeded
		p.Kill()
		if crashed {
			return fail("failed during Configure", errors.New(diags[0].Detail))
		}
		return nil, diags, nil
	}
	h.record(o)
	return g.typed(), nil, nil
}
