package rubi_test

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/rubi-dev/rubi"

// deps maps each of the module's packages to every package it links,
// as go list reports them.
func deps(t *testing.T) map[string][]string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("this test needs the go command on PATH: %v", err)
	}
	out, err := exec.Command(goCmd, "list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	all := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		all[f[0]] = f[1:]
	}
	if len(all) < 20 {
		t.Fatalf("go list found %d packages", len(all))
	}
	return all
}

// The engine (core/ and the built-in stages) sits below what uses it:
// none of its packages links the programs' internal packages, the hooks,
// the MCP server or its library, the agents' connectors, or the plugin
// transport (core/subprocess and core/pluginsdk are that transport, and
// a plugin's own main links it). The connectors and the server do not
// link internal/ either: the programs hand them what they need.
func TestLayers(t *testing.T) {
	engineMayNot := []string{module + "/internal", module + "/server", module + "/agents", module + "/core/hooks", "github.com/mark3labs/mcp-go", "github.com/hashicorp/go-plugin"}
	transport := func(p string) bool {
		return strings.HasPrefix(p, module+"/core/subprocess") || strings.HasPrefix(p, module+"/core/pluginsdk") || strings.Contains(p, "/cmd/")
	}
	checked := 0
	for pkg, ds := range deps(t) {
		var forbidden []string
		switch {
		case strings.HasPrefix(pkg, module+"/core/hooks"):
			forbidden = []string{module + "/internal", module + "/server", module + "/agents", "github.com/mark3labs/mcp-go"}
		case (strings.HasPrefix(pkg, module+"/core/") || strings.HasPrefix(pkg, module+"/plugins/")) && !transport(pkg):
			forbidden = engineMayNot
		case strings.HasPrefix(pkg, module+"/agents"), strings.HasPrefix(pkg, module+"/server"):
			forbidden = []string{module + "/internal"}
		default:
			continue
		}
		checked++
		for _, d := range ds {
			for _, f := range forbidden {
				if d == f || strings.HasPrefix(d, f+"/") {
					t.Errorf("%s links %s", pkg, d)
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d packages checked", checked)
	}
}

// rubi-hook, which agents run on every prompt and tool call, links none
// of what would slow its start: the command-line libraries (pflag links
// net), the MCP server, the connectors, the plugin transport.
func TestRubiHookLinksLittle(t *testing.T) {
	ds := deps(t)[module+"/cmd/rubi-hook"]
	if len(ds) == 0 {
		t.Fatal("go list lists nothing for cmd/rubi-hook")
	}
	for _, d := range ds {
		switch {
		case d == "net", d == "github.com/spf13/pflag", d == "github.com/spf13/cobra",
			d == module+"/server", d == module+"/agents", d == module+"/internal/flags",
			strings.HasPrefix(d, "github.com/mark3labs/mcp-go"), strings.HasPrefix(d, "github.com/hashicorp/go-plugin"):
			t.Errorf("rubi-hook links %s", d)
		}
	}
}
