package connect

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/rubi-dev/rubi/agent/connect/jsonedit"
)

// jsonServer registers rubi's MCP server as entry under servers (an
// object of servers by name) in a JSON or JSONC file. An entry named rubi
// that already starts rubi is kept as the user has it (extra flags,
// environment); one that starts something else is replaced. The undo puts
// back what the backup held at that name, or removes it.
func jsonServer(path string, jsonc bool, servers jsonedit.Path, entry any) part {
	at := append(servers[:len(servers):len(servers)], MCPServerName)
	parse := func(st fileState) (*jsonedit.Doc, error) {
		return jsonedit.Parse(st.path, st.data, jsonc)
	}
	p := part{what: fmt.Sprintf("%s: rubi's MCP server", at)}
	p.connected = func(st fileState) bool {
		d, err := parse(st)
		return err == nil && startsRubi(d, at)
	}
	p.commands = func(st fileState) ([]string, error) {
		d, err := parse(st)
		if err != nil {
			return nil, err
		}
		if argv := serverArgv(d, at); namesRubiMCP(argv) {
			return argv[:1], nil
		}
		return nil, nil
	}
	p.file = fileEdit{path: path, perm: 0o644, edit: func(st fileState) (fileChange, error) {
		d, err := parse(st)
		if err != nil {
			return fileChange{}, err
		}
		for i := 1; i <= len(servers); i++ {
			if d.Has(servers[:i]) && !d.IsObject(servers[:i]) {
				return fileChange{}, fmt.Errorf("%s: %s is not an object", st.path, servers[:i])
			}
		}
		if startsRubi(d, at) {
			return fileChange{data: st.data}, nil
		}
		verb := "added"
		if d.Has(at) {
			verb = "replaced"
		}
		if _, err := d.Set(at, entry); err != nil {
			return fileChange{}, fmt.Errorf("%s: %w", st.path, err)
		}
		return fileChange{data: d.Bytes(), changes: []string{fmt.Sprintf("%s: %s", at, verb)}}, nil
	}, pristine: func(st fileState) bool {
		d, backup, ok := parsePairC(st, jsonc)
		return ok && bytes.Equal(d.Raw(at), backup.Raw(at))
	}}
	p.undo = func(st fileState) (fileChange, error) {
		if !st.hasBackup || !st.exists {
			return fileChange{data: st.data, remove: !st.exists}, nil
		}
		d, err := parse(st)
		if err != nil {
			return fileChange{}, err
		}
		backup, err := jsonedit.Parse(st.backupPath, st.backup, jsonc)
		if err != nil {
			return fileChange{}, fmt.Errorf("%w\n(the backup is unreadable: remove %s from %s by hand)", err, at, st.path)
		}
		lines := restoreValue(d, backup, at)
		if len(st.backup) == 0 && d.Len(nil) == 0 {
			return fileChange{remove: true, changes: lines}, nil
		}
		return fileChange{data: d.Bytes(), changes: lines}, nil
	}
	return p
}

// parsePairC is parsePair for a file that may be JSONC.
func parsePairC(st fileState, jsonc bool) (d, backup *jsonedit.Doc, ok bool) {
	d, err := jsonedit.Parse(st.path, st.data, jsonc)
	if err != nil {
		return nil, nil, false
	}
	backup, err = jsonedit.Parse(st.path, st.backup, jsonc)
	return d, backup, err == nil
}

// startsRubi reports whether the server at p runs `rubi mcp`: a command
// and args (most agents), or a command array (OpenCode).
func startsRubi(d *jsonedit.Doc, p jsonedit.Path) bool {
	argv := serverArgv(d, p)
	return namesRubiMCP(argv) && runnable(argv[0])
}

// namesRubiMCP reports whether a command line is `rubi mcp`, rubi named
// by any path.
func namesRubiMCP(argv []string) bool {
	return len(argv) >= 2 && isRubiProgram(argv[0]) && argv[1] == "mcp"
}

// serverArgv is the command line of the server at p: a command and args
// (most agents), or a command array (OpenCode); nil when it has none.
func serverArgv(d *jsonedit.Doc, p jsonedit.Path) []string {
	var s struct {
		Command any      `json:"command"`
		Args    []string `json:"args"`
	}
	if ok, err := d.Get(p, &s); !ok || err != nil {
		return nil
	}
	switch c := s.Command.(type) {
	case string:
		return append([]string{c}, s.Args...)
	case []any:
		var argv []string
		for _, a := range c {
			str, _ := a.(string)
			argv = append(argv, str)
		}
		return argv
	}
	return nil
}

