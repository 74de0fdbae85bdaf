package connect

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// Scope says whose configuration `rubi connect` changes: the project's
// files (shared with the team when committed) or the user's (every
// project).
type Scope string

const (
	ScopeProject Scope = "project"
	ScopeGlobal  Scope = "global"
)

// ConnectOptions say where an agent's files are and how rubi is started.
type ConnectOptions struct {
	// Project is the project's root directory (absolute).
	Project string
	// Home is the user's home directory.
	Home string
	// Scope is the configuration to change.
	Scope Scope
	// Rubi is how the agent starts rubi: "rubi" when it is on PATH, else
	// its absolute path (RubiExecutable).
	Rubi string
	// FindHookProgram finds the hook program (rubi-hook) installed beside
	// Rubi, which the agent's hooks then run: it starts in half the time.
	// nil finds none, and the hooks run rubi's own hook command.
	FindHookProgram func(rubi string) (string, bool)
	// DryRun computes the changes and their diffs and writes nothing.
	DryRun bool
	// Getenv reads the environment (CODEX_HOME, XDG_CONFIG_HOME, APPDATA);
	// nil means os.Getenv.
	Getenv func(string) string
}

// hookRun is how the agent runs rubi's hooks.
func (o ConnectOptions) hookRun() hookRun { return newHookRun(o.Rubi, o.FindHookProgram) }

func (o ConnectOptions) env(name string) string {
	if o.Getenv == nil {
		return os.Getenv(name)
	}
	return o.Getenv(name)
}

// configHome is $XDG_CONFIG_HOME, else ~/.config: where Zed, OpenCode,
// Goose and, on Linux, VS Code keep their user files.
func (o ConnectOptions) configHome() string {
	if x := o.env("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return x
	}
	return filepath.Join(o.Home, ".config")
}

// vscodeUser is VS Code's user directory on this system.
func (o ConnectOptions) vscodeUser() string {
	switch runtime.GOOS {
	case "darwin":
		return filepath.Join(o.Home, "Library", "Application Support", "Code", "User")
	case "windows":
		if a := o.env("APPDATA"); a != "" {
			return filepath.Join(a, "Code", "User")
		}
	}
	return filepath.Join(o.configHome(), "Code", "User")
}

// part is one thing rubi sets up for an agent: a file it edits (or owns).
type part struct {
	// what says, for --list, what rubi puts there.
	what string
	file fileEdit
	// undo takes rubi's part back out of the file.
	undo func(st fileState) (fileChange, error)
	// connected reports whether the file holds rubi's part now.
	connected func(st fileState) bool
	// commands returns the programs rubi's entries in the file start (the
	// MCP server's command, the hooks' first words), whether or not they
	// still exist, for rubi doctor; an error says the file does not
	// parse. Nil for a part that starts nothing (instructions).
	commands func(st fileState) ([]string, error)
	// owned is a file rubi writes whole.
	owned bool
	// shared is an instructions file other agents may read too
	// (AGENTS.md serves Codex, OpenCode and Zed).
	shared bool
}

// agent is one coding agent rubi can connect to.
type agent struct {
	name, title string
	// automatic is what the agent's hooks bring without the model asking
	// ("" when it has none), instructions the file that tells it to use
	// rubi's tools: the README's table's words, for --list.
	automatic, instructions string
	// parts returns what rubi sets up in scope; an error says the scope
	// is not one the agent has.
	parts func(o ConnectOptions) ([]part, error)
}

// AgentNames lists the agents `rubi connect` knows, in --list's order.
func AgentNames() []string {
	names := make([]string, len(agentList))
	for i, a := range agentList {
		names[i] = a.name
	}
	return names
}

func findAgent(name string) (*agent, error) {
	for i := range agentList {
		if agentList[i].name == name {
			return &agentList[i], nil
		}
	}
	return nil, fmt.Errorf("unknown agent %q: rubi connects %s", name, strings.Join(AgentNames(), ", "))
}

