package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/pipeline"
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
	return &cobra.Command{
		Use:   "graph",
		Short: "Print the project graph: files, imports, modules",
		Long: `graph prints the whole project graph from the index: every file with its
language, module, PageRank and symbols; every import between project files;
the modules with their central files and dependencies; and, per language,
how many imports looked internal but found no file. Use --json; the text
form is a summary. The index is refreshed first.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			eng, err := g.stageEngine()
			if err != nil {
				return err
			}
			defer eng.Close()
			if err := g.refresh(cmd.Context(), eng); err != nil {
				return err
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
