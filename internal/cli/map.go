package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/internal/flags"
)

func newMapCmd(g *globals) *cobra.Command {
	var noRefresh bool
	cmd := &cobra.Command{
		Use:   "map [MODULE]",
		Short: "Print the project map, or one module's page",
		Long: `map prints the level-0 map of the project (.rubi/map.md: its modules, most
central first, with their central files and who uses them, within
budgets.map tokens), or with MODULE the level-1 page of that module
(.rubi/modules/<module>.md: every file with its description, exports and
imports in and out). MODULE may be a full name (core/host), a page name
(core-host) or a unique last part (host). The index is refreshed first
unless --no-refresh.`,
		Args: argsBetween(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			// Without a refresh no stage runs.
			var eng *pipeline.Engine
			var err error
			if noRefresh {
				eng, err = g.engine()
			} else {
				eng, err = g.stageEngine()
			}
			if err != nil {
				return err
			}
			defer eng.Close()
			if !noRefresh {
				if err := g.refresh(cmd.Context(), eng); err != nil {
					return err
				}
			}
			module := ""
			if len(args) == 1 {
				module = args[0]
			}
			// The stored map is English, and so is --json; on a terminal
			// its fixed phrases are in the user's language.
			l := messages.English
			if !g.JSON {
				l = g.lang()
			}
			text, err := eng.MapTextIn(module, l)
			if err != nil {
				return g.reportError(err)
			}
			if g.JSON {
				return writeJSON(g.stdout, struct {
					Module string `json:"module,omitempty"`
					Text   string `json:"text"`
				}{module, text})
			}
			fmt.Fprint(g.stdout, text)
			return nil
		},
	}
	cmd.Flags().BoolVar(&noRefresh, "no-refresh", false, "print the map as it is, without updating the index first")
	return cmd
}

func newGraphCmd(g *globals) *cobra.Command {
	var dot, mermaid, files bool
	limit := -1
	cmd := &cobra.Command{
		Use:   "graph",
		Short: "Print the project graph: files, imports, modules; or draw it",
		Long: `graph prints the whole project graph from the index: every file with its
language, module, PageRank and symbols; every import between project files;
the modules with their central files and dependencies; and, per language,
how many imports looked internal but found no file. Use --json; the text
form is a summary. The index is refreshed first.

--dot (Graphviz) and --mermaid draw the module graph for documents and
READMEs: a box per module with its number of files, coloured by its main
language (tests dashed), an arrow per pair of modules with how many
imports (solid) and references (dashed, where the index keeps them) go
from one to the other. With --files they draw the files instead, grouped
into their modules. A drawing shows the most central 40 modules (80
files with --files) and says how many it left out; --limit changes that,
--limit 0 draws everything. The output is the same for the same index.`,
		Example: "  rubi graph --json\n  rubi graph --dot | dot -Tsvg > modules.svg\n  rubi graph --mermaid --files --limit 30",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			draw := dot || mermaid
			switch {
			case dot && mermaid:
				return errors.New("--dot and --mermaid do not go together: draw one, then the other")
			case draw && g.JSON:
				return errors.New("--json does not go with --dot or --mermaid")
			case !draw && files:
				return errors.New("--files draws files: add --dot or --mermaid")
			case !draw && cmd.Flags().Changed("limit"):
				return errors.New("--limit cuts a drawing: add --dot or --mermaid")
			case limit < -1 || cmd.Flags().Changed("limit") && limit < 0:
				return fmt.Errorf("--limit %d: give a number of nodes, or 0 for all of them", limit)
			}
			eng, err := g.stageEngine()
			if err != nil {
				return err
			}
			defer eng.Close()
			if err := g.refresh(cmd.Context(), eng); err != nil {
				return err
			}
			if draw {
				opts := codemap.DrawOptions{Files: files, Limit: limit}
				if limit < 0 {
					opts.Limit = codemap.DefaultDrawModules
					if files {
						opts.Limit = codemap.DefaultDrawFiles
					}
				}
				d, err := eng.Draw(opts)
				if err != nil {
					return g.reportError(err)
				}
				if note := d.Note(); note != "" {
					fmt.Fprintln(g.stderr, "rubi: "+note)
				}
				if dot {
					fmt.Fprint(g.stdout, d.DOT())
				} else {
					if note := d.MermaidNote(); note != "" {
						fmt.Fprintln(g.stderr, "rubi: "+note)
					}
					fmt.Fprint(g.stdout, d.Mermaid())
				}
				return nil
			}
			graph, err := eng.Graph()
			if err != nil {
				return g.reportError(err)
			}
			if g.JSON {
				return writeJSON(g.stdout, graph)
			}
			printGraph(g, graph)
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&dot, "dot", false, "draw the module graph in Graphviz's DOT language")
	f.BoolVar(&mermaid, "mermaid", false, "draw the module graph as a Mermaid flowchart")
	f.BoolVar(&files, "files", false, "draw the files, grouped into their modules, instead of the modules")
	f.IntVar(&limit, "limit", -1, fmt.Sprintf("draw at most this many modules (default %d) or files (default %d), the most central; 0: all", codemap.DefaultDrawModules, codemap.DefaultDrawFiles))
	flags.SetExample(f, "limit", "20")
	return cmd
}

func printGraph(g *globals, graph *pipeline.Graph) {
	l := g.lang()
	symbols := 0
	for _, f := range graph.Files {
		symbols += len(f.Symbols)
	}
	fmt.Fprintln(g.stdout, l.Format(messages.GraphCounts, l.Count(len(graph.Files), messages.NounFile), l.Count(symbols, messages.NounSymbol), l.Count(len(graph.Edges), messages.NounImport), l.Count(len(graph.Modules), messages.NounModule)))
	if len(graph.Unresolved) > 0 {
		fmt.Fprintln(g.stdout, l.Format(messages.GraphUnresolved, countsLine(graph.Unresolved)))
	}
	for i, m := range graph.Modules {
		if i == 10 {
			fmt.Fprintln(g.stdout, l.Format(messages.GraphMore, len(graph.Modules)-10))
			break
		}
		fmt.Fprintln(g.stdout, l.Format(messages.GraphModule, m.Name, m.Files, m.PageRank))
	}
}
