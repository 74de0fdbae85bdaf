package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/agent/connect"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/internal/programs"
)

// installLockWait bounds the wait for Claude Code (or another rubi) to
// release a configuration file.
const installLockWait = 30 * time.Second

func newInstallCmd(g *globals) *cobra.Command {
	var (
		vault, window            string
		hooks, dryRun, undo, yes bool
	)
	cmd := &cobra.Command{
		Use:   "install",
		Short: "Set Claude Code up for rubi: early compaction, the personal vault, optionally hooks and MCP",
		Long: `install sets Claude Code up for rubi:

  - the compaction window: CLAUDE_CODE_AUTO_COMPACT_WINDOW in the "env" of
    Claude Code's settings.json, so sessions compact early (default 150000
    tokens) and rubi's handoff carries the thread across;
  - the personal vault: recorded as vault in rubi's personal configuration
    (~/.config/rubi/config.hcl, or under $XDG_CONFIG_HOME), and created;
  - with --hooks, for users without rubi's Claude Code plugin: rubi's hooks
    in settings.json and its MCP server in Claude Code's user scope
    (~/.claude.json).

Claude Code's configuration is found as Claude Code finds it:
$CLAUDE_CONFIG_DIR (which then also holds .claude.json), else ~/.claude.

Only those keys change; every other key, its order and layout stay. Each
file is copied to FILE.bak-rubi before rubi's first change to it. Running
install again changes nothing. A file that is not valid JSON (or HCL) is
left untouched and the error names its line and column.

On a terminal, install asks for what the flags do not say, with the
current value as the default; otherwise (or with --yes) it takes the
defaults. --undo takes out exactly what rubi added, keeping your other
changes, and leaves the backups and the vault directory.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			claude, err := connect.FindClaude()
			if err != nil {
				return err
			}
			o := connect.Options{Claude: claude, UserConfig: config.UserConfigPath(), Hooks: hooks, DryRun: dryRun, FindHookProgram: programs.HookFor}
			if o.UserConfig == "" {
				return errors.New("cannot find rubi's personal configuration: set HOME or XDG_CONFIG_HOME")
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), installLockWait)
			defer cancel()
			var rep *connect.Report
			if undo {
				if cmd.Flags().Changed("vault") || cmd.Flags().Changed("window") {
					return errors.New("--undo takes no --vault or --window: it restores what was there before rubi")
				}
				rep, err = connect.Uninstall(ctx, o)
			} else {
				if err := g.installAnswers(cmd, &o, vault, window, yes); err != nil {
					return err
				}
				if hooks {
					if o.Rubi, err = connect.RubiExecutable(); err != nil {
						return err
					}
				}
				rep, err = connect.Install(ctx, o)
			}
			if rep != nil && (err == nil || len(rep.Files) > 0) {
				if g.JSON {
					if jerr := writeJSON(g.stdout, rep); jerr != nil {
						return jerr
					}
				} else {
					connect.WriteReport(g.stdout, g.lang(), rep)
				}
			}
			if err != nil {
				return err
			}
			if !g.JSON && !undo && !dryRun && rep.Changed() {
				fmt.Fprintln(g.stdout, g.lang().Get(messages.InstallNext))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&vault, "vault", "", "put the personal vault in `DIR` (default: the configured one, else ~/rubi-vault)")
	f.StringVar(&window, "window", "", "compact Claude Code's sessions at `N` tokens, e.g. 150000 or 150k (default: the current setting, else 150000)")
	f.BoolVar(&hooks, "hooks", false, "also register rubi's hooks and MCP server in Claude Code's user configuration (without the plugin)")
	f.BoolVar(&dryRun, "dry-run", false, "print the changes as a diff and write nothing")
	f.BoolVar(&undo, "undo", false, "take out what rubi install added, keeping everything else")
	f.BoolVarP(&yes, "yes", "y", false, "ask nothing: take the defaults for what the flags do not say")
	return cmd
}

// installAnswers fills the vault and the window from the flags, else from
// the person at the terminal, else from the current settings or defaults.
func (g *globals) installAnswers(cmd *cobra.Command, o *connect.Options, vault, window string, yes bool) error {
	defVault, defWindow, err := connect.Defaults(o.Claude, o.UserConfig)
	if err != nil {
		return err
	}
	ask := !yes && g.stdinIsTerminal()
	var r *bufio.Reader
	if ask {
		r = bufio.NewReader(g.stdin)
	}
	checkVault := func(s string) error { _, err := connect.NormalizeVault(s); return err }
	checkWindow := func(s string) error { _, err := connect.ParseWindow(s); return err }
	switch {
	case cmd.Flags().Changed("vault"):
	case ask:
		if vault, err = connect.Ask(r, g.stderr, g.lang().Get(messages.InstallAskVault), defVault, checkVault); err != nil {
			return err
		}
	default:
		vault = defVault
	}
	if o.Vault, err = connect.NormalizeVault(vault); err != nil {
		return fmt.Errorf("--vault: %w", err)
	}
	switch {
	case cmd.Flags().Changed("window"):
	case ask:
		if window, err = connect.Ask(r, g.stderr, g.lang().Get(messages.InstallAskWindow), strconv.Itoa(defWindow), checkWindow); err != nil {
			return err
		}
	default:
		window = strconv.Itoa(defWindow)
	}
	if o.Window, err = connect.ParseWindow(window); err != nil {
		return fmt.Errorf("--window: %w", err)
	}
	return nil
}
