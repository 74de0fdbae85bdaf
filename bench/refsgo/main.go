// Command refsgo runs the Go references resolver (core/refs/golang) over a
// tree, the way an index run would hand it every Go file, and prints what
// it found and what it cost: wall time and CPU of the resolver alone, and
// the process's peak resident memory (the file list and resolved imports
// included, which an index run holds anyway).
//
//	go run -C bench ./refsgo -root DIR [-tests=false] [-generated-bodies] [-digest]
//
// Under /usr/bin/time -v, its "Maximum resident set size" is the peak.
package main

import (
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"maps"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/refs"
	"github.com/rubi-dev/rubi/core/refs/golang"
	"github.com/rubi-dev/rubi/core/refs/refstest"
)

func main() {
	root := flag.String("root", "", "the tree to resolve")
	tests := flag.Bool("tests", true, "resolve the test files too")
	gen := flag.Bool("generated-bodies", false, "check the function bodies of generated files")
	workers := flag.Int("workers", 0, "packages checked at once (0: GOMAXPROCS)")
	prof := flag.String("cpuprofile", "", "write a CPU profile of the resolver")
	digest := flag.Bool("digest", false, "print a SHA-256 of every reference found, to compare runs")
	flag.Parse()
	if *root == "" {
		fmt.Fprintln(os.Stderr, "refsgo: -root is required")
		os.Exit(2)
	}
	ctx := context.Background()
	start := time.Now()
	p, err := refstest.Dir(ctx, *root)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var want []string
	for _, f := range p.Files(core.LangGo) {
		if *tests || !strings.HasSuffix(f, "_test.go") {
			want = append(want, f)
		}
	}
	listed := time.Since(start)
	if *prof != "" {
		f, err := os.Create(*prof)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	cpu0 := cpu()
	t0 := time.Now()
	out, st, err := golang.New(golang.Options{Workers: *workers, GeneratedBodies: *gen}).Check(ctx, p, want)
	pprof.StopCPUProfile()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	wall, used := time.Since(t0), cpu()-cpu0
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	impl, cross := 0, 0
	for f, rs := range out {
		for _, r := range rs {
			if r.Impl {
				impl++
			}
			if r.Path != f {
				cross++
			}
		}
	}
	fmt.Printf("files asked %d, answered %d (listing and imports %.2fs)\n", len(want), len(out), listed.Seconds())
	fmt.Printf("resolver: wall %.2fs, cpu %.2fs\n", wall.Seconds(), used.Seconds())
	fmt.Printf("packages %d (%d with bodies), go/types errors %d, files resolved by name %d\n", st.Packages, st.Bodies, st.Errors, st.Excluded)
	fmt.Printf("pruned %d, declarations held at once %d packages\n", st.Pruned, st.Held)
	fmt.Printf("references %d (%d implementations, %d to another file)\n", st.Refs, impl, cross)
	fmt.Printf("peak RSS %d MiB, live heap after it %d MiB\n", maxRSS()>>20, ms.HeapAlloc>>20)
	if *digest {
		fmt.Printf("digest %x\n", digestOf(out))
	}
	runtime.KeepAlive(out)
}

// digestOf hashes the references by file, files in order, each file's
// references as the resolver ordered them.
func digestOf(out map[string][]refs.Ref) []byte {
	h := sha256.New()
	for _, f := range slices.Sorted(maps.Keys(out)) {
		fmt.Fprintf(h, "%s\n", f)
		for _, r := range out[f] {
			fmt.Fprintf(h, "%d:%d %s %s %s %t %t\n", r.Line, r.Col, r.Path, r.Name, r.From, r.Call, r.Impl)
		}
	}
	return h.Sum(nil)
}

func cpu() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func maxRSS() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Maxrss << 10
}
