// Command latency measures rubi context in-process on an indexed project:
// the first query of a fresh engine and the p50/p95 of warm queries.
//
//	go run -C bench ./latency -root DIR [-n 50] [-cpuprofile FILE] QUERY...
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"slices"
	"time"

	"github.com/rubi-dev/rubi/bench/internal/perf"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/pipeline"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
	"github.com/rubi-dev/rubi/plugins/standard"
)

func main() {
	root := flag.String("root", "", "an indexed project (default: the rubi checkout it runs in)")
	n := flag.Int("n", 50, "warm queries per query text")
	prof := flag.String("cpuprofile", "", "write a CPU profile of the warm queries")
	flag.Parse()
	if *root == "" {
		checkout, err := perf.Checkout()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		*root = checkout
	}
	queries := flag.Args()
	if len(queries) == 0 {
		queries = []string{"graceful shutdown of the server", "retry with backoff", "parse the configuration file", "LoadPlugin"}
	}
	cfg, diags := config.Load(config.Options{Root: *root})
	if diags.HasErrors() {
		fmt.Fprintln(os.Stderr, diags)
		os.Exit(1)
	}
	eng := pipeline.New(cfg, pipeline.Options{MaskComments: regex.MaskComments, Resolvers: standard.Resolvers()})
	defer eng.Close()
	ctx := context.Background()
	start := time.Now()
	if _, err := eng.Retrieve(ctx, answer.Query{Text: queries[0]}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	first := time.Since(start)
	if *prof != "" {
		f, err := os.Create(*prof)
		if err == nil {
			pprof.StartCPUProfile(f)
			defer pprof.StopCPUProfile()
		}
	}
	var ds []time.Duration
	for range *n {
		for _, q := range queries {
			t := time.Now()
			if _, err := eng.Retrieve(ctx, answer.Query{Text: q}); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			ds = append(ds, time.Since(t))
		}
	}
	slices.Sort(ds)
	fmt.Printf("first %.1f ms; warm p50 %.2f ms, p95 %.2f ms over %d queries\n",
		ms(first), ms(ds[len(ds)/2]), ms(ds[len(ds)*95/100]), len(ds))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
