// Package audit measures the fixed context a project loads into an agent
// before the first message: the instruction files each agent reads on its
// own (CLAUDE.md, AGENTS.md, GEMINI.md and their user-wide and imported
// companions), memory files, and rubi's own level-0 map (for the agents
// that run rubi's hooks, which inject it: agent/connect finds them). That text is
// re-read on every message of every session, so each token of it is paid
// for many times over. The audit also points at the sections better kept
// in the knowledge graph, found on demand, than in every message.
package audit

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/rubi-dev/rubi/agent/connect"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/store"
	"github.com/rubi-dev/rubi/core/tokens"
)

// Agent names an agent whose fixed context is measured.
type Agent string

const (
	ClaudeCode Agent = "claude-code"
	Codex      Agent = "codex"
	Gemini     Agent = "gemini"
)

// Options say where to look besides the project.
type Options struct {
	// Home is the user's home directory (~/.claude, ~/.codex, ~/.gemini).
	Home string
	// ClaudeDir and CodexHome override ~/.claude and ~/.codex
	// ($CLAUDE_CONFIG_DIR, $CODEX_HOME).
	ClaudeDir, CodexHome string
	// ToolTokens is what rubi's MCP tool definitions and instructions
	// cost in every message; counted for each agent configured to start
	// rubi's MCP server.
	ToolTokens int
}

// Source is one file an agent loads before the first message.
type Source struct {
	Path string `json:"path"`
	// Rel is Path as shown: relative to the project, or with ~.
	Rel    string  `json:"display"`
	Agents []Agent `json:"agents"`
	// Kind is "instructions", "memory", "rules", "import", "map" or
	// "tools" (rubi's MCP tool definitions; Path is the configuration
	// that connects them).
	Kind   string `json:"kind"`
	Tokens int    `json:"tokens"`
	Lines  int    `json:"lines"`
}

// Suggestion is a section of an instruction file better kept elsewhere.
type Suggestion struct {
	Path    string `json:"path"`
	Rel     string `json:"display"`
	Line    int    `json:"line"`
	Heading string `json:"heading"`
	Tokens  int    `json:"tokens"`
	// What is "concept", "howto" or "drop"; Why says it in words.
	What string `json:"what"`
	Why  string `json:"why"`
	// rules and lines are a concept's counts, for Why in another language.
	rules, lines int
}

// Report is the fixed context of a project.
type Report struct {
	Dir     string        `json:"dir"`
	Sources []Source      `json:"sources"`
	Totals  map[Agent]int `json:"tokens_per_agent"`
	Suggest []Suggestion  `json:"move_to_graph"`
	Saving  int           `json:"tokens_saved_per_message"`
}

// Run audits the project at dir.
func Run(dir string, o Options) (*Report, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("audit %s: not a directory", dir)
	}
	if o.ClaudeDir == "" && o.Home != "" {
		o.ClaudeDir = filepath.Join(o.Home, ".claude")
	}
	if o.CodexHome == "" && o.Home != "" {
		o.CodexHome = filepath.Join(o.Home, ".codex")
	}
	a := &auditor{dir: dir, o: o, byPath: map[string]*Source{}, rep: &Report{Dir: dir, Totals: map[Agent]int{}}}
	chain := ancestors(dir)

	// Claude Code: the user's CLAUDE.md, then CLAUDE.md, .claude/CLAUDE.md
	// and CLAUDE.local.md from the root down to the project, each with
	// its @imports; the project's .claude/rules; the auto memory.
	if o.ClaudeDir != "" {
		a.instructions(filepath.Join(o.ClaudeDir, "CLAUDE.md"), ClaudeCode, "instructions")
	}
	for _, d := range chain {
		for _, name := range []string{"CLAUDE.md", filepath.Join(".claude", "CLAUDE.md"), "CLAUDE.local.md"} {
			a.instructions(filepath.Join(d, name), ClaudeCode, "instructions")
		}
	}
	if rules, _ := filepath.Glob(filepath.Join(dir, ".claude", "rules", "*.md")); len(rules) > 0 {
		sort.Strings(rules)
		for _, r := range rules {
			a.instructions(r, ClaudeCode, "rules")
		}
	}
	if o.ClaudeDir != "" {
		enc := strings.NewReplacer("/", "-", ".", "-").Replace(dir)
		a.file(filepath.Join(o.ClaudeDir, "projects", enc, "memory", "MEMORY.md"), ClaudeCode, "memory")
	}

	// Codex: $CODEX_HOME/AGENTS.md (or its override), then AGENTS.md (or
	// AGENTS.override.md) from the repository root down to the project.
	if o.CodexHome != "" {
		if !a.instructions(filepath.Join(o.CodexHome, "AGENTS.override.md"), Codex, "instructions") {
			a.instructions(filepath.Join(o.CodexHome, "AGENTS.md"), Codex, "instructions")
		}
	}
	for _, d := range fromRepoRoot(chain) {
		if !a.instructions(filepath.Join(d, "AGENTS.override.md"), Codex, "instructions") {
			a.instructions(filepath.Join(d, "AGENTS.md"), Codex, "instructions")
		}
	}

	// Gemini CLI: ~/.gemini/GEMINI.md, then GEMINI.md from the repository
	// root down to the project.
	if o.Home != "" {
		a.instructions(filepath.Join(o.Home, ".gemini", "GEMINI.md"), Gemini, "instructions")
	}
	for _, d := range fromRepoRoot(chain) {
		a.instructions(filepath.Join(d, "GEMINI.md"), Gemini, "instructions")
	}

	// rubi's own level-0 map, injected at session start by rubi's hook:
	// loaded by the agents whose configuration runs it, listed with no
	// agent when none does.
	a.mapFile(filepath.Join(dir, ".rubi", "map.md"))

	// rubi's MCP tools, for the agents configured to start the server.
	if o.ToolTokens > 0 {
		a.mcpTools(chain)
	}

	for _, s := range a.rep.Sources {
		for _, ag := range s.Agents {
			a.rep.Totals[ag] += s.Tokens
		}
	}
	sort.SliceStable(a.rep.Suggest, func(i, j int) bool { return a.rep.Suggest[i].Tokens > a.rep.Suggest[j].Tokens })
	for _, s := range a.rep.Suggest {
		a.rep.Saving += s.Tokens
	}
	return a.rep, nil
}

