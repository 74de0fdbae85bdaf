// Command rubi-full is rubi with subprocess plugins: the same commands as
// rubi, plus the plugin transport (core/subprocess: hashicorp/go-plugin
// over gRPC) that rubi leaves out to start sooner. rubi and rubi-hook run
// it in their place when the project's rubi.hcl names a plugin; nobody
// needs to call it by name.
package main

import (
	"github.com/rubi-dev/rubi/core/subprocess"
	"github.com/rubi-dev/rubi/internal/cli"
	"github.com/rubi-dev/rubi/plugins/standard"
)

func main() { cli.Main(subprocess.Launcher{}, standard.Resolvers()) }