// jsonHooks registers rubi's hooks in a file of Claude Code's hook format
// (Codex's hooks.json, Gemini CLI's settings.json), run by rubi; ms
// writes timeouts in milliseconds (Gemini CLI's unit).
func jsonHooks(path string, jsonc bool, run hookRun, hooks []Hook, ms bool) part {
	p := part{what: "hooks: rubi's hooks (" + hookEvents(hooks) + ")"}
	p.connected = func(st fileState) bool {
		d, err := jsonedit.Parse(st.path, st.data, jsonc)
		if err != nil {
			return false
		}
		for _, h := range hooks {
			if len(rubiHooks(d, h.Event)) == 0 {
				return false
			}
		}
		return true
	}
	p.commands = func(st fileState) ([]string, error) {
		d, err := jsonedit.Parse(st.path, st.data, jsonc)
		if err != nil {
			return nil, err
		}
		var progs []string
		for _, h := range hooks {
			progs = append(progs, hookPrograms(d, h.Event)...)
		}
		return progs, nil
	}
	p.file = fileEdit{path: path, perm: 0o644, edit: func(st fileState) (fileChange, error) {
		d, err := jsonedit.Parse(st.path, st.data, jsonc)
		if err != nil {
			return fileChange{}, err
		}
		lines, err := setHookList(d, run, hooks, ms)
		if err != nil {
			return fileChange{}, fmt.Errorf("%s: %w", st.path, err)
		}
		return fileChange{data: d.Bytes(), changes: lines}, nil
	}, pristine: func(st fileState) bool {
		d, err := jsonedit.Parse(st.path, st.data, jsonc)
		if err != nil {
			return false
		}
		for _, event := range d.Keys(hooksPath) {
			if len(rubiHooks(d, event)) > 0 {
				return false
			}
		}
		return true
	}}
	p.undo = func(st fileState) (fileChange, error) {
		if !st.hasBackup || !st.exists {
			return fileChange{data: st.data, remove: !st.exists}, nil
		}
		d, err := jsonedit.Parse(st.path, st.data, jsonc)
		if err != nil {
			return fileChange{}, err
		}
		lines := unsetHooks(d)
		if len(st.backup) == 0 && d.Len(nil) == 0 {
			return fileChange{remove: true, changes: lines}, nil
		}
		return fileChange{data: d.Bytes(), changes: lines}, nil
	}
	return p
}

func hookEvents(hooks []Hook) string {
	names := make([]string, len(hooks))
	for i, h := range hooks {
		names[i] = h.Event
	}
	return strings.Join(names, ", ")
}

// Instructions go between these markers in a file the agent reads, so a
// re-run replaces them and an undo removes exactly them.
const (
	blockBegin = "<!-- rubi:begin (rubi connect writes this block; rubi connect AGENT --undo removes it) -->"
	blockEnd   = "<!-- rubi:end -->"
)

// markdownBlock writes text between rubi's markers in a markdown file the
// agent reads (AGENTS.md, GEMINI.md, ...): appended to the file the first
// time, replaced in place afterwards. The undo removes the block; a file
// that held only the block, and that rubi created, is removed.
func markdownBlock(path, text string) part {
	block := blockBegin + "\n" + strings.TrimRight(text, "\n") + "\n" + blockEnd + "\n"
	p := part{what: "rubi's instructions, between rubi's markers", shared: true}
	p.connected = func(st fileState) bool {
		_, cur, _, ok := findBlock(st.data)
		return ok && cur == block
	}
	p.file = fileEdit{path: path, perm: 0o644, edit: func(st fileState) (fileChange, error) {
		before, cur, after, ok := findBlock(st.data)
		switch {
		case ok && cur == block:
			return fileChange{data: st.data}, nil
		case ok:
			return fileChange{data: concat(before, block, after), changes: []string{"rubi's instructions: updated"}}, nil
		}
		sep := ""
		if len(st.data) > 0 {
			sep = "\n"
			if !bytes.HasSuffix(st.data, []byte("\n")) {
				sep = "\n\n"
			}
		}
		return fileChange{data: concat(string(st.data)+sep, block, ""), changes: []string{"rubi's instructions: added"}}, nil
	}, pristine: func(st fileState) bool {
		_, _, _, ok := findBlock(st.data)
		return !ok
	}}
	p.undo = func(st fileState) (fileChange, error) {
		before, _, after, ok := findBlock(st.data)
		if !ok {
			return fileChange{data: st.data, remove: !st.exists}, nil
		}
		// The blank line rubi put before its block goes with it.
		if strings.HasSuffix(before, "\n\n") {
			before = before[:len(before)-1]
		}
		rest := before + after
		lines := []string{"rubi's instructions: removed"}
		if strings.TrimSpace(rest) == "" && st.hasBackup && len(st.backup) == 0 {
			return fileChange{remove: true, changes: lines}, nil
		}
		return fileChange{data: []byte(rest), changes: lines}, nil
	}
	return p
}

