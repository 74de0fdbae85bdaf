package programs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/rubi-dev/rubi/core/host"
)

// Run is a program's work: the command line after the program's name, the
// standard streams, and a context that Ctrl-C and SIGTERM cancel. It
// returns the exit status.
type Run func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int

// Main is the main of every program of rubi: it runs run on the process's
// arguments and standard streams and exits with its status. launcher is
// the Launcher the program's main made and handed to run's engines
// (core/subprocess's), nil in a program that starts no plugin. No plugin
// process outlives the program, whatever way run ends: launcher's are
// stopped after run returns, and when it panics.
//
// Ctrl-C and SIGTERM cancel run's context, and the process ends even when
// run does not: past signalGrace (or at a second signal), with the
// shell's status for the signal (130, 143). Catching the signals took
// their default action away, so a command blocked in a call that does
// not watch the context (a read of a FIFO or of a terminal, a system
// call of the kernel's) would otherwise ignore SIGTERM for ever.
func Main(launcher host.Launcher, run Run) {
	cleanup := func() {
		if launcher != nil {
			launcher.Cleanup()
		}
	}
	defer cleanup()
	ctx, cancel := context.WithCancel(context.Background())
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-signals
		cancel()
		select {
		case <-signals:
		case <-time.After(signalGrace):
		}
		cleanup()
		os.Exit(signalStatus(sig))
	}()
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	signal.Stop(signals)
	cancel()
	cleanup()
	os.Exit(code)
}

// signalGrace is how long a command may take to end once its context is
// cancelled by a signal. What most commands do then (unlock, stop their
// plugins, finish an atomic write) takes milliseconds; the longest orderly
// end is `rubi mcp --http`'s, which lets calls under way finish for up to
// 5 s (mcpserver's default ShutdownTimeout) and then exits 0. A command
// still running past 8 s is blocked where it does not watch the context.
const signalGrace = 8 * time.Second

// signalStatus is the exit status a shell gives a process the signal
// ended: 128 and the signal's number.
func signalStatus(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 130 // os.Interrupt where it is not a syscall.Signal
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