// Connect registers rubi with an agent: its MCP server in the agent's
// configuration, its instructions in the file the agent reads, and its
// hooks where the agent runs context-injecting hooks. Running it again
// changes nothing.
func Connect(ctx context.Context, name string, o ConnectOptions) (*Report, error) {
	a, err := findAgent(name)
	if err != nil {
		return nil, err
	}
	if o.Rubi == "" {
		return nil, errors.New("connecting an agent needs the rubi executable it will start")
	}
	parts, err := o.partsOf(a)
	if err != nil {
		return nil, err
	}
	rep := &Report{DryRun: o.DryRun}
	var edits []fileEdit
	for _, p := range parts {
		edits = append(edits, p.file)
	}
	rep.Files, err = applyEdits(ctx, edits, o.DryRun)
	return rep, err
}

// Disconnect takes out of an agent's files what Connect put there, and
// only that; a file rubi created is removed when nothing else is in it.
// Backups are kept.
func Disconnect(ctx context.Context, name string, o ConnectOptions) (*Report, error) {
	a, err := findAgent(name)
	if err != nil {
		return nil, err
	}
	if o.Rubi == "" {
		o.Rubi = "rubi"
	}
	parts, err := o.partsOf(a)
	if err != nil {
		return nil, err
	}
	rep := &Report{DryRun: o.DryRun}
	var edits []fileEdit
	for _, p := range parts {
		if p.shared {
			if other := sharedWith(a.name, p.file.path, o); other != "" {
				rep.Notes = append(rep.Notes, fmt.Sprintf("%s: rubi's instructions kept: %s is connected and reads them too", p.file.path, other))
				continue
			}
		}
		edits = append(edits, fileEdit{path: p.file.path, edit: p.undo, noBackup: p.file.noBackup, project: p.file.project, backup: p.file.backup})
	}
	rep.Files, err = applyEdits(ctx, edits, o.DryRun)
	if err != nil {
		return rep, err
	}
	// An empty backup only recorded that the file did not exist: once
	// the file is gone again it says nothing, and is removed, with the
	// directories rubi made for the file if nothing else is in them.
	var kept []string
	for _, e := range edits {
		if o.DryRun {
			continue
		}
		fi, err := os.Stat(e.backupPath())
		_, gone := os.Lstat(e.path)
		if os.IsNotExist(gone) && (err != nil || fi.Size() == 0) {
			os.Remove(e.backupPath())
			removeEmptyDirs(filepath.Dir(e.path), o.Project, o.Home)
			if e.backup != "" {
				removeEmptyDirs(filepath.Dir(e.backup), o.Home, o.backupsDir())
			}
			continue
		}
		if err == nil {
			kept = append(kept, e.backupPath())
		}
	}
	if len(kept) > 0 && rep.Changed() {
		rep.Notes = append(rep.Notes, "backups kept (the files before rubi's first change): "+strings.Join(kept, ", "))
	}
	return rep, nil
}

// AgentStatus is one line of `rubi connect --list`.
type AgentStatus struct {
	Agent string `json:"agent"`
	Title string `json:"title"`
	// Automatic is what the agent's hooks bring into the conversation
	// without the model asking; empty when it has no hooks rubi sets up.
	Automatic string `json:"automatic,omitempty"`
	// Instructions is the file that tells the agent to use rubi's tools;
	// empty when rubi needs none (Claude Code's hooks and plugin).
	Instructions string `json:"instructions,omitempty"`
	// Setup is how to connect an agent `rubi connect` does not set up
	// itself (Claude Code).
	Setup string `json:"setup,omitempty"`
	// Files are the agent's files in the scope, with what rubi puts in
	// each and whether it is there now; Err says the scope is not one the
	// agent has.
	Files     []FileStatus `json:"files,omitempty"`
	Err       string       `json:"error,omitempty"`
	Connected bool         `json:"connected"`
}

// FileStatus is one file of an agent's.
type FileStatus struct {
	Path      string `json:"path"`
	What      string `json:"what"`
	Connected bool   `json:"connected"`
	// Problem is why the file cannot be read (a syntax error).
	Problem string `json:"problem,omitempty"`
}

