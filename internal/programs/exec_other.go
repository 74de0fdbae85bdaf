//go:build !unix

package programs

import (
	"errors"
	"os"
	"os/exec"
)

// Exec runs the program at path as a child with this process's standard
// streams and environment env, then exits with its status: Windows has
// no exec in place. Ctrl-C reaches both, as they share the console. It
// returns only when the program cannot start.
func Exec(path string, argv, env []string) error {
	cmd := exec.Command(path, argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr, cmd.Env = os.Stdin, os.Stdout, os.Stderr, env
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		os.Exit(0)
	case errors.As(err, &ee):
		os.Exit(ee.ExitCode())
	}
	return err
}
