package agents

import (
	"os"
	"os/exec"
	"strings"

	"github.com/rubi-dev/rubi/internal/programs"
)

// rubi is four programs, installed together by go install ./cmd/...
// (internal/programs); agents' configurations name rubi and rubi-hook.

// HookProgram is rubi's hook program (cmd/rubi-hook): `rubi hook` in a
// binary that starts in half the time, for the hooks that run on every
// prompt and tool call.
const HookProgram = programs.Hook

// MCPProgram is rubi's MCP server (cmd/rubi-mcp), which `rubi mcp` runs:
// the server's packages would slow every other command's start.
const MCPProgram = programs.MCP

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
	sibling, ok := programs.Beside(path, HookProgram)
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
	if p, ok := programs.Beside(exe, MCPProgram); ok {
		return p, true
	}
	if p, err := exec.LookPath(MCPProgram); err == nil {
		return p, true
	}
	return "", false
}
