package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/agent/audit"
	"github.com/rubi-dev/rubi/agent/transcript"
	"github.com/rubi-dev/rubi/agent/xray"
	"github.com/rubi-dev/rubi/core/messages"
)

// mcpStdioTokens is the fixed cost in tokens of rubi's MCP server as a
// stdio client receives it (rubi mcp --cost, without --xray), in each
// language: its tool definitions and instructions, the same for every
// project. A test keeps it equal to the measured cost; rubi does not link
// the server.
var mcpStdioTokens = [...]int{
	messages.English:    896,
	messages.Portuguese: 915,
	messages.French:     918,
	messages.Japanese:   912,
}

func newAuditCmd(g *globals) *cobra.Command {
	var days int
	cmd := &cobra.Command{
		Use:   "audit [DIR]",
		Short: "Measure the fixed context a project loads before the first message",
		Long: `audit lists what each agent loads into its context before the first message
in the project at DIR (default: the project around the working directory):
CLAUDE.md, CLAUDE.local.md, .claude/CLAUDE.md and .claude/rules from the
root down, with their @imports, your ~/.claude/CLAUDE.md and Claude Code's
auto memory; AGENTS.md for Codex and GEMINI.md for Gemini CLI from the
repository root down, with your user-wide ones; rubi's own map, for the
agents that run rubi's hooks; and
rubi's MCP tool definitions for each agent configured to start rubi mcp.
Every message re-reads them. It then names the sections better kept in the
knowledge graph (descriptions, how-tos, directory trees) and, from the
session logs of the last --days, the context this project's sessions
really started with.`,
		Args: argsBetween(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := ""
			if len(args) == 1 {
				dir = args[0]
			} else {
				root, err := g.projectRoot()
				if err != nil {
					return err
				}
				dir = root
			}
			home, _ := os.UserHomeDir()
			o := audit.Options{Home: home, ClaudeDir: os.Getenv("CLAUDE_CONFIG_DIR"), CodexHome: os.Getenv("CODEX_HOME")}
			// The server speaks the project's language, as rubi does here.
			o.ToolTokens = mcpStdioTokens[g.langOf(dir)]
			rep, err := audit.Run(dir, o)
			if err != nil {
				return err
			}
			measured, err := measuredStart(cmd, rep.Dir, days)
			if err != nil {
				return err
			}
			if g.JSON {
				return writeJSON(g.stdout, struct {
					*audit.Report
					Measured *xray.StartFinding `json:"measured_starting_context,omitempty"`
				}{rep, measured})
			}
			l := g.langOf(dir)
			audit.WriteText(g.stdout, l, rep)
			if measured != nil {
				fmt.Fprintln(g.stdout, "\n"+l.Format(messages.AuditMeasured, days, measured.Sessions, xray.FormatTokens(measured.Median)))
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&days, "days", 30, "how many days of session logs to read for the measured starting context (0: none)")
	return cmd
}

// measuredStart reads the project's sessions of the last days for their
// median starting context; nil when there are none.
func measuredStart(cmd *cobra.Command, dir string, days int) (*xray.StartFinding, error) {
	if days <= 0 {
		return nil, nil
	}
	since := time.Now().Add(-time.Duration(days) * 24 * time.Hour)
	sessions, err := transcript.Find(transcript.DefaultRoots(), since)
	if err != nil {
		return nil, nil // no logs to read: nothing measured
	}
	rep, err := xray.Analyze(cmd.Context(), sessions, xray.Options{Since: since, Project: filepath.Clean(dir)})
	if err != nil {
		return nil, err
	}
	if rep.Start.Sessions == 0 {
		return nil, nil
	}
	return &rep.Start, nil
}
