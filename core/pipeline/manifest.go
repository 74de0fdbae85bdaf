package pipeline

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/store"
)

// manifestVersion changes whenever the manifest's layout or the meaning
// of its facts changes; an older manifest is then rebuilt, not misread.
const manifestVersion = 1

// manifestFile is the index's own record, under .rubi/index/.
const manifestFile = "manifest.gob"

// fileRecord is what the index remembers of one file.
type fileRecord struct {
	Path     string
	Language string
	Size     int64
	// ModTime in Unix nanoseconds: with Size, it lets a re-index skip
	// reading files that did not change.
	ModTime int64
	// Hash of the content (SHA-256, hex), to tell a touched file from a
	// changed one and to anchor knowledge to a version of a file.
	Hash  string
	Facts core.FileFacts
	// Rank is the file's PageRank in the import graph.
	Rank float64
}

// manifest is the derived index of one project.
type manifest struct {
	Version   int
	IndexedAt time.Time
	Files     map[string]*fileRecord
	Edges     []core.Edge
	// Rankers maps each ranker to the fingerprint of the configuration it
	// last indexed with; a different one calls for a full index.
	Rankers map[string]string
}

func newManifest() *manifest {
	return &manifest{Version: manifestVersion, Files: map[string]*fileRecord{}, Rankers: map[string]string{}}
}

// errNoIndex says the project has not been indexed yet.
var errNoIndex = errors.New("no index yet")

// loadManifest reads the manifest of the index directory. A missing one is
// errNoIndex; an unreadable or outdated one is an error the caller reports
// before rebuilding.
func loadManifest(dir string) (*manifest, error) {
	path := filepath.Join(dir, manifestFile)
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, errNoIndex
	}
	if err != nil {
		return nil, fmt.Errorf("read index %s: %w", path, err)
	}
	var m manifest
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&m); err != nil {
		return nil, fmt.Errorf("index %s is damaged (%v); it will be rebuilt", path, err)
	}
	if m.Version != manifestVersion {
		return nil, fmt.Errorf("index %s has format %d, this rubi writes %d; it will be rebuilt", path, m.Version, manifestVersion)
	}
	if m.Files == nil {
		m.Files = map[string]*fileRecord{}
	}
	if m.Rankers == nil {
		m.Rankers = map[string]string{}
	}
	return &m, nil
}

func (m *manifest) save(dir string) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(m); err != nil {
		return fmt.Errorf("encode index: %w", err)
	}
	return store.WriteFile(filepath.Join(dir, manifestFile), buf.Bytes(), 0o644)
}

// sortedPaths returns the indexed paths in order.
func (m *manifest) sortedPaths() []string {
	paths := make([]string, 0, len(m.Files))
	for p := range m.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths
}
