// Command rubi-fuse-rrf serves the built-in stage of plugins/fuse-rrf as a subprocess
// plugin. rubi runs the same code in-process by default; this binary exists
// so the stage can be swapped, isolated or tested over the plugin protocol.
package main

import (
	"github.com/rubi-dev/rubi/core/pluginsdk"
	rrf "github.com/rubi-dev/rubi/plugins/fuse-rrf"
)

func main() {
	pluginsdk.Serve(rrf.New())
}
