package connect

import (
	"path/filepath"

	"github.com/rubi-dev/rubi/agent/connect/jsonedit"
)

// Instructions is what rubi writes, between its markers, into the file
// each agent reads on its own: the workflow the MCP server's tools serve.
const Instructions = `## rubi: this project's memory

rubi's MCP server (` + "`rubi`" + `) knows this project's code map and what past
sessions learned. Use it before exploring:

- Start a task with the ` + "`read`" + ` tool's ` + "`map`" + `.
- Before reading or searching files, call ` + "`context`" + ` with the question and
  ` + "`terms`" + `: synonyms, related words, likely identifiers.
- After exploring, ` + "`register`" + ` what you learned, with its files.
- Before your context fills, save a handoff with the ` + "`memory`" + ` tool; after a reset, read the last one.
`

// ownedMarkdown is the text of a rule file rubi writes whole.
var ownedMarkdown = "<!-- " + ownedMark + " -->\n" + Instructions

// codexHooks are the hooks Codex runs (Codex 0.169 reads
// $CODEX_HOME/hooks.json in Claude Code's format): no PreCompact, which
// Codex does not have; the read guard on its shell tool only; SessionEnd
// at 3 s, the most Codex allows.
var codexHooks = []Hook{
	{Event: "SessionStart", Matcher: "startup|resume", Timeout: 30},
	{Event: "UserPromptSubmit", Timeout: 10},
	{Event: "PreToolUse", Matcher: "Bash", Timeout: 10},
	{Event: "PostToolUse", Timeout: 10},
	{Event: "Stop", Timeout: 10},
	{Event: "SessionEnd", Timeout: 3},
}

// geminiHooks are the hooks Gemini CLI runs, under its own event names
// (agent/hooks.GeminiEvents maps them onto rubi's handlers), with timeouts
// written in milliseconds.
var geminiHooks = []Hook{
	{Event: "SessionStart", Timeout: 30},
	{Event: "BeforeAgent", Timeout: 10},
	{Event: "BeforeTool", Matcher: "read_file|run_shell_command", Timeout: 10},
	{Event: "AfterTool", Timeout: 10},
	{Event: "AfterAgent", Timeout: 10},
	{Event: "PreCompress", Timeout: 30},
	{Event: "SessionEnd", Timeout: 10},
}

// server is the usual shape of an MCP server entry: command and args.
type server struct {
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env,omitempty"`
	// Timeout is Gemini CLI's, in milliseconds.
	Timeout int `json:"timeout,omitempty"`
	// Disabled is Cline's.
	Disabled *bool `json:"disabled,omitempty"`
}

// openCodeServer is OpenCode's local server: the command is an array.
type openCodeServer struct {
	Type    string   `json:"type"`
	Command []string `json:"command"`
	Enabled *bool    `json:"enabled,omitempty"`
}

