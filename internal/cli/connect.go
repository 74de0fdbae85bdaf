package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/agent/connect"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/internal/programs"
)

func newConnectCmd(g *globals) *cobra.Command {
	var project, global, dryRun, list, undo bool
	cmd := &cobra.Command{
		Use:   "connect AGENT",
		Short: "Connect rubi to a coding agent: its MCP server, instructions and, where the agent has them, hooks",
		Long: `connect registers rubi with a coding agent: rubi's MCP server in the
agent's own configuration file, rubi's instructions between markers in the
file the agent reads (AGENTS.md, GEMINI.md, a rule file), and rubi's hooks
where the agent runs hooks that inject context (Codex).

Agents: ` + strings.Join(connect.AgentNames(), ", ") + `. For Claude Code,
use rubi install --hooks or rubi's plugin.

--project (the default) changes the project's files, --global the user's.
Only rubi's entries change; every other key, comment and the layout stay.
Each file is copied before rubi's first change to it (mode 0600): a
user's file to FILE.bak-rubi beside it, a project's file out of the
repository, under ~/.local/state/rubi/backups/ ($XDG_STATE_HOME). A
project's file, or a folder on its way, that is a symbolic link out of
the project is refused, and nothing is changed.
Running connect again changes nothing. A file that does not parse is left
untouched and the error names its line and column. YAML files with the
user's settings (Goose, Continue's config.yaml) are not rewritten: connect
prints the lines to add.

--list shows every agent, its files, what rubi puts in each and whether it
is there now. --undo takes out exactly what connect added.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if list {
				return argsBetween(0, 0)(cmd, args)
			}
			if len(args) == 0 {
				return fmt.Errorf("rubi connect needs an agent: %s (`rubi connect --list` shows what each gets)", strings.Join(connect.Names(), ", "))
			}
			return argsBetween(1, 1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if project && global {
				return errors.New("--project and --global: choose one")
			}
			root, err := g.projectRoot()
			if err != nil {
				return err
			}
			home, err := os.UserHomeDir()
			if err != nil {
				return fmt.Errorf("find the home directory: %w", err)
			}
			o := connect.ConnectOptions{Project: root, Home: home, Scope: connect.ScopeProject, DryRun: dryRun, FindHookProgram: programs.HookFor}
			if global {
				o.Scope = connect.ScopeGlobal
			}
			if list {
				st := connect.List(o)
				if g.JSON {
					return writeJSON(g.stdout, st)
				}
				writeList(g.stdout, g.langOf(root), o.Scope, st)
				return nil
			}
			if args[0] == "claude" || args[0] == "claude-code" {
				// Claude Code has its own: rubi's plugin, or rubi install.
				fmt.Fprintln(g.stdout, g.langOf(root).Get(messages.ConnectClaude))
				return nil
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), installLockWait)
			defer cancel()
			var rep *connect.Report
			if undo {
				rep, err = connect.Disconnect(ctx, args[0], o)
			} else {
				if o.Rubi, err = connect.RubiExecutable(); err != nil {
					return err
				}
				rep, err = connect.Connect(ctx, args[0], o)
			}
			if rep != nil && (err == nil || len(rep.Files) > 0) {
				if g.JSON {
					if jerr := writeJSON(g.stdout, rep); jerr != nil {
						return jerr
					}
				} else {
					connect.WriteReport(g.stdout, g.langOf(root), rep)
				}
			}
			return err
		},
	}
	f := cmd.Flags()
	f.BoolVar(&project, "project", false, "change the project's configuration (the default)")
	f.BoolVar(&global, "global", false, "change the user's configuration, for every project")
	f.BoolVar(&dryRun, "dry-run", false, "print the changes as a diff and write nothing")
	f.BoolVar(&list, "list", false, "show every agent, its files, what rubi would change and whether it is connected")
	f.BoolVar(&undo, "undo", false, "take out what rubi connect added, keeping everything else")
	return cmd
}

// writeList prints --list: one block per agent, in the README's words:
// what its hooks bring automatically, the file of instructions that tell
// it to use rubi's tools, and its files.
func writeList(w io.Writer, l messages.Lang, scope connect.Scope, st []connect.AgentStatus) {
	if scope == connect.ScopeGlobal {
		fmt.Fprintln(w, l.Get(messages.ConnectAgentsGlobal))
	} else {
		fmt.Fprintln(w, l.Get(messages.ConnectAgentsProject))
	}
	const indent = "            "
	sty := styleFor(w)
	for _, a := range st {
		state := l.Get(messages.ConnectNotConnected)
		if a.Connected {
			state = l.Get(messages.ConnectConnected)
		}
		if a.Err != "" {
			state = a.Err
		}
		fmt.Fprintf(w, "\n%-11s %s: %s\n", a.Agent, a.Title, state)
		automatic := a.Automatic
		if automatic == "" {
			automatic = l.Get(messages.ConnectNone)
		}
		fmt.Fprintln(w, indent+l.Format(messages.ConnectAutomatic, automatic))
		if a.Instructions != "" {
			fmt.Fprintln(w, indent+l.Format(messages.ConnectInstructions, a.Instructions))
		}
		if a.Setup != "" {
			fmt.Fprintln(w, indent+l.Format(messages.ConnectSetup, a.Setup))
		}
		for _, f := range a.Files {
			mark := "-"
			if f.Connected {
				mark = sty.ok("✓")
			}
			line := fmt.Sprintf("%s %s — %s", mark, agentsTilde(f.Path), f.What)
			if f.Problem != "" {
				line += " (" + f.Problem + ")"
			}
			fmt.Fprintln(w, indent+line)
		}
	}
}

// agentsTilde shortens a path under the home directory to ~/...
func agentsTilde(path string) string {
	home, err := os.UserHomeDir()
	if err == nil && home != "" && strings.HasPrefix(path, home+string(os.PathSeparator)) {
		return "~" + path[len(home):]
	}
	return path
}
