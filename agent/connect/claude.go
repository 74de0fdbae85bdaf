package connect

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rubi-dev/rubi/agent/connect/jsonedit"
	"github.com/rubi-dev/rubi/core/store"
)

// Claude Code keeps its user configuration in two files (checked against
// Claude Code 2.1.328):
//
//   - settings.json in its configuration directory ($CLAUDE_CONFIG_DIR,
//     else ~/.claude): "env" (variables every session and hook sees, as
//     strings), "hooks", permissions and the like;
//   - .claude.json, its state file, beside that directory (~/.claude.json)
//     or inside $CLAUDE_CONFIG_DIR when that is set: user-scope MCP
//     servers under "mcpServers", as `claude mcp add --scope user` writes
//     them. Before .claude.json existed the state file was .config.json in
//     the configuration directory; Claude Code still reads that one when
//     there is no .claude.json.
//
// Both are strict JSON (Claude Code rejects comments and trailing commas).

// ClaudePaths says where Claude Code's user configuration lives.
type ClaudePaths struct {
	// Dir is the configuration directory, which holds settings.json.
	Dir string `json:"dir"`
	// State is the state file that holds user-scope MCP servers.
	State string `json:"state"`
}

// FindClaude locates Claude Code's configuration the way Claude Code does:
// $CLAUDE_CONFIG_DIR, else ~/.claude, with the state file inside
// $CLAUDE_CONFIG_DIR when it is set and ~/.claude.json otherwise.
func FindClaude() (ClaudePaths, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return ClaudePaths{}, fmt.Errorf("find Claude Code's configuration: %w", err)
	}
	return findClaudeIn(home, os.Getenv("CLAUDE_CONFIG_DIR"))
}

// findClaudeIn is FindClaude for the home directory home and the value
// configDir of $CLAUDE_CONFIG_DIR.
func findClaudeIn(home, configDir string) (ClaudePaths, error) {
	p := ClaudePaths{Dir: filepath.Join(home, ".claude"), State: filepath.Join(home, ".claude.json")}
	if dir := configDir; dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return ClaudePaths{}, err
		}
		p = ClaudePaths{Dir: abs, State: filepath.Join(abs, ".claude.json")}
	}
	legacy := filepath.Join(p.Dir, ".config.json")
	if _, err := os.Stat(p.State); os.IsNotExist(err) {
		if fi, err := os.Stat(legacy); err == nil && fi.Mode().IsRegular() && fi.Size() > 0 {
			p.State = legacy
		}
	}
	return p, nil
}

// Settings is the path of settings.json.
func (p ClaudePaths) Settings() string { return filepath.Join(p.Dir, "settings.json") }

// CompactWindowEnv is the variable that sets, in tokens, the context size
// at which Claude Code compacts a session on its own.
const CompactWindowEnv = "CLAUDE_CODE_AUTO_COMPACT_WINDOW"

// DefaultWindow is the compaction window rubi proposes: past 150k tokens a
// session re-reads far more than it gains (DESIGN, the token X-ray).
const DefaultWindow = 150000

// MinWindow is the smallest window rubi writes: below it Claude Code
// would compact after every few steps.
const MinWindow = 10000

// Hook is one Claude Code event rubi answers with `rubi hook EVENT`.
type Hook struct {
	Event string `json:"event"`
	// Matcher selects what fires the hook (tool names for tool events,
	// the start's source for SessionStart); empty means everything.
	Matcher string `json:"matcher,omitempty"`
	// Timeout is how long Claude Code waits, in seconds.
	Timeout int `json:"timeout"`
}