// mapFile records rubi's level-0 map for the agents that run rubi's
// session-start hook (agent/connect finds them as rubi doctor does).
func (a *auditor) mapFile(path string) {
	o := a.o
	env := func(name string) string {
		switch name {
		case "CLAUDE_CONFIG_DIR":
			return o.ClaudeDir
		case "CODEX_HOME":
			return o.CodexHome
		}
		return os.Getenv(name)
	}
	started := connect.SessionStarted(connect.ConnectOptions{Project: a.dir, Home: o.Home, Getenv: env})
	if len(started) == 0 {
		b, err := a.read(path)
		if err != nil {
			return
		}
		a.rep.Sources = append(a.rep.Sources, Source{Path: path, Rel: a.display(path), Agents: []Agent{}, Kind: "map",
			Tokens: tokens.Estimate(string(b)), Lines: bytes.Count(b, []byte("\n"))})
		return
	}
	for _, ag := range started {
		a.file(path, Agent(ag), "map")
	}
}

type auditor struct {
	dir    string
	o      Options
	rep    *Report
	byPath map[string]*Source
	depth  int
}

// maxInstructionFile bounds what is read of one instruction file
// (CLAUDE.md, AGENTS.md, GEMINI.md, an @import, a settings file): the
// agents load some KB, the largest real ones are a few hundred; 4 MiB is
// room to spare, and a larger one is left out.
const maxInstructionFile = 4 << 20

// read reads a file the agents load: one inside the project as every file
// a repository supplies (store.ReadWithin: a committed CLAUDE.md ->
// ~/.ssh/id_ed25519 is not read), the user's own (~/.claude/CLAUDE.md,
// which dotfile managers link) following its links; capped, a FIFO
// refused without blocking.
func (a *auditor) read(path string) ([]byte, error) {
	if a.inside(path) {
		return store.ReadWithin(a.dir, path, maxInstructionFile)
	}
	return store.ReadRegular(path, maxInstructionFile)
}

