// Command rubi-lang-regex serves the built-in stage of plugins/lang-regex as a subprocess
// plugin. rubi runs the same code in-process by default; this binary exists
// so the stage can be swapped, isolated or tested over the plugin protocol.
package main

import (
	"github.com/rubi-dev/rubi/core/pluginsdk"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

func main() {
	pluginsdk.Serve(regex.New())
}
