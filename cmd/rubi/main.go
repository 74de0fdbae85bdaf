// Command rubi is the command-line face of rubi's engine; its commands live
// in internal/cli. It links no plugin transport: a command whose rubi.hcl
// names a subprocess plugin runs in rubi-full.
package main

import "github.com/rubi-dev/rubi/internal/cli"

func main() { cli.Main(nil) }
