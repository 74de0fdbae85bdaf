package main

import (
	"os"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)

// testdata/go-test.json is go test -json ./... of a module whose package a
// passes after 2 s, b fails (a subtest, with a passing test's log beside
// it), c and f have no tests, d does not compile and e panics. Each
// package's line comes as it ends (a's last, where go test prints it
// first), a failed package shows its failed tests' output without the
// passing test's log or the -v run lines, and the closing line counts
// them.
func TestRecordedRun(t *testing.T) {
	in, err := os.Open("testdata/go-test.json")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var out strings.Builder
	code := run(in, &out, nil, func() time.Time { return t0 })
	want := `    b_test.go:4: some context
    b_test.go:4: got 1, want 2
--- FAIL: TestBroken/sub (0.00s)
--- FAIL: TestBroken (0.00s)
FAIL
FAIL	ord/b	0.003s
?   	ord/c	[no test files]
# ord/d [ord/d.test]
d/d.go:2:23: cannot use "s" (untyped string constant) as int value in return statement
FAIL	ord/d [build failed]
--- FAIL: TestPanics (0.00s)
panic: assignment to entry in nil map [recovered, repanicked]

goroutine 22 [running]:
testing.tRunner.func1.2({0x55a7a0, 0x6cac40})
	/usr/local/go/src/testing/testing.go:1974 +0x232
testing.tRunner.func1()
	/usr/local/go/src/testing/testing.go:1977 +0x349
panic({0x55a7a0?, 0x6cac40?})
	/usr/local/go/src/runtime/panic.go:860 +0x13a
ord/e.TestPanics(0x615385b0488?)
	/home/u/ord/e/e_test.go:3 +0x28
testing.tRunner(0x615385b0488, 0x592e10)
	/usr/local/go/src/testing/testing.go:2036 +0xea
created by testing.(*T).Run in goroutine 1
	/usr/local/go/src/testing/testing.go:2101 +0x4c5
FAIL	ord/e	0.007s
?   	ord/f	[no test files]
ok  	ord/a	2.008s
1 package ok, 2 without tests, 3 FAILED (ord/b, ord/d, ord/e); slowest: ord/a 2.0s
`
	if got := out.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
}

func feed(r *reporter, now time.Time, lines ...string) {
	for _, l := range lines {
		r.line(l, now)
	}
}

// After a minute without a line, one says which packages still run, the
// longest first, and for how long; then nothing until another quiet
// minute. Before any test starts, the go command is compiling.
func TestQuietMinute(t *testing.T) {
	var out strings.Builder
	r := newReporter(&out, t0)
	r.tick(t0.Add(61 * time.Second))
	if got, want := out.String(), "... compiling (0 packages done)\n"; got != want {
		t.Errorf("nothing running yet: %q, want %q", got, want)
	}
	out.Reset()
	start := t0.Add(70 * time.Second)
	feed(r, start,
		`{"Action":"start","Package":"ex/slow"}`,
		`{"Action":"start","Package":"ex/fast"}`,
		`{"Action":"output","Package":"ex/fast","Output":"ok  \tex/fast\t0.5s\n"}`,
		`{"Action":"pass","Package":"ex/fast","Elapsed":0.5}`)
	feed(r, start.Add(10*time.Second), `{"Action":"start","Package":"ex/other"}`)
	r.tick(start.Add(59 * time.Second))
	if got, want := out.String(), "ok  \tex/fast\t0.5s\n"; got != want {
		t.Errorf("within the minute: %q, want %q", got, want)
	}
	out.Reset()
	r.tick(start.Add(61 * time.Second))
	r.tick(start.Add(90 * time.Second))
	r.tick(start.Add(122 * time.Second))
	want := "... still running: ex/slow (1m1s), ex/other (51s)\n" +
		"... still running: ex/slow (2m2s), ex/other (1m52s)\n"
	if got := out.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// go test killed (its own -timeout kills a binary, which fails its
// package; this is the go command itself stopped): the packages still
// running are named and the status is 1.
func TestInterrupted(t *testing.T) {
	var out strings.Builder
	r := newReporter(&out, t0)
	feed(r, t0,
		`{"Action":"start","Package":"ex/a"}`,
		`{"Action":"output","Package":"ex/a","Output":"ok  \tex/a\t(cached)\n"}`,
		`{"Action":"pass","Package":"ex/a"}`,
		`{"Action":"start","Package":"ex/b"}`,
		`{"Action":"run","Package":"ex/b","Test":"TestB"}`)
	code := r.end(t0)
	want := "ok  \tex/a\t(cached)\ngo test stopped with these packages still running: ex/b\n1 package ok\n"
	if got := out.String(); got != want || code != 1 {
		t.Errorf("status %d, output:\n%s\nwant 1 and:\n%s", code, got, want)
	}
}

// Lines that are not go test's events (the go command's own messages)
// pass through; every package passing is status 0.
func TestPassThrough(t *testing.T) {
	in := strings.NewReader(`go: downloading example.com/m v1.0.0
{"Action":"start","Package":"ex/a"}
{"Action":"run","Package":"ex/a","Test":"TestA"}
{"Action":"output","Package":"ex/a","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"output","Package":"ex/a","Test":"TestA","Output":"--- PASS: TestA (0.00s)\n"}
{"Action":"pass","Package":"ex/a","Test":"TestA"}
{"Action":"output","Package":"ex/a","Output":"PASS\n"}
{"Action":"output","Package":"ex/a","Output":"ok  \tex/a\t1.250s\n"}
{"Action":"pass","Package":"ex/a","Elapsed":1.25}
`)
	var out strings.Builder
	code := run(in, &out, nil, func() time.Time { return t0 })
	want := "go: downloading example.com/m v1.0.0\nok  \tex/a\t1.250s\n1 package ok; slowest: ex/a 1.2s\n"
	if got := out.String(); got != want || code != 0 {
		t.Errorf("status %d, output:\n%s\nwant 0 and:\n%s", code, got, want)
	}
}
