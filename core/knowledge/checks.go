package knowledge

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/rubi-dev/rubi/core/codec"
)

// A note's check against the code (Stale) reads each file it is anchored
// to and tokenizes it: in the recall hook, the check of the six notes it
// shows was a third of its time. An index run checks every note and keeps
// each check with the version of each file it read (Checks); Stale then
// takes a kept check while the note's anchors and every one of those
// files are as they were, and checks the note again otherwise. A check
// that read more than files (anchors of an older rubi, looked up in the
// code map) is not kept.

// Check is one note's check: what Stale said, the anchors it checked
// (their sum) and the files it read.
type Check struct {
	ID      string
	Anchors uint64
	Files   []CheckedFile
	Stale   []string
}

// CheckedFile is a file a check read, with its version then (time, size
// and inode, as the node cache keys node files): Exists is false when it
// was not there.
type CheckedFile struct {
	Path   string
	Exists bool
	key    fileKey
}

// anchorsSum is the sum of a note's anchors, in the order of their keys.
func anchorsSum(anchors map[string]string) uint64 {
	keys := make([]string, 0, len(anchors))
	for k := range anchors {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := fnv.New64a()
	for _, k := range keys {
		h.Write([]byte(k))
		h.Write([]byte{0})
		h.Write([]byte(anchors[k]))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// holds says whether c is still the check of n: the same anchors, and
// each file it read at the same version, or still missing.
func (s *Store) holds(c *Check, n *Node) bool {
	if c.Anchors != anchorsSum(n.Anchors) {
		return false
	}
	for _, f := range c.Files {
		fi, err := os.Lstat(filepath.Join(s.root, filepath.FromSlash(f.Path)))
		exists := err == nil && fi.Mode().IsRegular()
		if exists != f.Exists || exists && keyOf(fi) != f.key {
			return false
		}
	}
	return true
}

// checked returns the kept check of n when it still holds.
func (s *Store) checked(n *Node) ([]string, bool) {
	s.hashMu.Lock()
	c, ok := s.checks[n.ID]
	s.hashMu.Unlock()
	if !ok || !s.holds(c, n) {
		return nil, false
	}
	if len(c.Stale) == 0 {
		return nil, true
	}
	return slices.Clone(c.Stale), true
}

// ImportChecks keeps the checks of data (ExportChecks' encoding) for
// Stale. Damaged data is refused whole and nothing is kept.
func (s *Store) ImportChecks(data []byte) error {
	basis, checks, err := decodeChecks(data)
	if err != nil {
		return err
	}
	s.hashMu.Lock()
	s.checks, s.checksBasis = checks, basis
	s.hashMu.Unlock()
	return nil
}

// ExportChecks checks every note of the project with anchors, taking the
// imported check of a note where it still holds, keeps the checks and
// encodes them; changed is false when they are the checks imported.
// basis names what else a check's verdict rests on (the parsers that
// found the symbols' lines, as the index's manifest lists them): checks
// made on another basis are all made again.
func (s *Store) ExportChecks(basis string) (data []byte, changed bool, err error) {
	nodes := s.load(&s.project).nodes
	s.hashMu.Lock()
	before := s.checks
	if s.checksBasis != basis {
		before = nil
	}
	s.hashMu.Unlock()
	next := map[string]*Check{}
	for _, n := range nodes {
		if n.Personal || len(n.Anchors) == 0 {
			continue
		}
		if c, ok := before[n.ID]; ok && s.holds(c, n) {
			next[n.ID] = c
			continue
		}
		changed = true
		if _, c := s.check(n); c != nil {
			next[n.ID] = c
		}
	}
	// None imported (no file yet, or a damaged one): the checks are
	// written, none or not, so that the next run finds them.
	if before == nil || len(next) != len(before) {
		changed = true
	}
	s.hashMu.Lock()
	s.checks, s.checksBasis = next, basis
	s.hashMu.Unlock()
	return encodeChecks(basis, next), changed, nil
}

// The checks' file: a magic line, the basis, then each check (by id) as
// uvarint lengths and counts: its id, the anchors' sum (8 bytes), its files
// (path, exists, time, size, inode) and what Stale said; core/codec's
// CRC-32C trailer ends it.
const checksMagic = "rubi-checks 2\n"

var errChecksDamaged = errors.New("the notes' checks are damaged")

// ChecksHead is how much of a checks file ChecksCurrent reads.
const ChecksHead = len(checksMagic)

// ChecksCurrent says whether head, the start of a checks file, is of this
// rubi's format: a run that changed nothing still writes the checks when
// it is not.
func ChecksCurrent(head []byte) bool { return string(head) == checksMagic }

func encodeChecks(basis string, checks map[string]*Check) []byte {
	b := []byte(checksMagic)
	b = codec.AppendString(b, basis)
	b = binary.AppendUvarint(b, uint64(len(checks)))
	ids := make([]string, 0, len(checks))
	for id := range checks {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		c := checks[id]
		b = codec.AppendString(b, id)
		b = binary.LittleEndian.AppendUint64(b, c.Anchors)
		b = binary.AppendUvarint(b, uint64(len(c.Files)))
		for _, f := range c.Files {
			b = codec.AppendString(b, f.Path)
			exists := byte(0)
			if f.Exists {
				exists = 1
			}
			b = append(b, exists)
			b = binary.AppendVarint(b, f.key.mod)
			b = binary.AppendVarint(b, f.key.size)
			b = binary.AppendUvarint(b, f.key.inode)
		}
		b = binary.AppendUvarint(b, uint64(len(c.Stale)))
		for _, line := range c.Stale {
			b = codec.AppendString(b, line)
		}
	}
	return codec.Seal(b)
}

func decodeChecks(data []byte) (string, map[string]*Check, error) {
	sealed, ok := codec.Unseal(data)
	body, isChecks := bytes.CutPrefix(sealed, []byte(checksMagic))
	if !ok || !isChecks {
		return "", nil, errChecksDamaged
	}
	d := codec.Decoder{B: body, Corrupt: errChecksDamaged}
	basis := d.String()
	n := d.Count(8)
	out := make(map[string]*Check, n)
	for range n {
		c := &Check{ID: d.String()}
		if raw := d.Raw(8); d.Err == nil {
			c.Anchors = binary.LittleEndian.Uint64(raw)
		}
		c.Files = make([]CheckedFile, d.Count(4))
		for i := range c.Files {
			f := &c.Files[i]
			f.Path = d.String()
			f.Exists = d.Byte() == 1
			f.key = fileKey{mod: d.Varint(), size: d.Varint(), inode: d.Uvarint()}
		}
		c.Stale = make([]string, d.Count(1))
		for i := range c.Stale {
			c.Stale[i] = d.String()
		}
		if d.Err != nil {
			return "", nil, errChecksDamaged
		}
		out[c.ID] = c
	}
	if d.Err != nil || len(d.B) != 0 {
		return "", nil, errChecksDamaged
	}
	return basis, out, nil
}
