package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/core/pipeline"
)

// newStatusCmd is rubi status: the overview of the project's memory.
func newStatusCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Overview of the memory: nodes, chunks and retention, index health, sizes",
		Long: `status shows the project's memory at a glance: the knowledge nodes of the
project and of the personal vault by type and importance, the conversation
chunks by retention zone (active, archived) with what retention would
archive or purge now and next, the index's age and health (checked as an
index run checks it, without changing it), the size of .rubi/ and the
vault, and when a chunk was last read or saved and a node last written.
What cannot be read (no index yet, a damaged index, a node or chunk that
does not parse) is reported in the output. It writes nothing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			eng, err := g.engine()
			if err != nil {
				return err
			}
			defer eng.Close()
			st := eng.Status(cmd.Context(), time.Now())
			if g.JSON {
				return writeJSON(g.stdout, st)
			}
			text := st.Text(g.lang())
			if sty := styleFor(g.stdout); sty.colour {
				text = st.Styled(g.lang(), pipeline.TextStyle{Heading: sty.heading, Problems: sty.warn})
			}
			_, err = fmt.Fprint(g.stdout, text)
			return err
		},
	}
}
