// Command rubi-mcp is rubi's MCP server; `rubi mcp` runs it in rubi's
// place (same process, same arguments). It is a program of its own
// because the MCP library's packages take milliseconds to initialize, and
// a program initializes every package it links: without them rubi starts
// in two thirds of the time (31 ms against 48 when measured), which
// one-shot commands like rubi context feel. rubi mcp replaces its own
// process with it (same pid and standard streams, every argument passed
// on, global flags before mcp too), found beside the running rubi, else
// on PATH (programs.FindMCP). A test of internal/cli fails if rubi links
// mcp-go again, and rubi audit counts the server's stdio cost from a
// constant (internal/cli's mcpStdioTokens) that a test holds to the one
// rubi-mcp --cost measures.
//
//	rubi-mcp [--root DIR] [--config FILE]... [--http ADDR] [--xray] [--cost [--json]]
package main

import (
	"context"
	"io"

	"github.com/rubi-dev/rubi/core/host"
	"github.com/rubi-dev/rubi/core/subprocess"
	"github.com/rubi-dev/rubi/internal/programs"
	_ "github.com/rubi-dev/rubi/plugins/standard"
)

// main makes the Launcher of subprocess plugins, which the server's
// engines start the plugins of rubi.hcl with.
func main() {
	launcher := subprocess.Launcher{}
	programs.Main(launcher, command(launcher))
}

// command is the program that serves (or measures) with one command line
// and returns the exit status, its engines starting plugins with
// launcher.
func command(launcher host.Launcher) programs.Run {
	return func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		o := &options{stdin: stdin, stdout: stdout, stderr: stderr, launcher: launcher}
		cmd := newCmd(o)
		cmd.SetArgs(args)
		cmd.SetOut(stdout)
		cmd.SetErr(stderr)
		err := cmd.ExecuteContext(ctx)
		if perr := o.StopProfile(); err == nil {
			err = perr
		}
		return programs.Status("rubi mcp", err, stderr)
	}
}
