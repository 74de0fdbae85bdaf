package connect

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"github.com/rubi-dev/rubi/core/store"
)

// BackupSuffix names the copy rubi keeps of a configuration file before
// its first change to it: settings.json.bak-rubi. It is written once and
// kept while rubi's values are in the file, so it stays the state before
// rubi however often rubi installs; only when none of rubi's values are
// left (after an undo) does the next change take a fresh copy. An empty
// backup records that the file did not exist.
//
// A project's file is backed up out of the repository, in the user's
// state folder (projectBackup): a backup beside it would be a file of the
// repository, which a committed .gitignore (or git add -f, a zip, a
// container's build context) could share; kept apart, it is the user's, as
// the file before rubi was. Backups are written 0600.
const BackupSuffix = ".bak-rubi"

// maxAgentFile bounds what is read of an agent's file: instructions and
// settings are KB, but Claude Code's ~/.claude.json keeps every project's
// history and reaches tens of MB; 256 MiB is room to spare. A larger file
// is refused, naming it, and nothing is changed.
const maxAgentFile = 256 << 20

// FileReport is what happened, or would happen, to one file.
type FileReport struct {
	Path string `json:"path"`
	// Created and Removed say the file itself appears or goes.
	Created bool `json:"created,omitempty"`
	Removed bool `json:"removed,omitempty"`
	// Backup is the backup this run wrote (none when one existed).
	Backup string `json:"backup,omitempty"`
	// Changes say what changed, one line each.
	Changes []string `json:"changes"`
	// Diff is the unified diff of the change, on a dry run.
	Diff string `json:"diff,omitempty"`
}

// fileState is a configuration file as read before a change.
type fileState struct {
	path   string
	data   []byte
	exists bool
	// backup is the file before rubi first changed it; hasBackup is false
	// when there is none, and an empty backup means there was no file.
	backup    []byte
	hasBackup bool
	// backupPath is where the backup is (fileEdit.backupPath).
	backupPath string
}

// fileChange is what an edit decided for one file.
type fileChange struct {
	data    []byte   // the new content
	remove  bool     // delete the file instead
	changes []string // what changed, for the report
}

// fileEdit is a change to one configuration file, computed from what the
// file holds when its lock is held.
type fileEdit struct {
	path string
	perm os.FileMode // of a new file
	edit func(st fileState) (fileChange, error)
	// pristine reports whether the file holds none of rubi's values, as
	// its backup does not: the backup is then renewed before a change.
	// Nil means never.
	pristine func(st fileState) bool
	// noBackup is a file rubi owns whole (rubi connect's rule files): it
	// gets no backup.
	noBackup bool
	// project is the project's root when the file is the project's (it
	// lies under it): then no link on its way may lead out of the
	// project. "" for the user's files, which are followed through their
	// links as dotfile managers make them.
	project string
	// backup is where the file's backup is; "" is beside it
	// (FILE.bak-rubi), as for the user's files.
	backup string
}

// backupPath is where e's backup is.
func (e fileEdit) backupPath() string {
	if e.backup != "" {
		return e.backup
	}
	return e.path + BackupSuffix
}

// applyEdits runs edits as one transaction: every file is locked and
// read, and every change computed, before anything is written, so a file
// that cannot be read or parsed leaves all of them untouched. Files are
// then backed up (before rubi's first change to each) and written
// atomically. On a dry run nothing is locked or written and each report
// carries the diff.
func applyEdits(ctx context.Context, edits []fileEdit, dryRun bool) ([]FileReport, error) {
	var locks []*fileLock
	var made []string // directories made for a lock, removed again on failure
	failed := true
	defer func() {
		for _, l := range locks {
			l.unlock()
		}
		if failed {
			for i := len(made) - 1; i >= 0; i-- {
				os.Remove(made[i]) // only if still empty
			}
		}
	}()
	states := make([]fileState, len(edits))
	changes := make([]fileChange, len(edits))
	for i, e := range edits {
		st, ch, l, dirs, err := prepare(ctx, e, dryRun)
		made = append(made, dirs...)
		if l != nil {
			locks = append(locks, l)
		}
		if err != nil {
			return nil, err
		}
		states[i], changes[i] = st, ch
	}
	var reports []FileReport
	for i, e := range edits {
		st, ch := states[i], changes[i]
		if ch.remove && !st.exists || !ch.remove && st.exists && bytes.Equal(ch.data, st.data) {
			continue
		}
		r := FileReport{Path: e.path, Created: !st.exists, Removed: ch.remove, Changes: ch.changes}
		if dryRun {
			r.Diff = diff(e.path, st, ch)
			reports = append(reports, r)
			continue
		}
		if !e.noBackup && (!st.hasBackup || e.pristine != nil && e.pristine(st)) {
			if err := writeBackup(st); err != nil {
				return reports, err
			}
			r.Backup = e.backupPath()
		}
		if err := writeChange(e, st, ch); err != nil {
			return reports, err
		}
		reports = append(reports, r)
	}
	failed = false
	return reports, nil
}

