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
// package a program links, on every start.
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
