package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rubi-dev/rubi/core/memory"
	"github.com/rubi-dev/rubi/core/store"
)

// The notes' part of the index (knowledge nodes, project and personal, and
// the conversation memory's chunks) is kept fresh apart from the code's:
// notes arrive outside rubi's own writes (a git pull of a teammate's
// .rubi/knowledge/, an edit in Obsidian or by hand, another agent), and a
// recall must see them without waiting for the next full refresh.
//
// notesStampFile holds the stamp of the notes' folders as the last index
// run read them (notesStamp): a hook or a query compares it with the
// folders as they are now, which costs a listing of each folder and a
// stat per file, and reads no note.
const notesStampFile = "notes.stamp"

// ErrIndexOutdated is RefreshNotes' answer when the notes cannot be
// brought up to date alone: the configuration of a ranker changed since
// the last index, or a ranker's state asks for a full rebuild. A full
// index (SessionStart's, `rubi index`, `rubi context`) repairs it.
var ErrIndexOutdated = errors.New("the index must be refreshed in full first (rubi index)")

// notesDirs are the folders the notes' documents are made from: the
// project's knowledge folders, the vault's, and the conversation memory.
func (e *Engine) notesDirs() []string {
	return append(e.Knowledge().Dirs(), filepath.Join(e.cfg.Root, filepath.FromSlash(memory.Dir)))
}

// notesStamp sums the notes' folders as the file system lists them: in
// each, every note or chunk file (a regular *.md file that is not hidden)
// by name, size and modification time, or what stands in the folder's
// place (a file, an error). A file edited in place, added, removed or
// renamed, and a folder swapped for another (a git checkout), change it.
// It reads no file.
func (e *Engine) notesStamp() string {
	h := sha256.New()
	var num [8]byte
	put := func(v int64) {
		binary.LittleEndian.PutUint64(num[:], uint64(v))
		h.Write(num[:])
	}
	for _, dir := range e.notesDirs() {
		h.Write([]byte(dir))
		h.Write([]byte{0})
		des, err := os.ReadDir(dir)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			// As an empty folder: a hook that makes .rubi/sessions/ for
			// its state adds no note.
			h.Write([]byte("\n"))
			continue
		case err != nil:
			// Not a folder, or not readable: the next index says so.
			h.Write([]byte("!" + err.Error() + "\n"))
			continue
		}
		for _, de := range des {
			name := de.Name()
			if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".md") || !de.Type().IsRegular() {
				continue
			}
			fi, err := de.Info()
			if err != nil {
				continue // removed since the listing: the next stamp differs
			}
			h.Write([]byte(name))
			h.Write([]byte{0})
			put(fi.Size())
			put(fi.ModTime().UnixNano())
		}
		h.Write([]byte("\n"))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// storedNotesStamp is the stamp the last index run wrote, "" when none.
func (e *Engine) storedNotesStamp() string {
	f, err := store.OpenRegular(filepath.Join(e.indexDir(), notesStampFile))
	if err != nil {
		return ""
	}
	defer f.Close()
	var buf [2*sha256.Size + 1]byte
	n, _ := f.Read(buf[:])
	return strings.TrimSpace(string(buf[:n]))
}

// saveNotesStamp records the stamp an index run read the notes with. A
// failure only costs the next hook a refresh it did not need.
func (e *Engine) saveNotesStamp(stamp string) {
	if stamp == "" || stamp == e.storedNotesStamp() {
		return
	}
	if err := store.WriteFile(filepath.Join(e.indexDir(), notesStampFile), []byte(stamp+"\n"), 0o644); err != nil {
		e.logger.Warn("could not save the notes' stamp", "error", err)
	}
}

// NotesChanged reports whether the notes' folders changed since the last
// index run read them: a listing of each folder and a stat per file.
func (e *Engine) NotesChanged() bool {
	return e.notesStamp() != e.storedNotesStamp()
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
	stats, err := e.index(ctx, IndexOptions{notesOnly: true})
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
	stats, err := e.index(ctx, IndexOptions{notesOnly: true})
	if errors.Is(err, ErrNoIndex) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("refresh the notes' index: %w", err)
	}
	return stats, true, nil
}
