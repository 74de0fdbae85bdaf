package rubitest

import (
	"fmt"
	"runtime/debug"
	"time"
)

// FuzzBound is how long one input of a fuzz target may take. Decoding any
// input rubi reads takes milliseconds; a slow machine shared with other
// work gets a margin of three orders of magnitude.
const FuzzBound = 10 * time.Second

// Bound makes a fuzz target's "never hangs" a failure Go's fuzzing
// records: Go has no per-input timeout, and a hung input would only stall
// the run. When the call bracketed by Bound and the returned stop runs
// past d, the process dies with every goroutine's stack, and the fuzzing
// engine saves the input under testdata/fuzz like any crasher.
//
//	defer rubitest.Bound(rubitest.FuzzBound, "FuzzLoad")()
func Bound(d time.Duration, what string) (stop func()) {
	t := time.AfterFunc(d, func() {
		debug.SetTraceback("all")
		panic(fmt.Sprintf("%s: one input ran for more than %v (a hang)", what, d))
	})
	return func() { t.Stop() }
}
