package cli

import (
	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/agent/hooks"
	"github.com/rubi-dev/rubi/internal/programs"
)

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
.rubi/hooks.log, never to the agent. Run at a terminal, with nothing piped
in, it says what it reads and exits 2 instead of waiting.

rubi-hook EVENT (installed beside rubi by go install ./cmd/...) runs the
same handlers in a binary that starts in about half the time; rubi install
and rubi connect write it into the agents' hooks when it is there.`,
		Example: `  echo '{"hook_event_name":"UserPromptSubmit","cwd":".","session_id":"s1","prompt":"why is the coupon applied twice?"}' | rubi hook UserPromptSubmit`,
		Args:    argsBetween(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.needInput(cmd, "the agent's JSON payload", hookHow); err != nil {
				return err
			}
			event := ""
			if len(args) == 1 {
				event = args[0]
			}
			programs.QuietGC()
			hooks.Run(cmd.Context(), g.hookEnv(), event, g.stdin, g.stdout)
			return nil
		},
	}
}

// hookHow is what rubi hook and rubi-hook say at a terminal: agents pipe
// the payload in; a person can too.
const hookHow = `an agent's hook runs it with the payload piped in, e.g. echo '{"hook_event_name":"UserPromptSubmit","cwd":".","session_id":"s1","prompt":"why is the coupon applied twice?"}' | rubi hook UserPromptSubmit (rubi hook --help lists the events)`

// hookEnv is the hooks' world: the project's configuration with the
// --config layers, a quiet engine, a background index that is a detached
// `rubi index`, and rubi-full for a recall that opens a plugin this
// program cannot start.
func (g *globals) hookEnv() hooks.Env {
	return hooks.ProcessEnv(g.Configs, g.engineOptions(), hooks.SelfIndex(func(root string) []string {
		args := []string{"--root", root, "--log-level", "error"}
		for _, c := range g.Configs {
			args = append(args, "--config", c)
		}
		return append(args, "index")
	}), programs.FindFull)
}
