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
