// Command testprogress is what make test shows of go test: it reads
// `go test -json` on standard input and prints one line per package as
// the package ends, go test's own `ok`, `FAIL` or `?` line, and a failed
// package's failed tests with their output, as go test does. scripts/
// test.sh runs it:
//
//	go test -json ./... | go run ./internal/testprogress
//
// Why not go test's own output: go test ./... prints its packages in
// their order, so one slow package holds back the lines of every package
// after it, done or not, and nothing at all shows while it runs (the
// Claude Desktop bundle's test once printed nothing for 9 minutes). Here
// each line comes when its package ends, a build error when the compiler
// prints it, and after a minute without a line, one saying what is still
// running and for how long (or that the go command is still compiling).
// It ends with a line counting the packages and naming the slowest and
// the failed ones.
//
// Its exit status is 1 when a package failed or the input ended with a
// package still running (go test was killed), else 0; scripts/test.sh
// also takes go test's own (pipefail).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
)

// quiet is how long without a line before one says what is going on.
const quiet = time.Minute

// event is one line of go test -json (go doc cmd/test2json). Build output
// comes as build-output events naming ImportPath, not Package.
type event struct {
	Action     string
	Package    string
	Test       string
	Elapsed    float64
	Output     string
	ImportPath string
}

// pkg is a package go test has started and not yet reported.
type pkg struct {
	start time.Time
	out   []output          // every line, in the order it came
	ended map[string]string // how each test ended, by name (subtests too): pass, fail or skip
}

// output is a line of a test's output, or of the package's own (test "":
// go test's summary lines, a panic outside any test).
type output struct{ test, text string }

// reporter turns events into lines on out. Time comes in with each call,
// so a test drives it without a clock.
type reporter struct {
	out     io.Writer
	running map[string]*pkg
	last    time.Time // the last line printed
	passed  int
	failed  []string
	none    int // packages without tests
	slow    []done
}

type done struct {
	name    string
	elapsed float64
}

func newReporter(out io.Writer, now time.Time) *reporter {
	return &reporter{out: out, running: map[string]*pkg{}, last: now}
}

func (r *reporter) printf(now time.Time, format string, args ...any) {
	fmt.Fprintf(r.out, format, args...)
	r.last = now
}

// line handles one line of input: an event, or anything else (the go
// command's own messages), printed as it is.
func (r *reporter) line(text string, now time.Time) {
	var e event
	if !strings.HasPrefix(text, "{") || json.Unmarshal([]byte(text), &e) != nil {
		r.printf(now, "%s\n", text)
		return
	}
	switch e.Action {
	case "build-output":
		r.printf(now, "%s", e.Output)
		return
	case "build-fail":
		return
	}
	if e.Package == "" {
		return
	}
	p := r.running[e.Package]
	if p == nil {
		p = &pkg{start: now, ended: map[string]string{}}
		r.running[e.Package] = p
	}
	switch e.Action {
	case "output":
		p.out = append(p.out, output{e.Test, e.Output})
		return
	case "pass", "fail", "skip":
		if e.Test != "" {
			p.ended[e.Test] = e.Action
			return
		}
	default:
		return
	}
	delete(r.running, e.Package)
	if e.Action == "fail" {
		r.failed = append(r.failed, e.Package)
		r.slow = append(r.slow, done{e.Package, e.Elapsed})
		// The failed tests' output and the package's, as go test -v
		// prints it but for the lines of tests that passed or were
		// skipped. A test that did not end was running when the binary
		// died (a panic, the timeout): its output says where.
		var b strings.Builder
		for _, o := range p.out {
			if end := p.ended[o.test]; o.test == "" || (end != "pass" && end != "skip" && !runLine(o.text)) {
				b.WriteString(o.text)
			}
		}
		r.printf(now, "%s", b.String())
		return
	}
	line := summary(p.out, e.Package, e.Action, e.Elapsed)
	if strings.HasPrefix(line, "? ") {
		r.none++
	} else {
		r.passed++
		r.slow = append(r.slow, done{e.Package, e.Elapsed})
	}
	r.printf(now, "%s", line)
}

