package main

import (
	"fmt"
	"io"
	"sort"
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
			printResult(g.stdout, res, explain)
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

func printResult(w io.Writer, res *pipeline.Result, explain bool) {
	if len(res.Items) == 0 {
		fmt.Fprintf(w, "nothing in the project matches %q\n", res.Query)
	}
	for i, it := range res.Items {
		lines := strings.SplitN(it.Text, "\n", 2)
		fmt.Fprintf(w, "%d. [%s] %s\n", i+1, it.Kind, lines[0])
		if len(it.Reasons) > 0 {
			fmt.Fprintf(w, "   why: %s\n", strings.Join(it.Reasons, "; "))
		}
		if explain {
			fmt.Fprintf(w, "   score %.5f = %s\n", it.Score, scoresLine(it.Scores))
		}
		if len(lines) == 2 {
			for _, l := range strings.Split(lines[1], "\n") {
				fmt.Fprintf(w, "   %s\n", strings.TrimSpace(l))
			}
		}
	}
	fmt.Fprintf(w, "%d items, ~%d tokens (budget %d", len(res.Items), res.Tokens, res.Budget)
	if res.Omitted > 0 {
		fmt.Fprintf(w, ", %d more matches left out", res.Omitted)
	}
	fmt.Fprintln(w, ")")
}

func scoresLine(scores map[string]float64) string {
	names := make([]string, 0, len(scores))
	for n := range scores {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s %.4g", n, scores[n])
	}
	if len(parts) == 0 {
		return "(fuser only)"
	}
	return "fused from " + strings.Join(parts, ", ")
}
