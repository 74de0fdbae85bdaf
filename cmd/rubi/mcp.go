package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/server"
)

// xrayToolTokens is what the xray tool's definition costs, for --xray's
// help; a test keeps it equal to the measured cost.
const xrayToolTokens = 114

// projectDirEnv names the project an MCP server serves, like --root.
const projectDirEnv = "RUBI_PROJECT_DIR"

func newMCPCmd(g *globals) *cobra.Command {
	var (
		httpAddr string
		hopts    server.HTTPOptions
		cost     bool
		xray     bool
	)
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve rubi's tools to AI agents over MCP (stdio, or streamable HTTP)",
		Long: `mcp serves rubi's tools (context, register, map, read, memory) to an
AI agent over the Model Context Protocol. By default
it speaks on standard input and output, the way agents start their tools;
logs go to standard error only.

The project is --root or ` + projectDirEnv + `, else the client's roots, else
the project around the working directory. The index is refreshed before
queries, so answers reflect edits made while the server runs.

--http ADDR serves streamable HTTP at http://ADDR/mcp instead, for several
clients and projects at once (the projects tool lists them; every tool takes
a project argument). A bare port or ":PORT" listens on 127.0.0.1; any other
address needs a bearer token (--token or ` + server.TokenEnv + `), which
clients send as "Authorization: Bearer TOKEN". Browser origins other than
loopback ones are refused unless named with --allow-origin.

--xray also offers the xray tool: a summary of where your agents' tokens
went (rubi xray) and the compaction threshold that would save most, for
when you ask your agent. It is off by default because clients send every
tool definition with every message.

--cost prints what the tool definitions and instructions cost in tokens:
clients send them with every message.`,
		Example: `  claude mcp add rubi -- rubi mcp
  rubi mcp --http 8765
  ` + server.TokenEnv + `=secret rubi mcp --http 0.0.0.0:8765
  rubi mcp --cost
  claude mcp add rubi -- rubi mcp --xray
  rubi mcp --cost --xray`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts, err := g.mcpOptions(httpAddr != "")
			if err != nil {
				return err
			}
			opts.Xray = xray
			srv := server.New(opts)
			defer srv.Close()
			if cost {
				return g.printCost(srv)
			}
			if httpAddr == "" {
				return srv.ServeStdio(cmd.Context(), g.stdin, g.stdout)
			}
			addr, err := server.ListenAddr(httpAddr)
			if err != nil {
				return err
			}
			if hopts.Token == "" {
				hopts.Token = os.Getenv(server.TokenEnv)
			}
			if err := server.CheckHTTP(addr, hopts); err != nil {
				return err
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			fmt.Fprintf(g.stderr, "rubi mcp: serving http://%s%s (Ctrl-C stops)\n", ln.Addr(), server.Path)
			return srv.ServeHTTP(cmd.Context(), ln, hopts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&httpAddr, "http", "", "serve streamable HTTP on ADDR (host:port or a port; loopback unless a host is named)")
	f.StringVar(&hopts.Token, "token", "", "bearer token clients must send over HTTP (default $"+server.TokenEnv+")")
	f.StringArrayVar(&hopts.Origins, "allow-origin", nil, "a browser origin allowed over HTTP besides loopback ones (repeatable)")
	f.BoolVar(&cost, "cost", false, "print the fixed cost in tokens of the tool definitions and instructions, and exit")
	f.BoolVar(&xray, "xray", false, "also offer the xray tool (adds ~"+strconv.Itoa(xrayToolTokens)+" tokens to every message)")
	return cmd
}

// mcpOptions resolves where the server finds its projects.
func (g *globals) mcpOptions(multi bool) (server.Options, error) {
	opts := server.Options{Configs: g.configs, Multi: multi, Logger: g.logger.Named("mcp")}
	dir, what := g.root, "--root"
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
	wd, err := os.Getwd()
	if err != nil {
		return opts, err
	}
	opts.WorkDir = wd
	return opts, nil
}

func (g *globals) printCost(srv *server.Server) error {
	c, err := srv.FixedCost()
	if err != nil {
		return err
	}
	if g.json {
		if err := writeJSON(g.stdout, c); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(g.stdout, "fixed cost: ~%d tokens in every message (limit %d)\n", c.Total, c.Limit)
		fmt.Fprintf(g.stdout, "  %-14s %4d\n", "instructions", c.Instructions)
		for _, t := range c.Tools {
			fmt.Fprintf(g.stdout, "  %-14s %4d\n", t.Name, t.Tokens)
		}
	}
	if c.Total > c.Limit {
		msg := fmt.Sprintf("rubi: the fixed cost is over its limit of %d tokens", c.Limit)
		for _, t := range c.Tools {
			if t.Name == "xray" {
				msg += fmt.Sprintf("; the xray tool adds %d of them: leave out --xray to save them", t.Tokens)
			}
		}
		fmt.Fprintln(g.stderr, msg)
		return &exitError{code: 1}
	}
	return nil
}
