package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/hashicorp/go-hclog"
	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi"
	"github.com/rubi-dev/rubi/agent/loopback"
	"github.com/rubi-dev/rubi/agent/mcpserver"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/host"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/core/project"
	"github.com/rubi-dev/rubi/core/store"
	"github.com/rubi-dev/rubi/internal/flags"
	"github.com/rubi-dev/rubi/internal/programs"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
	"github.com/rubi-dev/rubi/plugins/standard"
)

// xrayTokens is what memory's action xray adds to the definitions, for
// --xray's help; a test keeps it equal to the measured cost.
const xrayTokens = 30

// projectDirEnv names the project an MCP server serves, like --root.
const projectDirEnv = "RUBI_PROJECT_DIR"

// options are the command line: rubi's global flags that matter to the
// server, and the server's own.
type options struct {
	flags.Global
	stdin    io.Reader
	stdout   io.Writer
	stderr   io.Writer
	httpAddr string
	http     mcpserver.HTTPOptions
	cost     bool
	xray     bool
	// version prints the program's version (rubi doctor compares it
	// with rubi's) and exits.
	version bool
	// allow are the --allow folders.
	allow []string
	// vault is --vault's folder; vaultSet says the flag was given (its
	// empty value means the configured vault).
	vault    string
	vaultSet bool
	// lang is the language of the server's instructions and descriptions,
	// and of --cost's lines (serverOptions chooses it).
	lang messages.Lang
	// launcher starts the subprocess plugins of the projects' rubi.hcl:
	// the one main made.
	launcher host.Launcher
}

// unreplacedPlaceholder is a manifest variable its host did not replace.
var unreplacedPlaceholder = regexp.MustCompile(`^\$\{[A-Za-z0-9_.]+\}$`)

// httpMemoryLimit is the HTTP server's soft memory limit unless
// GOMEMLIMIT sets one (bench/httpload: 20 clients × 50 calls with bodies
// up to the limits peak at about 230 MB with it, 320 MB without).
const httpMemoryLimit = 192 << 20

