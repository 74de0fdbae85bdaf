package hooks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/host"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/pipeline"
	proj "github.com/rubi-dev/rubi/core/project"
	"github.com/rubi-dev/rubi/core/store"
)

// Env is what the handlers need from the outside world; the command line
// fills it with the real thing and tests with fakes.
type Env struct {
	// Getenv reads the environment (os.Getenv when nil).
	Getenv func(string) string
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Config loads the configuration of a project root.
	Config func(root string) (*config.Config, error)
	// Engine returns an engine for a loaded configuration. The handler
	// closes it.
	Engine func(cfg *config.Config) *pipeline.Engine
	// StartIndex starts refreshing the index of root in the background and
	// returns a channel that receives the run's result when it ends. The
	// refresh must outlive the hook's process when it takes long.
	StartIndex func(root string) (<-chan error, error)
	// HandOver answers the hook in another program, given the event the
	// command line named, the payload and where the answer goes: the
	// program that starts the subprocess plugins the project's rubi.hcl
	// names, when this one cannot (host.StartsPlugins). It reports
	// whether that program ran; when it did not, the hook is answered
	// here, with the built-ins in the plugins' place, as when HandOver is
	// nil.
	HandOver func(ctx context.Context, event string, payload []byte, stdout io.Writer) (ran bool, err error)
	// Waits bound how long SessionStart waits for that refresh: Refresh
	// when the project has an index already (the map it has is shown if
	// the refresh is slower), First when it has none. Zero values take
	// the defaults.
	RefreshWait, FirstWait time.Duration
}

// Default waits for the background index at session start. A refresh
// that takes longer keeps running; the session starts with the map of the
// last index.
const (
	DefaultRefreshWait = 100 * time.Millisecond
	DefaultFirstWait   = 5 * time.Second
)

func (env *Env) getenv(k string) string {
	if env.Getenv == nil {
		return os.Getenv(k)
	}
	return env.Getenv(k)
}

func (env *Env) now() time.Time {
	if env.Now == nil {
		return time.Now()
	}
	return env.Now()
}

// handler is one hook run: the payload, the project and what was loaded
// for it.
type handler struct {
	env   *Env
	in    *Input
	event string
	root  string
	cfg   *config.Config
	// lang is the language of what the hook says: the configuration's
	// language setting, else the locale of the agent's environment.
	lang messages.Lang

	engOnce sync.Once
	eng     *pipeline.Engine

	// noHandOver answers here even when HandOver is set: it failed.
	noHandOver bool
}

// errHandOver is run's answer when the hook is another program's to
// answer (Env.HandOver).
var errHandOver = errors.New("handed over")

// engine returns the project's engine, made on first use.
func (h *handler) engine() *pipeline.Engine {
	h.engOnce.Do(func() { h.eng = h.env.Engine(h.cfg) })
	return h.eng
}

// dataDir is the project's .rubi/.
func (h *handler) dataDir() string { return filepath.Join(h.root, proj.DataDir) }

// Run answers one hook: it reads the payload from stdin (all of it),
// handles the event and writes the answer to stdout. It never fails: what
// goes wrong is logged to .rubi/hooks.log when the project has one, and
// the agent gets no answer. arg is the event the command line named.
func Run(ctx context.Context, env Env, arg string, stdin io.Reader, stdout io.Writer) {
	in, err := ReadInput(stdin)
	if err != nil {
		// No payload, no project to log into: the working directory's
		// project, if it has .rubi/, gets the line.
		if wd, werr := os.Getwd(); werr == nil {
			if found := proj.Find(wd); found.Refused == nil {
				logError(filepath.Join(found.Root, proj.DataDir), arg, err)
			}
		}
		return
	}
	agentEvent := EventName(arg, in)
	event := Handler(agentEvent)
	if !handled(event) {
		return
	}
	dir, err := ProjectDir(in, env.getenv)
	if err != nil {
		return
	}
	root, ok := projectRoot(dir, env.getenv)
	if !ok {
		return
	}
	h := &handler{env: &env, in: in, event: event, root: root}
	out, err := h.run(ctx)
	if errors.Is(err, errHandOver) {
		ran, herr := env.HandOver(ctx, arg, in.payload, stdout)
		if ran {
			if herr != nil {
				logError(h.dataDir(), event, herr)
			}
			return
		}
		// The plugins cannot run: say so, and answer with the built-ins.
		logError(h.dataDir(), event, fmt.Errorf("rubi.hcl names a plugin: %w; answering with the built-in stages", herr))
		h.noHandOver = true
		out, err = h.run(ctx)
	}
	if h.eng != nil {
		h.eng.Close()
	}
	if err != nil {
		logError(h.dataDir(), event, err)
		return
	}
	if err := out.Encode(stdout, agentEvent); err != nil {
		logError(h.dataDir(), event, err)
	}
}

