// Package dedupe decides which entries of a fetch are new.
package dedupe

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"example.org/feedhub/internal/parse"
)

// Key identifies an entry across fetches: its ID when the feed gives one,
// else a hash of its link and title, since some feeds regenerate GUIDs on
// every build.
func Key(e parse.Entry) string {
	if id := strings.TrimSpace(e.ID); id != "" && !looksRegenerated(id) {
		return "id:" + id
	}
	sum := sha256.Sum256([]byte(e.Link + "\x00" + e.Title))
	return "h:" + hex.EncodeToString(sum[:12])
}

// looksRegenerated spots GUIDs that are build timestamps or random UUIDs
// with no link to the entry.
func looksRegenerated(id string) bool {
	return len(id) == 36 && strings.Count(id, "-") == 4
}

// New returns the entries whose key is not in seen, and adds their keys.
func New(entries []parse.Entry, seen map[string]bool) []parse.Entry {
	var out []parse.Entry
	for _, e := range entries {
		k := Key(e)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, e)
	}
	return out
}