func newCmd(o *options) *cobra.Command {
	cmd := &cobra.Command{
		// Users start the server as rubi mcp, which runs this program
		// with the same arguments.
		Use:   "rubi mcp",
		Short: "Serve rubi's tools to AI agents over MCP (stdio, or streamable HTTP)",
		Long: `mcp serves rubi's tools (context, register, map, read, memory) to an
AI agent over the Model Context Protocol. By default
it speaks on standard input and output, the way agents start their tools;
logs go to standard error only. rubi mcp runs the program rubi-mcp,
installed beside rubi, with the same arguments; it can be run directly.

The project is --root or ` + projectDirEnv + `, else the client's roots, else
the project around the working directory. The index is refreshed before
queries, so answers reflect edits made while the server runs.

--http ADDR serves streamable HTTP at http://ADDR/mcp instead, for several
clients and projects at once (read "map" lists them; every tool takes
a project argument: an open project's name, or the absolute path of a project
inside --root, the working directory's project or an --allow folder). A
bare port or ":PORT" listens on 127.0.0.1. Every request must carry a bearer
token, "Authorization: Bearer TOKEN", on loopback too (any local user can
reach a loopback port): --token or ` + mcpserver.TokenEnv + `; on loopback
without one, rubi makes one for the run, prints it, and keeps it while it
runs in $XDG_STATE_HOME/rubi/mcp-PORT.token (else
~/.local/state/rubi/mcp-PORT.token), a file only you can read. Any other
address needs a token you choose. Browser origins other than loopback ones
are refused unless named with --allow-origin. Connections that hang are cut
(10 s for a request's headers, 30 s for the whole request, 2 minutes idle),
at most 256 are open at once (the oldest not serving a request with the
token is closed to make room), and a client session idle for an hour
ends (the client starts a new one).

--vault DIR serves the personal vault alone, for apps that give the server
no project folder (the Claude Desktop extension, rubi.mcpb): the vault is the
project of every call (its index and handoffs in DIR/.rubi/), every note
registered is personal (DIR/personal/knowledge/), and read has no "map"; the working directory, --root, ` + projectDirEnv + ` and the client's roots are
not used. DIR is an absolute path (or ~/...), created when missing; "" (or a
manifest placeholder such as ${user_config.vault} left unreplaced) is
RUBI_VAULT, else the vault of your configuration (~/rubi-vault by default).
A vault that is a file, unwritable, the file system's root or your home
folder makes every tool call an error naming it.

--xray also offers the memory tool's action xray: a summary of where your
agents' tokens went (rubi xray) and the compaction threshold that would
save most, for when you ask your agent. It is off by default because
clients send every tool definition with every message.

--cost prints what the tool definitions and instructions cost in tokens:
clients send them with every message.`,
		Example: `  claude mcp add rubi -- rubi mcp
  rubi mcp --http 8765
  ` + mcpserver.TokenEnv + `=secret rubi mcp --http 0.0.0.0:8765
  rubi mcp --cost
  rubi mcp --vault ~/Documents/Rubi
  claude mcp add rubi -- rubi mcp --xray
  rubi mcp --cost --xray`,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.version {
				_, err := fmt.Fprintf(o.stdout, "rubi-mcp %s\n", rubi.Version)
				return err
			}
			logger, err := o.Logger("rubi.mcp", o.stderr)
			if err != nil {
				return err
			}
			if err := o.StartProfile(); err != nil {
				return err
			}
			if !o.cost && o.httpAddr == "" {
				// Over stdio the server waits for an agent's messages: at
				// a terminal, say so rather than wait in silence.
				if err := programs.NeedInput(o.stdin, o.stderr, "rubi mcp: the MCP server", "an agent's JSON-RPC messages", "an agent starts it and pipes them in (claude mcp add rubi -- rubi mcp; rubi connect sets up the others), or serve HTTP: rubi mcp --http 8765"); err != nil {
					return err
				}
			}
			o.vaultSet = cmd.Flags().Changed("vault")
			opts, err := o.serverOptions(logger)
			if err != nil {
				return err
			}
			srv := mcpserver.New(opts)
			defer srv.Close()
			if o.cost {
				return o.printCost(srv)
			}
			if o.httpAddr == "" {
				return srv.ServeStdio(cmd.Context(), o.stdin, o.stdout)
			}
			addr, err := mcpserver.ListenAddr(o.httpAddr)
			if err != nil {
				return err
			}
			if os.Getenv("GOMEMLIMIT") == "" {
				// A long-lived server on the user's machine: the
				// collector keeps the heap near this rather than letting
				// it double (a soft limit: a larger live heap still runs).
				debug.SetMemoryLimit(httpMemoryLimit)
			}
			if o.http.Token == "" {
				o.http.Token = os.Getenv(mcpserver.TokenEnv)
			}
			// On loopback a token is made when none is given; off it the
			// user chooses one.
			if o.http.Token != "" || !loopback.IsLoopback(addr) {
				if err := mcpserver.CheckHTTP(addr, o.http); err != nil {
					return err
				}
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			if o.http.Token == "" {
				remove, err := o.makeToken(ln.Addr())
				if err != nil {
					ln.Close()
					return err
				}
				defer remove()
			}
			fmt.Fprintf(o.stderr, "rubi mcp: serving http://%s%s (Ctrl-C stops)\n", ln.Addr(), mcpserver.Path)
			return srv.ServeHTTP(cmd.Context(), ln, o.http)
		},
	}
	// A flag not understood is said in rubi's words (flags.Explain).
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return flags.Explain(c.CommandPath(), c.Flags(), err)
	})
	f := cmd.Flags()
	// rubi's global flags, which rubi passes on from before "mcp".
	o.Define(f, flags.Help{
		Root:   projectDirEnv + ", else the client's roots, else the project around the working directory",
		JSON:   "print --cost as JSON",
		Config: "each project's rubi.hcl",
	})
	f.BoolP("help", "h", false, "help for rubi mcp")
	// The server's.
	f.StringVar(&o.httpAddr, "http", "", "serve streamable HTTP on ADDR (host:port or a port; loopback unless a host is named)")
	f.StringVar(&o.http.Token, "token", "", "bearer token clients must send over HTTP (default $"+mcpserver.TokenEnv+", else one made for the run on loopback)")
	f.StringArrayVar(&o.allow, "allow", nil, "a folder inside which the project argument may open projects over HTTP, besides --root and the working directory's project (repeatable)")
	f.StringArrayVar(&o.http.Origins, "allow-origin", nil, "a browser origin allowed over HTTP besides loopback ones (repeatable)")
	f.BoolVar(&o.cost, "cost", false, "print the fixed cost in tokens of the tool definitions and instructions, and exit")
	f.StringVar(&o.vault, "vault", "", "serve the personal vault DIR alone, with no project (\"\": the configured vault)")
	f.BoolVar(&o.version, "version", false, "print rubi-mcp's version and exit")
	f.BoolVar(&o.xray, "xray", false, "also offer memory's action xray (adds ~"+strconv.Itoa(xrayTokens)+" tokens to every message)")
	return cmd
}

