// Package connect connects rubi to coding agents by editing their
// configuration files, the way a careful person would: only the keys rubi
// owns change, every other byte stays, a backup is kept before rubi's first
// change to a file, writes are atomic and serialized with the agent's own
// writers, a re-run changes nothing, and a file rubi cannot parse is left
// untouched with its line and column in the error.
//
// Install sets Claude Code up (`rubi install`): the compaction window in
// settings.json's env, the personal vault in rubi's own configuration, and
// optionally rubi's hooks and MCP server. Uninstall (`rubi install
// --undo`) takes exactly those back out.
//
// The subpackage jsonedit edits JSON and JSONC files in place; fileEdit
// and applyEdits (lock, back up, write atomically, or diff on a dry run)
// apply to any agent's configuration file.
//
// The careful way, in detail: a backup FILE.bak-rubi (0600) is written
// before rubi's first change to a file, and a project file's backup is
// kept in the user's state folder (~/.local/state/rubi/backups/), not in
// the repository; writes are atomic and taken under the agent's own lock
// (Claude Code's is proper-lockfile's FILE.lock directory, lock.go); every
// file of a run is locked, read and changed in memory before any is
// written, so one unparseable file leaves all of them untouched; a project
// file reached through a link out of the project is refused before
// anything is locked or written; a dry run prints the diffs. The personal
// vault goes into rubi's own configuration through hclwrite, which keeps
// every other byte.
//
// ClaudeHooks is the one list of the hooks rubi registers, and
// PluginHooksJSON renders the Claude Code plugin's
// agent/claude/hooks/hooks.json from it (e2e holds the file to it).
// Connect, Disconnect and List are behind `rubi connect`: one entry of
// agentList (connect_agents.go) per supported agent, each a list of parts
// (connect_parts.go): a server entry in a JSON or JSONC file (jsonServer),
// Codex's [mcp_servers.rubi] table appended to config.toml as text and
// checked by parsing it with BurntSushi/toml, hooks in Claude Code's
// format for Codex and Gemini CLI (jsonHooks), an instructions block
// between markers (markdownBlock), a rule file of rubi's own (ownedFile),
// or a snippet printed for a file rubi does not rewrite (manual). Entries
// feeds `rubi doctor`. Which hook program the hooks run is the caller's to
// find (Options.FindHookProgram, ConnectOptions.FindHookProgram): this
// package does not look for programs itself.
//
// Tests: testdata/install/*.txtar are `rubi install` runs and
// testdata/connect/*.txtar `rubi connect` runs, one archive per case: the
// files before, the command lines, and every file (backups included) and
// the output after; go test ./agent/connect -update rewrites them. Other
// tests run installs concurrently with writers that take Claude Code's
// lock (no change is lost), and the real agents' CLIs pinned under
// testdata/ (claude, codex, gemini, opencode, continue; installed by npm
// ci; missing, they fail the test unless RUBI_TEST_NO_NODE=1) check the
// result: claude mcp list starts rubi's server from ~/.claude.json and
// claude doctor finds settings.json valid.
package connect

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rubi-dev/rubi/agent/connect/jsonedit"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/store"
)

// Options say what to install and where.
type Options struct {
	// Claude locates Claude Code's configuration (FindClaude).
	Claude ClaudePaths
	// UserConfig is rubi's personal configuration file
	// (core/config.UserConfigPath).
	UserConfig string
	// Vault is the personal vault as the configuration records it
	// (NormalizeVault); its directory is created.
	Vault string
	// Window is the compaction window, in tokens.
	Window int
	// Hooks also registers rubi's hooks in settings.json and its MCP
	// server in Claude Code's state file, for users without the plugin.
	Hooks bool
	// Rubi is how Claude Code starts rubi for hooks and the MCP server:
	// "rubi" when it is on PATH, else its absolute path (RubiExecutable).
	Rubi string
	// FindHookProgram finds the hook program (rubi-hook) installed beside
	// Rubi, which the hooks then run: it starts in half the time. The
	// program that links this package knows where its siblings are
	// (internal/programs.HookFor); nil finds none, and the hooks run
	// rubi's own hook command.
	FindHookProgram func(rubi string) (string, bool)
	// DryRun computes the changes and their diffs and writes nothing.
	DryRun bool
}

// Report says what Install or Uninstall changed, or would change.
type Report struct {
	DryRun bool `json:"dry_run"`
	// Files that changed; files already as wanted are not listed.
	Files []FileReport `json:"files"`
	// VaultCreated is the vault directory created by this run.
	VaultCreated string `json:"vault_created,omitempty"`
	// Notes are things to know: a plugin whose hooks would run twice,
	// backups kept after an undo, files left alone.
	Notes []string `json:"notes,omitempty"`
}

// Changed reports whether the run changed (or would change) anything.
func (r *Report) Changed() bool { return len(r.Files) > 0 || r.VaultCreated != "" }

