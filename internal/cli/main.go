// Package cli is the command-line face of rubi's engine: the rubi command
// tree, for any program that runs Main; cmd/rubi and cmd/rubi-full run
// Main, the second with the Launcher of subprocess plugins. Each command
// group lives in its own file as a Run-style function; this file holds the
// root command, the global flags and what every command shares (logging, the
// engine's options). docs/cli.md documents every command.
//
// A command that runs the pipeline's stages opens its engine with
// stageEngine, which first hands the command over to rubi-full when
// rubi.hcl names a plugin rubi cannot start (programs.HandOver), and says
// once which of an untrusted project's plugins it left out.
//
// The hostile-repository suite lives here because this package reaches
// every entry point: hostileEverything builds one repository with every
// case at once (a plugin the repository commits; a critical note and a
// future-dated handoff that speak as rubi; maps, manifests and the agents'
// instruction files linked to secrets, to /dev/zero and to the user's own
// files; a .gitignore undoing rubi's lines; the index's lock linked out;
// a file name that is not UTF-8; a note listing more files than rubi
// reads), and the tests run every
// command, hook and MCP tool over it and check that each ends, exits as
// documented, runs nothing, shows no secret, quotes the repository's text
// and writes nothing outside the project. Each part has its own tests
// beside it (hostile_*_test.go).
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/agent/connect"
	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/host"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/core/project"
	"github.com/rubi-dev/rubi/core/refs"
	"github.com/rubi-dev/rubi/internal/flags"
	"github.com/rubi-dev/rubi/internal/programs"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
	_ "github.com/rubi-dev/rubi/plugins/standard"
)

// globals are the flags every command takes (programs.Globals) and what
// the commands share: the streams, the logger, the configuration.
type globals struct {
	flags.Global
	// args is the command line after the program's name.
	args   []string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// logOut is stderr as the logger writes to it, which a progress
	// display holds while it shows.
	logOut logOutput
	logger hclog.Logger
	// launcher starts subprocess plugins: the one the program's main
	// made, nil in rubi (which hands such runs to rubi-full).
	launcher host.Launcher
	// resolvers find references in index runs (pipeline.Options.Resolvers):
	// the program's main makes them.
	resolvers []refs.Resolver
	// oneShot says the command answers once and the process exits (rubi
	// context): its engines keep the index files they map
	// (pipeline.Options.OneShot).
	oneShot bool
	// cfg is the configuration loadConfig loaded, for lang.
	cfg *config.Config
	// language is lang's answer, once chosen.
	language *messages.Lang
	// found is the search for the project around the working directory,
	// once made (its warnings printed then).
	found *project.Found
	// cmd is the command running, for the messages that repeat its
	// command line.
	cmd *cobra.Command
}

// Main runs rubi's command line on the process's arguments and standard
// streams and exits with its status; it does not return. launcher starts
// the subprocess plugins rubi.hcl names: rubi-full's main makes
// core/subprocess's; rubi's passes nil, and a command that would start a
// plugin runs in rubi-full instead (programs.HandOver). resolvers find
// the references between definitions in every index run.
func Main(launcher host.Launcher, resolvers []refs.Resolver) {
	programs.Main(launcher, command(launcher, resolvers))
}

// command is the program that executes one command line and returns the
// exit status, its engines starting plugins with launcher and finding
// references with resolvers.
func command(launcher host.Launcher, resolvers []refs.Resolver) programs.Run {
	return func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		g := &globals{stdin: stdin, stdout: stdout, stderr: stderr, logOut: logOutput{w: stderr}, args: args, launcher: launcher, resolvers: resolvers}
		root := newRootCmd(g)
		root.SetArgs(args)
		root.SetOut(stdout)
		root.SetErr(stderr)
		err := root.ExecuteContext(ctx)
		if perr := g.StopProfile(); err == nil {
			err = perr
		}
		// An error's rubi: in red on a terminal (programs.Status prints it).
		return programs.Status(styleFor(stderr).bad("rubi"), err, stderr)
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
			g.cmd = cmd
			logger, err := g.Logger("rubi", &g.logOut)
			if err != nil {
				return err
			}
			g.logger = logger
			return g.StartProfile()
		},
		PersistentPostRunE: func(*cobra.Command, []string) error { return g.StopProfile() },
	}
	// A flag not understood is said in rubi's words, with a value that
	// would do or the flag most likely meant; every command inherits it.
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return flags.Explain(c.CommandPath(), c.Flags(), err)
	})
	g.Define(cmd.PersistentFlags(), flags.Help{
		Root:   "the nearest directory up from here with .rubi/, rubi.hcl or .git, among the folders you own",
		JSON:   "print machine-readable JSON",
		Config: "the project's rubi.hcl",
	})
	cmd.AddCommand(newIndexCmd(g), newContextCmd(g), newMapCmd(g), newGraphCmd(g),
		newRegisterCmd(g), newReadCmd(g), newRefsCmd(g), newConfirmCmd(g), newForgetCmd(g), newNodesCmd(g), newHandoffCmd(g), newSummaryCmd(g), newImportCmd(g),
		newMCPCmd(g), newHookCmd(g), newMemoryCmd(g), newStatusCmd(g), newInstallCmd(g), newConnectCmd(g), newConfigCmd(g), newPluginsCmd(g), newXrayCmd(g), newViewCmd(g), newAuditCmd(g), newDoctorCmd(g), newVersionCmd(g), newTrustCmd(g))
	return cmd
}

