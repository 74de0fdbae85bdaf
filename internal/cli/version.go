package cli

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi"
	"github.com/rubi-dev/rubi/core"
)

func newVersionCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print rubi's version and plugin protocol version",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			v := struct {
				Version  string `json:"version"`
				Protocol int    `json:"plugin_protocol"`
				Go       string `json:"go"`
				Platform string `json:"platform"`
			}{rubi.Version, core.PluginProtocol, runtime.Version(), runtime.GOOS + "/" + runtime.GOARCH}
			if g.JSON {
				return writeJSON(g.stdout, v)
			}
			fmt.Fprintf(g.stdout, "rubi %s (plugin protocol v%d, %s, %s)\n", v.Version, v.Protocol, v.Go, v.Platform)
			return nil
		},
	}
}
