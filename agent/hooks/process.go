package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/hashicorp/go-hclog"

	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/host"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/core/store"
)

// ProcessEnv is the world of a hook process: the project's configuration
// with the extra layers configs (config.LoadCached), a quiet engine with the program's engine
// options (its Logger is replaced: a hook logs nothing), a background
// index run as the detached process indexCmd makes for a root (its own
// session, so it outlives the hook; its errors go to .rubi/hooks.log),
// and findFull, which finds the program that runs subprocess plugins
// (rubi-full) for a recall whose rubi.hcl names one, when this program
// cannot start them (engine has no Launcher).
func ProcessEnv(configs []string, engine pipeline.Options, indexCmd func(root string) (*exec.Cmd, error), findFull func() (string, error)) Env {
	engine.Logger = hclog.NewNullLogger()
	return Env{
		Config: func(root string) (*config.Config, error) {
			// Through the cache: a hook runs on every prompt and tool
			// call, and parsing the same files was most of many hooks.
			cfg, err := config.LoadCached(config.Options{Root: root, Extra: configs}, config.CacheDir())
			if err != nil {
				return nil, fmt.Errorf("configuration: %w", err)
			}
			return cfg, nil
		},
		Engine: func(cfg *config.Config) *pipeline.Engine {
			return pipeline.New(cfg, engine)
		},
		HandOver: handOver(configs, engine.Launcher, findFull),
		StartIndex: func(root string) (<-chan error, error) {
			cmd, err := indexCmd(root)
			if err != nil {
				return nil, err
			}
			return startDetached(root, cmd)
		},
	}
}

// handOver is the hand-over of a program that does not start plugins:
// the program findFull finds answers the hook (`rubi-full hook EVENT`, the
// same --config layers). Nil in a program that starts them (its engines'
// launcher).
func handOver(configs []string, launcher host.Launcher, findFull func() (string, error)) func(ctx context.Context, event string, payload []byte, stdout io.Writer) (bool, error) {
	if launcher != nil {
		return nil
	}
	return func(ctx context.Context, event string, payload []byte, stdout io.Writer) (bool, error) {
		path, err := findFull()
		if err != nil {
			return false, err
		}
		var args []string
		for _, c := range configs {
			args = append(args, "--config", c)
		}
		args = append(args, "hook")
		if event != "" {
			args = append(args, event)
		}
		cmd := exec.CommandContext(ctx, path, args...)
		cmd.Stdin = bytes.NewReader(payload)
		cmd.Stdout = stdout
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			return false, err
		}
		if err := cmd.Wait(); err != nil {
			return true, fmt.Errorf("%s: %w", path, err)
		}
		return true, nil
	}
}

// SelfIndex is an indexCmd that runs this executable with args (which
// name root) to index.
func SelfIndex(args func(root string) []string) func(root string) (*exec.Cmd, error) {
	return func(root string) (*exec.Cmd, error) {
		exe, err := os.Executable()
		if err != nil {
			return nil, err
		}
		return exec.Command(exe, args(root)...), nil
	}
}

// startDetached starts cmd in root, detached, its standard error to the
// hooks' log (its summary on standard output is no error: discarded). The
// index lock keeps two of them from indexing at once; the second finds
// nothing left to do. A hooks.log that is not rubi's to write (a link, a
// FIFO) leaves the index's errors unlogged, not the index undone.
func startDetached(root string, cmd *exec.Cmd) (<-chan error, error) {
	logf, err := OpenLog(root)
	switch {
	case err == nil:
		defer logf.Close()
		cmd.Stderr = logf
	case !errors.Is(err, store.ErrNotOwned):
		return nil, err
	}
	cmd.Dir = root
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	return done, nil
}
