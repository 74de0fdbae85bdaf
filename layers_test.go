package rubi_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/rubi-dev/rubi"

// goList maps each package of pattern to the packages go list gives in
// field: Deps (every package it links) or Imports (those it imports).
func goList(t *testing.T, field, pattern string) map[string][]string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("this test needs the go command on PATH: %v", err)
	}
	out, err := exec.Command(goCmd, "list", "-f", "{{.ImportPath}} {{join ."+field+" \" \"}}", pattern).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pattern, err)
	}
	all := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		all[f[0]] = f[1:]
	}
	return all
}

// deps maps each of the module's packages to every package it links.
func deps(t *testing.T) map[string][]string {
	t.Helper()
	all := goList(t, "Deps", "./...")
	if len(all) < 20 {
		t.Fatalf("go list found %d packages", len(all))
	}
	return all
}

// The engine (core/ and the built-in stages in plugins/) sits below what
// uses it: none of its packages links the programs' internal packages,
// anything under agent/ (the hooks, the MCP server, the connectors, the
// X-ray), the MCP library, or the plugin transport (core/subprocess and
// core/pluginsdk are that transport, and a plugin's own main links it).
// The agent integrations above it do not link internal/ either: the
// programs hand them what they need. The hooks, which agents run on every
// prompt, link neither the MCP server, its library nor the connectors.
func TestLayers(t *testing.T) {
	var (
		internal  = module + "/internal"
		agent     = module + "/agent"
		hooks     = module + "/agent/hooks"
		mcpServer = module + "/agent/mcpserver"
		connect   = module + "/agent/connect"
		mcpGo     = "github.com/mark3labs/mcp-go"
		goPlugin  = "github.com/hashicorp/go-plugin"
	)
	under := func(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }
	transport := func(p string) bool {
		return under(p, module+"/core/subprocess") || under(p, module+"/core/pluginsdk") || strings.Contains(p, "/cmd/")
	}
	checked := 0
	for pkg, ds := range deps(t) {
		var forbidden []string
		switch {
		case (under(pkg, module+"/core") || under(pkg, module+"/plugins")) && !transport(pkg):
			forbidden = []string{internal, agent, mcpGo, goPlugin}
		case under(pkg, hooks):
			forbidden = []string{internal, mcpGo, mcpServer, connect}
		case under(pkg, agent):
			forbidden = []string{internal}
		default:
			continue
		}
		checked++
		for _, d := range ds {
			for _, f := range forbidden {
				if under(d, f) {
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
			d == module+"/agent/mcpserver", d == module+"/agent/connect", d == module+"/internal/flags",
			strings.HasPrefix(d, "github.com/mark3labs/mcp-go"), strings.HasPrefix(d, "github.com/hashicorp/go-plugin"):
			t.Errorf("rubi-hook links %s", d)
		}
	}
}

// The pipeline reads documents through their sources: the notes through
// core/notes, third-party items through core.Source. It does not import
// the knowledge store or the conversation memory itself, so neither's
// fields are wired into indexing or searching.
func TestPipelineReadsNotesThroughTheirSource(t *testing.T) {
	imports := goList(t, "Imports", "./core/pipeline")[module+"/core/pipeline"]
	if !slices.Contains(imports, module+"/core/notes") {
		t.Fatalf("core/pipeline imports %q, not core/notes", imports)
	}
	for _, p := range imports {
		if p == module+"/core/knowledge" || p == module+"/core/memory" {
			t.Errorf("core/pipeline imports %s", p)
		}
	}
}

// The notes' part of the index (core/notesindex: the notes' state, its
// edits, the freshness stamp, relating notes, the deltas) sits between
// the notes' source and the pipeline. The pipeline runs it; it links
// neither the pipeline, nor the stage host, nor any stage: it says what
// to give the rankers and gives them nothing itself. It reads the notes
// through core/notes alone, as the pipeline does.
func TestNotesIndexSitsBetweenNotesAndPipeline(t *testing.T) {
	notesIndex := module + "/core/notesindex"
	if !slices.Contains(goList(t, "Imports", "./core/pipeline")[module+"/core/pipeline"], notesIndex) {
		t.Errorf("core/pipeline does not import %s", notesIndex)
	}
	ds := deps(t)[notesIndex]
	if len(ds) == 0 {
		t.Fatalf("go list lists nothing for %s", notesIndex)
	}
	for _, d := range ds {
		switch {
		case d == module+"/core/pipeline", d == module+"/core/host", strings.HasPrefix(d, module+"/plugins/"):
			t.Errorf("%s links %s", notesIndex, d)
		}
	}
	imports := goList(t, "Imports", "./core/notesindex")[notesIndex]
	if !slices.Contains(imports, module+"/core/notes") {
		t.Errorf("%s imports %q, not core/notes", notesIndex, imports)
	}
	for _, p := range imports {
		if p == module+"/core/knowledge" || p == module+"/core/memory" {
			t.Errorf("%s imports %s", notesIndex, p)
		}
	}
}

// The answer (core/answer: the query, its items and result, packing to
// a budget, the text forms) sits below the pipeline, which runs the
// stages and hands it what they made. It links neither the pipeline, nor
// the stage host, nor any stage, nor the notes' part of the index: what
// orders an answer is the stages', and the answer fits it to the budget
// and renders it. No stage links it either: a reranker's choices (the
// units under a file) come back through core.Reranked.
func TestAnswerSitsBelowThePipeline(t *testing.T) {
	ans := module + "/core/answer"
	if !slices.Contains(goList(t, "Imports", "./core/pipeline")[module+"/core/pipeline"], ans) {
		t.Errorf("core/pipeline does not import %s", ans)
	}
	all := deps(t)
	ds := all[ans]
	if len(ds) == 0 {
		t.Fatalf("go list lists nothing for %s", ans)
	}
	for _, d := range ds {
		switch {
		case d == module+"/core/pipeline", d == module+"/core/host", d == module+"/core/notesindex", strings.HasPrefix(d, module+"/plugins/"):
			t.Errorf("%s links %s", ans, d)
		}
	}
	for pkg, ds := range all {
		if strings.HasPrefix(pkg, module+"/plugins/") && slices.Contains(ds, ans) {
			t.Errorf("%s links %s", pkg, ans)
		}
	}
}
