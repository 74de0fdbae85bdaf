// Package store keeps each feed's entries in a JSON file of its own,
// written atomically (a temporary file renamed over the old one).
package store

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"example.org/feedhub/internal/fetch"
	"example.org/feedhub/internal/parse"
)

// FeedState is what is kept per feed.
type FeedState struct {
	URL        string           `json:"url"`
	Validators fetch.Validators `json:"validators"`
	Seen       map[string]bool  `json:"seen"`
	Entries    []parse.Entry    `json:"entries"`
	LastError  string           `json:"last_error,omitempty"`
}

type Store struct {
	dir        string
	maxEntries int
	mu         sync.Mutex
}

func Open(dir string, maxEntries int) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &Store{dir: dir, maxEntries: maxEntries}, nil
}

func (s *Store) file(url string) string {
	sum := sha256.Sum256([]byte(url))
	return filepath.Join(s.dir, hex.EncodeToString(sum[:8])+".json")
}

// Load reads a feed's state; a feed never fetched has an empty one.
func (s *Store) Load(url string) (*FeedState, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	data, err := os.ReadFile(s.file(url))
	if os.IsNotExist(err) {
		return &FeedState{URL: url, Seen: map[string]bool{}}, nil
	}
	if err != nil {
		return nil, err
	}
	var st FeedState
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, err
	}
	return &st, nil
}

// Save writes a feed's state, newest entries first, keeping maxEntries.
func (s *Store) Save(st *FeedState) error {
	sort.Slice(st.Entries, func(i, j int) bool { return st.Entries[i].Published.After(st.Entries[j].Published) })
	if len(st.Entries) > s.maxEntries {
		st.Entries = st.Entries[:s.maxEntries]
	}
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	tmp, err := os.CreateTemp(s.dir, ".tmp-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), s.file(st.URL))
}
