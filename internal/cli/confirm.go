package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/core/text"
	"github.com/rubi-dev/rubi/internal/githistory"
)

func newConfirmCmd(g *globals) *cobra.Command {
	var migrate bool
	cmd := &cobra.Command{
		Use:   "confirm ID...",
		Short: "Re-anchor notes to the code as it is now: they still hold",
		Long: `confirm says that notes (ids or titles) still hold for the code as it is
now: each is re-anchored to the symbols it names, or its files' code, as
they are now, so it is no longer stale. Its text is not rewritten: only
its anchors, updated and commit fields change. A note is stale when the
code it is about changed since it was anchored; rubi read ID says what.

--migrate turns anchors of the old kind (a whole file's hash, written by
rubi before code anchors) into anchors on the code, computed from each
file as it was when the note was written (the file on disk when it did not
change, else found in git, read in process), so that a note that was
stale stays stale; a file whose content then is found nowhere keeps its
old anchor. rubi index does this too.`,
		Example: `  rubi confirm decision-use-jwt-instead-of-session
  rubi confirm "Coupon applied twice" gotcha-retry-loop
  rubi confirm --migrate`,
		Args: func(cmd *cobra.Command, args []string) error {
			if migrate {
				return argsBetween(0, 0)(cmd, args)
			}
			return argsBetween(1, -1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			eng, err := g.stageEngine(core.KindParser)
			if err != nil {
				return err
			}
			defer eng.Close()
			if migrate {
				res, err := g.migrateAnchors(cmd.Context(), eng)
				if err != nil {
					return err
				}
				if g.JSON {
					return writeJSON(g.stdout, res)
				}
				g.printMigrated(g.stdout, res)
				return nil
			}
			res := eng.Project().Knowledge().Confirm(args)
			g.indexWritten(cmd.Context(), eng)
			if g.JSON {
				if err := writeJSON(g.stdout, res); err != nil {
					return err
				}
			}
			failed := 0
			l := g.lang()
			for _, c := range res {
				if c.Error != "" {
					failed++
					fmt.Fprintf(g.stderr, "%s: %s\n", text.Escape(c.Ref), text.Escape(c.Error))
					continue
				}
				if g.JSON {
					continue
				}
				anchors := l.Get(messages.StatusNone)
				if len(c.Anchors) > 0 {
					anchors = strings.Join(c.Anchors, ", ")
				}
				fmt.Fprintln(g.stdout, l.Format(messages.CLIConfirmed, c.ID, text.Escape(anchors)))
				if len(c.Unknown) > 0 {
					fmt.Fprintln(g.stdout, l.Format(messages.CLIConfirmUnknown, text.Escape(strings.Join(c.Unknown, ", "))))
				}
			}
			if failed > 0 {
				return errors.New(l.Format(messages.CLIConfirmFailed, failed, len(res)))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&migrate, "migrate", false, "migrate the notes anchored to whole files (old rubi) to anchors on their code, as it was then")
	return cmd
}

// migrateAnchors migrates the project's notes anchored to whole files
// (knowledge.Store.Migrate), finding old contents in git, and indexes the
// notes it rewrote.
func (g *globals) migrateAnchors(ctx context.Context, eng *pipeline.Engine) ([]knowledge.Migrated, error) {
	// Through the index's node cache: a run that read no note (a quick
	// one) would otherwise parse every node file here.
	eng.Notes().ImportCache()
	ks := eng.Project().Knowledge()
	res, err := ks.Migrate(githistory.Open(eng.Config().Root).Content)
	if err != nil {
		return nil, err
	}
	for _, m := range res {
		if len(m.Files) > 0 {
			g.indexWritten(ctx, eng)
			break
		}
	}
	return res, nil
}

// printMigrated says what a migration did, a line a note.
func (g *globals) printMigrated(w io.Writer, res []knowledge.Migrated) {
	l := g.lang()
	for _, m := range res {
		switch {
		case m.Error != "":
			fmt.Fprintf(g.stderr, "%s: %s\n", m.ID, text.Escape(m.Error))
		case len(m.Kept) > 0:
			fmt.Fprintln(w, l.Format(messages.CLIMigrateKept, m.ID, text.Escape(strings.Join(m.Kept, ", "))))
			if len(m.Files) > 0 {
				fmt.Fprintln(w, l.Format(messages.CLIMigrated, m.ID, text.Escape(strings.Join(m.Files, ", "))))
			}
		default:
			fmt.Fprintln(w, l.Format(messages.CLIMigrated, m.ID, text.Escape(strings.Join(m.Files, ", "))))
		}
	}
}
