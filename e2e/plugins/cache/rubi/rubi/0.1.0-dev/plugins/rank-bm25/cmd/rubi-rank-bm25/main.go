// Command rubi-rank-bm25 serves the built-in stage of plugins/rank-bm25 as a subprocess
// plugin. rubi runs the same code in-process by default; this binary exists
// so the stage can be swapped, isolated or tested over the plugin protocol.
package main

import (
	"github.com/rubi-dev/rubi/core/pluginsdk"
	bm25 "github.com/rubi-dev/rubi/plugins/rank-bm25"
)

func main() {
	pluginsdk.Serve(bm25.New())
}
