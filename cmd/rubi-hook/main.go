// Command rubi-hook answers agent hooks, as `rubi hook` does, in half the
// time: it links the engine and the hooks (agent/hooks) and nothing else,
// so it starts without the MCP server's, the installers', the command
// line's and the plugin transport's packages; a recall for a project whose
// rubi.hcl names a ranker or fuser plugin is answered by rubi-full. An
// agent runs it on every prompt and tool call; rubi install and rubi
// connect write it into the agent's hooks when it sits beside rubi.
//
//	rubi-hook [--config FILE]... EVENT      answer the hook EVENT (JSON on stdin;
//	                                        at a terminal, say so and exit 2)
//	rubi-hook [--config FILE]... index DIR  index DIR (its background refresh)
//	rubi-hook version
//
// It links no net, so it is a static binary whatever CGO_ENABLED is: it
// started in 16 ms against 33 when it linked the plugin transport.
// layers_test.go at the repository's root holds what it links.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/hashicorp/go-hclog"

	"github.com/rubi-dev/rubi"
	"github.com/rubi-dev/rubi/agent/hooks"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/internal/programs"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
	"github.com/rubi-dev/rubi/plugins/standard"
)

// main hands Main no Launcher: rubi-hook starts no plugin (a recall that
// needs one runs in rubi-full).
func main() { programs.Main(nil, run) }

// configs is the repeatable --config flag.
type configs []string

func (c *configs) String() string     { return fmt.Sprint(*c) }
func (c *configs) Set(v string) error { *c = append(*c, v); return nil }

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rubi-hook", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var extra configs
	fs.Var(&extra, "config", "an extra configuration file read after the project's rubi.hcl (repeatable)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: rubi-hook [--config FILE]... EVENT   (the agent's JSON payload on stdin)\n       rubi-hook [--config FILE]... index DIR\n       rubi-hook version\nrubi hook --help describes the events.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	switch rest := fs.Args(); {
	case len(rest) == 1 && rest[0] == "version":
		fmt.Fprintf(stdout, "rubi-hook %s\n", rubi.Version)
		return 0
	case len(rest) == 2 && rest[0] == "index":
		if err := index(ctx, rest[1], extra); err != nil {
			fmt.Fprintf(stderr, "rubi-hook: index %s: %v\n", rest[1], err)
			return 1
		}
		return 0
	case len(rest) <= 1:
		event := ""
		if len(rest) == 1 {
			event = rest[0]
		}
		if err := programs.NeedInput(stdin, stderr, "rubi-hook: the hook", "the agent's JSON payload", `an agent's hook runs it with the payload piped in, e.g. echo '{"hook_event_name":"UserPromptSubmit","cwd":".","session_id":"s1","prompt":"why is the coupon applied twice?"}' | rubi-hook UserPromptSubmit (rubi hook --help lists the events)`); err != nil {
			return programs.Status("rubi-hook", err, stderr)
		}
		programs.QuietGC()
		// One hook, then exit: index files stay mapped instead of being
		// copied (pipeline.Options.OneShot).
		hooks.Run(ctx, hooks.ProcessEnv(extra, pipeline.Options{OneShot: true, MaskComments: regex.MaskComments, Resolvers: standard.Resolvers(), LimitMemory: programs.LimitMemory}, hooks.SelfIndex(func(root string) []string {
			var args []string
			for _, c := range extra {
				args = append(args, "--config", c)
			}
			return append(args, "index", root)
		}), programs.FindFull), event, stdin, stdout)
		return 0
	}
	fs.Usage()
	return 2
}

// index refreshes the index of the project at root, as `rubi index` does,
// without its output: it is the background refresh a session start
// begins. When rubi.hcl names a plugin, rubi-full runs the refresh in this
// process's place.
func index(ctx context.Context, root string, extra []string) error {
	cfg, err := config.LoadChecked(config.Options{Root: root, Extra: extra})
	if err != nil {
		return err
	}
	logger := hclog.New(&hclog.LoggerOptions{Name: "rubi-hook", Output: os.Stderr, Level: hclog.Error})
	var args []string
	for _, c := range extra {
		args = append(args, "--config", c)
	}
	if _, err := programs.HandOver(cfg, append(args, "index", "--root", root), programs.Exec); err != nil {
		logger.Error("rubi.hcl names a plugin: indexing with the built-in stages", "error", err)
	}
	eng := pipeline.New(cfg, pipeline.Options{Logger: logger, MaskComments: regex.MaskComments, Resolvers: standard.Resolvers(), LimitMemory: programs.LimitMemory})
	defer eng.Close()
	_, err = eng.Index(ctx, pipeline.IndexOptions{HugeHeap: true})
	return err
}