// List reports every agent, where its files are in o's scope, what rubi
// puts there, and whether it is there now. An agent is connected when
// every part is.
func List(o ConnectOptions) []AgentStatus {
	if o.Rubi == "" {
		o.Rubi = "rubi"
	}
	out := []AgentStatus{claudeStatus(o)}
	for _, a := range agentList {
		s := AgentStatus{Agent: a.name, Title: a.title, Automatic: a.automatic, Instructions: a.instructions}
		parts, err := o.partsOf(&a)
		if err != nil {
			s.Err = err.Error()
			out = append(out, s)
			continue
		}
		s.Connected = true
		for _, p := range parts {
			fs := FileStatus{Path: p.file.path, What: p.what}
			st, err := readState(p.file)
			if err == nil {
				if _, perr := p.file.edit(st); perr != nil {
					fs.Problem = strings.SplitN(perr.Error(), "\n", 2)[0]
				}
				fs.Connected = p.connected(st)
			} else {
				fs.Problem = err.Error()
			}
			s.Connected = s.Connected && fs.Connected
			s.Files = append(s.Files, fs)
		}
		out = append(out, s)
	}
	return out
}

// partsOf returns a's parts in o's scope, each file under the project
// marked as the project's: no link on its way may lead out of the
// project, and its backup is kept out of the repository.
func (o ConnectOptions) partsOf(a *agent) ([]part, error) {
	parts, err := a.parts(o)
	if err != nil {
		return nil, err
	}
	for i := range parts {
		f := &parts[i].file
		if o.Project == "" {
			continue
		}
		if rel, err := filepath.Rel(o.Project, f.path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			f.project, f.backup = o.Project, o.projectBackup(rel)
		}
	}
	return parts, nil
}

// projectBackup is where the backup of the project's file at rel is
// kept: in the user's state folder ($XDG_STATE_HOME, else
// ~/.local/state), under rubi/backups/, in a folder named for the project
// (its folder's name and a hash of its path), so that rubi connect
// --undo finds it again.
func (o ConnectOptions) projectBackup(rel string) string {
	sum := sha256.Sum256([]byte(o.Project))
	key := filepath.Base(o.Project) + "-" + hex.EncodeToString(sum[:6])
	return filepath.Join(o.backupsDir(), key, rel+BackupSuffix)
}

// backupsDir is the folder of the projects' backups.
func (o ConnectOptions) backupsDir() string {
	state := o.env("XDG_STATE_HOME")
	if state == "" || !filepath.IsAbs(state) {
		state = filepath.Join(o.Home, ".local", "state")
	}
	return filepath.Join(state, "rubi", "backups")
}

// removeEmptyDirs removes dir and its parents while they are empty,
// stopping at any of the roots.
func removeEmptyDirs(dir string, roots ...string) {
	for {
		if slices.Contains(roots, dir) || filepath.Dir(dir) == dir {
			return
		}
		if entries, err := os.ReadDir(dir); err != nil || len(entries) > 0 {
			return
		}
		if os.Remove(dir) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}

// sharedWith names another agent, connected in o's scope, whose
// instructions are in the file at path, or "".
func sharedWith(name, path string, o ConnectOptions) string {
	for _, b := range agentList {
		if b.name == name {
			continue
		}
		parts, err := o.partsOf(&b)
		if err != nil {
			continue
		}
		uses, connected := false, true
		for _, p := range parts {
			st, err := readState(p.file)
			if p.file.path == path {
				uses = true
			} else if err != nil || !p.connected(st) {
				connected = false
			}
		}
		if uses && connected {
			return b.name
		}
	}
	return ""
}

// Names lists the agents Connect knows, in List's order, Claude Code
// (which has rubi's plugin and rubi install instead) first.
func Names() []string {
	out := []string{"claude-code"}
	for _, a := range agentList {
		out = append(out, a.name)
	}
	return out
}
