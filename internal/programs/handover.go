package programs

import (
	"fmt"
	"os"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/host"
)

// FindFull finds rubi-full for the running program, as Find does; the
// error says where it was looked for and how to install it.
func FindFull() (string, error) {
	if path, ok := Find(Full); ok {
		return path, nil
	}
	return "", fmt.Errorf("plugins run in the %s program, which is not beside this one nor on PATH (go install ./cmd/... installs it)", Full)
}

// HandOverError says why rubi-full could not run in a program's place:
// it was not found (Path is empty), or it could not be started.
type HandOverError struct {
	Path string
	Err  error
}

func (e *HandOverError) Error() string {
	if e.Path == "" {
		return e.Err.Error()
	}
	return fmt.Sprintf("running %s: %v", e.Path, e.Err)
}

func (e *HandOverError) Unwrap() error { return e.Err }

// HandOver is where a program that starts no plugin process (it has no
// Launcher) decides it must: when opening the enabled stages of cfg of the
// given kinds (every kind when none is given) would start a subprocess
// plugin (host.StartsPlugins), it runs rubi-full in its place with args, the
// command line after the program's name, through exec (Exec, or a test's
// stand-in). It reports whether it handed over; it returns at all only
// when there was nothing to hand over, when rubi-full could not run (a
// *HandOverError; the caller goes on with the built-in stages, each plugin
// that cannot start falling back with its own error), or when exec
// returned without error (a test's).
func HandOver(cfg *config.Config, args []string, exec func(path string, argv, env []string) error, kinds ...core.Kind) (bool, error) {
	if !host.StartsPlugins(cfg, kinds...) {
		return false, nil
	}
	path, err := FindFull()
	if err != nil {
		return false, &HandOverError{Err: err}
	}
	if err := exec(path, append([]string{path}, args...), os.Environ()); err != nil {
		return false, &HandOverError{Path: path, Err: err}
	}
	return true, nil
}
