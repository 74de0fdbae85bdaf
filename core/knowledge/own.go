package knowledge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rubi-dev/rubi/core/store"
)

// The record of what this user wrote.
//
// A repository's .rubi/ holds notes, handoffs and summaries written by
// whoever committed them: a teammate, or the author of a repository just
// cloned. rubi tells the user's own from them with a record it keeps
// outside the project, in the user's state folder (Options.OwnDir): one
// file per project, named by a hash of its root, listing each file rubi
// wrote for this user (its path under .rubi/) with the SHA-256 of the
// content as written. A file is the user's while its content is still
// that; one a teammate committed, or edited after, is the repository's.
// Personal notes live in the user's vault and are the user's by place.

// maxOwnRecord caps a read of the record: about 200,000 files' entries.
const maxOwnRecord = 32 << 20

// maxOwnFile caps a read of a file whose provenance is checked: a node,
// a handoff or a summary is far smaller (their writers cap them).
const maxOwnFile = 4 << 20

// ownRecord is the record's file.
type ownRecord struct {
	// Root is the project, for whoever reads the folder.
	Root string `json:"root"`
	// Files maps a path under .rubi/ (slash-separated) to the SHA-256
	// (hex) of the content rubi wrote there for this user.
	Files map[string]string `json:"files"`
}

// ownPath is the record's file for the store's project, "" when the store
// keeps no record.
func (s *Store) ownPath() string {
	if s.opts.OwnDir == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(s.root))
	return filepath.Join(s.opts.OwnDir, hex.EncodeToString(sum[:12])+".json")
}

func hashOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// readOwn reads the record; a missing one is empty. The last one read is
// kept while its file's version stays the same: a result checks each of
// its notes.
func (s *Store) readOwn() (*ownRecord, error) {
	rec := &ownRecord{Root: s.root, Files: map[string]string{}}
	p := s.ownPath()
	if p == "" {
		return rec, nil
	}
	fi, err := os.Stat(p)
	if errors.Is(err, os.ErrNotExist) {
		return rec, nil
	}
	if err != nil {
		return nil, err
	}
	version := store.VersionOf(fi)
	s.mu.Lock()
	cached, cachedVersion := s.own, s.ownVersion
	s.mu.Unlock()
	if cached != nil && cachedVersion == version {
		return cached, nil
	}
	data, err := store.ReadRegular(p, maxOwnRecord)
	if errors.Is(err, os.ErrNotExist) {
		return rec, nil
	}
	if err != nil {
		return nil, err
	}
	defer func() {
		s.mu.Lock()
		s.own, s.ownVersion = rec, version
		s.mu.Unlock()
	}()
	if quick, ok := quickOwn(data); ok {
		*rec = *quick
	} else if err := json.Unmarshal(data, rec); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if rec.Root != s.root {
		// Two roots whose hashes meet: the record is another project's.
		return &ownRecord{Root: s.root, Files: map[string]string{}}, nil
	}
	if rec.Files == nil {
		rec.Files = map[string]string{}
	}
	return rec, nil
}

// ownKey is a file's key in the record: its path under .rubi/.
func (s *Store) ownKey(path string) (string, bool) {
	rel, err := filepath.Rel(s.rubiDir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// recordOwn records files rubi just wrote for this user (path to content)
// and forgets those it removed, under the record's lock, rewriting it
// atomically. A store without a record does nothing.
func (s *Store) recordOwn(wrote map[string][]byte, removed ...string) error {
	p := s.ownPath()
	if p == "" || len(wrote)+len(removed) == 0 {
		return nil
	}
	if err := os.MkdirAll(s.opts.OwnDir, 0o700); err != nil {
		return fmt.Errorf("record what you wrote: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), lockWait)
	defer cancel()
	lock, err := store.LockDir(ctx, s.opts.OwnDir)
	if err != nil {
		return fmt.Errorf("record what you wrote: %w", err)
	}
	defer lock.Unlock()
	cur, err := s.readOwn()
	if err != nil {
		return fmt.Errorf("record what you wrote: %w", err)
	}
	rec := &ownRecord{Root: s.root, Files: make(map[string]string, len(cur.Files)+len(wrote))}
	for k, v := range cur.Files {
		rec.Files[k] = v
	}
	for path, data := range wrote {
		if k, ok := s.ownKey(path); ok {
			rec.Files[k] = hashOf(data)
		}
	}
	for _, path := range removed {
		if k, ok := s.ownKey(path); ok {
			delete(rec.Files, k)
		}
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if err := store.WriteFile(p, data, 0o600); err != nil {
		return fmt.Errorf("record what you wrote: %w", err)
	}
	return nil
}

// ownedData reads the file at path (inside .rubi/, never through a link)
// and reports whether it is as rubi wrote it for this user.
// In a project the user trusted (Options.Trusted) every file is taken as
// the user's.
func (s *Store) ownedData(rec *ownRecord, path string) ([]byte, bool) {
	k, ok := s.ownKey(path)
	if !ok || rec.Files[k] == "" && !s.opts.Trusted {
		return nil, false
	}
	data, err := store.ReadWithin(s.root, path, maxOwnFile)
	if err != nil {
		return nil, false
	}
	return data, s.opts.Trusted || hashOf(data) == rec.Files[k]
}

// Owned reports whether the file at path, under .rubi/, is as rubi wrote
// it for this user: false for a file the repository supplied, or one
// edited since.
func (s *Store) Owned(path string) bool {
	rec, err := s.readOwn()
	if err != nil {
		return false
	}
	_, ok := s.ownedData(rec, path)
	return ok
}

// OwnNode returns the user's own version of the node n names (a node of
// the index's files, say, which the repository may have written): the
// vault's node of its id for a personal one, else the project's node of
// its id when its file is as rubi wrote it for this user. ok is false
// when the node is the repository's.
func (s *Store) OwnNode(n *Node) (own *Node, ok bool) {
	if n == nil || validateID(n.ID) != nil {
		return nil, false
	}
	sc := &s.project
	if n.Personal {
		if s.vault == nil {
			return nil, false
		}
		sc = s.vault
	}
	path := filepath.Join(sc.dir, n.ID+".md")
	var data []byte
	if sc.personal {
		var err error
		if data, err = store.ReadWithin(sc.base, path, maxOwnFile); err != nil {
			return nil, false
		}
	} else {
		rec, err := s.readOwn()
		if err != nil {
			return nil, false
		}
		if data, ok = s.ownedData(rec, path); !ok {
			return nil, false
		}
	}
	own, _, err := decodeNode(path, data)
	if err != nil || own.ID != n.ID {
		return nil, false
	}
	own.Path, own.Personal = path, sc.personal
	return own, true
}

// ownBefore reports, for nodes about to be written, which are the user's
// to record: a new one, or one whose file is still as rubi wrote it for
// the user. A teammate's note that the user's register merges into or
// supersedes stays the repository's: what it says was not the user's.
func (s *Store) ownBefore(nodes []*Node) map[string]bool {
	out := map[string]bool{}
	rec, err := s.readOwn()
	if err != nil {
		return out
	}
	for _, n := range nodes {
		if _, err := os.Lstat(n.Path); errors.Is(err, os.ErrNotExist) {
			out[n.Path] = true
		} else if _, ok := s.ownedData(rec, n.Path); ok {
			out[n.Path] = true
		}
	}
	return out
}