var agentList = []agent{
	{name: "codex", title: "Codex CLI", automatic: "with --global (~/.codex/hooks.json): map, recall, read guard on cat, meter, memory nudge (apply_patch), harvest", instructions: "AGENTS.md",
		parts: func(o ConnectOptions) ([]part, error) {
			home := o.env("CODEX_HOME")
			if home == "" {
				home = filepath.Join(o.Home, ".codex")
			}
			if o.Scope == ScopeProject {
				return []part{
					codexServer(filepath.Join(o.Project, ".codex", "config.toml"), o.Rubi),
					markdownBlock(filepath.Join(o.Project, "AGENTS.md"), Instructions),
				}, nil
			}
			return []part{
				codexServer(filepath.Join(home, "config.toml"), o.Rubi),
				jsonHooks(filepath.Join(home, "hooks.json"), false, o.hookRun(), codexHooks, false),
				markdownBlock(filepath.Join(home, "AGENTS.md"), Instructions),
			}, nil
		}},
	{name: "gemini", title: "Gemini CLI", automatic: "map, recall, read guard (read_file, cat), meter, memory nudge, harvest, pre-compression record", instructions: "GEMINI.md",
		parts: func(o ConnectOptions) ([]part, error) {
			dir := filepath.Join(o.Project, ".gemini")
			md := filepath.Join(o.Project, "GEMINI.md")
			if o.Scope == ScopeGlobal {
				dir = filepath.Join(o.Home, ".gemini")
				md = filepath.Join(dir, "GEMINI.md")
			}
			settings := filepath.Join(dir, "settings.json")
			return []part{
				merged(
					jsonServer(settings, true, jsonedit.Path{"mcpServers"}, server{Command: o.Rubi, Args: []string{"mcp"}, Timeout: 30000}),
					jsonHooks(settings, true, o.hookRun(), geminiHooks, true),
				),
				markdownBlock(md, Instructions),
			}, nil
		}},
	{name: "cursor", title: "Cursor", instructions: ".cursor/rules/rubi.mdc (always applied)",
		parts: func(o ConnectOptions) ([]part, error) {
			if o.Scope == ScopeGlobal {
				return []part{
					jsonServer(filepath.Join(o.Home, ".cursor", "mcp.json"), true, jsonedit.Path{"mcpServers"},
						server{Command: o.Rubi, Args: []string{"mcp"}}),
				}, nil
			}
			return []part{
				jsonServer(filepath.Join(o.Project, ".cursor", "mcp.json"), true, jsonedit.Path{"mcpServers"},
					server{Command: o.Rubi, Args: []string{"mcp"}}),
				ownedFile(filepath.Join(o.Project, ".cursor", "rules", "rubi.mdc"),
					"---\ndescription: rubi, this project's memory\nalwaysApply: true\n---\n\n"+ownedMarkdown, "rubi's rule (always applied)"),
			}, nil
		}},
	{name: "vscode", title: "VS Code (GitHub Copilot)", instructions: ".github/copilot-instructions.md",
		parts: func(o ConnectOptions) ([]part, error) {
			if o.Scope == ScopeGlobal {
				return []part{
					jsonServer(filepath.Join(o.vscodeUser(), "mcp.json"), true, jsonedit.Path{"servers"},
						server{Type: "stdio", Command: o.Rubi, Args: []string{"mcp"}}),
				}, nil
			}
			return []part{
				jsonServer(filepath.Join(o.Project, ".vscode", "mcp.json"), true, jsonedit.Path{"servers"},
					server{Type: "stdio", Command: o.Rubi, Args: []string{"mcp"}, Env: map[string]string{"RUBI_PROJECT_DIR": "${workspaceFolder}"}}),
				markdownBlock(filepath.Join(o.Project, ".github", "copilot-instructions.md"), Instructions),
			}, nil
		}},
	{name: "windsurf", title: "Windsurf", instructions: ".windsurf/rules/rubi.md (always on)",
		parts: func(o ConnectOptions) ([]part, error) {
			// Windsurf keeps MCP servers only in the user's file.
			mcp := jsonServer(filepath.Join(o.Home, ".codeium", "windsurf", "mcp_config.json"), true, jsonedit.Path{"mcpServers"},
				server{Command: o.Rubi, Args: []string{"mcp"}})
			if o.Scope == ScopeGlobal {
				return []part{mcp}, nil
			}
			return []part{mcp, ownedFile(filepath.Join(o.Project, ".windsurf", "rules", "rubi.md"),
				"---\ntrigger: always_on\n---\n\n"+ownedMarkdown, "rubi's rule (always on)")}, nil
		}},
	{name: "cline", title: "Cline", instructions: ".clinerules/rubi.md",
		parts: func(o ConnectOptions) ([]part, error) {
			// Cline keeps MCP servers only in the extension's settings.
			off := false
			mcp := jsonServer(filepath.Join(o.vscodeUser(), "globalStorage", "saoudrizwan.claude-dev", "settings", "cline_mcp_settings.json"), false,
				jsonedit.Path{"mcpServers"}, server{Command: o.Rubi, Args: []string{"mcp"}, Disabled: &off})
			if o.Scope == ScopeGlobal {
				return []part{mcp}, nil
			}
			return []part{mcp, ownedFile(filepath.Join(o.Project, ".clinerules", "rubi.md"), ownedMarkdown, "rubi's rule")}, nil
		}},
	{name: "opencode", title: "OpenCode", instructions: "AGENTS.md",
		parts: func(o ConnectOptions) ([]part, error) {
			dir, md := o.Project, filepath.Join(o.Project, "AGENTS.md")
			if o.Scope == ScopeGlobal {
				dir = filepath.Join(o.configHome(), "opencode")
				md = filepath.Join(dir, "AGENTS.md")
			}
			path := filepath.Join(dir, "opencode.json")
			if !fileExists(path) && fileExists(filepath.Join(dir, "opencode.jsonc")) {
				path = filepath.Join(dir, "opencode.jsonc")
			}
			return []part{openCodeMCP(path, o.Rubi), markdownBlock(md, Instructions)}, nil
		}},
	{name: "continue", title: "Continue", instructions: ".continue/rules/rubi.md",
		parts: func(o ConnectOptions) ([]part, error) {
			if o.Scope == ScopeGlobal {
				return []part{yamlServer(filepath.Join(o.Home, ".continue", "config.yaml"), continueServer(o.Rubi))}, nil
			}
			block := "# " + ownedMark + "\nname: rubi\nversion: 0.0.1\nschema: v1\nmcpServers:\n  - name: rubi\n    command: " + yamlScalar(o.Rubi) + "\n    args:\n      - mcp\n"
			return []part{
				ownedFile(filepath.Join(o.Project, ".continue", "mcpServers", "rubi.yaml"), block, "rubi's MCP server block"),
				ownedFile(filepath.Join(o.Project, ".continue", "rules", "rubi.md"), "---\nname: rubi\nalwaysApply: true\n---\n\n"+ownedMarkdown, "rubi's rule"),
			}, nil
		}},
	{name: "goose", title: "Goose", instructions: ".goosehints",
		parts: func(o ConnectOptions) ([]part, error) {
			// Goose keeps extensions only in the user's file.
			cfg := yamlServer(filepath.Join(o.configHome(), "goose", "config.yaml"), gooseExtension(o.Rubi))
			hints := filepath.Join(o.Project, ".goosehints")
			if o.Scope == ScopeGlobal {
				hints = filepath.Join(o.configHome(), "goose", ".goosehints")
			}
			return []part{cfg, markdownBlock(hints, Instructions)}, nil
		}},
	{name: "zed", title: "Zed", instructions: "the project's rules file (the first of Zed's names that exists, else AGENTS.md)",
		parts: func(o ConnectOptions) ([]part, error) {
			entry := server{Command: o.Rubi, Args: []string{"mcp"}, Env: map[string]string{}}
			if o.Scope == ScopeGlobal {
				return []part{jsonServer(filepath.Join(o.configHome(), "zed", "settings.json"), true, jsonedit.Path{"context_servers"}, entry)}, nil
			}
			return []part{
				jsonServer(filepath.Join(o.Project, ".zed", "settings.json"), true, jsonedit.Path{"context_servers"}, entry),
				markdownBlock(zedRules(o.Project), Instructions),
			}, nil
		}},
}

