package knowledge

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Confirmed is what Confirm did to one note.
type Confirmed struct {
	Ref string `json:"ref"`
	ID  string `json:"id,omitempty"`
	// Anchors are the note's anchor keys now.
	Anchors []string `json:"anchors,omitempty"`
	// Unknown names the files and symbols of the note found nowhere now:
	// they are not anchored.
	Unknown []string `json:"unknown,omitempty"`
	Error   string   `json:"error,omitempty"`
}

// Confirm re-anchors notes (ids or titles) to the code as it is now: the
// note's text is kept; its anchors, updated and commit fields are
// rewritten, atomically, under the knowledge directory's lock. It is how
// a reader says a stale note still holds. Personal notes have no anchors
// and are refused.
func (s *Store) Confirm(refs []string) []Confirmed {
	out := make([]Confirmed, 0, len(refs))
	for _, ref := range refs {
		c := Confirmed{Ref: ref}
		n, err := s.Get(ref)
		switch {
		case err != nil:
			c.Error = err.Error()
		case n.Personal:
			c.ID, c.Error = n.ID, "a personal note is not anchored to a project's code"
		default:
			c.ID = n.ID
			err = s.update(&s.project, n.ID, func(_ *loaded, cur *Node) (*Node, error) {
				nn := cur.Clone()
				anchors, files, syms := anchorsOf(nn, s.codeNow())
				if len(anchors) == 0 {
					anchors = nil
				}
				nn.Anchors, nn.Updated, nn.Commit = anchors, s.now(), headCommit(s.root)
				c.Anchors = sortedKeys(anchors)
				c.Unknown = append(files, syms...)
				return nn, nil
			})
			if err != nil {
				c.Error = err.Error()
			}
		}
		out = append(out, c)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// OldContent finds a project file as it was when a note was anchored: the
// content whose SHA-256 (hex) is hash, looking first at the note's commit
// (its short hash; "" when the note has none). ok is false when it cannot
// be found. The caller verifies nothing: Migrate checks the hash.
type OldContent func(rel, hash, commit string) (content []byte, ok bool)

// Migrated is what Migrate did to one note.
type Migrated struct {
	ID string `json:"id"`
	// Files are the files whose whole-file anchors became anchors on
	// their code and symbols.
	Files []string `json:"files,omitempty"`
	// Kept are the files whose old anchor stays: their content as the
	// note knew it was found neither on disk nor in git.
	Kept  []string `json:"kept,omitempty"`
	Error string   `json:"error,omitempty"`
}

// Migrate turns the anchors of the old kind (the SHA-256 of a whole file)
// into anchors on the code the note is about (anchor.go), computed from
// each file's content as it was when the note was anchored, not as it is
// now: a note that was stale stays stale. That content is the file on
// disk when it still has the old hash, else what old finds (git, at the
// note's commit or later), checked against the hash. A file whose old
// content is found nowhere keeps its old anchor, and is reported. A
// listed symbol's signature anchor ("symbol:Name") is replaced by the
// symbol's body anchor when one of the note's migrated files declares it,
// else kept. A kept file's anchor becomes "whole:<hash>": checked as
// before, and not looked for again. Each note is rewritten (its anchors
// only) atomically under the directory's lock, and read again under it,
// so that concurrent rubi processes neither lose a write nor migrate
// twice. Running it again changes nothing. Personal notes have no
// anchors.
func (s *Store) Migrate(old OldContent) ([]Migrated, error) {
	nodes, _ := s.Nodes()
	var out []Migrated
	for _, n := range nodes {
		if n.Personal || !Legacy(n) {
			continue
		}
		m := Migrated{ID: n.ID}
		err := s.update(&s.project, n.ID, func(_ *loaded, cur *Node) (*Node, error) {
			m.Files, m.Kept = nil, nil
			if !Legacy(cur) {
				return nil, nil // another process migrated it
			}
			return s.migrate(cur, old, &m), nil
		})
		if err != nil {
			m.Error = err.Error()
		}
		if err != nil || len(m.Files) > 0 || len(m.Kept) > 0 {
			out = append(out, m)
		}
	}
	return out, nil
}

// migrate returns n with its anchors migrated, or nil when nothing
// changes.
func (s *Store) migrate(n *Node, old OldContent, m *Migrated) *Node {
	found := map[string][]byte{}
	for k, v := range n.Anchors {
		if !legacy(v) || strings.HasPrefix(k, "symbol:") {
			continue
		}
		rel, err := cleanFile(s.root, k)
		if err != nil {
			m.Kept = append(m.Kept, k)
			continue
		}
		if data, ok := s.readNow(rel); ok && sha(data) == v {
			found[rel] = data
		} else if data, ok := old(rel, v, n.Commit); ok && sha(data) == v {
			found[rel] = data
		} else {
			m.Kept = append(m.Kept, k)
		}
	}
	if len(found) == 0 && len(m.Kept) == 0 {
		return nil
	}
	// The note as it was, limited to the files found: its listed symbols
	// are looked for in them only (a symbol's file elsewhere has no old
	// content to anchor it to).
	then := n.Clone()
	then.Files = nil
	for _, f := range n.Files {
		if _, ok := found[f]; ok {
			then.Files = append(then.Files, f)
		}
	}
	in := anchorInput{read: func(rel string) ([]byte, bool) {
		data, ok := found[rel]
		return data, ok
	}, mask: s.opts.MaskComments}
	if s.opts.Code != nil {
		if src, ok := s.opts.Code.(SymbolSource); ok {
			in.syms = src.Symbols
		}
	}
	fresh, _, _ := anchorsOf(then, in)
	c := n.Clone()
	anchors := map[string]string{}
	for k, v := range n.Anchors {
		if _, migrated := found[k]; migrated && legacy(v) {
			continue
		}
		if slices.Contains(m.Kept, k) && legacy(v) {
			// Found nowhere: still the whole file, not looked for again.
			anchors[k] = wholePrefix + v
			continue
		}
		if name, ok := strings.CutPrefix(k, "symbol:"); ok && legacy(v) {
			if replaced := slices.ContainsFunc(sortedKeys(fresh), func(f string) bool { return strings.HasSuffix(f, "#"+name) }); replaced {
				continue
			}
		}
		anchors[k] = v
	}
	for k, v := range fresh {
		anchors[k] = v
	}
	c.Anchors = anchors
	m.Files = sortedKeys(found)
	sort.Strings(m.Kept)
	return c
}

func sha(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// String is the one-line summary of a migration.
func (m Migrated) String() string {
	switch {
	case m.Error != "":
		return fmt.Sprintf("%s: %s", m.ID, m.Error)
	case len(m.Files) == 0:
		return fmt.Sprintf("%s: kept the whole-file anchor of %s (its content then was not found)", m.ID, strings.Join(m.Kept, ", "))
	case len(m.Kept) > 0:
		return fmt.Sprintf("%s: anchored to the code of %s; kept the whole-file anchor of %s (its content then was not found)", m.ID, strings.Join(m.Files, ", "), strings.Join(m.Kept, ", "))
	}
	return fmt.Sprintf("%s: anchored to the code of %s", m.ID, strings.Join(m.Files, ", "))
}
