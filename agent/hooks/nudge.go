package hooks

import (
	"path"
	"path/filepath"
	"strings"
)

// The auto-memory nudge: when an agent writes its own memory file, the
// PostToolUse hook tells it, once per session, to register the durable
// facts with rubi as well. A fact kept only in one agent's memory file is
// lost to the other agents, to the team (most of those files are not
// committed) and to rubi's recall, which finds a note by its files.
//
// Which tool calls write a file, by agent (the names their PostToolUse
// payloads carry):
//
//   - Claude Code: Write, Edit and MultiEdit, tool_input.file_path.
//   - Gemini CLI (AfterTool): write_file and replace, tool_input.file_path;
//     and save_memory, its memory tool, which appends a fact to
//     ~/.gemini/GEMINI.md: it counts whatever its arguments.
//   - Codex: apply_patch, whose tool_input.command is the patch; the files
//     it writes are on its "*** Add File: ", "*** Update File: " and
//     "*** Move to: " lines (a deleted file is not a fact written).
//
// A shell command that writes a file (echo >> AGENTS.md) is not read: a
// redirection is guesswork, and the agents' own edit tools are how they
// keep their memory.
//
// Which files are an agent's own memory (memoryFile): the files the
// agents load into every session of a project as their memory or
// standing instructions, and the folders where they keep what they
// learned:
//
//   - by name, in any folder (a project's root or subfolder, or the
//     agents' homes ~/.claude, ~/.codex, ~/.gemini): CLAUDE.md and
//     CLAUDE.local.md (Claude Code's project, local and user memory, and
//     .claude/CLAUDE.md), AGENTS.md and AGENTS.override.md (Codex's),
//     GEMINI.md (Gemini CLI's default context file name);
//   - Claude Code's auto memory: any .md file under
//     <claude home>/projects/<project>/memory/ (MEMORY.md and its topic
//     files), the claude home being a folder named .claude or
//     CLAUDE_CONFIG_DIR;
//   - Claude Code's memory rules: .md files under a .claude/rules/ folder;
//   - Codex's memories: .md files under <codex home>/memories/, the codex
//     home being a folder named .codex or CODEX_HOME.
//
// Names and folders compare without regard to case (the file systems of
// macOS and Windows do not either). A path is read as written: relative
// to the payload's cwd, with Windows separators and drive letters
// understood on every system, ~/ meaning HOME. Only when a path has the
// auto memory's shape (projects/<project>/memory/… .md) but no claude home
// in its words does the hook resolve the claude home's symbolic links, so
// a ~/.claude that links to a dotfiles folder is recognised by its target
// too; no other call touches the disk.
//
// README.md, docs and rubi's own .rubi/ files are not memory: the agent
// writes them as part of its work.

