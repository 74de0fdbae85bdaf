package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core/store"
)

// The notes' part of the index (knowledge nodes, project and personal, and
// the conversation memory's chunks) is kept fresh apart from the code's:
// notes arrive outside rubi's own writes (a git pull of a teammate's
// .rubi/knowledge/, another agent, a note saved by an editor), and a
// recall must see them without waiting for the next full refresh.
//
// notesStampFile holds the stamp of the notes' folders as the last index
// run read them (notesStamp), and when it was taken: a hook compares it
// with the folders as they are now, a stat of each folder and nothing
// more. A folder's modification time changes when a file in it is
// created, removed or renamed: rubi's own atomic writes, a git checkout
// or pull, an editor that saves through a new file (vim, Emacs,
// JetBrains' safe write). An edit written in place into the same file
// leaves the folder alone: the note shown is read from its file as it is,
// and its words are indexed by the next full refresh (SessionStart, rubi
// index, rubi context, the MCP server's refresh), which stats every file.
// A stat per note would notice it too, but costs a hook with thousands of
// notes more than the recall itself.
const notesStampFile = "notes.stamp"

// stampSettle is how long after a folder changed a stamp of it is trusted:
// a change in the same tick of the file system's clock as the stamp (a
// second on some file systems) would leave its time as stamped.
const stampSettle = time.Second

// ErrIndexOutdated is RefreshNotes' answer when the notes cannot be
// brought up to date alone: the configuration of a ranker changed since
// the last index, or a ranker's state asks for a full rebuild. A full
// index (SessionStart's, `rubi index`, `rubi context`) repairs it.
var ErrIndexOutdated = errors.New("the index must be refreshed in full first (rubi index)")

// notesDirs are the folders the notes' documents are made from: the
// project's knowledge folders, the vault's, and the conversation memory.
func (e *Engine) notesDirs() []string {
	return append(e.nodes.Dirs(), e.chunks.Dir())
}

// notesStamp identifies the notes' folders as they are: each one's
// identity (device and inode where the system has them), modification
// time, size and type, or that it is missing. It also returns the latest
// modification time among them. It reads no file and lists no folder.
func (e *Engine) notesStamp() (string, time.Time) {
	h := sha256.New()
	var latest time.Time
	for _, dir := range e.notesDirs() {
		fmt.Fprintf(h, "%s\x00", dir)
		fi, err := os.Stat(dir)
		if err != nil {
			fmt.Fprintf(h, "!%v\n", errors.Is(err, fs.ErrNotExist))
			continue
		}
		if fi.ModTime().After(latest) {
			latest = fi.ModTime()
		}
		fmt.Fprintf(h, "%d/%d/%d/%v\n", fileID(fi), fi.ModTime().UnixNano(), fi.Size(), fi.Mode().Type())
	}
	return hex.EncodeToString(h.Sum(nil)), latest
}

// storedNotesStamp is the stamp the last index run wrote and when it
// was taken; "" when there is none.
func (e *Engine) storedNotesStamp() (string, time.Time) {
	f, err := store.OpenRegular(filepath.Join(e.indexDir(), notesStampFile))
	if err != nil {
		return "", time.Time{}
	}
	defer f.Close()
	var buf [128]byte
	n, _ := f.Read(buf[:])
	stamp, at, _ := strings.Cut(strings.TrimSpace(string(buf[:n])), " ")
	ns, err := strconv.ParseInt(at, 10, 64)
	if err != nil || len(stamp) != 2*sha256.Size {
		return "", time.Time{}
	}
	return stamp, time.Unix(0, ns)
}

// saveNotesStamp records the stamp an index run read the notes with,
// taken at the time given. A failure only costs the next hook a refresh
// it did not need.
func (e *Engine) saveNotesStamp(stamp string, at time.Time) {
	if old, oldAt := e.storedNotesStamp(); old == stamp && oldAt.Equal(at) {
		return
	}
	data := fmt.Sprintf("%s %d\n", stamp, at.UnixNano())
	// Lost in a power cut, it costs the next hook a refresh it did not
	// need: no wait for the disk.
	if err := store.WriteDerived(filepath.Join(e.indexDir(), notesStampFile), []byte(data), 0o644); err != nil {
		e.logger.Warn("could not save the notes' stamp", "error", err)
	}
}

// NotesChanged reports whether the notes' folders may have changed since
// the last index run read them: a stat of each folder. A folder that
// changed less than stampSettle before the stamp was taken counts as
// changed: the stamp may have missed a change in the same tick.
func (e *Engine) NotesChanged() bool {
	stamp, latest := e.notesStamp()
	stored, at := e.storedNotesStamp()
	return stamp != stored || !latest.Add(stampSettle).Before(at)
}

// IndexNotes brings the notes' part of the index up to date now, as
// RefreshNotes does but whatever the stamp says: for a command that has
// just written a note, a chunk or a curated summary (which the stamp does
// not cover; the maps weave it in). Before the project has an index it
// does nothing.
func (e *Engine) IndexNotes(ctx context.Context) (*IndexStats, error) {
	if !e.HasIndex() {
		return nil, nil
	}
	stats, err := e.indexNotes(ctx, IndexOptions{notesOnly: true, notesMaps: true})
	if errors.Is(err, ErrNoIndex) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("index the notes: %w", err)
	}
	return stats, nil
}

// RefreshNotes brings the notes' part of the index up to date with the
// folders as they are, when they changed since the last index run: the
// nodes and chunks added, edited or removed are indexed again, the code's
// part is kept as the last index left it (no walk, no file of the code is
// read). It reports whether it indexed. Before the project has an index
// it does nothing: the first index reads the notes. ctx bounds the whole
// run, the wait for another process's index included.
func (e *Engine) RefreshNotes(ctx context.Context) (*IndexStats, bool, error) {
	if !e.HasIndex() || !e.NotesChanged() {
		return nil, false, nil
	}
	stats, err := e.indexNotes(ctx, IndexOptions{notesOnly: true})
	if errors.Is(err, ErrNoIndex) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("refresh the notes' index: %w", err)
	}
	return stats, true, nil
}
