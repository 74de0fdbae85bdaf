// Package rubitest holds what rubi's tests share: the rubi binaries, built
// for the tests that run them as subprocesses (the MCP server's, rubi
// mcp's, rubi install's against the Claude Code CLI, the end-to-end tests
// with the real agents), and fixtures: a project on disk, agents' homes
// with real session logs.
//
// Binary builds rubi, rubi-hook, rubi-mcp and rubi-full into one directory
// once per test process, so each program finds the others beside it as
// an installation would. The session logs captured from Claude Code and
// Codex stay in agent/transcript/testdata, once, and AgentHomes lays them
// out in a temporary home as the agents keep them (XrayFixtures, for
// agent/xray's sessions worked out by hand). Bound turns a fuzz input
// that runs past its time into a recorded failure rather than a hung run.
package rubitest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

var (
	once sync.Once
	dir  string
	err  error
)

// repo is the checkout this package is in.
var repo = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}()

// EnglishLocale sets the process's locale to C (LANG=C, LC_ALL and
// LC_MESSAGES unset), so that rubi speaks English to the tests whatever
// the machine's locale. A test of another language sets its own.
func EnglishLocale() {
	os.Unsetenv("LC_ALL")
	os.Unsetenv("LC_MESSAGES")
	os.Setenv("LANG", "C")
}

// Binary builds cmd/rubi, cmd/rubi-hook, cmd/rubi-mcp and cmd/rubi-full
// once per test process, into a temporary directory, and returns rubi's
// path. They are built in rubi's own module, with its go.mod, whichever
// module's tests ask (the bench module's too). The directory holds only
// the four, as go install ./cmd/... leaves them, so it can be put first
// on PATH: rubi install and rubi connect then write rubi-hook into the
// agents' hooks, rubi mcp runs the rubi-mcp beside it and rubi the
// rubi-full beside it, as on a user's machine.
func Binary(tb testing.TB) string {
	tb.Helper()
	once.Do(func() {
		if dir, err = os.MkdirTemp("", "rubi-test-bin-"); err != nil {
			return
		}
		build := exec.Command("go", "build", "-o", dir, "./cmd/...")
		build.Dir = repo
		out, berr := build.CombinedOutput()
		if berr != nil {
			err = fmt.Errorf("go build ./cmd/...: %v\n%s", berr, out)
		}
	})
	if err != nil {
		tb.Fatal(err)
	}
	return filepath.Join(dir, "rubi")
}

// Main runs a test binary's tests and removes the build: call it from
// TestMain as os.Exit(rubitest.Main(m)). The tests run, and the programs
// they start, in the C locale: rubi speaks the locale's language
// (core/messages), and the tests read its English.
func Main(m *testing.M) int {
	EnglishLocale()
	code := m.Run()
	if dir != "" {
		os.RemoveAll(dir)
	}
	return code
}