// projectRoot resolves --root, or finds the project around the working
// directory the way git finds its repository.
func (g *globals) projectRoot() (string, error) {
	if g.Root != "" {
		abs, err := filepath.Abs(g.Root)
		if err != nil {
			return "", err
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			// The project's language is unknown without its root.
			l, _ := messages.Locale(os.Getenv)
			return "", errors.New(l.Format(messages.CLINotADirectory, "--root "+g.Root))
		}
		return abs, nil
	}
	if g.found == nil {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		found := project.Find(wd)
		g.found = &found
		for _, w := range found.Warnings() {
			fmt.Fprintln(g.stderr, w)
		}
	}
	if g.found.Refused != nil {
		// Another user's folder, or /tmp: its rubi.hcl, plugins and notes
		// are not this user's to run and read (the line above says why).
		return "", &programs.ExitError{Code: 1}
	}
	return g.found.Root, nil
}

// inProject is the check of every command that would create .rubi/ or
// index: run where no project is (project.Found.IsProject, the rule by
// which the hooks stay out of such folders: no .rubi/, rubi.hcl or .git
// of the user's here or above, or only the home folder's .git), it
// refuses, saying how to name the folder with --root, rather than fill
// the home folder, or any other, with an index of all it holds. --root
// names the project: it is taken as it is.
func (g *globals) inProject() error {
	if g.Root != "" {
		return nil
	}
	if _, err := g.projectRoot(); err != nil {
		return err
	}
	home, _ := os.UserHomeDir()
	if g.found.IsProject(home) {
		return nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	l := g.lang()
	if g.found.Marker != "" {
		fmt.Fprintln(g.stderr, l.Format(messages.CLINotAProjectHome, wd, g.found.Root, g.withRoot(wd)))
	} else {
		fmt.Fprintln(g.stderr, l.Format(messages.CLINotAProject, wd, g.withRoot(wd)))
	}
	return &programs.ExitError{Code: 1}
}

// withRoot is the running command line with --root dir after the
// command's name, quoted for a shell.
func (g *globals) withRoot(dir string) string {
	path := []string{"rubi"}
	if g.cmd != nil {
		path = strings.Fields(g.cmd.CommandPath())
	}
	words := append(append([]string{}, path...), "--root", connect.ShellQuote(dir))
	names := path[1:]
	for _, a := range g.args {
		if len(names) > 0 && a == names[0] {
			names = names[1:]
			continue
		}
		words = append(words, connect.ShellQuote(a))
	}
	return strings.Join(words, " ")
}

// loadConfig loads the layers for the project, printing diagnostics.
func (g *globals) loadConfig() (*config.Config, error) {
	root, err := g.projectRoot()
	if err != nil {
		return nil, err
	}
	// Through the cache the hooks keep (config.LoadThroughCache): a
	// command most often refreshes an index that did not change, in a few
	// milliseconds of which parsing the configuration was a twentieth.
	cfg, diags := config.LoadThroughCache(config.Options{Root: root, Extra: g.Configs}, config.CacheDir())
	if diags.HasErrors() {
		config.WriteDiagnostics(g.stderr, nil, diags)
		return nil, &programs.ExitError{Code: 1}
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
	} else if cfg, diags := config.Load(config.Options{Root: root, Extra: g.Configs}); !diags.HasErrors() {
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
	return pipeline.New(cfg, g.engineOptions()), nil
}

// engineOptions are the options of the command's engines: its logger,
// the program's launcher and resolvers of references, whether the command
// answers once, and the regex parser's comment masker for notes' anchors.
func (g *globals) engineOptions() pipeline.Options {
	return pipeline.Options{Logger: g.logger, Launcher: g.launcher, OneShot: g.oneShot, MaskComments: regex.MaskComments, Resolvers: g.resolvers, LimitMemory: programs.LimitMemory}
}

// stageEngine is engine for a command that runs the pipeline's stages of
// the given kinds (every kind when none is given). When rubi.hcl names a
// subprocess plugin among them and this program has no Launcher (rubi:
// see core/host's Launcher), it first runs rubi-full in rubi's place with
// the same arguments (programs.HandOver); it runs the built-ins when
// rubi-full is missing or cannot start, and says so.
func (g *globals) stageEngine(kinds ...core.Kind) (*pipeline.Engine, error) {
	cfg, err := g.loadConfig()
	if err != nil {
		return nil, err
	}
	var handed bool
	if g.launcher == nil {
		handed, err = programs.HandOver(cfg, g.args, execProgram, kinds...)
	}
	var he *programs.HandOverError
	switch {
	case handed:
		// Only a test's execProgram returns: the command ran elsewhere.
		return nil, &programs.ExitError{Code: 0}
	case errors.As(err, &he) && he.Path == "":
		fmt.Fprintln(g.stderr, g.lang().Format(messages.CLINoFull, programs.Full))
	case errors.As(err, &he):
		fmt.Fprintln(g.stderr, g.lang().Format(messages.CLIRunningFull, he.Path, he.Err))
	}
	// An untrusted project's plugins did not make it into cfg: say so
	// once, here, where the stages open (a rubi-full handed the command
	// says it itself).
	if line := cfg.LeftOutLine(g.lang()); line != "" {
		fmt.Fprintln(g.stderr, line)
	}
	return pipeline.New(cfg, g.engineOptions()), nil
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
		return &programs.ExitError{Code: 1}
	}
	return err
}