func handled(event string) bool {
	for _, e := range Events {
		if e == event {
			return true
		}
	}
	return false
}

// run dispatches the event, turning a panic into an error: a hook must
// not crash in front of the agent.
func (h *handler) run(ctx context.Context) (out Output, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = Output{}, fmt.Errorf("panic: %v", r)
		}
	}()
	if h.event == SessionEnd {
		return Output{}, h.endSession()
	}
	if h.event == PreToolUse && h.fullRead() == "" {
		return Output{}, nil // most tool calls: nothing to guard, no config to read
	}
	cfg, err := h.env.Config(h.root)
	if err != nil {
		return Output{}, err
	}
	// Of the handlers only recall opens stages: a ranker or fuser.
	if h.event == UserPromptSubmit && h.env.HandOver != nil && !h.noHandOver && host.StartsPlugins(cfg, core.KindRanker, core.KindFuser) {
		return Output{}, errHandOver
	}
	h.cfg = cfg
	h.lang = messages.Choose(cfg.Language, h.env.getenv)
	switch h.event {
	case SessionStart:
		out, err := h.sessionStart(ctx)
		// An untrusted project's plugins were left out (core/config):
		// the session's first hook says so once, to the user (hooks.log
		// and the answer's systemMessage), never to the model, and never
		// blocks. The prompts after it fall back the same way in silence.
		if line := cfg.LeftOutLine(h.lang); line != "" && err == nil {
			logError(h.dataDir(), h.event, errors.New(line))
			out.Notice = line
		}
		return out, err
	case UserPromptSubmit:
		return h.userPrompt(ctx)
	case PostToolUse:
		return h.postToolUse(ctx)
	case Stop:
		return h.stop(ctx)
	case PreCompact:
		return Output{}, h.preCompact(ctx)
	case PreToolUse:
		return h.preToolUse(ctx)
	}
	return Output{}, nil
}

// projectRoot finds the project around dir. Hooks act only inside a
// project (proj.Found.IsProject, the command line's rule too): a
// directory marked by .rubi/, rubi.hcl or .git of the user's (never
// another user's folder, nor one every user may write, as /tmp). The home
// directory counts only with .rubi/ or rubi.hcl (a dotfiles repository is
// not a project to index). What the search passed
// over is logged to the project's hooks.log.
func projectRoot(dir string, getenv func(string) string) (string, bool) {
	found := proj.Find(dir)
	if !found.IsProject(getenv("HOME")) {
		return "", false
	}
	for _, w := range found.Warnings() {
		logError(filepath.Join(found.Root, proj.DataDir), "project", errors.New(w))
	}
	return found.Root, true
}

// maxLog is the size past which hooks.log is rotated to hooks.log.1.
const maxLog = 1 << 20

// LogName is the hooks' error log inside .rubi/.
const LogName = "hooks.log"

// logError appends a line to dataDir/hooks.log, rotating it past maxLog.
// A project without .rubi/ gets no log: a hook never creates one for it.
func logError(dataDir, event string, err error) {
	if st, serr := os.Lstat(dataDir); serr != nil || !st.IsDir() {
		return
	}
	path := filepath.Join(dataDir, LogName)
	store.RotateIfOver(path, maxLog)
	f, ferr := store.OpenAppend(path, 0o644)
	if ferr != nil {
		return // a log that cannot be ours (a link, a FIFO) is not written
	}
	defer f.Close()
	fmt.Fprintf(f, "%s %s: %s\n", time.Now().UTC().Format(time.RFC3339), store.EscapeLine(event), store.EscapeLine(err.Error()))
}

// OpenLog opens hooks.log of a project for appending, rotating it past its
// cap; the command line points a background index's stderr at it. It
// refuses a hooks.log that is a link or not a regular file, and a .rubi/
// that is a link.
func OpenLog(root string) (*os.File, error) {
	dir := filepath.Join(root, proj.DataDir)
	if st, err := os.Lstat(dir); err == nil && !st.IsDir() {
		return nil, fmt.Errorf("refusing to write in %s: it is not a folder of the project (a link or a file): %w", dir, store.ErrNotOwned)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, LogName)
	store.RotateIfOver(path, maxLog)
	return store.OpenAppend(path, 0o644)
}

// errNoSession is returned for a payload without a usable session id: the
// per-session parts of a hook cannot run.
var errNoSession = errors.New("the payload has no valid session_id")