// claudeHooks is the one list of the hooks rubi registers, read by both
// `rubi install --hooks` and the Claude Code plugin's hooks/hooks.json
// (PluginHooksJSON). It names every event `rubi hook` handles
// (agent/hooks.Events; a test holds the two together).
var claudeHooks = []Hook{
	// Index and inject the map; after a compaction or /clear, the handoff.
	{Event: "SessionStart", Matcher: "startup|resume|clear|compact", Timeout: 30},
	// Recall what the graph knows about the prompt.
	{Event: "UserPromptSubmit", Timeout: 10},
	// The meter: the context size against the window.
	{Event: "PostToolUse", Timeout: 10},
	// The harvest after heavy exploration.
	{Event: "Stop", Timeout: 10},
	// The record of what is about to be compacted.
	{Event: "PreCompact", Timeout: 30},
	// The read guard for huge files: Read, and a shell's lone `cat FILE`.
	{Event: "PreToolUse", Matcher: "Read|Bash", Timeout: 10},
	// Forget the session's state.
	{Event: "SessionEnd", Timeout: 10},
}

// ClaudeHooks returns the hooks rubi registers with Claude Code, in the
// order they are written.
func ClaudeHooks() []Hook { return append([]Hook(nil), claudeHooks...) }

// HookCommand is the command line of rubi's hook for event, where rubi is
// how the agent starts rubi (a command name or a path) and hookProgram the
// hook program (rubi-hook) installed beside it: hookProgram when there is
// one, else rubi's own hook command; quoted for the shell agents run hooks
// with.
func HookCommand(rubi, hookProgram, event string) string {
	if hookProgram != "" {
		return ShellQuote(hookProgram) + " " + event
	}
	return ShellQuote(rubi) + " hook " + event
}

// PluginHookCommand is the command line of the plugin's hook for event:
// the plugin's hooks.json is one file for every machine, so it runs
// rubi-hook and falls back to `rubi hook` where rubi-hook is not installed
// (Claude Code runs hook commands with a shell; a missing program exits
// 127 without reading the payload, which rubi then reads).
func PluginHookCommand(event string) string {
	return HookProgram + " " + event + " 2>/dev/null || rubi hook " + event
}

// hookGroup and hookCommand are Claude Code's hook configuration:
// "hooks": {"EVENT": [{"matcher": ..., "hooks": [{"type": "command", ...}]}]}.
type hookGroup struct {
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []hookCommand `json:"hooks"`
}

type hookCommand struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

func (h Hook) group(run hookRun) hookGroup {
	return h.groupOf(run.command(h.Event))
}

func (h Hook) groupOf(command string) hookGroup {
	return hookGroup{Matcher: h.Matcher, Hooks: []hookCommand{{Type: "command", Command: command, Timeout: h.Timeout}}}
}

// groupMS is the group with its timeout in milliseconds (Gemini CLI).
func (h Hook) groupMS(run hookRun) hookGroup {
	g := h.group(run)
	g.Hooks[0].Timeout *= 1000
	return g
}

// PluginHooksJSON renders the hooks/hooks.json of rubi's Claude Code
// plugin, with rubi as the executable (normally "rubi", found on PATH):
// the same hooks `rubi install --hooks` writes into settings.json.
func PluginHooksJSON() []byte {
	d, _ := jsonedit.Parse("hooks.json", nil, false)
	for _, h := range claudeHooks {
		if _, err := d.Set(jsonedit.Path{"hooks", h.Event}, []hookGroup{h.groupOf(PluginHookCommand(h.Event))}); err != nil {
			panic(err) // a fresh document takes any path
		}
	}
	return d.Bytes()
}

// IsRubiHook reports whether a hook command line is one of rubi's: it runs
// a program named rubi (any path, quoted or not) with the hook command, or
// rubi-hook. Entries rubi wrote are recognised this way even after rubi
// moved.
func IsRubiHook(command string) bool {
	f := shellFields(command)
	return len(f) >= 2 && (isRubiProgram(f[0]) && f[1] == "hook" || isHookProgram(f[0]))
}

// isHookProgram reports whether a command names rubi-hook.
func isHookProgram(cmd string) bool {
	base := filepath.Base(filepath.ToSlash(cmd))
	if i := strings.LastIndexByte(base, '\\'); i >= 0 {
		base = base[i+1:]
	}
	return base == HookProgram || strings.EqualFold(base, HookProgram+".exe")
}