// runLine is a line go test prints only with -v (test2json runs every
// binary verbose).
func runLine(s string) bool {
	for _, prefix := range []string{"=== RUN", "=== PAUSE", "=== CONT", "=== NAME"} {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

// summary is go test's line for a package that passed or had no tests.
func summary(out []output, name, action string, elapsed float64) string {
	for _, o := range out {
		if o.test == "" && (strings.HasPrefix(o.text, "ok ") || strings.HasPrefix(o.text, "? ")) {
			return o.text
		}
	}
	if action == "skip" {
		return fmt.Sprintf("?   \t%s\t[no test files]\n", name)
	}
	return fmt.Sprintf("ok  \t%s\t%.3fs\n", name, elapsed)
}

// tick is called now and then: after a quiet minute it says which packages
// are running, longest first, or that none is yet (the go command is
// compiling them).
func (r *reporter) tick(now time.Time) {
	if now.Sub(r.last) < quiet {
		return
	}
	var names []string
	for name := range r.running {
		names = append(names, name)
	}
	if len(names) == 0 {
		r.printf(now, "... compiling (%s done)\n", plural(r.passed+r.none+len(r.failed), "package"))
		return
	}
	slices.SortFunc(names, func(a, b string) int {
		if c := r.running[a].start.Compare(r.running[b].start); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	const shown = 3
	var parts []string
	for _, name := range names[:min(len(names), shown)] {
		parts = append(parts, fmt.Sprintf("%s (%s)", name, now.Sub(r.running[name].start).Round(time.Second)))
	}
	more := ""
	if len(names) > shown {
		more = fmt.Sprintf(" and %d more", len(names)-shown)
	}
	r.printf(now, "... still running: %s%s\n", strings.Join(parts, ", "), more)
}

// end prints the closing line and returns the exit status.
func (r *reporter) end(now time.Time) int {
	status := 0
	var interrupted []string
	for name := range r.running {
		interrupted = append(interrupted, name)
	}
	slices.Sort(interrupted)
	if len(interrupted) > 0 {
		r.printf(now, "go test stopped with these packages still running: %s\n", strings.Join(interrupted, ", "))
		status = 1
	}
	slices.SortStableFunc(r.slow, func(a, b done) int {
		switch {
		case a.elapsed > b.elapsed:
			return -1
		case a.elapsed < b.elapsed:
			return 1
		}
		return 0
	})
	var slowest []string
	for _, d := range r.slow {
		if len(slowest) == 3 || d.elapsed < 0.1 {
			break
		}
		slowest = append(slowest, fmt.Sprintf("%s %.1fs", d.name, d.elapsed))
	}
	line := plural(r.passed, "package") + " ok"
	if r.none > 0 {
		line += fmt.Sprintf(", %d without tests", r.none)
	}
	if len(r.failed) > 0 {
		line += fmt.Sprintf(", %d FAILED (%s)", len(r.failed), strings.Join(r.failed, ", "))
		status = 1
	}
	if len(slowest) > 0 {
		line += "; slowest: " + strings.Join(slowest, ", ")
	}
	r.printf(now, "%s\n", line)
	return status
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func main() {
	os.Exit(run(os.Stdin, os.Stdout, time.Tick(5*time.Second), time.Now))
}

// run reads go test -json from in until it ends, calling tick on every
// tick.
func run(in io.Reader, out io.Writer, ticks <-chan time.Time, now func() time.Time) int {
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64<<10), 16<<20) // a test's output line can be long
		for sc.Scan() {
			lines <- sc.Text()
		}
		if err := sc.Err(); err != nil {
			lines <- "testprogress: reading go test's output: " + err.Error()
		}
		close(lines)
	}()
	r := newReporter(out, now())
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				return r.end(now())
			}
			r.line(l, now())
		case t := <-ticks:
			r.tick(t)
		}
	}
}
