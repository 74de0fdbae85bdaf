package cli

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/when"
	"github.com/rubi-dev/rubi/internal/flags"
	"github.com/rubi-dev/rubi/internal/programs"
)

func newContextCmd(g *globals) *cobra.Command {
	var (
		q            answer.Query
		noRefresh    bool
		explain      bool
		since, until string
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
		Args: argsBetween(1, -1),
		RunE: func(cmd *cobra.Command, args []string) error {
			q.Text = strings.Join(args, " ")
			// One query, then exit: index files stay mapped instead of
			// being copied (pipeline.Options.OneShot).
			g.oneShot = true
			var err error
			if q.Since, err = when.Since(since, time.Now()); err != nil {
				return fmt.Errorf("--since: %w", err)
			}
			if q.Until, err = when.Until(until, time.Now()); err != nil {
				return fmt.Errorf("--until: %w", err)
			}
			// Without a refresh no parser runs.
			var kinds []core.Kind
			if noRefresh {
				kinds = []core.Kind{core.KindRanker, core.KindFuser}
			}
			eng, err := g.stageEngine(kinds...)
			if err != nil {
				return err
			}
			defer eng.Close()
			if !noRefresh {
				if err := g.refresh(cmd.Context(), eng); err != nil {
					return err
				}
			}
			// The query allocates little and the process exits after it:
			// it runs without collecting garbage, as hooks do.
			programs.QuietGC()
			res, err := eng.Retrieve(cmd.Context(), q)
			if err != nil {
				return g.reportError(err)
			}
			if g.JSON {
				return writeJSON(g.stdout, res)
			}
			fmt.Fprint(g.stdout, res.Text(explain))
			for _, p := range res.Problems {
				// What the answer lacks (a ranker left out, a damaged
				// index), on standard error: the answer stays clean.
				fmt.Fprintln(g.stderr, "rubi:", p)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&q.Terms, "terms", nil, "extra words: synonyms, related concepts, likely identifiers (comma-separated)")
	f.IntVar(&q.Budget, "budget", 0, "token budget of the answer (default: budgets.context in rubi.hcl)")
	f.IntVar(&q.Limit, "limit", 0, fmt.Sprintf("at most this many items (default %d)", answer.DefaultLimit))
	flags.SetExample(f, "budget", "800")
	flags.SetExample(f, "limit", strconv.Itoa(answer.DefaultLimit))
	f.StringSliceVar(&q.Kinds, "kinds", nil, "only these kinds of item: file, module, node, chunk, or a source's kind such as issue (comma-separated)")
	f.StringVar(&q.PathPrefix, "path", "", "only files and modules under this path, and notes about them")
	f.StringVar(&q.Module, "module", "", "only this module, its files and the notes about them")
	f.StringSliceVar(&q.NodeTypes, "types", nil, "only notes of these types: decision, bug, gotcha, concept, … (comma-separated)")
	f.StringSliceVar(&q.Statuses, "status", nil, "note statuses to show (default active; e.g. superseded)")
	f.StringVar(&since, "since", "", "only what changed since: a date (2026-11-01), a time (RFC 3339) or an age (36h, 7d)")
	f.StringVar(&until, "until", "", "only what changed until: a date, a time or an age")
	f.BoolVar(&noRefresh, "no-refresh", false, "answer from the index as it is, without updating it first")
	f.BoolVar(&explain, "explain", false, "show each ranker's score for every item")
	return cmd
}
