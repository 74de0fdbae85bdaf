package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/internal/programs"
)

// execProgram replaces the process with another program (programs.Exec);
// tests swap it to see what rubi mcp would run.
var execProgram = programs.Exec

// newMCPCmd is rubi mcp, the documented way to start the MCP server: it
// runs rubi-mcp (cmd/rubi-mcp) in rubi's place, same process and standard
// streams, with every argument rubi got, global flags included. The server
// is a program of its own so that rubi does not link, and initialize on
// every start, the MCP library's packages.
func newMCPCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve rubi's tools to AI agents over MCP (stdio, or streamable HTTP)",
		Long: `mcp serves rubi's tools to an AI agent over the Model Context Protocol: it
runs the program ` + programs.MCP + `, installed beside rubi, with the same
arguments. rubi mcp --help describes its flags.`,
		// Every flag, --help included, is the server's: rubi-mcp parses
		// them, rubi's global flags too.
		DisableFlagParsing: true,
		RunE: func(_ *cobra.Command, args []string) error {
			return g.execMCP(args)
		},
	}
	// rubi help mcp is the server's help too.
	cmd.SetHelpFunc(func(cmd *cobra.Command, _ []string) {
		var ee *programs.ExitError
		if err := g.execMCP([]string{"--help"}); err != nil && !errors.As(err, &ee) {
			fmt.Fprintln(g.stderr, "rubi:", err)
		}
	})
	return cmd
}

// execMCP runs rubi-mcp with args in rubi's place; it returns only when it
// cannot.
func (g *globals) execMCP(args []string) error {
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		return fmt.Errorf("mcp: finding rubi's executable: %w", err)
	}
	path, ok := programs.FindMCP(exe)
	if !ok {
		fmt.Fprintf(g.stderr, "rubi mcp: the MCP server is the %s program, which is not beside %s nor on PATH; install it with \"go install ./cmd/...\" from a clone of rubi\n", programs.MCP, exe)
		return &programs.ExitError{Code: 1}
	}
	if err := execProgram(path, append([]string{path}, args...), os.Environ()); err != nil {
		return fmt.Errorf("mcp: running %s: %w", path, err)
	}
	return nil
}
