// Command rubi is the command-line face of rubi's engine; its commands live
// in internal/cli. It links no plugin transport: a command that would open
// a subprocess stage runs rubi-full in its place first (every argument
// passed on), and runs the built-ins with a line saying why when rubi-full
// is missing (internal/programs).
package main

import (
	"github.com/rubi-dev/rubi/internal/cli"
	"github.com/rubi-dev/rubi/plugins/standard"
)

func main() { cli.Main(nil, standard.Resolvers()) }