// findBlock splits data around rubi's block (markers included, with the
// end marker's line break).
func findBlock(data []byte) (before, block, after string, ok bool) {
	s := string(data)
	i := strings.Index(s, blockBegin)
	if i < 0 || i > 0 && s[i-1] != '\n' {
		return s, "", "", false
	}
	j := strings.Index(s[i:], blockEnd)
	if j < 0 {
		return s, "", "", false
	}
	end := i + j + len(blockEnd)
	if end < len(s) && s[end] == '\n' {
		end++
	}
	return s[:i], s[i:end], s[end:], true
}

func concat(parts ...string) []byte { return []byte(strings.Join(parts, "")) }

// ownedMark is in every file rubi writes whole: it tells rubi's file
// from one of the same name the user wrote, without a backup beside it
// (a stray FILE.bak-rubi in a rules folder could be read as a rule).
const ownedMark = "rubi connect writes this file; rubi connect AGENT --undo removes it"

// ownedFile is a file rubi writes whole (a rule file, a Continue block),
// holding ownedMark: written when missing or different, and removed by
// the undo if it is still what rubi wrote. A file of that name without
// the mark is the user's and is left alone. No backup is kept.
func ownedFile(path, content, what string) part {
	p := part{what: what, owned: true}
	mine := func(st fileState) bool { return st.exists && strings.Contains(string(st.data), ownedMark) }
	p.connected = func(st fileState) bool { return st.exists && string(st.data) == content }
	p.file = fileEdit{path: path, perm: 0o644, noBackup: true, edit: func(st fileState) (fileChange, error) {
		switch {
		case st.exists && string(st.data) == content:
			return fileChange{data: st.data}, nil
		case st.exists && !mine(st):
			return fileChange{}, fmt.Errorf("%s exists and rubi did not write it: move it away, or add rubi's part to it by hand", st.path)
		case st.exists:
			return fileChange{data: []byte(content), changes: []string{"updated"}}, nil
		}
		return fileChange{data: []byte(content), changes: []string{what}}, nil
	}}
	p.undo = func(st fileState) (fileChange, error) {
		if !mine(st) {
			return fileChange{data: st.data, remove: !st.exists}, nil
		}
		if string(st.data) != content {
			return fileChange{}, fmt.Errorf("%s was changed since rubi wrote it: remove it by hand if you no longer want it", st.path)
		}
		return fileChange{remove: true, changes: []string{"removed"}}, nil
	}
	return p
}

// fileExists reports whether path names a file.
func fileExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir()
}

// merged makes one part of several that edit the same file (Gemini CLI's
// settings.json holds both the server and the hooks): each edit runs on
// the previous one's result, so the file is locked, backed up and written
// once.
func merged(parts ...part) part {
	whats := make([]string, len(parts))
	for i, p := range parts {
		whats[i] = p.what
	}
	chain := func(st fileState, step func(p part, st fileState) (fileChange, error)) (fileChange, error) {
		var all fileChange
		all.data = st.data
		for _, p := range parts {
			ch, err := step(p, st)
			if err != nil {
				return fileChange{}, err
			}
			all.changes = append(all.changes, ch.changes...)
			if ch.remove {
				return fileChange{remove: true, changes: all.changes}, nil
			}
			all.data = ch.data
			st.data, st.exists = ch.data, st.exists || len(ch.data) > 0
		}
		return all, nil
	}
	out := parts[0]
	out.what = strings.Join(whats, "; ")
	out.file.edit = func(st fileState) (fileChange, error) {
		return chain(st, func(p part, st fileState) (fileChange, error) { return p.file.edit(st) })
	}
	out.file.pristine = func(st fileState) bool {
		for _, p := range parts {
			if p.file.pristine != nil && !p.file.pristine(st) {
				return false
			}
		}
		return true
	}
	out.undo = func(st fileState) (fileChange, error) {
		return chain(st, func(p part, st fileState) (fileChange, error) { return p.undo(st) })
	}
	out.connected = func(st fileState) bool {
		for _, p := range parts {
			if !p.connected(st) {
				return false
			}
		}
		return true
	}
	out.commands = func(st fileState) ([]string, error) {
		var all []string
		for _, p := range parts {
			if p.commands == nil {
				continue
			}
			cmds, err := p.commands(st)
			if err != nil {
				return nil, err
			}
			all = append(all, cmds...)
		}
		return all, nil
	}
	return out
}