// Install sets Claude Code and rubi's configuration up as o says. Running
// it again with the same options changes nothing.
func Install(ctx context.Context, o Options) (*Report, error) {
	if o.Window < MinWindow {
		return nil, fmt.Errorf("the compaction window is %d tokens; it must be at least %d", o.Window, MinWindow)
	}
	if o.Hooks && o.Rubi == "" {
		return nil, errors.New("registering hooks needs the rubi executable to run")
	}
	rep := &Report{DryRun: o.DryRun}
	var pluginNote string // set by the settings edit, which may run twice
	settings := fileEdit{path: o.Claude.Settings(), perm: 0o644, pristine: settingsPristine, edit: func(st fileState) (fileChange, error) {
		d, err := jsonedit.Parse(st.path, st.data, false)
		if err != nil {
			return fileChange{}, err
		}
		lines, err := setWindow(d, o.Window)
		if err != nil {
			return fileChange{}, fmt.Errorf("%s: %w", st.path, err)
		}
		if o.Hooks {
			more, err := setHooks(d, newHookRun(o.Rubi, o.FindHookProgram))
			if err != nil {
				return fileChange{}, fmt.Errorf("%s: %w", st.path, err)
			}
			lines = append(lines, more...)
			if name := pluginEnabled(d); name != "" {
				pluginNote = fmt.Sprintf("the Claude Code plugin %s is enabled too: its hooks and these would both run; keep one (disable the plugin, or run rubi install --undo and install without --hooks)", name)
			}
		}
		return fileChange{data: d.Bytes(), changes: lines}, nil
	}}
	edits := []fileEdit{settings}
	if o.Hooks {
		edits = append(edits, fileEdit{path: o.Claude.State, perm: 0o600, pristine: statePristine, edit: func(st fileState) (fileChange, error) {
			d, err := jsonedit.Parse(st.path, st.data, false)
			if err != nil {
				return fileChange{}, err
			}
			lines, err := setServer(d, o.Rubi)
			if err != nil {
				return fileChange{}, fmt.Errorf("%s: %w", st.path, err)
			}
			return fileChange{data: d.Bytes(), changes: lines}, nil
		}})
	}
	edits = append(edits, fileEdit{path: o.UserConfig, perm: 0o644, pristine: configPristine, edit: func(st fileState) (fileChange, error) {
		return setVault(st, o.Vault)
	}})
	files, err := applyEdits(ctx, edits, o.DryRun)
	rep.Files = files
	if pluginNote != "" {
		rep.Notes = append(rep.Notes, pluginNote)
	}
	if err != nil {
		return rep, err
	}
	dir, err := ExpandVault(o.Vault)
	if err != nil {
		return rep, err
	}
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		if !o.DryRun {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return rep, fmt.Errorf("create the vault: %w", err)
			}
		}
		rep.VaultCreated = dir
	}
	return rep, nil
}

// Uninstall takes back what Install did, and only that: in each file rubi
// changed (the files with a backup), the values rubi owns — the
// compaction window, the vault, the MCP server named rubi — are put back
// as the backup has them, or removed when it has none, and rubi's hooks
// are removed; everything else, including changes made since, is kept. A
// file rubi created is removed if nothing else was added to it. Backups
// and the vault directory are kept.
func Uninstall(ctx context.Context, o Options) (*Report, error) {
	rep := &Report{DryRun: o.DryRun}
	jsonUndo := func(what func(d, backup *jsonedit.Doc) []string) func(st fileState) (fileChange, error) {
		return func(st fileState) (fileChange, error) {
			if !st.hasBackup || !st.exists {
				return fileChange{data: st.data, remove: !st.exists}, nil
			}
			d, err := jsonedit.Parse(st.path, st.data, false)
			if err != nil {
				return fileChange{}, err
			}
			backup, err := jsonedit.Parse(st.backupPath, st.backup, false)
			if err != nil {
				return fileChange{}, fmt.Errorf("%w\n(the backup is unreadable: remove rubi's settings from %s by hand)", err, st.path)
			}
			lines := what(d, backup)
			if len(st.backup) == 0 && d.Len(nil) == 0 {
				return fileChange{remove: true, changes: lines}, nil
			}
			return fileChange{data: d.Bytes(), changes: lines}, nil
		}
	}
	edits := []fileEdit{
		{path: o.Claude.Settings(), edit: jsonUndo(func(d, backup *jsonedit.Doc) []string {
			return append(restoreValue(d, backup, envPath), unsetHooks(d)...)
		})},
		{path: o.Claude.State, edit: jsonUndo(func(d, backup *jsonedit.Doc) []string {
			return restoreValue(d, backup, serverPath)
		})},
		{path: o.UserConfig, edit: unsetVault},
	}
	files, err := applyEdits(ctx, edits, o.DryRun)
	rep.Files = files
	if err != nil {
		return rep, err
	}
	var kept []string
	for _, e := range edits {
		if _, err := os.Stat(e.backupPath()); err == nil {
			kept = append(kept, e.backupPath())
		}
	}
	if len(kept) > 0 && rep.Changed() {
		rep.Notes = append(rep.Notes, "backups kept (the files before rubi's first change): "+strings.Join(kept, ", "))
	}
	return rep, nil
}

