package connect

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rubi-dev/rubi/agent/connect/jsonedit"
	"github.com/rubi-dev/rubi/core/store"
)

// Entry is a file of an agent's that starts rubi (its MCP server, its
// hooks), or that cannot be read: what rubi doctor checks.
type Entry struct {
	Agent string `json:"agent"`
	Title string `json:"title"`
	Scope Scope  `json:"scope"`
	Path  string `json:"path"`
	// Commands are the programs rubi's entries in the file start, each
	// once, in the file's order: rubi (a name or a path) for the MCP
	// server, rubi or rubi-hook for the hooks. They may no longer exist.
	Commands []string `json:"commands"`
	// Problem is why the file cannot be read (with its line and column
	// for a syntax error); Commands is then empty.
	Problem string `json:"problem,omitempty"`
}

// Entries lists, for every agent in o's scope, the files that start rubi
// and those that cannot be read; a file that does not exist, or names no
// rubi program, is left out. Claude Code's files are the user's: they are
// listed in the global scope. It changes nothing.
func Entries(o ConnectOptions) []Entry {
	var out []Entry
	if o.Scope == ScopeGlobal {
		out = claudeEntries(o)
	}
	if o.Rubi == "" {
		o.Rubi = "rubi"
	}
	for _, a := range agentList {
		parts, err := o.partsOf(&a)
		if err != nil {
			continue // a scope the agent does not have
		}
		for _, p := range parts {
			if p.commands == nil {
				continue
			}
			e := Entry{Agent: a.name, Title: a.title, Scope: o.Scope, Path: p.file.path}
			st, err := readState(p.file)
			if err == nil && !st.exists {
				continue
			}
			var cmds []string
			if err == nil {
				cmds, err = p.commands(st)
			}
			if err != nil {
				e.Problem = firstLine(err.Error())
			} else if e.Commands = unique(cmds); len(e.Commands) == 0 {
				continue
			}
			out = append(out, e)
		}
	}
	return out
}

// claudeEntries are Claude Code's files that start rubi: settings.json
// (rubi's hooks, or rubi's plugin, which starts rubi and rubi-hook by
// name) and the state file (rubi's MCP server).
func claudeEntries(o ConnectOptions) []Entry {
	p, err := findClaudeIn(o.Home, o.env("CLAUDE_CONFIG_DIR"))
	if err != nil {
		return nil
	}
	var out []Entry
	read := func(path string, cmds func(d *jsonedit.Doc) []string) {
		e := Entry{Agent: "claude-code", Title: "Claude Code", Scope: ScopeGlobal, Path: path}
		data, err := store.ReadRegular(path, maxAgentFile)
		if errors.Is(err, fs.ErrNotExist) {
			return
		}
		if err == nil {
			var d *jsonedit.Doc
			if d, err = jsonedit.Parse(path, data, false); err == nil {
				if e.Commands = unique(cmds(d)); len(e.Commands) == 0 {
					return
				}
			}
		}
		if err != nil {
			e.Problem = firstLine(err.Error())
		}
		out = append(out, e)
	}
	read(p.Settings(), func(d *jsonedit.Doc) []string {
		var cmds []string
		if pluginEnabled(d) != "" {
			cmds = append(cmds, "rubi") // the plugin's server and hooks' fallback
		}
		for _, h := range claudeHooks {
			cmds = append(cmds, hookPrograms(d, h.Event)...)
		}
		return cmds
	})
	read(p.State, func(d *jsonedit.Doc) []string {
		if argv := serverArgv(d, serverPath); namesRubiMCP(argv) {
			return argv[:1]
		}
		return nil
	})
	return out
}

// hookPrograms are the programs rubi's hooks for event start: the first
// word of each of their command lines.
func hookPrograms(d *jsonedit.Doc, event string) []string {
	var progs []string
	for _, s := range rubiHooks(d, event) {
		for _, h := range s.hooks {
			var cmd string
			if ok, _ := d.Get(jsonedit.Path{"hooks", event, s.group, "hooks", h, "command"}, &cmd); ok {
				if f := shellFields(cmd); len(f) > 0 {
					progs = append(progs, f[0])
				}
			}
		}
	}
	return progs
}

// CodexTrusted reports whether Codex trusts the project (o.Project): a
// [projects."PATH"] table with trust_level = "trusted" in
// $CODEX_HOME/config.toml (~/.codex/config.toml). Codex reads a
// project's .codex/config.toml only in a trusted project. It returns the
// file it read; an error says it cannot be read.
func CodexTrusted(o ConnectOptions) (bool, string, error) {
	home := o.env("CODEX_HOME")
	if home == "" {
		home = filepath.Join(o.Home, ".codex")
	}
	path := filepath.Join(home, "config.toml")
	data, err := store.ReadRegular(path, maxAgentFile)
	if errors.Is(err, fs.ErrNotExist) {
		return false, path, nil
	}
	if err != nil {
		return false, path, err
	}
	v, err := parseTOML(path, data)
	if err != nil {
		return false, path, err
	}
	projects, _ := v["projects"].(map[string]any)
	keys := []string{o.Project}
	if real, err := filepath.EvalSymlinks(o.Project); err == nil && real != o.Project {
		keys = append(keys, real)
	}
	for _, k := range keys {
		if t, _ := projects[k].(map[string]any); t != nil && t["trust_level"] == "trusted" {
			return true, path, nil
		}
	}
	return false, path, nil
}

func firstLine(s string) string { return strings.SplitN(s, "\n", 2)[0] }

// unique keeps each string's first occurrence.
func unique(list []string) []string {
	var out []string
	for _, s := range list {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// SessionStarted lists the agents (claude-code, codex, gemini) whose
// configuration runs rubi's session-start hook, which injects the
// project's level-0 map: Claude Code's settings.json with rubi's hooks or
// its plugin, Codex's hooks.json, Gemini CLI's settings.json (the
// project's or the user's). A file that cannot be read starts nothing.
func SessionStarted(o ConnectOptions) []string {
	hooked := func(path string, jsonc bool) (*jsonedit.Doc, bool) {
		st, err := readState(fileEdit{path: path, project: o.Project})
		if err != nil || !st.exists {
			return nil, false
		}
		d, err := jsonedit.Parse(path, st.data, jsonc)
		if err != nil {
			return nil, false
		}
		return d, len(rubiHooks(d, "SessionStart")) > 0
	}
	var out []string
	if claudeDir := o.env("CLAUDE_CONFIG_DIR"); o.Home == "" && claudeDir == "" {
		// No home: nothing of the user's to read.
	} else if p, err := findClaudeIn(o.Home, claudeDir); err == nil {
		if d, ok := hooked(p.Settings(), false); ok || d != nil && pluginEnabled(d) != "" {
			out = append(out, "claude-code")
		}
	}
	codexHome := o.env("CODEX_HOME")
	if codexHome == "" && o.Home != "" {
		codexHome = filepath.Join(o.Home, ".codex")
	}
	if _, ok := hooked(filepath.Join(codexHome, "hooks.json"), false); ok && codexHome != "" {
		out = append(out, "codex")
	}
	for _, dir := range []string{o.Project, o.Home} {
		if dir == "" {
			continue
		}
		if _, ok := hooked(filepath.Join(dir, ".gemini", "settings.json"), true); ok {
			out = append(out, "gemini")
			break
		}
	}
	return out
}
