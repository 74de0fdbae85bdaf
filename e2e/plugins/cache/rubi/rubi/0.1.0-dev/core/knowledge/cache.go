package knowledge

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"sort"
)

// The parsed nodes can be kept between processes: a refresh of a project
// with thousands of nodes must not parse thousands of YAML files each time
// (the engine keeps the cache in its index directory). A cached node is
// trusted only while its file has the same modification time, size and
// inode, exactly as the in-memory cache; nodes whose frontmatter holds
// keys rubi does not know are never cached, since rewriting one must keep
// those keys and only the file has them.

// cacheVersion changes with the cached form; another version is ignored.
const cacheVersion = 1

type cachedFile struct {
	Path     string
	Mod      int64
	Size     int64
	Inode    uint64
	Node     *Node
	Problems []Problem
}

type cacheFile struct {
	Version int
	Files   []cachedFile
}

// ExportCache encodes the parsed node files this store holds when anything
// was parsed or dropped since the last export (changed); otherwise it
// encodes nothing, and the cache written last still holds.
func (s *Store) ExportCache() (data []byte, changed bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	changed = s.cacheDirty
	if !changed {
		return nil, false, nil
	}
	var cf cacheFile
	cf.Version = cacheVersion
	for path, e := range s.cache {
		if e.node == nil || e.node.extra != nil {
			continue
		}
		cf.Files = append(cf.Files, cachedFile{Path: path, Mod: e.key.mod, Size: e.key.size, Inode: e.key.inode, Node: e.node, Problems: e.problems})
	}
	sort.Slice(cf.Files, func(i, j int) bool { return cf.Files[i].Path < cf.Files[j].Path })
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&cf); err != nil {
		return nil, false, fmt.Errorf("encode the node cache: %w", err)
	}
	s.cacheDirty = false
	return buf.Bytes(), changed, nil
}

// errCacheVersion says a cache was written by another version of rubi.
var errCacheVersion = errors.New("the node cache has another version")

// ImportCache adds the node files of an exported cache to this store's
// cache, without touching files already read by this process. A cache that
// cannot be decoded is an error and changes nothing; the caller drops it.
func (s *Store) ImportCache(data []byte) error {
	var cf cacheFile
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&cf); err != nil {
		return fmt.Errorf("the node cache is damaged: %w", err)
	}
	if cf.Version != cacheVersion {
		return errCacheVersion
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range cf.Files {
		if f.Node == nil || f.Path == "" {
			continue
		}
		if _, ok := s.cache[f.Path]; ok {
			continue
		}
		n := f.Node
		n.Path = f.Path
		s.cache[f.Path] = &entry{key: fileKey{mod: f.Mod, size: f.Size, inode: f.Inode}, node: n, problems: f.Problems}
	}
	return nil
}
