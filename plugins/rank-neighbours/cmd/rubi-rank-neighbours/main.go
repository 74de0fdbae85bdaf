// Command rubi-rank-neighbours serves the built-in stage of
// plugins/rank-neighbours as a subprocess plugin. rubi runs the same code
// in-process by default; this binary exists so the stage can be swapped,
// isolated or tested over the plugin protocol.
package main

import (
	"github.com/rubi-dev/rubi/core/pluginsdk"
	neighbours "github.com/rubi-dev/rubi/plugins/rank-neighbours"
)

func main() {
	pluginsdk.Serve(neighbours.New())
}