// openCodeMCP registers rubi in OpenCode's configuration, in the shape the
// file already uses: OpenCode v2 keeps servers under mcp.servers, v1
// directly under mcp. A file without servers gets v1's shape.
func openCodeMCP(path, rubi string) part {
	on := true
	v1 := jsonServer(path, true, jsonedit.Path{"mcp"}, openCodeServer{Type: "local", Command: []string{rubi, "mcp"}, Enabled: &on})
	v2 := jsonServer(path, true, jsonedit.Path{"mcp", "servers"}, openCodeServer{Type: "local", Command: []string{rubi, "mcp"}})
	pick := func(st fileState) part {
		d, err := jsonedit.Parse(st.path, st.data, true)
		if err == nil && d.IsObject(jsonedit.Path{"mcp", "servers"}) && !d.Has(jsonedit.Path{"mcp", "servers", "type"}) {
			return v2
		}
		return v1
	}
	p := v1
	p.what = "mcp.rubi (v1) or mcp.servers.rubi (v2): rubi's MCP server"
	p.connected = func(st fileState) bool { return pick(st).connected(st) }
	p.commands = func(st fileState) ([]string, error) { return pick(st).commands(st) }
	p.file.edit = func(st fileState) (fileChange, error) { return pick(st).file.edit(st) }
	p.file.pristine = func(st fileState) bool { return pick(st).file.pristine(st) }
	p.undo = func(st fileState) (fileChange, error) { return pick(st).undo(st) }
	return p
}

// zedRules is the rules file Zed reads in a project: the first of these
// that exists (Zed reads only that one), else AGENTS.md.
func zedRules(project string) string {
	for _, name := range []string{".rules", ".cursorrules", ".windsurfrules", ".clinerules", ".github/copilot-instructions.md", "AGENT.md", "AGENTS.md", "CLAUDE.md", "GEMINI.md"} {
		if p := filepath.Join(project, filepath.FromSlash(name)); fileExists(p) {
			return p
		}
	}
	return filepath.Join(project, "AGENTS.md")
}
