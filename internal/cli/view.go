package cli

import (
	"context"
	"fmt"
	"io"
	"net"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/agent/view"
	"github.com/rubi-dev/rubi/agent/xray"
	"github.com/rubi-dev/rubi/core/messages"
)

func newViewCmd(g *globals) *cobra.Command {
	var (
		addr      string
		noRefresh bool
	)
	cmd := &cobra.Command{
		Use:   "view",
		Short: "Serve a local web view of the map, the notes and the answers",
		Long: `view serves the project in the browser until interrupted (Ctrl-C): the
module graph (Map), the notes and their links (Knowledge), notes, handoffs
and conversation chunks over time with the retention zones (Timeline), a
question answered as an agent gets it with each ranker's scores (Search),
and the token X-ray of this project's agent sessions (Tokens).

It listens on loopback only and prints its address first, with a token
made for the run: every request without it is refused. The index is
refreshed once before serving unless --no-refresh; the pages then read it
as it is (as --no-refresh does), and see another process's re-index.`,
		Example: "  rubi view\n  rubi view --addr 127.0.0.1:8080",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			listen, err := view.ListenAddr(addr)
			if err != nil {
				return err
			}
			eng, err := g.stageEngine()
			if err != nil {
				return err
			}
			defer eng.Close()
			if !noRefresh {
				if err := g.refresh(cmd.Context(), eng); err != nil {
					return err
				}
			} else if !eng.HasIndex() {
				return fmt.Errorf("%s has no index yet: run rubi index, or rubi view without --no-refresh", eng.Config().Root)
			}
			x := defaultXrayFlags()
			x.project = eng.Config().Root
			srv, err := view.New(view.Options{
				Engine:   eng,
				Logger:   g.logger,
				XrayDays: x.days,
				Xray: func(ctx context.Context, w io.Writer) error {
					rep, err := x.report(ctx)
					if err != nil {
						return err
					}
					return xray.WriteHTML(w, rep, x.textOptions(messages.English))
				},
			})
			if err != nil {
				return err
			}
			ln, err := net.Listen("tcp", listen)
			if err != nil {
				return err
			}
			fmt.Fprintln(g.stdout, "rubi view: "+srv.URL(ln.Addr()))
			fmt.Fprintln(g.stderr, g.lang().Get(messages.ViewStop))
			return srv.Serve(cmd.Context(), ln)
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:0", "loopback address to listen on (port 0: any free port)")
	cmd.Flags().BoolVar(&noRefresh, "no-refresh", false, "serve the index as it is, without updating it first")
	return cmd
}
