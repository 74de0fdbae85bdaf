// Command xraygen writes synthetic Claude Code session logs for the token
// X-ray benchmark (bench/xray.sh):
//
//	go run -C bench ./xraygen -out DIR -size 2048 [-calls 200] [-seed 1]
//
// writes about -size MiB of logs under DIR/projects/ (point
// CLAUDE_CONFIG_DIR at DIR, or pass DIR to rubi xray --transcripts).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/rubi-dev/rubi/agent/transcript/transcripttest"
)

func main() {
	out := flag.String("out", "", "directory to write the logs under")
	size := flag.Int64("size", 200, "MiB of logs to write")
	calls := flag.Int("calls", 200, "mean API calls per session")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	if *out == "" || *size <= 0 {
		fmt.Fprintln(os.Stderr, "usage: xraygen -out DIR -size MiB [-calls N] [-seed N]")
		os.Exit(2)
	}
	n, err := transcripttest.Write(*out, transcripttest.Spec{Bytes: *size << 20, Calls: *calls, Seed: *seed})
	if err != nil {
		fmt.Fprintln(os.Stderr, "xraygen:", err)
		os.Exit(1)
	}
	fmt.Println(n)
}