// prepare reads a file under its lock and computes its change. The lock
// lives beside the file; where the directory does not exist yet there is
// no file to guard, and the directory is made (and the lock taken) only
// if the file is to be written. It returns the directories it made.
func prepare(ctx context.Context, e fileEdit, dryRun bool) (fileState, fileChange, *fileLock, []string, error) {
	// Before the lock or a folder is made: either would be made
	// through a link out of the project.
	if e.project != "" {
		if err := linkedOut(e.project, e.path); err != nil {
			return fileState{}, fileChange{}, nil, nil, fmt.Errorf("%w\nnothing was changed", err)
		}
	}
	compute := func() (fileState, fileChange, error) {
		st, err := readState(e)
		if err != nil {
			return st, fileChange{}, fmt.Errorf("%w\nnothing was changed", err)
		}
		ch, err := e.edit(st)
		if err != nil {
			return st, ch, fmt.Errorf("%w\nnothing was changed: fix the file, or move it away, and run again", err)
		}
		return st, ch, nil
	}
	if dryRun {
		st, ch, err := compute()
		return st, ch, nil, nil, err
	}
	var made []string
	if missing := missingDirs(filepath.Dir(e.path)); len(missing) > 0 {
		st, ch, err := compute()
		if err != nil || ch.remove || len(ch.data) == 0 && len(ch.changes) == 0 {
			return st, ch, nil, nil, err
		}
		if err := os.MkdirAll(filepath.Dir(e.path), 0o755); err != nil {
			return st, ch, nil, nil, err
		}
		made = missing
	}
	l, err := lockFile(ctx, e.path)
	if err != nil {
		return fileState{}, fileChange{}, nil, made, err
	}
	st, ch, err := compute()
	return st, ch, l, made, err
}

// missingDirs lists dir and its ancestors that do not exist, outermost
// first.
func missingDirs(dir string) []string {
	var missing []string
	for {
		if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		missing = append([]string{dir}, missing...)
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return missing
}

// readState reads a file and its backup: a project's file only when no
// link on its way leads out of the project; every file up to maxAgentFile,
// and anything but a regular file (a FIFO settings.json) refused at once,
// without blocking.
func readState(e fileEdit) (fileState, error) {
	st := fileState{path: e.path, backupPath: e.backupPath()}
	if e.project != "" {
		if err := linkedOut(e.project, e.path); err != nil {
			return st, err
		}
	}
	data, err := store.ReadRegular(e.path, maxAgentFile)
	switch {
	case err == nil:
		st.data, st.exists = data, true
	case !errors.Is(err, fs.ErrNotExist):
		return st, err
	}
	backup, err := store.ReadRegular(st.backupPath, maxAgentFile)
	switch {
	case err == nil:
		st.backup, st.hasBackup = backup, true
	case !errors.Is(err, fs.ErrNotExist):
		return st, err
	}
	return st, nil
}

// linkedOut returns an error naming path and the link when a folder on
// path's way from the project's root, or path itself, is a symbolic link
// that leads out of the project (a committed AGENTS.md -> ~/.bashrc, or
// .gemini -> ~/.gemini): rubi would write the user's files through it. A
// link that stays inside the project is followed.
func linkedOut(project, path string) error {
	rel, err := filepath.Rel(project, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil // not the project's file
	}
	p := project
	for _, name := range strings.Split(rel, string(filepath.Separator)) {
		p = filepath.Join(p, name)
		fi, err := os.Lstat(p)
		if err != nil {
			return nil // what is missing is made inside the project
		}
		if fi.Mode()&os.ModeSymlink == 0 || store.Inside(project, p) {
			continue
		}
		target, err := filepath.EvalSymlinks(p)
		if err != nil {
			target, _ = os.Readlink(p)
		}
		if p == path {
			return linkedOutError(fmt.Sprintf("refusing to change %s: it is a symbolic link to %s, out of the project", path, target))
		}
		return linkedOutError(fmt.Sprintf("refusing to change %s: %s is a symbolic link to %s, out of the project", path, p, target))
	}
	return nil
}

// linkedOutError is linkedOut's refusal; it is a store.ErrNotOwned.
type linkedOutError string

func (e linkedOutError) Error() string        { return string(e) }
func (e linkedOutError) Is(target error) bool { return target == store.ErrNotOwned }

// writeBackup keeps the file as it is before rubi's first change, or an
// empty backup when there is no file yet, readable by the user alone (a
// file rubi changes may hold a token).
func writeBackup(st fileState) error {
	if err := os.MkdirAll(filepath.Dir(st.backupPath), 0o700); err != nil {
		return fmt.Errorf("back up %s: %w", st.path, err)
	}
	if err := store.WriteFile(st.backupPath, st.data, 0o600); err != nil {
		return fmt.Errorf("back up %s: %w", st.path, err)
	}
	return nil
}

// writeChange writes (or removes) the file. A file that is a symbolic
// link, as dotfile managers make them, is written through the link, which
// stays in place.
func writeChange(e fileEdit, st fileState, ch fileChange) error {
	target := e.path
	if st.exists {
		if real, err := filepath.EvalSymlinks(e.path); err == nil {
			target = real
		}
	}
	if ch.remove {
		if err := os.Remove(e.path); err != nil {
			return fmt.Errorf("remove %s: %w", e.path, err)
		}
		return nil
	}
	perm := e.perm
	if fi, err := os.Stat(target); err == nil {
		perm = fi.Mode().Perm()
	}
	return store.WriteFile(target, ch.data, perm)
}

// diff renders the change as a unified diff; a file that appears or goes
// is compared with /dev/null.
func diff(path string, st fileState, ch fileChange) string {
	from, to := path, path
	if !st.exists {
		from = "/dev/null"
	}
	var data []byte
	if ch.remove {
		to = "/dev/null"
	} else {
		data = ch.data
	}
	return udiff.Unified(from, to, string(st.data), string(data))
}
