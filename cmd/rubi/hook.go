package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/hooks"
	"github.com/rubi-dev/rubi/core/pipeline"
)

// hookMemoryLimit is the heap a hook may reach before the garbage
// collector runs at all.
const hookMemoryLimit = 256 << 20

func newHookCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "hook EVENT",
		Short: "Answer an agent hook (JSON on stdin, JSON on stdout)",
		Long: `hook is what an agent's hook configuration runs: Claude Code's (the rubi
plugin or rubi install --hooks), Codex CLI's hooks.json and Gemini CLI's
settings.json (rubi connect). It reads the agent's JSON payload on stdin
and answers on stdout in the agent's format.
EVENT is the agent's event name; the payload's hook_event_name wins:

  SessionStart      refresh the index (in the background when slow); inject
                    the map and the critical notes, after a compaction or
                    /clear the last handoff first
  UserPromptSubmit  recall: inject what the project's memory holds about the
                    prompt (budgets.recall), only when something matches well
  PreToolUse        read guard: deny a whole-file read of a huge file once
  PostToolUse       meter: at hooks.warn_percent of the compaction window,
                    ask once to register facts and save a handoff
  Stop              harvest: after hooks.harvest_min reads and searches with
                    nothing registered, ask once for 1-5 durable facts
  PreCompact        write a record of the conversation to .rubi/sessions/
  SessionEnd        forget the session's state

Gemini CLI's events (rubi connect gemini) are answered by the same
handlers: BeforeAgent as UserPromptSubmit, BeforeTool as PreToolUse,
AfterTool as PostToolUse, AfterAgent as Stop, PreCompress as PreCompact.

Other events are ignored. A hook always exits 0: errors are written to
.rubi/hooks.log, never to the agent.`,
		Example: `  echo '{"hook_event_name":"UserPromptSubmit","cwd":".","session_id":"s1","prompt":"why is the coupon applied twice?"}' | rubi hook UserPromptSubmit`,
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			event := ""
			if len(args) == 1 {
				event = args[0]
			}
			// A hook lives for milliseconds and allocates little: no
			// collection unless the heap nears the limit.
			debug.SetGCPercent(-1)
			debug.SetMemoryLimit(hookMemoryLimit)
			hooks.Run(cmd.Context(), g.hookEnv(), event, g.stdin, g.stdout)
			return nil
		},
	}
}

// hookEnv is the hooks' world: the project's configuration with the
// --config layers, a quiet engine, and a background index that is a
// detached rubi process.
func (g *globals) hookEnv() hooks.Env {
	return hooks.Env{
		Config: func(root string) (*config.Config, error) {
			cfg, diags := config.Load(config.Options{Root: root, Extra: g.configs})
			if diags.HasErrors() {
				var b strings.Builder
				config.WriteDiagnostics(&b, nil, diags)
				return nil, fmt.Errorf("configuration: %s", strings.TrimSpace(b.String()))
			}
			return cfg, nil
		},
		Engine: func(cfg *config.Config) *pipeline.Engine {
			return pipeline.New(cfg, hclog.NewNullLogger())
		},
		StartIndex: g.startBackgroundIndex,
	}
}

// startBackgroundIndex runs `rubi index` for root as a detached process
// (its own session, no terminal), so that a long index outlives the hook.
// Its errors go to .rubi/hooks.log. The index lock keeps two of them
// from indexing at once; the second finds nothing left to do.
func (g *globals) startBackgroundIndex(root string) (<-chan error, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	logf, err := hooks.OpenLog(root)
	if err != nil {
		return nil, err
	}
	args := []string{"--root", root, "--log-level", "error"}
	for _, c := range g.configs {
		args = append(args, "--config", c)
	}
	cmd := exec.Command(exe, append(args, "index")...)
	cmd.Dir = root
	cmd.Stderr = logf // its summary on stdout is no error: discarded
	detach(cmd)
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	logf.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	return done, nil
}
