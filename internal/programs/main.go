package programs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/rubi-dev/rubi/core/host"
)

// Run is a program's work: the command line after the program's name, the
// standard streams, and a context that Ctrl-C and SIGTERM cancel. It
// returns the exit status.
type Run func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int

// Main is the main of every program of rubi: it runs run on the process's
// arguments and standard streams and exits with its status. No plugin
// process outlives it, whatever way run ends: a program that starts
// plugins (core/subprocess) has them stopped after run returns, and when
// it panics.
func Main(run Run) {
	defer host.Cleanup()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	host.Cleanup()
	os.Exit(code)
}

// ExitError ends a command with an exit status, its error already told
// (diagnostics printed, a check that failed).
type ExitError struct{ Code int }

func (e *ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// Status is the exit status of a command that ended with err: 0 for none,
// an ExitError's own, else 1, with "name: err" on stderr.
func Status(name string, err error, stderr io.Writer) int {
	var ee *ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.Code
	default:
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 1
	}
}
