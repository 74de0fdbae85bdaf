// Command rubi-lang-treesitter is the parser plugin "lang.treesitter": it
// parses files with tree-sitter grammars and reads imports and
// definitions with the queries in queries/<language>.scm, returning the
// same facts as the built-in lang.regex. It uses cgo, so it lives in its
// own module and binary and rubi stays a pure-Go static binary; a project
// swaps it in for some languages in rubi.hcl:
//
//	parser "lang.treesitter" {
//	  plugin    = "bin/rubi-lang-treesitter"
//	  languages = ["go", "python"]
//	}
//
// Build it with `make plugins` at the repository root, or
// `cd plugins/lang-treesitter && go build -o ../../bin/rubi-lang-treesitter .`.
package main

import "github.com/rubi-dev/rubi/core/pluginsdk"

func main() { pluginsdk.Serve(New()) }
