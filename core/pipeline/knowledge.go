package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/notes"
	"github.com/rubi-dev/rubi/core/notesindex"
	"github.com/rubi-dev/rubi/core/project"
	"github.com/rubi-dev/rubi/core/store"
)

// edgeAbout is the kind of an edge from a document to a file it is
// about: a note's, a chunk's (core/notesindex), a source's item's.
const edgeAbout = notesindex.EdgeAbout

// Project is the project this engine indexes: its data folder, its
// knowledge, memory and handoffs, with the code map backed by the index
// so the notes' anchors and file checks agree with it.
func (e *Engine) Project() *project.Project { return e.project }

// indexCodeMap answers the knowledge store from the index manifest.
type indexCodeMap struct {
	e  *Engine
	mu sync.Mutex
	// For the manifest m: its symbols file, read on first use, and the
	// answers found so far. (A manifest, not a generation: an update
	// appends to its generation's file.)
	m     *manifest.Manifest
	data  []byte
	found map[string]symbolAt
}

type symbolAt struct {
	file, signature string
	ok              bool
}

// FileHash answers from the manifest when the engine has read it; it does
// not read it for one hash (the store then hashes the file on disk, which
// is what the index would say of an up-to-date file).
func (c *indexCodeMap) FileHash(p string) (string, bool) {
	m := c.e.folder.held()
	if m == nil {
		return "", false
	}
	if rec, ok := m.File(p); ok {
		return hex.EncodeToString(rec.Hash[:]), true
	}
	return "", false
}

// Symbol finds where name is defined. Of several definitions, an exported
// one in the most central file wins. It scans the symbols file for the
// name and decodes only the lines that hold it: a staleness check on a
// query path must not decode every symbol of a large project.
func (c *indexCodeMap) Symbol(name string) (string, string, bool) {
	m, err := c.e.folder.current()
	if err != nil {
		return "", "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m != m || c.found == nil {
		c.m, c.data, c.found = m, nil, map[string]symbolAt{}
	}
	r, done := c.found[name]
	if !done {
		r = c.lookup(m, name)
		c.found[name] = r
	}
	return r.file, r.signature, r.ok
}

// Symbols returns the symbols of the project file p as parsed from
// content: the index's when the file it parsed had that content, else
// those the parser of p's language finds in it now (a file changed since
// the last index, or an older version of it whose anchors are migrated).
// ok is false when no parser handles the file's language.
func (c *indexCodeMap) Symbols(p string, content []byte) ([]core.Symbol, bool) {
	if m, err := c.e.folder.current(); err == nil {
		if rec, ok := m.File(p); ok && rec.Hash == sha256.Sum256(content) {
			if syms, ok := c.stored(m, rec); ok {
				return syms, true
			}
		}
	}
	return c.e.stages.parseOne(p, content)
}

// stored decodes a record's line of the symbols file, read alone: a
// note's staleness must not read the symbols of a whole large project.
func (c *indexCodeMap) stored(m *manifest.Manifest, rec *manifest.Record) ([]core.Symbol, bool) {
	if rec.SymLen == 0 {
		return nil, true
	}
	if rec.SymOff < 0 || rec.SymLen < 0 || rec.SymLen > maxSymbolsFile {
		return nil, false
	}
	f, err := m.OpenSymbols(c.e.folder.dir)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	data := make([]byte, rec.SymLen)
	if _, err := f.ReadAt(data, rec.SymOff); err != nil {
		return nil, false
	}
	var line manifest.SymbolsLine
	if json.Unmarshal(data, &line) != nil || line.Path != core.EscapePath(rec.Path) {
		return nil, false
	}
	return line.Symbols, true
}

func (c *indexCodeMap) lookup(m *manifest.Manifest, name string) symbolAt {
	if c.data == nil {
		data, err := store.ReadLeaf(manifest.SymbolsFile(c.e.folder.dir, m.Generation), maxSymbolsFile)
		if err != nil {
			return symbolAt{}
		}
		c.data = data
	}
	quoted, _ := json.Marshal(name)
	needle := append([]byte(`"name":`), quoted...)
	var best symbolAt
	var bestExported bool
	bestRank := -1.0
	for from := 0; from < len(c.data); {
		i := bytes.Index(c.data[from:], needle)
		if i < 0 {
			break
		}
		i += from
		start := bytes.LastIndexByte(c.data[:i], '\n') + 1
		end := len(c.data)
		if k := bytes.IndexByte(c.data[i:], '\n'); k >= 0 {
			end = i + k
		}
		from = end + 1
		var line manifest.SymbolsLine
		if json.Unmarshal(c.data[start:end], &line) != nil {
			continue
		}
		rec, ok := m.File(line.Path)
		if !ok || rec.SymOff != int64(start) {
			continue // a file no longer indexed, or an older line of it
		}
		for _, s := range line.Symbols {
			better := s.Exported && !bestExported || s.Exported == bestExported && rec.Rank > bestRank
			if s.Name == name && (!best.ok || better) {
				best, bestExported, bestRank = symbolAt{line.Path, s.Signature, true}, s.Exported, rec.Rank
			}
		}
	}
	return best
}

// Notes are the project's knowledge nodes as the index reads them: its
// critical notes, for a session start, among them.
func (e *Engine) Notes() *notes.Nodes { return e.nodes }
