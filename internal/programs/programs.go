// Package programs names the programs rubi is made of, installed together
// by go install ./cmd/..., and finds one from another:
//
//   - rubi, the command line, which runs only the built-in stages;
//   - rubi-hook, the hooks alone, for what agents run on every prompt and
//     tool call;
//   - rubi-mcp, the MCP server, which `rubi mcp` runs;
//   - rubi-full, the command line with subprocess plugins, which rubi and
//     rubi-hook run in their place when rubi.hcl names a plugin.
//
// Each leaves out packages the others need because Go initializes every
// package a program links, on every start. The plugin transport
// (go-plugin, gRPC, protobuf: descriptors built, codecs and balancers
// registered) costs about 10 ms of it, plus a dynamic link against libc
// when cgo is on, since gRPC brings net; mcp-go's server brings JSON
// Schema packages whose initialization compiles every metaschema. rubi
// and rubi-hook, which agents run on every prompt and tool call, link
// neither, and CGO_ENABLED=0 keeps them static; rubi-full (the same
// commands as rubi) and rubi-mcp (long-lived) pay for them.
//
// When a project's rubi.hcl names a plugin among the stages a command
// would open, rubi replaces itself with rubi-full before it reads
// anything (HandOver, which rubi-hook index uses too), and rubi-hook
// hands a recall to rubi-full hook with the payload it read and execs
// rubi-full index for its background refresh. A project without plugins,
// the default, never pays for them; one with plugins pays one exec (about
// 30 ms) on those commands. Without rubi-full the built-ins run and a line
// says why.
//
// Four programs still pay for themselves. Measured on kubernetes with
// 2,000 notes (20 runs each, medians of wall time, on the 2-core machines
// of the time): rubi-hook version started in 15 ms, rubi version in 19,
// rubi-full version in 28 and rubi-mcp --version in 41; one binary linking
// all of them started in 39 ms, and a recall hook answered by it (nothing
// changed) cost 1.65 times what rubi-hook costs (59 against 37 ms,
// paired).
//
// Main is how each program starts and ends: signals, no plugin process
// left behind, the exit status (Status, and ExitError for an error
// already told). SIGTERM and Ctrl-C end every program: an orderly end
// first, a forced one past 8 s. Only the programs import this package: the
// hooks get FindFull and the connectors HookFor (the rubi-hook beside the
// rubi an agent starts) from the program that runs them, so nothing below
// imports internal/.
package programs

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// The programs' names.
const (
	Hook = "rubi-hook"
	MCP  = "rubi-mcp"
	Full = "rubi-full"
)

// Beside returns the program name installed beside the executable at
// path: its path, when it is an executable file there.
func Beside(path, name string) (string, bool) {
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	sibling := filepath.Join(filepath.Dir(path), name)
	if fi, err := os.Stat(sibling); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 && runtime.GOOS != "windows" {
		return "", false
	}
	return sibling, true
}

// Find finds the program name for the running one: beside its executable
// (symlinks resolved), as go install ./cmd/... puts it, else on PATH.
func Find(name string) (string, bool) {
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			if p, ok := Beside(exe, name); ok {
				return p, true
			}
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, true
	}
	return "", false
}

// HookFor finds rubi-hook for the rubi an agent starts: beside it when
// rubi is a path; beside the rubi on PATH when it is a name, and then by
// name if PATH finds that same file. A rubi-hook from another install is
// not taken: it could be another version.
func HookFor(rubi string) (string, bool) {
	path := rubi
	if !strings.ContainsAny(rubi, `/\`) {
		p, err := exec.LookPath(rubi)
		if err != nil {
			return "", false
		}
		path = p
	}
	sibling, ok := Beside(path, Hook)
	if !ok {
		return "", false
	}
	if path != rubi { // a name: keep names where PATH agrees
		if p, err := exec.LookPath(Hook); err == nil && sameFile(p, sibling) {
			return Hook, true
		}
	}
	return sibling, true
}

func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// FindMCP finds rubi-mcp for the running rubi, whose executable is at exe
// (symlinks resolved): beside it, as go install ./cmd/... puts it, else on
// PATH.
func FindMCP(exe string) (string, bool) {
	if p, ok := Beside(exe, MCP); ok {
		return p, true
	}
	if p, err := exec.LookPath(MCP); err == nil {
		return p, true
	}
	return "", false
}
