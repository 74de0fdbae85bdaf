// Command rubi-source-issues is an example third-party rubi source,
// "source.issues": it brings the issues of a tracker's JSON export into
// the index, so that a question finds the bug report beside the code it
// names. The export is the one the GitHub CLI writes:
//
//	gh issue list --state all --limit 100000 \
//	  --json number,title,body,labels,state,updatedAt,url > issues.json
//
// It runs as a subprocess plugin; everything rubi-specific is the one line
// in main. Build it and name it in rubi.hcl:
//
//	go build -o bin/rubi-source-issues ./examples/source-issues
//
//	source "source.issues" {
//	  plugin = "bin/rubi-source-issues"
//	  export = "issues.json" # relative to the project root
//	}
package main

import "github.com/rubi-dev/rubi/core/pluginsdk"

func main() {
	pluginsdk.Serve(New())
}
