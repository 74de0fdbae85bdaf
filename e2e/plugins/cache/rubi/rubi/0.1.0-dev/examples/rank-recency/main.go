// Command rubi-rank-recency is an example third-party rubi ranker,
// "rank.recency": it favours files that changed recently, from git history
// when the project is a git repository and from modification times
// otherwise. It runs as a subprocess plugin; everything rubi-specific is
// the one line in main. Build it and name it in rubi.hcl:
//
//	go build -o bin/rubi-rank-recency ./examples/rank-recency
//
//	ranker "rank.recency" {
//	  plugin = "bin/rubi-rank-recency"
//	}
package main

import "github.com/rubi-dev/rubi/core/pluginsdk"

func main() {
	pluginsdk.Serve(New())
}
