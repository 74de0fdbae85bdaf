// Command rubi-rank-ppr serves the built-in stage of plugins/rank-ppr as a subprocess
// plugin. rubi runs the same code in-process by default; this binary exists
// so the stage can be swapped, isolated or tested over the plugin protocol.
package main

import (
	"github.com/rubi-dev/rubi/core/pluginsdk"
	ppr "github.com/rubi-dev/rubi/plugins/rank-ppr"
)

func main() {
	pluginsdk.Serve(ppr.New())
}
