package knowledge

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/rubi-dev/rubi/core/codec"
)

// The parsed nodes can be kept between processes: a refresh of a project
// with thousands of nodes must not parse thousands of YAML files each time
// (the engine keeps the cache in its index directory). A cached node is
// trusted only while its file has the same modification time, size and
// inode, exactly as the in-memory cache; nodes whose frontmatter holds
// keys rubi does not know are never cached, since rewriting one must keep
// those keys and only the file has them.

// The cache file is rubi's binary encoding (core/codec), sealed with a
// CRC-32C:
//
//	magic "rubi-nodes\n", uvarint version
//	uvarint file count, then per file: string path, varint modification
//	  time (ns), varint size, uvarint inode, and its record as a string:
//	  the node, uvarint problem count and per problem: string path,
//	  varint line, string message
//	the node: strings id, type, status, importance, title; string lists
//	  files, symbols; uvarint link count, per link strings rel, target;
//	  string list supersedes; string superseded_by; byte 1 and a time when
//	  valid_until is set, else 0; string list tags; times created,
//	  updated; string commit; uvarint anchor count, per anchor (by key)
//	  strings key, value; string body; byte personal
//
// A time is its binary form (time.Time.MarshalBinary: instant and zone
// offset), as a string. A string list is a uvarint count and the strings.
//
// A record is decoded when its node is first asked for: a recall asks for
// a few dozen notes of thousands, and decoding them all was most of the
// cost of the cache (4 ms of a recall's 27 with 2,000 notes). An export
// writes a record it never decoded as it read it.
const (
	cacheMagic   = "rubi-nodes\n"
	cacheVersion = 3
	// eagerVersion is the version before records were delimited: still
	// read, never written.
	eagerVersion = 2
)

var errCacheCorrupt = errors.New("the node cache is damaged")

// ExportCache encodes the parsed node files this store holds when anything
// was parsed or dropped since the last export (changed); otherwise it
// encodes nothing, and the cache written last still holds.
func (s *Store) ExportCache() (data []byte, changed bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	changed = s.cacheBehind > 0
	if !changed {
		return nil, false, nil
	}
	paths := make([]string, 0, len(s.cache))
	for path, e := range s.cache {
		// A record not decoded came from a cache, which holds only
		// nodes it can.
		if e.raw != nil || e.node != nil && e.node.extra == nil {
			paths = append(paths, path)
		}
	}
	sort.Strings(paths)
	// Sized once: a graph of large notes would otherwise be copied
	// through every doubling, twice its size held at the peak.
	size := len(cacheMagic) + 16
	for _, path := range paths {
		e := s.cache[path]
		size += len(path) + len(e.raw) + 32
		if n := e.node; e.raw == nil {
			size += len(n.Title) + len(n.Body) + len(n.Path) + 256
			for _, f := range n.Files {
				size += len(f) + 8
			}
		}
	}
	b := make([]byte, 0, size)
	b = append(append(b, cacheMagic...), cacheVersion)
	b = binary.AppendUvarint(b, uint64(len(paths)))
	var rec []byte
	for _, path := range paths {
		e := s.cache[path]
		b = codec.AppendString(b, path)
		b = binary.AppendVarint(b, e.key.mod)
		b = binary.AppendVarint(b, e.key.size)
		b = binary.AppendUvarint(b, e.key.inode)
		if e.raw != nil {
			b = codec.AppendString(b, string(e.raw))
			continue
		}
		if rec, err = appendNode(rec[:0], e.node); err != nil {
			return nil, false, fmt.Errorf("encode the node cache: %s: %w", path, err)
		}
		rec = binary.AppendUvarint(rec, uint64(len(e.problems)))
		for _, p := range e.problems {
			rec = codec.AppendString(rec, p.Path)
			rec = binary.AppendVarint(rec, int64(p.Line))
			rec = codec.AppendString(rec, p.Message)
		}
		b = codec.AppendString(b, string(rec))
	}
	s.cacheBehind = 0
	return codec.Seal(b), changed, nil
}

func appendStrings(b []byte, ss []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(ss)))
	for _, s := range ss {
		b = codec.AppendString(b, s)
	}
	return b
}

