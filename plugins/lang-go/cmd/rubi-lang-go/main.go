// Command rubi-lang-go serves the built-in stage of plugins/lang-go as a
// subprocess plugin. rubi runs the same code in-process by default; this
// binary exists so the stage can be swapped, isolated or tested over the
// plugin protocol.
package main

import (
	"github.com/rubi-dev/rubi/core/pluginsdk"
	golang "github.com/rubi-dev/rubi/plugins/lang-go"
)

func main() {
	pluginsdk.Serve(golang.New())
}