// memoryNames are the memory files recognised by name alone.
var memoryNames = []string{"CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "AGENTS.override.md", "GEMINI.md"}

// memoryWrite returns the file name of the agent memory file the tool
// call writes (the first one, for a patch), or "". Tools that write no file
// return at the first comparison.
func (h *handler) memoryWrite(t toolFields) string {
	var paths []string
	switch h.in.ToolName {
	case "Write", "Edit", "MultiEdit", "write_file", "replace":
		paths = []string{t.FilePath}
	case "save_memory":
		return "GEMINI.md"
	case "apply_patch":
		paths = patchTargets(t.command())
	default:
		return ""
	}
	for _, p := range paths {
		if name := h.memoryFile(p); name != "" {
			return name
		}
	}
	return ""
}

// patchTargets lists the files an apply_patch patch adds, updates or
// moves a file to.
func patchTargets(patch string) []string {
	var out []string
	for line := range strings.Lines(patch) {
		if !strings.HasPrefix(line, "*** ") {
			continue
		}
		for _, head := range []string{"*** Add File: ", "*** Update File: ", "*** Move to: "} {
			if p, ok := strings.CutPrefix(line, head); ok {
				if p = strings.TrimSpace(p); p != "" {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// memoryFile returns the file name of p (as the tool call wrote it) when
// p is an agent's memory file, else "".
func (h *handler) memoryFile(p string) string {
	if p == "" {
		return ""
	}
	p = slashPath(p)
	base := path.Base(p)
	for _, n := range memoryNames {
		if strings.EqualFold(base, n) {
			return n
		}
	}
	if !strings.EqualFold(path.Ext(base), ".md") {
		return ""
	}
	p = h.absSlash(p)
	seg := strings.Split(p, "/")
	claude := h.slashEnv("CLAUDE_CONFIG_DIR")
	codex := h.slashEnv("CODEX_HOME")
	for i := range seg {
		switch {
		case i+4 < len(seg) && strings.EqualFold(seg[i+1], "projects") && strings.EqualFold(seg[i+3], "memory") &&
			(strings.EqualFold(seg[i], ".claude") || claude != "" && strings.EqualFold(strings.Join(seg[:i+1], "/"), claude)):
			return base
		case i+2 < len(seg) && strings.EqualFold(seg[i], ".claude") && strings.EqualFold(seg[i+1], "rules"):
			return base
		case i+2 < len(seg) && strings.EqualFold(seg[i+1], "memories") &&
			(strings.EqualFold(seg[i], ".codex") || codex != "" && strings.EqualFold(strings.Join(seg[:i+1], "/"), codex)):
			return base
		}
	}
	// The auto memory's shape without a claude home in its words: the
	// path may run through the target of a linked ~/.claude.
	for i := range seg {
		if i+4 < len(seg) && strings.EqualFold(seg[i+1], "projects") && strings.EqualFold(seg[i+3], "memory") {
			if h.underClaudeHome(strings.Join(seg[:i+1], "/")) {
				return base
			}
			break
		}
	}
	return ""
}

// underClaudeHome reports whether dir (slash-separated, absolute) is the
// claude home once symbolic links are resolved on both sides.
func (h *handler) underClaudeHome(dir string) bool {
	home := h.env.getenv("CLAUDE_CONFIG_DIR")
	if home == "" {
		if hd := h.env.getenv("HOME"); hd != "" {
			home = filepath.Join(hd, ".claude")
		}
	}
	if home == "" {
		return false
	}
	want, err := filepath.EvalSymlinks(home)
	if err != nil {
		return false
	}
	got, err := filepath.EvalSymlinks(filepath.FromSlash(dir))
	return err == nil && strings.EqualFold(filepath.Clean(got), filepath.Clean(want))
}

// slashPath writes p with forward slashes, Windows' backslashes included
// on every system.
func slashPath(p string) string { return strings.ReplaceAll(p, `\`, "/") }

// absSlash makes the slash path p absolute and clean: ~/ is HOME, a
// relative path is under the payload's cwd (else the project's root). A
// Windows drive path (C:/…) or a UNC one (//server/…) is absolute.
func (h *handler) absSlash(p string) string {
	switch {
	case strings.HasPrefix(p, "~/"):
		if home := h.env.getenv("HOME"); home != "" {
			p = slashPath(home) + p[1:]
		}
	case !slashAbs(p):
		base := h.in.CWD
		if base == "" {
			base = h.root
		}
		p = slashPath(base) + "/" + p
	}
	if vol := len(p) >= 2 && p[1] == ':'; vol {
		return p[:2] + path.Clean(p[2:])
	}
	return path.Clean(p)
}

// slashAbs reports an absolute slash path: /…, //server/… or C:/….
func slashAbs(p string) bool {
	return strings.HasPrefix(p, "/") || len(p) >= 3 && p[1] == ':' && p[2] == '/' &&
		(p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z')
}

// slashEnv is an environment variable naming a folder, as a clean slash
// path, or "".
func (h *handler) slashEnv(k string) string {
	v := h.env.getenv(k)
	if v == "" {
		return ""
	}
	return strings.TrimSuffix(path.Clean(slashPath(v)), "/")
}