func appendTime(b []byte, t time.Time) ([]byte, error) {
	tb, err := t.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return codec.AppendString(b, string(tb)), nil
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

func appendNode(b []byte, n *Node) ([]byte, error) {
	for _, s := range []string{n.ID, n.Type, n.Status, n.Importance, n.Title} {
		b = codec.AppendString(b, s)
	}
	b = appendStrings(b, n.Files)
	b = appendStrings(b, n.Symbols)
	b = binary.AppendUvarint(b, uint64(len(n.Links)))
	for _, l := range n.Links {
		b = codec.AppendString(codec.AppendString(b, l.Rel), l.Target)
	}
	b = appendStrings(b, n.Supersedes)
	b = codec.AppendString(b, n.SupersededBy)
	b = appendBool(b, n.ValidUntil != nil)
	var err error
	if n.ValidUntil != nil {
		if b, err = appendTime(b, *n.ValidUntil); err != nil {
			return nil, err
		}
	}
	b = appendStrings(b, n.Tags)
	if b, err = appendTime(b, n.Created); err != nil {
		return nil, err
	}
	if b, err = appendTime(b, n.Updated); err != nil {
		return nil, err
	}
	b = codec.AppendString(b, n.Commit)
	keys := make([]string, 0, len(n.Anchors))
	for k := range n.Anchors {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b = binary.AppendUvarint(b, uint64(len(keys)))
	for _, k := range keys {
		b = codec.AppendString(codec.AppendString(b, k), n.Anchors[k])
	}
	b = codec.AppendString(b, n.Body)
	return appendBool(b, n.Personal), nil
}

// CacheCurrent says whether head, the start of a node cache, is of the
// cache's current version: a run that finds the notes unchanged still
// reads them when it is not, so that the cache is written again.
func CacheCurrent(head []byte) bool {
	return len(head) > len(cacheMagic) && bytes.HasPrefix(head, []byte(cacheMagic)) && head[len(cacheMagic)] == cacheVersion
}

// CacheHead is how much of a node cache CacheCurrent reads.
const CacheHead = len(cacheMagic) + 1

// errCacheVersion says a cache was written by another version of rubi.
var errCacheVersion = errors.New("the node cache has another version")

// CacheOutdated says the cache on disk is not this store's to keep (an
// older rubi's): the next export encodes every node, changed or not.
func (s *Store) CacheOutdated() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cacheBehind = max(s.cacheBehind, 1)
}

// CacheBehind counts the node files parsed, written or dropped since the
// cache was imported or last exported: an index run that parsed a few
// may leave the export to a later run, which costs the next process
// parsing those few again.
func (s *Store) CacheBehind() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cacheBehind
}

// ImportCache adds the node files of an exported cache to this store's
// cache, without touching files already read by this process. The nodes'
// strings are views of data, which must not change afterwards: a copy of
// a cache of thousands of notes costs a hook as much as decoding it. A
// cache that cannot be decoded is an error and changes nothing; the
// caller drops it.
func (s *Store) ImportCache(data []byte) error { return s.importCache(data, true) }

// ImportWrittenCache is ImportCache of the very cache file an index run
// wrote, unchanged since (store.Unchanged): its checksum, which reads all
// of it, is not checked again. Each record is still decoded with bounds
// checks when its node is asked for.
func (s *Store) ImportWrittenCache(data []byte) error { return s.importCache(data, false) }

