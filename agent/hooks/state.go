package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core/store"
)

// sessionState is what the hooks remember about one session between
// their runs, in .rubi/sessions/state/<session id>.json.
type sessionState struct {
	// Explored counts the reads and searches of the current turn (since
	// the last prompt); Registered the registrations.
	Explored   int `json:"explored"`
	Registered int `json:"registered"`
	// Harvested is set once the Stop hook asked for facts in this turn.
	Harvested bool `json:"harvested,omitempty"`
	// Warned is set while the context stays above the meter's threshold
	// after the warning was given; it clears when the context falls back
	// under it (a compaction), so each crossing warns once.
	Warned bool `json:"warned,omitempty"`
	// Context is the last context size the meter read, in tokens.
	Context int64 `json:"context,omitempty"`
	// Denied lists the files the read guard refused once.
	Denied []string `json:"denied,omitempty"`
	// Nudged is set once the agent was told, after writing its own
	// memory file, to register the facts with rubi.
	Nudged bool `json:"nudged,omitempty"`
}

// stateDir holds the per-session state files.
const stateDir = "sessions/state"

// stateMaxAge is how long a session's state outlives its last use when
// the session never said it ended.
const stateMaxAge = 7 * 24 * time.Hour

// validSessionID reports a session id usable as a file name: the UUIDs
// agents use (letters, digits, '.', '_', '-', starting with a letter or a
// digit, at most 128 bytes, no ".."), and nothing that could leave the
// folder.
func validSessionID(id string) bool {
	if id == "" || len(id) > 128 || strings.Contains(id, "..") {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '.' && c != '_' && c != '-') {
			return false
		}
	}
	return true
}

func (h *handler) statePath() (string, error) {
	id := h.in.SessionID
	if !validSessionID(id) {
		return "", errNoSession
	}
	return filepath.Join(h.dataDir(), stateDir, id+".json"), nil
}

// maxSessionState bounds what is read of a session's state, a few
// counters and the paths read (some KB); 1 MiB is room to spare, and a
// larger file, a link or a FIFO the repository committed is a fresh state.
const maxSessionState = 1 << 20

// readState returns the session's state; a missing or unreadable file is
// a fresh state (losing a counter must not stop the hook).
func (h *handler) readState() (*sessionState, error) {
	path, err := h.statePath()
	if err != nil {
		return nil, err
	}
	st := &sessionState{}
	if data, err := store.ReadWithin(h.root, path, maxSessionState); err == nil {
		if err := json.Unmarshal(data, st); err != nil {
			logError(h.dataDir(), h.event, fmt.Errorf("%s: %w (starting over)", path, err))
			st = &sessionState{}
		}
	}
	return st, nil
}

// updateState changes the session's state under the state folder's lock:
// hooks of one session run in parallel when tools do.
func (h *handler) updateState(ctx context.Context, fn func(*sessionState)) (*sessionState, error) {
	path, err := h.statePath()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	lock, err := store.LockWithin(ctx, h.root, filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	// The state and its lock live in .rubi/sessions/: a hook may make them
	// before any index or save has, and rubi's lines in .rubi/.gitignore
	// keep them out of `git add -A`.
	if err := store.KeepIgnored(h.root, h.dataDir()); err != nil {
		return nil, err
	}
	st, err := h.readState()
	if err != nil {
		return nil, err
	}
	before := *st
	before.Denied = slices.Clone(st.Denied)
	fn(st)
	if st.Explored == before.Explored && st.Registered == before.Registered && st.Harvested == before.Harvested &&
		st.Warned == before.Warned && st.Context == before.Context && slices.Equal(st.Denied, before.Denied) && st.Nudged == before.Nudged {
		return st, nil
	}
	data, err := json.Marshal(st)
	if err != nil {
		return nil, err
	}
	// Without waiting for the disk: a hook runs on every tool call, and
	// a sync also commits the file system's pending journal; a state lost
	// or cut short in a power cut reads as a fresh one (readState), which
	// costs a counter.
	return st, store.WriteDerived(path, data, 0o644)
}

// endSession removes the session's state.
func (h *handler) endSession() error {
	path, err := h.statePath()
	if err != nil {
		return nil // nothing was kept for a session without an id
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// sweepStates removes the state of sessions unused for stateMaxAge: an
// agent that crashed never sends SessionEnd.
func (h *handler) sweepStates() {
	dir := filepath.Join(h.dataDir(), stateDir)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	cutoff := h.env.now().Add(-stateMaxAge)
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		if info, err := e.Info(); err == nil && info.ModTime().Before(cutoff) {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