// isRubiProgram reports whether a command names rubi's executable.
func isRubiProgram(cmd string) bool {
	base := filepath.Base(filepath.ToSlash(cmd))
	if i := strings.LastIndexByte(base, '\\'); i >= 0 { // a Windows path
		base = base[i+1:]
	}
	return base == "rubi" || strings.EqualFold(base, "rubi.exe")
}

// shellFields splits the start of a command line into words the way a
// shell would, for single- and double-quoted words; it stops at anything
// a shell would treat specially.
func shellFields(s string) []string {
	var fields []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				fields = append(fields, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'' || c == '"':
			end := strings.IndexByte(s[i+1:], c)
			if end < 0 {
				return fields
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '\\' && i+1 < len(s):
			cur.WriteByte(s[i+1])
			i++
			inWord = true
		case strings.IndexByte(";&|<>()$`\n", c) >= 0:
			if inWord {
				fields = append(fields, cur.String())
			}
			return fields
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		fields = append(fields, cur.String())
	}
	return fields
}

// ShellQuote quotes a path for a command line run by a shell, as Claude
// Code runs hooks; a path of ordinary characters is left as it is.
func ShellQuote(s string) string {
	safe := s != ""
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./+:@%,=", c)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// mcpServer is a stdio MCP server in Claude Code's state file, as
// `claude mcp add --scope user rubi -- rubi mcp` writes it. Claude Code
// starts the command itself, without a shell: a path is not quoted.
type mcpServer struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

// MCPServerName is the name of rubi's MCP server in the agents' configs.
const MCPServerName = "rubi"

// The values rubi owns in Claude Code's files.
var (
	envPath     = jsonedit.Path{"env", CompactWindowEnv}
	hooksPath   = jsonedit.Path{"hooks"}
	serversPath = jsonedit.Path{"mcpServers"}
	serverPath  = jsonedit.Path{"mcpServers", MCPServerName}
)

// setWindow writes the compaction window into settings.json's env.
func setWindow(d *jsonedit.Doc, window int) ([]string, error) {
	want := strconv.Itoa(window)
	before := d.Raw(envPath)
	changed, err := d.Set(envPath, want)
	if err != nil || !changed {
		return nil, err
	}
	line := fmt.Sprintf("env.%s = %q", CompactWindowEnv, want)
	if before != nil {
		line += fmt.Sprintf(" (was %s)", before)
	}
	return []string{line}, nil
}

// restoreValue puts back at p what the backup held there, or removes it
// (and the containers that leaves empty, unless the backup has them).
func restoreValue(d, backup *jsonedit.Doc, p jsonedit.Path) []string {
	if raw := backup.Raw(p); raw != nil {
		if changed, err := d.Set(p, raw); err == nil && changed {
			return []string{fmt.Sprintf("%s: restored to %s", p, raw)}
		}
		return nil
	}
	if !d.Delete(p) {
		return nil
	}
	for parent := p[:len(p)-1]; len(parent) > 0 && d.Len(parent) == 0 && !backup.Has(parent); parent = parent[:len(parent)-1] {
		d.Delete(parent)
	}
	return []string{fmt.Sprintf("%s: removed", p)}
}

// hookSpot is a group of an event's hooks that holds rubi's commands:
// their indexes, and whether the group holds only those.
type hookSpot struct {
	group int
	hooks []int
	only  bool
}

// rubiHooks lists the groups of event that hold rubi's commands.
func rubiHooks(d *jsonedit.Doc, event string) []hookSpot {
	var spots []hookSpot
	for g := range max(0, d.Len(jsonedit.Path{"hooks", event})) {
		inner := jsonedit.Path{"hooks", event, g, "hooks"}
		n := max(0, d.Len(inner))
		var mine []int
		for h := range n {
			var cmd string
			if ok, _ := d.Get(append(inner[:len(inner):len(inner)], h, "command"), &cmd); ok && IsRubiHook(cmd) {
				mine = append(mine, h)
			}
		}
		if len(mine) > 0 {
			spots = append(spots, hookSpot{group: g, hooks: mine, only: len(mine) == n})
		}
	}
	return spots
}

// removeRubiHooks takes rubi's commands out of event's groups, except
// those of group keep (-1: none), dropping the groups, the event and the
// "hooks" object they leave empty. It returns how many it removed.
func removeRubiHooks(d *jsonedit.Doc, event string, keep int) int {
	spots := rubiHooks(d, event)
	removed := 0
	for i := len(spots) - 1; i >= 0; i-- {
		s := spots[i]
		if s.group == keep {
			continue
		}
		if s.only {
			d.Delete(jsonedit.Path{"hooks", event, s.group})
			removed += len(s.hooks)
			continue
		}
		for j := len(s.hooks) - 1; j >= 0; j-- {
			d.Delete(jsonedit.Path{"hooks", event, s.group, "hooks", s.hooks[j]})
			removed++
		}
	}
	if d.Len(jsonedit.Path{"hooks", event}) == 0 {
		d.Delete(jsonedit.Path{"hooks", event})
	}
	if d.Len(hooksPath) == 0 {
		d.Delete(hooksPath)
	}
	return removed
}

// setHooks registers rubi's hooks in settings.json, run by rubi. A group
// of rubi's own is updated where it is; rubi's commands elsewhere (an
// older install, an event rubi no longer uses) are removed; the user's
// hooks are left as they are.
func setHooks(d *jsonedit.Doc, run hookRun) ([]string, error) {
	return setHookList(d, run, claudeHooks, false)
}

// setHookList is setHooks for an agent's own list of hooks; ms writes
// timeouts in milliseconds.
func setHookList(d *jsonedit.Doc, run hookRun, hooks []Hook, ms bool) ([]string, error) {
	if d.Has(hooksPath) && !d.IsObject(hooksPath) {
		return nil, fmt.Errorf("hooks is not an object")
	}
	var lines []string
	wanted := map[string]bool{}
	for _, h := range hooks {
		wanted[h.Event] = true
		p := jsonedit.Path{"hooks", h.Event}
		if d.Has(p) && !d.IsArray(p) {
			return nil, fmt.Errorf("%s is not an array", p)
		}
		want := h.group(run)
		if ms {
			want = h.groupMS(run)
		}
		keep := -1
		for _, s := range rubiHooks(d, h.Event) {
			if s.only && len(s.hooks) == 1 {
				keep = s.group
				break
			}
		}
		removed := removeRubiHooks(d, h.Event, keep)
		if keep >= 0 {
			// Removing other groups may have shifted this one.
			for _, s := range rubiHooks(d, h.Event) {
				if s.only && len(s.hooks) == 1 {
					keep = s.group
					break
				}
			}
			changed, err := d.Set(jsonedit.Path{"hooks", h.Event, keep}, want)
			if err != nil {
				return nil, err
			}
			if changed || removed > 0 {
				lines = append(lines, fmt.Sprintf("hooks.%s: updated %q", h.Event, want.Hooks[0].Command))
			}
			continue
		}
		if err := d.Append(p, want); err != nil {
			return nil, err
		}
		line := fmt.Sprintf("hooks.%s: added %q", h.Event, want.Hooks[0].Command)
		if removed > 0 {
			line += " (rubi's older hook in another group was removed)"
		}
		lines = append(lines, line)
	}
	for _, event := range d.Keys(hooksPath) {
		if !wanted[event] {
			if n := removeRubiHooks(d, event, -1); n > 0 {
				lines = append(lines, fmt.Sprintf("hooks.%s: removed rubi's old hook", event))
			}
		}
	}
	return lines, nil
}

// unsetHooks removes every hook of rubi's, keeping the user's.
func unsetHooks(d *jsonedit.Doc) []string {
	var lines []string
	for _, event := range d.Keys(hooksPath) {
		if n := removeRubiHooks(d, event, -1); n > 0 {
			lines = append(lines, fmt.Sprintf("hooks.%s: removed rubi's hook", event))
		}
	}
	return lines
}

// pluginEnabled reports whether settings.json enables a Claude Code plugin
// named rubi (from any marketplace), whose hooks would run beside those
// --hooks writes.
func pluginEnabled(d *jsonedit.Doc) string {
	for _, name := range d.Keys(jsonedit.Path{"enabledPlugins"}) {
		var on bool
		if ok, _ := d.Get(jsonedit.Path{"enabledPlugins", name}, &on); ok && on && strings.HasPrefix(name, "rubi@") {
			return name
		}
	}
	return ""
}

// setServer registers rubi's MCP server in Claude Code's state file. An
// entry named rubi that already starts `rubi mcp` (with whatever extra
// flags or environment the user gave it) is left alone.
func setServer(d *jsonedit.Doc, rubi string) ([]string, error) {
	if d.Has(serversPath) && !d.IsObject(serversPath) {
		return nil, fmt.Errorf("mcpServers is not an object")
	}
	var cur mcpServer
	if ok, _ := d.Get(serverPath, &cur); ok && isRubiProgram(cur.Command) && len(cur.Args) > 0 && cur.Args[0] == "mcp" && runnable(cur.Command) {
		return nil, nil
	}
	had := d.Has(serverPath)
	want := mcpServer{Type: "stdio", Command: rubi, Args: []string{"mcp"}, Env: map[string]string{}}
	if _, err := d.Set(serverPath, want); err != nil {
		return nil, err
	}
	verb := "added"
	if had {
		verb = "replaced"
	}
	return []string{fmt.Sprintf("mcpServers.%s: %s (%s mcp)", MCPServerName, verb, rubi)}, nil
}

// runnable reports whether a command can still start: a bare name is
// looked up when the server starts; an absolute path must exist.
func runnable(cmd string) bool {
	if !filepath.IsAbs(cmd) {
		return true
	}
	_, err := os.Stat(cmd)
	return err == nil
}

// claudeAutomatic is what rubi's hooks (the plugin's, or rubi install
// --hooks') bring into a Claude Code conversation: the README's words.
const claudeAutomatic = "map, recall, read guard, meter, memory nudge, harvest, pre-compaction record"

// claudeStatus is Claude Code's line in rubi connect --list. rubi connect
// does not set it up (rubi's plugin, or rubi install --hooks, does), and
// its files are the user's whatever the scope: settings.json, connected
// with rubi's hooks or the rubi plugin enabled, and the state file,
// connected with rubi's MCP server. Claude Code is connected with the
// plugin, or with both of install's parts.
func claudeStatus(o ConnectOptions) AgentStatus {
	s := AgentStatus{Agent: "claude-code", Title: "Claude Code", Automatic: claudeAutomatic,
		Setup: "rubi's plugin (/plugin install rubi@rubi), or rubi install --hooks"}
	p, err := findClaudeIn(o.Home, o.env("CLAUDE_CONFIG_DIR"))
	if err != nil {
		s.Err = err.Error()
		return s
	}
	read := func(path string) (*jsonedit.Doc, string) {
		data, err := store.ReadRegular(path, maxAgentFile)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, ""
		}
		if err != nil {
			return nil, err.Error()
		}
		d, err := jsonedit.Parse(path, data, false)
		if err != nil {
			return nil, strings.SplitN(err.Error(), "\n", 2)[0]
		}
		return d, ""
	}
	settings := FileStatus{Path: p.Settings(), What: "rubi's hooks (rubi install --hooks), or the rubi plugin enabled"}
	plugin := false
	d, problem := read(settings.Path)
	settings.Problem = problem
	if d != nil {
		plugin = pluginEnabled(d) != ""
		for _, h := range claudeHooks {
			if len(rubiHooks(d, h.Event)) > 0 {
				settings.Connected = true
				break
			}
		}
		settings.Connected = settings.Connected || plugin
	}
	state := FileStatus{Path: p.State, What: "rubi's MCP server (rubi install --hooks; the plugin brings its own)"}
	d, problem = read(state.Path)
	state.Problem = problem
	if d != nil {
		var cur mcpServer
		if ok, _ := d.Get(serverPath, &cur); ok && isRubiProgram(cur.Command) && len(cur.Args) > 0 && cur.Args[0] == "mcp" {
			state.Connected = true
		}
	}
	s.Files = []FileStatus{settings, state}
	s.Connected = plugin || (settings.Connected && state.Connected)
	return s
}
