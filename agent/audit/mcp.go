package audit

import (
	"encoding/json"
	"path/filepath"

	"github.com/BurntSushi/toml"
)

// mcpToolsPrefix starts the display of rubi's MCP tools, a source with no
// file of its own: "rubi's MCP tools (.mcp.json)".
const mcpToolsPrefix = "rubi's MCP tools ("

// mcpTools counts rubi's MCP tool definitions for each agent whose
// configuration starts a server named "rubi": Claude Code's project
// .mcp.json or ~/.claude.json, Codex's config.toml (the user's or the
// project's), Gemini CLI's settings.json (the project's or the user's).
func (a *auditor) mcpTools(chain []string) {
	o := a.o
	var claude, codex, gemini []string
	for _, d := range fromRepoRoot(chain) {
		claude = append(claude, filepath.Join(d, ".mcp.json"))
		codex = append(codex, filepath.Join(d, ".codex", "config.toml"))
		gemini = append(gemini, filepath.Join(d, ".gemini", "settings.json"))
	}
	if o.Home != "" {
		claude = append(claude, filepath.Join(o.Home, ".claude.json"))
		gemini = append(gemini, filepath.Join(o.Home, ".gemini", "settings.json"))
	}
	if o.ClaudeDir != "" {
		claude = append(claude, filepath.Join(o.ClaudeDir, ".claude.json"))
	}
	if o.CodexHome != "" {
		codex = append(codex, filepath.Join(o.CodexHome, "config.toml"))
	}
	for _, c := range []struct {
		agent Agent
		files []string
		has   func(string) bool
	}{{ClaudeCode, claude, a.jsonHasRubi}, {Codex, codex, tomlHasRubi}, {Gemini, gemini, a.jsonHasRubi}} {
		for _, f := range c.files {
			if c.has(f) {
				a.rep.Sources = append(a.rep.Sources, Source{Path: f, Rel: mcpToolsPrefix + a.display(f) + ")",
					Agents: []Agent{c.agent}, Kind: "tools", Tokens: o.ToolTokens})
				break
			}
		}
	}
}

// jsonHasRubi reports an "mcpServers" object naming "rubi" at the top of
// a JSON configuration, or, in ~/.claude.json, under this project's entry.
func (a *auditor) jsonHasRubi(path string) bool {
	b, err := a.read(path)
	if err != nil {
		return false
	}
	type servers struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	var cfg struct {
		servers
		Projects map[string]servers `json:"projects"`
	}
	if json.Unmarshal(b, &cfg) != nil {
		return false
	}
	if _, ok := cfg.MCPServers["rubi"]; ok {
		return true
	}
	_, ok := cfg.Projects[a.dir].MCPServers["rubi"]
	return ok
}

// tomlHasRubi reports a [mcp_servers.rubi] table in a Codex configuration.
func tomlHasRubi(path string) bool {
	var cfg struct {
		MCPServers map[string]toml.Primitive `toml:"mcp_servers"`
	}
	if _, err := toml.DecodeFile(path, &cfg); err != nil {
		return false
	}
	_, ok := cfg.MCPServers["rubi"]
	return ok
}
