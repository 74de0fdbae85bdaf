// Package cli is the command-line face of rubi's engine: the rubi command
// tree, for any program that runs Main; cmd/rubi runs Main. Each command
// group lives in its own file as a Run-style function; this file holds the
// root command, the global flags and process-wide setup (logging, signals,
// plugin cleanup).
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/host"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/internal/cpuprofile"
	"github.com/rubi-dev/rubi/internal/programs"
	_ "github.com/rubi-dev/rubi/plugins/standard"
)

// globals are the flags every command takes.
type globals struct {
	// args is the command line after the program's name.
	args     []string
	stdin    io.Reader
	stdout   io.Writer
	stderr   io.Writer
	root     string
	json     bool
	logLevel string
	configs  []string
	logger   hclog.Logger
	// cfg is the configuration loadConfig loaded, for lang.
	cfg *config.Config
	// language is lang's answer, once chosen.
	language *messages.Lang
	// cpuProfile names a file for a CPU profile of the command (hidden
	// flag, for performance reports).
	cpuProfile string
	profile    cpuprofile.Profile
}

// exitError carries an exit status for an error already printed.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// Main runs rubi's command line on the process's arguments and standard
// streams and exits with its status; it does not return.
func Main() {
	// Plugins are Managed clients: whatever path leaves Main, none of
	// their processes may outlive rubi.
	defer host.Cleanup()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	host.Cleanup()
	os.Exit(code)
}

// run executes one command line and returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	g := &globals{stdin: stdin, stdout: stdout, stderr: stderr, args: args}
	root := newRootCmd(g)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	g.profile.Stop()
	var ee *exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.code
	default:
		fmt.Fprintln(stderr, "rubi:", err)
		return 1
	}
}

func newRootCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rubi",
		Short: "Knowledge graph and context manager for AI coding agents",
		Long: `rubi maps a project (files, imports, symbols, modules, centrality) and keeps
what agents learn about it, and answers "where is X / how does Y work"
within a token budget, so an agent reads less and re-reads less.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			level := hclog.LevelFromString(g.logLevel)
			if level == hclog.NoLevel {
				l, _ := messages.Locale(os.Getenv)
				return errors.New(l.Format(messages.CLILogLevel, g.logLevel))
			}
			g.logger = hclog.New(&hclog.LoggerOptions{Name: "rubi", Level: level, Output: g.stderr})
			return g.profile.Start(g.cpuProfile)
		},
		PersistentPostRun: func(*cobra.Command, []string) { g.profile.Stop() },
	}
	pf := cmd.PersistentFlags()
	pf.StringVar(&g.root, "root", "", "project root (default: the nearest directory up from here with .rubi/, rubi.hcl or .git)")
	pf.BoolVar(&g.json, "json", false, "print machine-readable JSON")
	pf.StringVar(&g.logLevel, "log-level", "warn", "log level on stderr: trace, debug, info, warn, error, off")
	pf.StringArrayVar(&g.configs, "config", nil, "extra configuration file read after the project's rubi.hcl (repeatable)")
	pf.StringVar(&g.cpuProfile, "cpuprofile", "", "write a CPU profile of the command to this file")
	_ = pf.MarkHidden("cpuprofile")
	cmd.AddCommand(newIndexCmd(g), newContextCmd(g), newMapCmd(g), newGraphCmd(g),
		newRegisterCmd(g), newReadCmd(g), newForgetCmd(g), newNodesCmd(g), newHandoffCmd(g), newSummaryCmd(g), newImportCmd(g),
		newMCPCmd(g), newHookCmd(g), newMemoryCmd(g), newStatusCmd(g), newInstallCmd(g), newConnectCmd(g), newConfigCmd(g), newPluginsCmd(g), newXrayCmd(g), newAuditCmd(g), newDoctorCmd(g), newVersionCmd(g))
	return cmd
}

// projectRoot resolves --root, or finds the project around the working
// directory the way git finds its repository.
func (g *globals) projectRoot() (string, error) {
	if g.root != "" {
		abs, err := filepath.Abs(g.root)
		if err != nil {
			return "", err
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			// The project's language is unknown without its root.
			l, _ := messages.Locale(os.Getenv)
			return "", errors.New(l.Format(messages.CLINotADirectory, "--root "+g.root))
		}
		return abs, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return pipeline.FindRoot(wd), nil
}

// loadConfig loads the layers for the project, printing diagnostics.
func (g *globals) loadConfig() (*config.Config, error) {
	root, err := g.projectRoot()
	if err != nil {
		return nil, err
	}
	cfg, diags := config.Load(config.Options{Root: root, Extra: g.configs})
	if diags.HasErrors() {
		config.WriteDiagnostics(g.stderr, nil, diags)
		return nil, &exitError{code: 1}
	}
	if len(diags) > 0 {
		config.WriteDiagnostics(g.stderr, cfg.Files, diags)
	}
	g.cfg = cfg
	return cfg, nil
}

// lang is the language of the command's messages: the language setting of
// the project's configuration (with the user's and --config's layers),
// else the locale (core/messages). A configuration that does not load
// leaves it to the locale.
func (g *globals) lang() messages.Lang {
	if g.language == nil {
		var l messages.Lang
		if g.cfg != nil {
			l = messages.Choose(g.cfg.Language, os.Getenv)
		} else if root, err := g.projectRoot(); err == nil {
			l = g.langOf(root)
		} else {
			l, _ = messages.Locale(os.Getenv)
		}
		g.language = &l
	}
	return *g.language
}

// langOf is the language of the project at root: its configuration's
// setting, else the locale.
func (g *globals) langOf(root string) messages.Lang {
	setting := ""
	if g.cfg != nil && g.cfg.Root == root {
		setting = g.cfg.Language
	} else if cfg, diags := config.Load(config.Options{Root: root, Extra: g.configs}); !diags.HasErrors() {
		setting = cfg.Language
	}
	return messages.Choose(setting, os.Getenv)
}

// engine loads the configuration and returns an engine for it.
func (g *globals) engine() (*pipeline.Engine, error) {
	cfg, err := g.loadConfig()
	if err != nil {
		return nil, err
	}
	return pipeline.New(cfg, g.logger), nil
}

// stageEngine is engine for a command that runs the pipeline's stages of
// the given kinds (every kind when none is given). When rubi.hcl names a
// subprocess plugin among them, which rubi does not start (see core/host's
// Launcher), it first runs rubi-full in rubi's place with the same
// arguments; it runs the built-ins when rubi-full is missing.
func (g *globals) stageEngine(kinds ...core.Kind) (*pipeline.Engine, error) {
	cfg, err := g.loadConfig()
	if err != nil {
		return nil, err
	}
	if host.NeedsLauncher(cfg, kinds...) {
		if err := g.execFull(); err != nil {
			return nil, err
		}
	}
	return pipeline.New(cfg, g.logger), nil
}

// execFull runs rubi-full in rubi's place (syscall.Exec: same process,
// standard streams and arguments); it returns only when it cannot, and
// then says so and lets the built-ins run: each plugin that cannot start
// falls back with its own error line, as anywhere.
func (g *globals) execFull() error {
	path, ok := programs.Find(programs.Full)
	if !ok {
		fmt.Fprintln(g.stderr, g.lang().Format(messages.CLINoFull, programs.Full))
		return nil
	}
	if err := execProgram(path, append([]string{path}, g.args...), os.Environ()); err != nil {
		fmt.Fprintln(g.stderr, g.lang().Format(messages.CLIRunningFull, path, err))
		return nil
	}
	// Only a test's execProgram returns: the command ran elsewhere.
	return &exitError{code: 0}
}

// openedEngine is stageEngine with every enabled stage opened, which
// checks each stage's settings against its schema (starting plugins to
// ask them).
func (g *globals) openedEngine(ctx context.Context) (*pipeline.Engine, error) {
	eng, err := g.stageEngine()
	if err != nil {
		return nil, err
	}
	if err := eng.OpenAll(ctx); err != nil {
		eng.Close()
		return nil, g.reportError(err)
	}
	return eng, nil
}

// reportError prints an engine error; configuration diagnostics are shown
// with their file and line.
func (g *globals) reportError(err error) error {
	var de *pipeline.DiagnosticsError
	if errors.As(err, &de) {
		config.WriteDiagnostics(g.stderr, de.Files, de.Diags)
		return &exitError{code: 1}
	}
	return err
}
