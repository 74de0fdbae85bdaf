// Command rubi-mcp is rubi's MCP server; `rubi mcp` runs it in rubi's
// place (same process, same arguments). It is a program of its own
// because the MCP library's packages take milliseconds to initialize, and
// a program initializes every package it links: without them rubi starts
// in two thirds of the time, which one-shot commands like rubi context
// feel.
//
//	rubi-mcp [--root DIR] [--config FILE]... [--http ADDR] [--xray] [--cost [--json]]
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/rubi-dev/rubi/core/host"
	_ "github.com/rubi-dev/rubi/core/subprocess"
	_ "github.com/rubi-dev/rubi/plugins/standard"
)

func main() {
	// The server's engines start plugins: none may outlive it.
	defer host.Cleanup()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	host.Cleanup()
	os.Exit(code)
}

// exitError carries an exit status for an error already printed.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// run serves (or measures) with one command line and returns the exit
// status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o := &options{stdin: stdin, stdout: stdout, stderr: stderr}
	cmd := newCmd(o)
	cmd.SetArgs(args)
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	err := cmd.ExecuteContext(ctx)
	o.profile.Stop()
	var ee *exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.code
	default:
		fmt.Fprintln(stderr, "rubi mcp:", err)
		return 1
	}
}
