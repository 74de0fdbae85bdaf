package knowledge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core/store"
)

// lockWait bounds how long the calls without a context wait for another
// process's lock.
const lockWait = 30 * time.Second

// scopeOf splits a "personal:" prefix off an id.
func (s *Store) scopeOf(id string) (*scope, string, error) {
	if rest, ok := strings.CutPrefix(id, "personal:"); ok {
		if s.vault == nil {
			return nil, "", fmt.Errorf("%q: no personal vault is configured", id)
		}
		return s.vault, rest, nil
	}
	return &s.project, id, nil
}

// Forget retracts a node: its status becomes retracted and it leaves
// recall, but its file stays (history, and a later merge revives it). With
// hard, the node's files are deleted instead (all of them: a node read
// from the Node.js version's folder too). A "personal:" prefix names a
// vault node.
func (s *Store) Forget(id string, hard bool) error {
	sc, id, err := s.scopeOf(strings.TrimSpace(id))
	if err != nil {
		return err
	}
	if err := validateID(id); err != nil {
		return err
	}
	return s.update(sc, id, func(l *loaded, n *Node) (*Node, error) {
		if hard {
			for _, p := range l.paths[id] {
				if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
					return nil, fmt.Errorf("forget %s: %w", id, err)
				}
				s.mu.Lock()
				delete(s.cache, p)
				s.mu.Unlock()
			}
			return nil, s.recordOwn(nil, l.paths[id]...)
		}
		if n.Status == StatusRetracted {
			return nil, nil
		}
		c := n.Clone()
		c.Status, c.Updated = StatusRetracted, s.now()
		return c, nil
	})
}

// update changes one node under the scope's lock: fn returns the new
// version to write, or nil to write nothing.
func (s *Store) update(sc *scope, id string, fn func(l *loaded, n *Node) (*Node, error)) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), lockWait)
	defer cancel()
	lock, err := store.LockWithin(ctx, sc.base, sc.dir)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	l := s.load(sc)
	n := l.byID[id]
	if n == nil {
		return fmt.Errorf("%s: %w", id, ErrNotFound)
	}
	c, err := fn(l, n)
	if err != nil || c == nil {
		return err
	}
	b := &batch{s: s, sc: sc, l: l}
	if c.Path, err = b.path(c); err != nil {
		return err
	}
	data, err := encodeNode(c)
	if err != nil {
		return err
	}
	own := sc.personal || s.ownBefore([]*Node{c})[c.Path]
	if err := store.WriteFile(c.Path, data, 0o644); err != nil {
		return err
	}
	s.remember(c)
	if own && !sc.personal {
		return s.recordOwn(map[string][]byte{c.Path: data})
	}
	return nil
}

// summaryPath maps "map" and "module:<name>" to their files. Module names
// are slugged ("src/checkout" → src-checkout.md), so names that differ
// only in punctuation share a summary.
func (s *Store) summaryPath(target string) (string, error) {
	t := strings.TrimSpace(target)
	dir := filepath.Join(s.rubiDir, "summaries")
	if t == "map" {
		return filepath.Join(dir, "map.md"), nil
	}
	if name, ok := strings.CutPrefix(t, "module:"); ok {
		sl := slug(name)
		if sl == "" || len(sl) > 120 {
			return "", fmt.Errorf("summary target %q: the module name must have letters or digits and be at most 120 of them", target)
		}
		return filepath.Join(dir, "modules", sl+".md"), nil
	}
	return "", fmt.Errorf("summary target %q: use \"map\" or \"module:<name>\"", target)
}

// WriteSummary stores a curated summary for target, "map" (level 0) or
// "module:<name>" (level 1), in .rubi/summaries/, where re-indexing never
// writes. Empty text removes the summary.
func (s *Store) WriteSummary(target, text string) error {
	p, err := s.summaryPath(target)
	if err != nil {
		return err
	}
	text = strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
	if len(text) > s.opts.MaxBody {
		return fmt.Errorf("summary is %d bytes; the limit is %d", len(text), s.opts.MaxBody)
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), lockWait)
	defer cancel()
	lock, err := store.LockWithin(ctx, s.root, filepath.Join(s.rubiDir, "summaries"))
	if err != nil {
		return err
	}
	defer lock.Unlock()
	if text == "" {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return s.recordOwn(nil, p)
	}
	data := []byte(text + "\n")
	if err := store.WriteFile(p, data, 0o644); err != nil {
		return err
	}
	return s.recordOwn(map[string][]byte{p: data})
}

// OwnSummary reports whether the curated summary of target is the user's:
// there is none, or its file is as rubi wrote it for this user. A
// summary the repository supplied is shown as the repository's.
func (s *Store) OwnSummary(target string) bool {
	p, err := s.summaryPath(target)
	if err != nil {
		return false
	}
	if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
		return true
	}
	return s.Owned(p)
}

// Summary returns the curated summary of target, if there is one.
func (s *Store) Summary(target string) (string, bool) {
	p, err := s.summaryPath(target)
	if err != nil {
		return "", false
	}
	data, err := store.ReadWithin(s.root, p, maxSummaryFile)
	if err != nil {
		return "", false
	}
	return strings.TrimSpace(string(data)), true
}
