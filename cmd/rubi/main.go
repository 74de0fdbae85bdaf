// Command rubi is the command-line face of rubi's engine; its commands live
// in internal/cli.
package main

import "github.com/rubi-dev/rubi/internal/cli"

func main() { cli.Main() }
