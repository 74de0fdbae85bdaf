package audit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rubi-dev/rubi/core/messages"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// tokensOf is rubi's estimate (core/tokens) of a text: 3.5 characters per
// token, rounded up.
func tokensOf(s string) int { return (utf8.RuneCountInString(s)*10 + 34) / 35 }

func TestAudit(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := filepath.Join(root, "work", "shop")
	os.MkdirAll(filepath.Join(proj, ".git"), 0o755)

	arch := strings.Repeat("The checkout service talks to the pricing engine through a queue.\n", 12) // 792 bytes
	tree := "```\n" + strings.Repeat("├── internal/checkout/handler.go\n", 60) + "```\n"
	deploy := "```sh\n" + strings.Repeat("kubectl apply -f deploy/prod.yaml --context prod\n", 15) + "```\n" // 745 bytes
	claude := "# Shop\n@docs/conventions.md\n\n## Rules\n" + strings.Repeat("- Always run go test before committing.\n", 5) +
		"## Architecture\n" + arch + "## Layout\n" + tree + "## Deploy\n" + deploy
	write(t, filepath.Join(proj, "CLAUDE.md"), claude)
	write(t, filepath.Join(proj, "docs", "conventions.md"), strings.Repeat("x", 350)) // 100 tokens
	write(t, filepath.Join(proj, "AGENTS.md"), strings.Repeat("a", 70))               // 20
	write(t, filepath.Join(proj, ".rubi", "map.md"), strings.Repeat("m", 1750))       // 500
	write(t, filepath.Join(home, ".claude", "CLAUDE.md"), strings.Repeat("h", 35))    // 10
	// A CLAUDE.md above the repository counts for Claude Code (it reads
	// every parent), an AGENTS.md there does not for Codex (it stops at
	// the repository root).
	write(t, filepath.Join(root, "work", "CLAUDE.md"), strings.Repeat("p", 7)) // 2
	write(t, filepath.Join(root, "work", "AGENTS.md"), strings.Repeat("q", 7))
	// The three agents run rubi's hooks, which inject the map: Claude
	// Code through rubi's plugin, Codex and Gemini CLI through their
	// hooks' files.
	startHook := `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "rubi hook SessionStart"}]}]}}`
	write(t, filepath.Join(home, ".claude", "settings.json"), `{"enabledPlugins": {"rubi@rubi": true}}`)
	write(t, filepath.Join(home, ".codex", "hooks.json"), startHook)
	write(t, filepath.Join(home, ".gemini", "settings.json"), startHook)

	rep, err := Run(proj, Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range rep.Sources {
		got = append(got, fmt.Sprintf("%s %s %d %v", s.Rel, s.Kind, s.Tokens, s.Agents))
	}
	treeTokens := tokensOf(tree)
	want := []string{
		"~/.claude/CLAUDE.md instructions 10 [claude-code]",
		filepath.Join(root, "work", "CLAUDE.md") + " instructions 2 [claude-code]",
		fmt.Sprintf("CLAUDE.md instructions %d [claude-code]", tokensOf(claude)),
		"docs/conventions.md import 100 [claude-code]",
		"AGENTS.md instructions 20 [codex]",
		".rubi/map.md map 500 [claude-code codex gemini]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sources:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if rep.Totals[ClaudeCode] != 10+2+tokensOf(claude)+100+500 || rep.Totals[Codex] != 520 || rep.Totals[Gemini] != 500 {
		t.Errorf("totals %v", rep.Totals)
	}
	// The rules stay; the tree, the description and the commands move.
	got = nil
	for _, s := range rep.Suggest {
		got = append(got, fmt.Sprintf("%s:%d %s %d %s", s.Rel, s.Line, s.Heading, s.Tokens, s.What))
	}
	want = []string{
		fmt.Sprintf("CLAUDE.md:23 Layout %d drop", treeTokens),
		"CLAUDE.md:10 Architecture 227 concept",
		"CLAUDE.md:86 Deploy 213 howto",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("suggestions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if rep.Saving != treeTokens+227+213 {
		t.Errorf("saving %d", rep.Saving)
	}

	// In French: the labels and the reasons; paths, headings, numbers
	// and the command as they are.
	var fr bytes.Buffer
	WriteText(&fr, messages.French, rep)
	for _, line := range []string{
		"Codex: ~520 tokens dans chaque message",
		"  .rubi/map.md  500  carte de rubi (début de session)",
		"À déplacer dans le graphe (~1k tokens de moins dans chaque message) :",
		`  CLAUDE.md:10  "Architecture", 227 tokens: décrit plus qu'il n'instruit (0 lignes sur 12 sont des règles)`,
		`      rubi register --type howto --title "Deploy" --body "<la section>", puis laissez`,
	} {
		if !strings.Contains(fr.String(), line) {
			t.Errorf("French text lacks %q:\n%s", line, fr.String())
		}
	}

	var b bytes.Buffer
	WriteText(&b, messages.English, rep)
	for _, line := range []string{
		"Codex: ~520 tokens in every message",
		"  .rubi/map.md  500  rubi's map (session start)",
		"Move into the graph (~1k tokens less in every message):",
		`  CLAUDE.md:10  "Architecture", 227 tokens: describes more than it instructs (0 of 12 lines are rules)`,
		`      rubi register --type howto --title "Deploy"`,
	} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("text lacks %q:\n%s", line, b.String())
		}
	}
}