func (s *Store) importCache(data []byte, verify bool) error {
	if !bytes.HasPrefix(data, []byte(cacheMagic)) || len(data) <= len(cacheMagic) {
		return errCacheVersion
	}
	version := data[len(cacheMagic)]
	if version != cacheVersion && version != eagerVersion {
		return errCacheVersion
	}
	body, ok := data[:max(len(data)-4, 0)], len(data) >= 4
	if verify {
		body, ok = codec.Unseal(data)
	}
	if !ok || len(body) <= len(cacheMagic) {
		// The checksum may cover less than the head: it is the last 4
		// bytes of whatever the file holds.
		return errCacheCorrupt
	}
	rest := body[len(cacheMagic)+1:]
	d := &nodeDecoder{Decoder: codec.ViewDecoder(rest, errCacheCorrupt), intern: map[string]string{}}
	type file struct {
		path     string
		key      fileKey
		raw      []byte
		node     *Node
		problems []Problem
	}
	files := make([]file, d.Count(8))
	for i := range files {
		f := &files[i]
		f.path = d.View()
		f.key = fileKey{mod: d.Varint(), size: d.Varint(), inode: d.Uvarint()}
		if version == cacheVersion {
			f.raw = d.Bytes()
			if d.Err == nil && len(f.raw) == 0 {
				d.Err = errCacheCorrupt // a record holds a node at least
			}
			continue
		}
		// An older rubi's cache, whose records are not delimited, is
		// decoded whole, as that rubi did: an upgraded user's recall
		// reads the notes through it until an index run writes this
		// version's.
		f.node, f.problems = d.record()
		if d.Err == nil && !readable(f.node) {
			return fmt.Errorf("%w: %s holds a node no file reads as (id %q)", errCacheCorrupt, f.path, trunc(f.node.ID, 40))
		}
	}
	if d.Err != nil || len(d.B) != 0 {
		return errCacheCorrupt
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range files {
		if f.path == "" {
			continue
		}
		if _, ok := s.cache[f.path]; ok {
			continue
		}
		if f.node != nil {
			f.node.Path = f.path
		}
		s.cache[f.path] = &entry{key: f.key, raw: f.raw, node: f.node, problems: f.problems}
	}
	return nil
}

// record reads a node and its problems.
func (d *nodeDecoder) record() (*Node, []Problem) {
	n := d.node()
	var problems []Problem
	if k := d.Count(3); k > 0 {
		problems = make([]Problem, k)
		for i := range problems {
			problems[i] = Problem{Path: d.View(), Line: int(d.Varint()), Message: d.View()}
		}
	}
	return n, problems
}

// decodeEntry reads an imported record into its entry, for the node file
// at path: false when it does not decode to a node decodeNode could have
// read, which a cache someone wrote need not hold. s.mu is held.
func (s *Store) decodeEntry(path string, e *entry) bool {
	d := &nodeDecoder{Decoder: codec.ViewDecoder(e.raw, errCacheCorrupt), intern: s.intern}
	n, problems := d.record()
	if d.Err != nil || len(d.B) != 0 || !readable(n) {
		return false
	}
	n.Path = path
	e.node, e.problems, e.raw = n, problems, nil
	return true
}

// readable reports a node as decodeNode gives them: an id rubi writes
// files under, a title, a type, status and importance in their canonical
// forms.
func readable(n *Node) bool {
	t, okT := canonicalType(n.Type)
	st, okS := canonicalStatus(n.Status)
	im, okI := canonicalImportance(n.Importance)
	return validateID(n.ID) == nil && n.Title != "" && okT && t == n.Type && okS && st == n.Status && okI && im == n.Importance
}

// nodeDecoder reads cached nodes; the values that repeat from node to
// node (types, statuses, importances, relations) are allocated once, and
// the others are views of the cache's bytes (codec.ViewDecoder):
// thousands of notes would otherwise cost a string allocation per field.
type nodeDecoder struct {
	codec.Decoder
	intern map[string]string
}

func (d *nodeDecoder) interned() string { return d.Interned(d.intern) }

func (d *nodeDecoder) strings() []string {
	n := d.Count(1)
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.View()
	}
	return out
}

func (d *nodeDecoder) time() time.Time {
	var t time.Time
	if err := t.UnmarshalBinary(d.Bytes()); err != nil {
		d.Err = errCacheCorrupt
	}
	return t
}

func (d *nodeDecoder) bool() bool {
	switch d.Byte() {
	case 0:
		return false
	case 1:
		return true
	}
	d.Err = errCacheCorrupt
	return false
}

func (d *nodeDecoder) node() *Node {
	n := &Node{ID: d.View(), Type: d.interned(), Status: d.interned(), Importance: d.interned(), Title: d.View()}
	n.Files = d.strings()
	n.Symbols = d.strings()
	if k := d.Count(2); k > 0 {
		n.Links = make([]Link, k)
		for i := range n.Links {
			n.Links[i] = Link{Rel: d.interned(), Target: d.View()}
		}
	}
	n.Supersedes = d.strings()
	n.SupersededBy = d.View()
	if d.bool() {
		t := d.time()
		n.ValidUntil = &t
	}
	n.Tags = d.strings()
	n.Created, n.Updated = d.time(), d.time()
	n.Commit = d.View()
	if k := d.Count(2); k > 0 {
		n.Anchors = make(map[string]string, k)
		for range k {
			key := d.View()
			n.Anchors[key] = d.View()
		}
	}
	n.Body = d.View()
	n.Personal = d.bool()
	return n
}
