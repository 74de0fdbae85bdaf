package notesindex

import (
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
// StampFile holds the stamp of the notes' folders as the last index run
// read them (Stamp), and when it was taken: a hook compares it
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
const StampFile = "notes.stamp"

// stampSettle is how long after a folder changed a stamp of it is trusted:
// a change in the same tick of the file system's clock as the stamp (a
// second on some file systems) would leave its time as stamped.
const stampSettle = time.Second

// dirs are the folders the notes' documents are made from: the project's
// knowledge folders, the vault's, and the conversation memory.
func (x *Index) dirs() []string {
	return append(x.nodes.Dirs(), x.chunks.Dir())
}

// Stamp is the notes' folders as they were at a moment: taken before a
// run reads them, and saved (SaveStamp) once the state says what it read.
type Stamp struct {
	hash string
	// latest is the latest modification time among the folders; at, when
	// the stamp was taken.
	latest, at time.Time
}

// TakeStamp identifies the notes' folders as they are: each one's
// identity (device and inode where the system has them), modification
// time, size and type, or that it is missing. It reads no file and lists
// no folder.
func (x *Index) TakeStamp() Stamp {
	h := sha256.New()
	var latest time.Time
	for _, dir := range x.dirs() {
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
	return Stamp{hash: hex.EncodeToString(h.Sum(nil)), latest: latest, at: time.Now()}
}

// storedStamp is the stamp the last index run wrote and when it was
// taken; "" when there is none.
func (x *Index) storedStamp() (string, time.Time) {
	f, err := store.OpenRegular(filepath.Join(x.dir, StampFile))
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

// SaveStamp records the stamp a run read the notes with. A failure only
// costs the next hook a refresh it did not need. A stamp in place of the
// same folders, taken after they settled (and not later than s), already
// says all s would (MayHaveChanged answers the same): it stays, and a
// refresh that found nothing changed writes nothing.
func (x *Index) SaveStamp(s Stamp) {
	old, oldAt := x.storedStamp()
	if old == s.hash && (oldAt.Equal(s.at) || !oldAt.After(s.at) && s.latest.Add(stampSettle).Before(oldAt)) {
		return
	}
	data := fmt.Sprintf("%s %d\n", s.hash, s.at.UnixNano())
	// Lost in a power cut, it costs the next hook a refresh it did not
	// need: no wait for the disk.
	if err := store.WriteDerived(filepath.Join(x.dir, StampFile), []byte(data), 0o644); err != nil {
		x.logger.Warn("could not save the notes' stamp", "error", err)
	}
}

// MayHaveChanged reports whether the notes' folders may have changed
// since the last index run read them: a stat of each folder. A folder
// that changed less than stampSettle before the stamp was taken counts
// as changed: the stamp may have missed a change in the same tick. A
// hook asks it before deciding to read the notes.
func (x *Index) MayHaveChanged() bool {
	now := x.TakeStamp()
	stored, at := x.storedStamp()
	return now.hash != stored || !now.latest.Add(stampSettle).Before(at)
}

// Changed reports whether the notes' folders differ from what the last
// index run read. Unlike MayHaveChanged, a change in the stamp's own
// clock tick is not suspected: that is for a hook deciding to read, not
// for a status that reports the index outdated right after a save.
func (x *Index) Changed() bool {
	stored, _ := x.storedStamp()
	return x.TakeStamp().hash != stored
}
