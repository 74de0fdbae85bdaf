package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/internal/programs"
)

// defaultRefsLimit is how many references rubi refs lists unless told:
// enough for most symbols, and an answer an agent can read whole.
const defaultRefsLimit = 100

func newRefsCmd(g *globals) *cobra.Command {
	var noRefresh bool
	var limit int
	cmd := &cobra.Command{
		Use:   "refs SYMBOL",
		Short: "List the references to a symbol: its definition, then every use, by file",
		Long: `refs prints where a symbol is defined (path:line: signature), then each
reference to it as path:line: code, grouped by file, the files with the most
references first. SYMBOL is a target as rubi read takes it: Name,
Type.method, pkg.Func (a module: Go package or folder, Python module),
PATH::Name; a name with several definitions lists them, best first, and
exits 1. A method of the same name on another type is not a reference. The
index is refreshed first, unless --no-refresh.`,
		Example: `  rubi refs Cart.Total
  rubi refs store.ReadWithin --limit 20
  rubi refs core/store/within.go::ReadLeaf --json`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			// One answer, then the process exits: the index files stay
			// mapped, their pages read as the lookup reaches them, rather
			// than the whole table and manifest read ahead
			// (pipeline.Options.OneShot).
			g.oneShot = true
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
			defer func() { eng.Close() }()
			if !noRefresh {
				if err := g.refresh(cmd.Context(), eng); err != nil {
					return err
				}
			}
			l := g.lang()
			r, err := eng.References(args[0], limit)
			switch {
			case errors.Is(err, pipeline.ErrNoReferences):
				fmt.Fprintln(g.stderr, "rubi: "+l.Get(messages.RefsOff))
				return &programs.ExitError{Code: 1}
			case err != nil:
				return g.reportError(err)
			}
			if !r.Found() {
				fmt.Fprintln(g.stderr, "rubi: "+r.NotFound(l))
				return &programs.ExitError{Code: 1}
			}
			if g.JSON {
				err = writeJSON(g.stdout, r)
			} else {
				fmt.Fprint(g.stdout, r.Render(l, messages.RefsMoreLimit))
			}
			if err == nil && r.Definition == nil {
				// Ambiguous: the candidates are listed, as read lists
				// them, but no references.
				return &programs.ExitError{Code: 1}
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&noRefresh, "no-refresh", false, "answer from the index as it is, without updating it first")
	cmd.Flags().IntVar(&limit, "limit", defaultRefsLimit, "list at most this many references (0: all of them)")
	return cmd
}