// parsePair parses a JSON file and its backup; ok is false if either fails.
func parsePair(st fileState) (d, backup *jsonedit.Doc, ok bool) {
	d, err := jsonedit.Parse(st.path, st.data, false)
	if err != nil {
		return nil, nil, false
	}
	backup, err = jsonedit.Parse(st.path, st.backup, false)
	return d, backup, err == nil
}

// settingsPristine: settings.json has the window the backup has and none
// of rubi's hooks.
func settingsPristine(st fileState) bool {
	d, backup, ok := parsePair(st)
	if !ok || !bytes.Equal(d.Raw(envPath), backup.Raw(envPath)) {
		return false
	}
	for _, event := range d.Keys(hooksPath) {
		if len(rubiHooks(d, event)) > 0 {
			return false
		}
	}
	return true
}

// statePristine: Claude Code's state file has the rubi server the backup
// has, if any.
func statePristine(st fileState) bool {
	d, backup, ok := parsePair(st)
	return ok && bytes.Equal(d.Raw(serverPath), backup.Raw(serverPath))
}

// configPristine: rubi's configuration has the vault the backup has.
func configPristine(st fileState) bool {
	cur, had, err := vaultOf(st.data, st.path)
	before, hadBefore, berr := vaultOf(st.backup, st.path)
	return err == nil && berr == nil && had == hadBefore && cur == before
}

// RubiExecutable returns how Claude Code should start rubi: "rubi" when a
// rubi is on PATH, else the absolute path of the running executable. A
// binary `go run` built in a temporary directory is refused: it will be
// gone when Claude Code runs it.
func RubiExecutable() (string, error) {
	if _, err := exec.LookPath("rubi"); err == nil {
		return "rubi", nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find rubi's executable: %w", err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	if strings.Contains(filepath.ToSlash(exe), "/go-build") {
		return "", errors.New("this rubi is a temporary build (go run): install it first (go install ./cmd/rubi) and put it on PATH")
	}
	return exe, nil
}

// Defaults are the vault and the window install proposes: what the
// configuration already says (so a re-run keeps it), else rubi's
// defaults.
func Defaults(claude ClaudePaths, userConfig string) (vault string, window int, err error) {
	if vault, err = ConfiguredVault(userConfig); err != nil {
		return "", 0, err
	}
	if vault == "" {
		vault = DefaultVault()
	}
	if window = currentWindow(claude); window < MinWindow {
		window = DefaultWindow
	}
	return vault, window, nil
}

// currentWindow returns the compaction window settings.json sets, or 0.
func currentWindow(p ClaudePaths) int {
	data, err := store.ReadRegular(p.Settings(), maxAgentFile)
	if err != nil {
		return 0
	}
	d, err := jsonedit.Parse(p.Settings(), data, false)
	if err != nil {
		return 0
	}
	var s string
	if ok, _ := d.Get(envPath, &s); !ok {
		return 0
	}
	n, _ := strconv.Atoi(s)
	return n
}

// WriteReport prints a report the way `rubi install` shows it, in l: per
// file, what changed; paths under the home directory start with ~. What
// changed in a file (a setting, a value) and the notes are written as the
// report holds them.
func WriteReport(w io.Writer, l messages.Lang, r *Report) {
	if !r.Changed() {
		fmt.Fprintln(w, l.Get(messages.InstallNothing))
		for _, n := range r.Notes {
			fmt.Fprintln(w, l.Format(messages.InstallNote, tildeAll(n)))
		}
		return
	}
	for _, f := range r.Files {
		if r.DryRun {
			// Shorten the paths of the headers, not the lines of the files.
			lines := strings.SplitAfter(f.Diff, "\n")
			for i := 0; i < len(lines) && i < 2; i++ {
				lines[i] = tildeAll(lines[i])
			}
			fmt.Fprint(w, strings.Join(lines, ""))
			continue
		}
		head := tilde(f.Path)
		switch {
		case f.Removed:
			head = l.Format(messages.InstallRemoved, head)
		case f.Created:
			head = l.Format(messages.InstallCreated, head)
		}
		if f.Backup != "" && !f.Created {
			head = l.Format(messages.InstallBackup, head, tilde(f.Backup))
		}
		fmt.Fprintln(w, head)
		for _, c := range f.Changes {
			fmt.Fprintln(w, "  "+c)
		}
	}
	if r.VaultCreated != "" {
		if r.DryRun {
			fmt.Fprintln(w, l.Format(messages.InstallVaultWouldBe, tilde(r.VaultCreated)))
		} else {
			fmt.Fprintln(w, l.Format(messages.InstallVaultCreated, tilde(r.VaultCreated)))
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintln(w, l.Format(messages.InstallNote, tildeAll(n)))
	}
	if r.DryRun {
		fmt.Fprintln(w, l.Get(messages.InstallDryRun))
	}
}

// tilde shortens a path under the home directory to ~/...
func tilde(path string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return path
	}
	if rest, ok := strings.CutPrefix(path, home+string(filepath.Separator)); ok {
		return "~" + string(filepath.Separator) + rest
	}
	return path
}

// tildeAll shortens every home path in a text.
func tildeAll(s string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return s
	}
	return strings.ReplaceAll(s, home+string(filepath.Separator), "~"+string(filepath.Separator))
}
