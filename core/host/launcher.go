package host

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/config"
)

// A Launcher starts subprocess plugins. The host itself does not link one:
// the plugin transport (hashicorp/go-plugin over gRPC, core/subprocess)
// costs a program about 10 ms of initialization on every start, which the
// programs agents run on every prompt and tool call do not pay. The main
// of a program that runs plugins (rubi-full, rubi-mcp) makes
// core/subprocess's Launcher and hands it to its hosts (Options.Launcher)
// and stops what it started when it exits (Cleanup); a host without one
// answers a subprocess stage with ErrNoLauncher, and its program hands the
// run to one that has one (internal/programs: why rubi is four programs).
type Launcher interface {
	// Launch starts the plugin executable at path as a stage of kind and
	// returns it once its handshake is done; startTimeout bounds the
	// start, and the plugin's log lines go to logger.
	Launch(ctx context.Context, kind core.Kind, path string, startTimeout time.Duration, logger hclog.Logger) (Plugin, error)
	// Cleanup stops every plugin process still running, whatever path
	// leaves main: none may outlive the program that started it.
	Cleanup()
}

// Plugin is one running plugin process, as a Launcher started it.
type Plugin interface {
	// Remote is the plugin's side of the connection: the methods of its
	// kind answer; Info answers what Load fetched.
	Remote() core.Stage
	// Load fetches the plugin's Info and checks its protocol and kind.
	Load(ctx context.Context) (core.Info, error)
	// Pid is the process id, 0 when unknown.
	Pid() int
	// Exited reports whether the process has ended.
	Exited() bool
	// Stop ends the process, politely first; Kill ends it at once (a hung
	// plugin would not honour the polite way and would cost seconds).
	Stop()
	Kill()
	// Explain phrases a failed call's error for the log line ("crashed
	// (connection lost): …") and says whether the plugin's side gave up at
	// its deadline.
	Explain(err error) (reason string, deadline bool)
}

// ErrNoLauncher is a subprocess stage's start failure in a host given no
// Launcher.
var ErrNoLauncher = errors.New("this program does not start subprocess plugins")

// StartsPlugins reports whether opening the enabled stages of cfg of the
// given kinds (every kind when none is given) starts a plugin process:
// one of them is a subprocess stage. A program without a Launcher hands
// such a run to one that has one before it does anything else.
func StartsPlugins(cfg *config.Config, kinds ...core.Kind) bool {
	for _, st := range cfg.Stages {
		if st.Enabled && st.Plugin != "" && (len(kinds) == 0 || slices.Contains(kinds, st.Kind)) {
			return true
		}
	}
	return false
}
