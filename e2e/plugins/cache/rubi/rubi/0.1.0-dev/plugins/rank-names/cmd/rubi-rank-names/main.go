// Command rubi-rank-names serves the built-in stage of plugins/rank-names
// as a subprocess plugin. rubi runs the same code in-process by default;
// this binary exists so the stage can be swapped, isolated or tested over
// the plugin protocol.
package main

import (
	"github.com/rubi-dev/rubi/core/pluginsdk"
	names "github.com/rubi-dev/rubi/plugins/rank-names"
)

func main() {
	pluginsdk.Serve(names.New())
}
