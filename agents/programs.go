package agents

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// rubi is three programs, installed together by go install ./cmd/...:
// rubi, and two that start faster for what agents run most or longest.

// HookProgram is rubi's hook program (cmd/rubi-hook): `rubi hook` in a
// binary that starts in half the time, for the hooks that run on every
// prompt and tool call.
const HookProgram = "rubi-hook"

// MCPProgram is rubi's MCP server (cmd/rubi-mcp), which `rubi mcp` runs:
// the server's packages would slow every other command's start.
const MCPProgram = "rubi-mcp"

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

// FindHookProgram finds rubi-hook for the rubi an agent starts: beside it
// when rubi is a path; beside the rubi on PATH when it is a name, and then
// by name if PATH finds that same file. A rubi-hook from another install
// is not taken: it could be another version.
var FindHookProgram = func(rubi string) (string, bool) {
	path := rubi
	if !strings.ContainsAny(rubi, `/\`) {
		p, err := exec.LookPath(rubi)
		if err != nil {
			return "", false
		}
		path = p
	}
	sibling, ok := Beside(path, HookProgram)
	if !ok {
		return "", false
	}
	if path != rubi { // a name: keep names where PATH agrees
		if p, err := exec.LookPath(HookProgram); err == nil && sameFile(p, sibling) {
			return HookProgram, true
		}
	}
	return sibling, true
}

func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// FindMCPProgram finds rubi-mcp for the running rubi, whose executable is
// at exe (symlinks resolved): beside it, as go install ./cmd/... puts it,
// else on PATH.
func FindMCPProgram(exe string) (string, bool) {
	if p, ok := Beside(exe, MCPProgram); ok {
		return p, true
	}
	if p, err := exec.LookPath(MCPProgram); err == nil {
		return p, true
	}
	return "", false
}