// makeToken makes the bearer token of a server started without one on
// loopback (any local user can reach a loopback port), writes it to
// mcpserver.TokenPath for the port, 0600 in a 0700 folder, so a client's
// configuration can read it, and prints it. remove deletes the file when
// the server stops, unless another server wrote its own there since.
func (o *options) makeToken(addr net.Addr) (remove func(), err error) {
	token := loopback.NewToken()
	_, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return nil, err
	}
	path, err := mcpserver.TokenPath(port)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("keeping the token: %w; give one with --token or %s", err, mcpserver.TokenEnv)
	}
	if err := store.WriteFile(path, []byte(token+"\n"), 0o600); err != nil {
		return nil, fmt.Errorf("keeping the token: %w; give one with --token or %s", err, mcpserver.TokenEnv)
	}
	o.http.Token = token
	fmt.Fprintln(o.stderr, o.lang.Format(messages.HTTPTokenFile, token, path))
	return func() {
		// Read as any file rubi reads: no link followed, a regular file,
		// capped (the token is one short line).
		if data, err := store.ReadLeaf(path, 4<<10); err == nil && strings.TrimSpace(string(data)) == token {
			os.Remove(path)
		}
	}, nil
}

// serverOptions resolves where the server finds its projects.
func (o *options) serverOptions(logger hclog.Logger) (mcpserver.Options, error) {
	opts := mcpserver.Options{Configs: o.Configs, Multi: o.httpAddr != "", Xray: o.xray, Logger: logger,
		Engine: pipeline.Options{Launcher: o.launcher, MaskComments: regex.MaskComments, Resolvers: standard.Resolvers(), LimitMemory: programs.LimitMemory}}
	if o.vaultSet {
		switch {
		case o.httpAddr != "":
			return opts, errors.New("--vault serves one vault over standard input and output; leave out --http")
		case o.Root != "":
			return opts, errors.New("--vault serves the vault alone; leave out --root")
		case len(o.allow) > 0:
			return opts, errors.New("--vault serves the vault alone; leave out --allow")
		}
		opts.VaultOnly, opts.Vault = true, o.vault
		if unreplacedPlaceholder.MatchString(o.vault) {
			// An MCP Bundle host leaves "${user_config.vault}" as written
			// when the user left the setting blank (@anthropic-ai/mcpb's
			// getMcpConfigForManifest): the configured vault.
			opts.Vault = ""
		}
		o.chooseLanguage(&opts, config.Options{NoProject: true, Extra: o.Configs})
		return opts, nil
	}
	dir, what := o.Root, "--root"
	if dir == "" {
		dir, what = os.Getenv(projectDirEnv), projectDirEnv
	}
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return opts, err
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return opts, fmt.Errorf("%s %s: not a directory", what, dir)
		}
		opts.ProjectDir = abs
	}
	for _, d := range o.allow {
		abs, err := filepath.Abs(d)
		if err != nil {
			return opts, err
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return opts, fmt.Errorf("--allow %s: not a directory", d)
		}
		opts.Allow = append(opts.Allow, abs)
	}
	wd, err := os.Getwd()
	if err != nil {
		return opts, err
	}
	opts.WorkDir = wd
	root := opts.ProjectDir
	if root == "" {
		root = project.FindRoot(wd)
	}
	o.chooseLanguage(&opts, config.Options{Root: root, Extra: o.Configs})
	return opts, nil
}

// chooseLanguage sets the server's language: the language setting of the
// configuration the server starts with (the --root project's, else the
// working directory's, with the user's and --config's layers; the user's
// alone for --vault), else the locale. The instructions and descriptions
// are sent before any call names a project, so one language serves every
// project. A configuration that does not load leaves the choice to the
// locale: the calls report its errors.
func (o *options) chooseLanguage(opts *mcpserver.Options, co config.Options) {
	setting := ""
	if cfg, diags := config.Load(co); !diags.HasErrors() {
		setting = cfg.Language
	}
	o.lang = messages.Choose(setting, os.Getenv)
	opts.Language = o.lang
}

func (o *options) printCost(srv *mcpserver.Server) error {
	c, err := srv.FixedCost()
	if err != nil {
		return err
	}
	if o.JSON {
		enc := json.NewEncoder(o.stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(c); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(o.stdout, o.lang.Format(messages.CostLine, c.Total, c.Limit, o.lang.Get(messages.LangName(o.lang))))
		fmt.Fprintf(o.stdout, "  %-14s %4d\n", "instructions", c.Instructions)
		for _, t := range c.Tools {
			fmt.Fprintf(o.stdout, "  %-14s %4d\n", t.Name, t.Tokens)
		}
	}
	if c.Total > c.Limit {
		fmt.Fprintln(o.stderr, o.lang.Format(messages.CostOver, c.Limit))
		return &programs.ExitError{Code: 1}
	}
	return nil
}
