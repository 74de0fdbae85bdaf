package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/core/pipeline"
)

func newContextCmd(g *globals) *cobra.Command {
	var (
		q         pipeline.Query
		noRefresh bool
		explain   bool
	)
	cmd := &cobra.Command{
		Use:   "context QUERY...",
		Short: "Find what in the project answers a question, within a token budget",
		Long: `context searches the project with every enabled ranker (text, graph, and any
plugin), fuses their lists and packs the best items into the token budget,
each with the reasons it was chosen. The index is brought up to date first
(unchanged files cost one stat each) unless --no-refresh is given.`,
		Example: `  rubi context "how are plugins loaded"
  rubi context "finishing a purchase" --terms checkout,cart,coupon --budget 800
  rubi context retrieve --kinds file --json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			q.Text = strings.Join(args, " ")
			eng, err := g.engine()
			if err != nil {
				return err
			}
			defer eng.Close()
			if !noRefresh {
				if err := g.refresh(cmd.Context(), eng); err != nil {
					return err
				}
			}
			res, err := eng.Retrieve(cmd.Context(), q)
			if err != nil {
				return g.reportError(err)
			}
			if g.json {
				return writeJSON(g.stdout, res)
			}
			fmt.Fprint(g.stdout, res.Text(explain))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&q.Terms, "terms", nil, "extra words: synonyms, related concepts, likely identifiers (comma-separated)")
	f.IntVar(&q.Budget, "budget", 0, "token budget of the answer (default: budgets.context in rubi.hcl)")
	f.IntVar(&q.Limit, "limit", 0, fmt.Sprintf("at most this many items (default %d)", pipeline.DefaultLimit))
	f.StringSliceVar(&q.Kinds, "kinds", nil, "only these kinds of item: file, module, node (comma-separated)")
	f.BoolVar(&noRefresh, "no-refresh", false, "answer from the index as it is, without updating it first")
	f.BoolVar(&explain, "explain", false, "show each ranker's score for every item")
	return cmd
}
