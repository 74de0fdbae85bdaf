package programs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rubi-dev/rubi/agent/connect"
)

// The connectors name rubi's programs in agents' configurations: their
// names are these.
func TestNamesAgreeWithTheConnectors(t *testing.T) {
	if Hook != connect.HookProgram || MCP != connect.MCPProgram {
		t.Errorf("programs %s and %s, connectors %s and %s", Hook, MCP, connect.HookProgram, connect.MCPProgram)
	}
}

// executables writes a shell script at each path, its folders made.
func executables(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// rubi-hook is taken where it is installed beside the rubi an agent
// starts, and only there.
func TestHookFor(t *testing.T) {
	dir := t.TempDir()
	with, without, other := filepath.Join(dir, "with"), filepath.Join(dir, "without"), filepath.Join(dir, "other")
	executables(t, filepath.Join(with, "rubi"), filepath.Join(with, "rubi-hook"), filepath.Join(without, "rubi"), filepath.Join(other, "rubi-hook"))
	os.WriteFile(filepath.Join(without, "rubi-hook"), []byte("not a program"), 0o644)
	for _, tt := range []struct {
		rubi, path, want string
	}{
		{filepath.Join(with, "rubi"), "", filepath.Join(with, "rubi-hook")},
		{filepath.Join(without, "rubi"), "", ""},                     // its rubi-hook is not executable
		{"rubi", with, "rubi-hook"},                                  // by name, where PATH finds it
		{"rubi", without + string(os.PathListSeparator) + other, ""}, // another install's
		{"rubi", other + string(os.PathListSeparator) + with, filepath.Join(with, "rubi-hook")},
		{"rubi", t.TempDir(), ""},
	} {
		t.Setenv("PATH", tt.path)
		if got, ok := HookFor(tt.rubi); got != tt.want || ok != (tt.want != "") {
			t.Errorf("rubi %s, PATH %s: %q %v, want %q", tt.rubi, tt.path, got, ok, tt.want)
		}
	}
}

// rubi mcp runs the rubi-mcp beside the running rubi, else the one on PATH.
func TestFindMCP(t *testing.T) {
	dir := t.TempDir()
	with, without, onPath := filepath.Join(dir, "with"), filepath.Join(dir, "without"), filepath.Join(dir, "path")
	executables(t, filepath.Join(with, "rubi"), filepath.Join(with, "rubi-mcp"), filepath.Join(without, "rubi"), filepath.Join(onPath, "rubi-mcp"))
	os.Mkdir(filepath.Join(without, "rubi-mcp"), 0o755) // not a program
	for _, tt := range []struct {
		exe, path, want string
	}{
		{filepath.Join(with, "rubi"), onPath, filepath.Join(with, "rubi-mcp")},
		{filepath.Join(without, "rubi"), onPath, filepath.Join(onPath, "rubi-mcp")},
		{filepath.Join(without, "rubi"), t.TempDir(), ""},
	} {
		t.Setenv("PATH", tt.path)
		if got, ok := FindMCP(tt.exe); got != tt.want || ok != (tt.want != "") {
			t.Errorf("rubi %s, PATH %s: %q %v, want %q", tt.exe, tt.path, got, ok, tt.want)
		}
	}
}