// inside reports whether path is under the project's folder, as written.
func (a *auditor) inside(path string) bool {
	rel, err := filepath.Rel(a.dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// file records a loaded file; it returns false when there is none.
func (a *auditor) file(path string, ag Agent, kind string) bool {
	path = filepath.Clean(path)
	if s, ok := a.byPath[path]; ok {
		for _, have := range s.Agents {
			if have == ag {
				return true
			}
		}
		s.Agents = append(s.Agents, ag)
		return true
	}
	b, err := a.read(path)
	if err != nil {
		return false
	}
	a.rep.Sources = append(a.rep.Sources, Source{Path: path, Rel: a.display(path), Agents: []Agent{ag}, Kind: kind,
		Tokens: tokens.Estimate(string(b)), Lines: bytes.Count(b, []byte("\n"))})
	a.byPath[path] = &a.rep.Sources[len(a.rep.Sources)-1]
	return true
}

// importRe finds Claude Code's @path imports: "@" then a path, outside code.
// importRe and ruleRe are compiled on first use, not at init: every rubi
// process would pay for them.
var importRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|\s)@((?:~/|\.{0,2}/)?[\w.\-/]+\.\w+)`)
})

// instructions records an instruction file, its imports (Claude Code
// follows @path up to five levels) and its sections to move.
func (a *auditor) instructions(path string, ag Agent, kind string) bool {
	path = filepath.Clean(path)
	_, seen := a.byPath[path]
	if !a.file(path, ag, kind) {
		return false
	}
	if seen {
		return true
	}
	b, _ := a.read(path)
	a.sections(path, string(b))
	if ag == ClaudeCode && a.depth < 5 {
		a.depth++
		inCode := false
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "```") {
				inCode = !inCode
			}
			if inCode {
				continue
			}
			for _, m := range importRe().FindAllStringSubmatch(line, -1) {
				p := m[1]
				switch {
				case strings.HasPrefix(p, "~/") && a.o.Home != "":
					p = filepath.Join(a.o.Home, p[2:])
				case !filepath.IsAbs(p):
					p = filepath.Join(filepath.Dir(path), p)
				}
				a.instructions(p, ag, "import")
			}
		}
		a.depth--
	}
	return true
}

func (a *auditor) display(path string) string {
	if rel, err := filepath.Rel(a.dir, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	if a.o.Home != "" {
		if rel, err := filepath.Rel(a.o.Home, path); err == nil && !strings.HasPrefix(rel, "..") {
			return "~/" + rel
		}
	}
	return path
}

// ancestors lists dir and its parents, the root first.
func ancestors(dir string) []string {
	var out []string
	for d := dir; ; d = filepath.Dir(d) {
		out = append(out, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// fromRepoRoot keeps the part of a root-first chain from the nearest
// directory holding .git; the project alone when there is none.
func fromRepoRoot(chain []string) []string {
	for i := len(chain) - 1; i >= 0; i-- {
		if _, err := os.Stat(filepath.Join(chain[i], ".git")); err == nil {
			return chain[i:]
		}
	}
	return chain[len(chain)-1:]
}

// ruleRe marks a line that tells the agent what to do: those stay in the
// instruction file, read on every message.
var ruleRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(always|never|must|don't|do not|should|avoid|prefer|make sure|remember|only|before|after you|use|run)\b`)
})

const minSection = 150 // tokens below which a section is left alone

// sections splits a markdown file at its headings and suggests moving the
// sections that describe rather than instruct.
func (a *auditor) sections(path, text string) {
	type section struct {
		heading            string
		line               int
		body               strings.Builder
		lines, rules, tree int
		code               int // tokens inside code blocks
	}
	var secs []*section
	cur := &section{heading: "(top of the file)", line: 1}
	secs = append(secs, cur)
	inCode := false
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "```") {
			inCode = !inCode
			cur.body.WriteString(line + "\n")
			continue
		}
		if !inCode && strings.HasPrefix(trim, "#") && strings.TrimLeft(trim, "#") != trim && strings.HasPrefix(strings.TrimLeft(trim, "#"), " ") {
			cur = &section{heading: strings.TrimSpace(strings.TrimLeft(trim, "#")), line: n}
			secs = append(secs, cur)
			continue
		}
		cur.body.WriteString(line + "\n")
		switch {
		case inCode:
			cur.code += tokens.Estimate(line + "\n")
			if strings.ContainsAny(line, "├└│") {
				cur.tree++
			}
		case trim == "":
		default:
			cur.lines++
			if strings.ContainsAny(line, "├└│") {
				cur.tree++
			} else if ruleRe().MatchString(line) {
				cur.rules++
			}
		}
	}
	rel := a.display(path)
	for _, s := range secs {
		t := tokens.Estimate(s.body.String())
		if t < minSection {
			continue
		}
		sug := Suggestion{Path: path, Rel: rel, Line: s.line, Heading: s.heading, Tokens: t}
		switch {
		case s.tree >= 3:
			sug.What = "drop"
		case s.code*2 >= t:
			sug.What = "howto"
		case s.rules*2 < s.lines:
			sug.What, sug.rules, sug.lines = "concept", s.rules, s.lines
		default:
			continue // rules: they belong in every message
		}
		sug.Why = sug.why(messages.English)
		a.rep.Suggest = append(a.rep.Suggest, sug)
	}
}