// The map is rubi's hooks' to inject: with no agent running them, no
// agent loads it, and the audit says so and how to connect one.
func TestAuditMapWithNoAgentConnected(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := filepath.Join(root, "shop")
	os.MkdirAll(filepath.Join(proj, ".git"), 0o755)
	write(t, filepath.Join(proj, "AGENTS.md"), strings.Repeat("a", 70))         // 20
	write(t, filepath.Join(proj, ".rubi", "map.md"), strings.Repeat("m", 1750)) // 500
	// rubi's MCP server alone injects no map.
	write(t, filepath.Join(home, ".gemini", "settings.json"), `{"mcpServers": {"rubi": {"command": "rubi", "args": ["mcp"]}}}`)

	rep, err := Run(proj, Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Totals[ClaudeCode] != 0 || rep.Totals[Codex] != 20 || rep.Totals[Gemini] != 0 {
		t.Errorf("totals %v, want the map counted for no agent", rep.Totals)
	}
	var b bytes.Buffer
	WriteText(&b, messages.English, rep)
	want := "rubi audit: " + proj + `, what each agent loads before the first message

Claude Code: nothing from the project or your home

Codex: ~20 tokens in every message
  AGENTS.md  20  instructions

Gemini CLI: nothing from the project or your home

No agent loads rubi's map, .rubi/map.md (~500 tokens): none runs rubi's hooks. rubi connect --list shows the agents and how to connect them; rubi install sets Claude Code up.

Nothing to move: the instruction files hold rules, or sections too short to matter.
`
	if b.String() != want {
		t.Errorf("text:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestAuditNotADirectory(t *testing.T) {
	if _, err := Run(filepath.Join(t.TempDir(), "missing"), Options{}); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("err = %v", err)
	}
}

// TestAuditMCPTools counts rubi's tool definitions for the agents whose
// configuration starts rubi's MCP server, and only for them.
func TestAuditMCPTools(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := filepath.Join(root, "shop")
	os.MkdirAll(filepath.Join(proj, ".git"), 0o755)
	write(t, filepath.Join(proj, ".mcp.json"), `{"mcpServers": {"rubi": {"type": "stdio", "command": "rubi", "args": ["mcp"]}}}`)
	write(t, filepath.Join(home, ".codex", "config.toml"), "model = \"gpt-5\"\n\n[mcp_servers.rubi]\ncommand = \"rubi\"\nargs = [\"mcp\"]\n")
	write(t, filepath.Join(home, ".gemini", "settings.json"), `{"mcpServers": {"other": {"command": "x"}}}`)

	rep, err := Run(proj, Options{Home: home, ToolTokens: 1047})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range rep.Sources {
		got = append(got, fmt.Sprintf("%s %s %d %v", s.Rel, s.Kind, s.Tokens, s.Agents))
	}
	want := []string{
		"rubi's MCP tools (.mcp.json) tools 1047 [claude-code]",
		"rubi's MCP tools (~/.codex/config.toml) tools 1047 [codex]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sources:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if rep.Totals[ClaudeCode] != 1047 || rep.Totals[Codex] != 1047 || rep.Totals[Gemini] != 0 {
		t.Errorf("totals %v", rep.Totals)
	}
}
