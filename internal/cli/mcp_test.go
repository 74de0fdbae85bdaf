package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/agent/mcpserver"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/internal/rubitest"
)

// rubi mcp runs rubi-mcp with every argument rubi got: the server's flags,
// --help, and the global flags given before mcp, which rubi must neither
// swallow nor reorder.
func TestMCPPassesEveryArgument(t *testing.T) {
	path := fakeProgram(t, "rubi-mcp") // the test binary has no rubi-mcp beside it
	var got []string
	execProgram = func(argv0 string, argv, env []string) error {
		if argv0 != path || !slices.Equal(env, os.Environ()) {
			t.Errorf("exec %s with env %v", argv0, env)
		}
		got = argv
		return nil
	}
	t.Cleanup(func() { execProgram = syscallExec })
	for _, tt := range []struct{ args, want []string }{
		{[]string{"mcp"}, nil},
		{[]string{"mcp", "--http", "8765", "--xray"}, []string{"--http", "8765", "--xray"}},
		{[]string{"--root", "/p", "mcp", "--http", "8765"}, []string{"--root", "/p", "--http", "8765"}},
		{[]string{"--root=/p", "--json", "--log-level", "debug", "--config", "a.hcl", "--config=b.hcl", "mcp", "--cost", "--config", "c.hcl"},
			[]string{"--root=/p", "--json", "--log-level", "debug", "--config", "a.hcl", "--config=b.hcl", "--cost", "--config", "c.hcl"}},
		{[]string{"--cpuprofile", "cpu.out", "mcp", "--root", "/p"}, []string{"--cpuprofile", "cpu.out", "--root", "/p"}},
		{[]string{"mcp", "--", "--root"}, []string{"--", "--root"}},
		{[]string{"mcp", "--help"}, []string{"--help"}},
		{[]string{"mcp", "-h"}, []string{"-h"}},
		{[]string{"help", "mcp"}, []string{"--help"}},
	} {
		got = nil
		code, out, errOut := runRubi(t, tt.args...)
		if want := append([]string{path}, tt.want...); code != 0 || !slices.Equal(got, want) || out != "" || errOut != "" {
			t.Errorf("rubi %q: exit %d, ran %q, want %q\n%s%s", tt.args, code, got, want, out, errOut)
		}
	}
}

// syscallExec is execProgram's real value.
var syscallExec = execProgram

// Without rubi-mcp beside rubi or on PATH, rubi mcp says what is missing
// and how to install it.
func TestMCPWithoutTheProgram(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runRubi(t, "--root", t.TempDir(), "mcp", "--cost")
	want := "rubi mcp: the MCP server is the rubi-mcp program, which is not beside " + exe + ` nor on PATH; install it with "go install ./cmd/..." from a clone of rubi` + "\n"
	if code != 1 || out != "" || errOut != want {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant:\n%s", code, out, errOut, want)
	}
}

// The real rubi runs the real rubi-mcp beside it, with the global flags
// given before mcp; through a symbolic link to rubi too. Alone, it fails
// with exit status 1.
func TestMCPRunsRubiMCPBesideRubi(t *testing.T) {
	bin := rubitest.Binary(t)
	root := rubitest.Project(t, rubitest.GoProject)
	t.Setenv("PATH", t.TempDir()) // rubi-mcp only beside rubi
	link := filepath.Join(t.TempDir(), "rubi")
	if err := os.Symlink(bin, link); err != nil {
		t.Fatal(err)
	}
	for _, rubi := range []string{bin, link} {
		cmd := exec.Command(rubi, "--root", root, "--log-level", "debug", "mcp", "--cost", "--json")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		var c mcpserver.Cost
		if err != nil || json.Unmarshal(out, &c) != nil || c.Total != mcpStdioTokens[messages.English] {
			t.Errorf("%s --root %s mcp --cost --json: %v\n%s%s", rubi, root, err, out, stderr.String())
		}
		// --root reached the server: a directory that is not one fails.
		cmd = exec.Command(rubi, "--root", filepath.Join(root, "main.go"), "mcp", "--cost")
		if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "main.go: not a directory") {
			t.Errorf("%s --root FILE mcp: %v\n%s", rubi, err, out)
		}
	}

	alone := filepath.Join(t.TempDir(), "rubi")
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alone, data, 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(alone, "mcp").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), "rubi-mcp program, which is not beside "+alone+" nor on PATH") {
		t.Errorf("rubi mcp without rubi-mcp: %v\n%s", err, out)
	}
}

// rubi audit counts rubi's MCP tools at mcpStdioTokens without linking
// the server: the constant must be what the server measures, for any
// project.
func TestMCPStdioTokens(t *testing.T) {
	for _, l := range messages.Langs {
		for _, opts := range []mcpserver.Options{{}, {WorkDir: t.TempDir()}, {ProjectDir: rubitest.Project(t, rubitest.GoProject)}} {
			opts.Language = l
			srv := mcpserver.New(opts)
			c, err := srv.FixedCost()
			srv.Close()
			if err != nil || c.Total != mcpStdioTokens[l] {
				t.Errorf("%+v: the MCP server over stdio costs %d tokens in %s (%v); set mcpStdioTokens[%s] in internal/cli/audit.go to it", opts, c.Total, l, err, l)
			}
		}
	}
}

// rubi starts fast because it does not link the MCP server: Go runs the
// initialization of every package a program links, and the MCP library's
// JSON Schema packages take milliseconds of it (rubi mcp runs rubi-mcp).
func TestRubiDoesNotLinkTheMCPServer(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("this test needs the go command on PATH: %v", err)
	}
	out, err := exec.Command(goCmd, "list", "-deps", "github.com/rubi-dev/rubi/cmd/rubi").Output()
	if err != nil {
		t.Fatalf("go list -deps ./cmd/rubi: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/rubi-dev/rubi/agent/connect") {
		t.Fatalf("go list -deps ./cmd/rubi lists no connect package: %q", out)
	}
	for _, p := range deps {
		if p == "github.com/rubi-dev/rubi/agent/mcpserver" || strings.HasPrefix(p, "github.com/mark3labs/mcp-go") || strings.Contains(p, "jsonschema") {
			t.Errorf("rubi links %s: keep the MCP server's packages in cmd/rubi-mcp", p)
		}
	}
}
