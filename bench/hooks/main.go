// Command hooks measures rubi's agent hooks the way agents run them: each
// as a fresh `rubi-hook EVENT` (or `rubi hook EVENT`) process with a
// real-shaped payload on stdin, on an indexed project, beside the floor of
// starting the program at all (its `version`). It prints the median and p95 of each. The full report
// (go run -C bench ./report) includes the same table.
//
//	go run -C bench ./hooks -rubi PATH/rubi-hook -root DIR [-nodes 2000] [-chunks 2000] [-runs 30]
//
// With -nodes, the project first gets that many synthetic knowledge notes
// (about its own files, in the words of its own paths), registered in one
// batch and indexed, unless it has them already; with -chunks, that many
// conversation chunks (turns of sessions about its files) the same way.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rubi-dev/rubi/bench/internal/perf"
	_ "github.com/rubi-dev/rubi/plugins/standard"
)

func main() {
	rubi := flag.String("rubi", "rubi", "the binary to measure: rubi (rubi hook EVENT) or rubi-hook (rubi-hook EVENT)")
	root := flag.String("root", "", "the project, indexed first if it is not (default: the rubi checkout it runs in)")
	nodes := flag.Int("nodes", 0, "register this many synthetic notes first")
	chunks := flag.Int("chunks", 0, "save this many synthetic conversation chunks first")
	runs := flag.Int("runs", 30, "runs of each measure")
	flag.Parse()
	if *root == "" {
		checkout, err := perf.Checkout()
		check(err)
		*root = checkout
	}
	abs, err := filepath.Abs(*root)
	check(err)
	p, err := perf.Prepare(context.Background(), abs, *nodes, *chunks)
	check(err)
	rows, err := perf.HookRows(*rubi, p, *runs)
	check(err)
	fmt.Printf("project: %s (%d files indexed), %d runs each, %s\n\n", abs, len(p.Files), *runs, time.Now().UTC().Format("2006-01-02"))
	fmt.Println("| measure | p50 ms | p95 ms | p50 over the start floor |")
	fmt.Println("|---|---:|---:|---:|")
	for _, r := range rows {
		fmt.Printf("| %s | %.1f | %.1f | %.1f× |\n", r.Name, perf.Ms(r.P50), perf.Ms(r.P95), float64(r.P50)/float64(rows[0].P50))
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "hooks bench:", err)
		os.Exit(1)
	}
}
