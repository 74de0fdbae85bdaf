package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/store"
)

// The derived index of a project is two files under .rubi/index/:
//
//   - manifest.bin: per file what a refresh needs to decide nothing
//     changed (size, mtime, hash), what resolving imports needs (package,
//     imports), and the file's centrality. It stays small, so a refresh
//     and a query decode it quickly.
//   - symbols-<generation>.jsonl: each file's symbols, one JSON line per
//     file at an offset the manifest records, so a query reads the symbols
//     of the files it shows and nothing else.
//
// A new symbols file is written before the manifest that points at it;
// older generations are removed after. A reader holding an older manifest
// finds its generation gone and reloads.

// manifestVersion changes whenever the layout or the meaning of the facts
// changes; an older index is then rebuilt, not misread.
const manifestVersion = 6

// manifestFile is the manifest; legacyManifest, the gob file of versions
// 1 and 2, is removed once a new manifest is written.
const (
	manifestFile   = "manifest.bin"
	legacyManifest = "manifest.gob"
)

// fileRecord is what the index remembers of one file.
type fileRecord struct {
	Path     string
	Language string
	Size     int64
	// ModTime in Unix nanoseconds: with Size, it lets a refresh skip
	// reading files that did not change.
	ModTime int64
	// Hash of the content (SHA-256): tells a touched file from a changed
	// one, and anchors knowledge to a version of the file (in hex, see
	// FileHash).
	Hash    [32]byte
	Package string
	Imports []core.Import
	// Module is the code-map module the file belongs to.
	Module string
	// Doc describes the file in one line: its doc comment, or else the doc
	// of its first documented exported symbol.
	Doc string
	// Symbols counts the file's symbols; their details are in the symbols
	// file at SymOff, SymLen bytes.
	Symbols int
	SymOff  int64
	SymLen  int
	// ParseError says why the parser gave up on the file, if it did.
	ParseError string
	// Role is what the file is for (codemap.RoleOf): code, test, docs,
	// config, build, data, vendored or generated. Generated says its head
	// reads as generated code, which the role follows unless the
	// project's .gitattributes says otherwise.
	Role      string
	Generated bool
	// Rank is the file's PageRank in the import graph; Importers counts
	// the files that import it.
	Rank      float64
	Importers int

	// syms holds the symbols while this process has them: parsed in this
	// run (fresh), or read back for documents or rendering.
	syms   []core.Symbol
	loaded bool
	fresh  bool
	// importsRaw holds the encoded imports (importsN of them) as read from
	// the manifest, until imports() decodes them.
	importsRaw []byte
	importsN   int
}

// manifest is the derived index of one project.
type manifest struct {
	Version   int
	IndexedAt time.Time
	// Generation names the symbols file.
	Generation string
	// files holds the records by path: all of them, except in a manifest
	// read for queries, which decodes from table the records file asks
	// for and fills files when records is first called.
	files map[string]*fileRecord
	table *recordTable
	fill  sync.Once
	// modules summarizes each module for queries: read with a manifest,
	// computed from the records of a new one when first asked for.
	modules    map[string]moduleSummary
	modulesSet sync.Once
	// Rankers maps each ranker to the fingerprint of the configuration it
	// last indexed with; a different one calls for a full index.
	Rankers map[string]string
	// Parsers maps each language to the fingerprint of the parser that
	// parsed its files.
	Parsers map[string]string
	// Resolution is how the last resolution of imports went.
	Resolution Resolution
	// MapsFormat is the mapsFormat the maps on disk were rendered with.
	MapsFormat int
	// Roles is the signature of what decided the files' roles
	// (Engine.attributes): the .gitattributes files, hidden_roles and the
	// rules' format.
	Roles string
	// Stateful lists the rankers that left files in their state directory;
	// if those disappear, the ranker is indexed again.
	Stateful map[string]bool

	// edges are the resolved import edges when this run resolved or
	// reused them; edgesRaw, their stored form as read, decoded by
	// importEdges only when a run reuses them (hasEdges: it was read).
	edges    []core.Edge
	edgesRaw []byte
	hasEdges bool
	// edgesKept says edges were decoded from edgesRaw unchanged, so the
	// manifest writes the bytes back instead of encoding them again.
	edgesKept bool
	// sorted caches sortedPaths for queries running at once.
	sortMu sync.Mutex
	sorted []string
}

func newManifest() *manifest {
	return &manifest{Version: manifestVersion, files: map[string]*fileRecord{}, Rankers: map[string]string{}, Stateful: map[string]bool{}, Parsers: map[string]string{}}
}

// errNoIndex says the project has not been indexed yet.
var errNoIndex = errors.New("no index yet")

// loadManifest reads the manifest of the index directory. A missing one is
// errNoIndex; an unreadable or outdated one is an error the caller reports
// before rebuilding. whole is for index runs: the whole file is checked
// and every record decoded at once. Otherwise records are decoded as they
// are asked for (see decodeManifest).
func loadManifest(dir string, whole bool) (*manifest, error) {
	path := filepath.Join(dir, manifestFile)
	// Populated whole even for a query, which reads a few records: one
	// call that maps every page costs less than the page faults of a
	// binary search.
	mapped, err := store.Map(path)
	if os.IsNotExist(err) {
		return nil, errNoIndex
	}
	if err != nil {
		return nil, fmt.Errorf("read index %s: %w", path, err)
	}
	m, err := decodeManifest(mapped.Data, whole)
	if err != nil {
		mapped.Close()
		return nil, fmt.Errorf("index %s %v; it will be rebuilt", path, err)
	}
	if store.OneShot() {
		// The records keep slicing the mapping, which is never
		// released: see store.SetOneShot.
		return m, nil
	}
	if !whole {
		// The table decodes from the mapping for as long as the
		// manifest lives; what it decodes is copied out of it.
		m.edgesRaw = bytes.Clone(m.edgesRaw)
		store.CloseWith(m, mapped)
		return m, nil
	}
	m.detach()
	mapped.Close()
	return m, nil
}

// records returns every record by path, decoding those a manifest read
// for queries has not decoded yet. The map is the manifest's own.
func (m *manifest) records() map[string]*fileRecord {
	if m.table != nil {
		m.fill.Do(func() {
			files := make(map[string]*fileRecord, m.table.n)
			for i := range m.table.n {
				if r := m.table.get(i); r != nil {
					files[r.Path] = r
				}
			}
			m.files = files
		})
	}
	return m.files
}

// moduleSummary is what a query shows of a module: how many files it
// has and the names of its most central ones.
type moduleSummary struct {
	Files   int
	Central []string // base names, most central first, at most moduleCentral
}

const moduleCentral = 6

// summarizeModules computes the module summaries of the records.
func summarizeModules(files map[string]*fileRecord) map[string]moduleSummary {
	mods := map[string][]*fileRecord{}
	for _, r := range files {
		mods[r.Module] = append(mods[r.Module], r)
	}
	out := make(map[string]moduleSummary, len(mods))
	for name, fs := range mods {
		sort.Slice(fs, func(i, j int) bool {
			if fs[i].Rank != fs[j].Rank {
				return fs[i].Rank > fs[j].Rank
			}
			return fs[i].Path < fs[j].Path
		})
		s := moduleSummary{Files: len(fs), Central: make([]string, 0, min(len(fs), moduleCentral))}
		for _, f := range fs[:min(len(fs), moduleCentral)] {
			s.Central = append(s.Central, path.Base(f.Path))
		}
		out[name] = s
	}
	return out
}

// moduleSummaries returns the summary of every module by name.
func (m *manifest) moduleSummaries() map[string]moduleSummary {
	m.modulesSet.Do(func() {
		if m.modules == nil {
			m.modules = summarizeModules(m.records())
		}
	})
	return m.modules
}

// file returns the record of path p, decoding only it in a manifest read
// for queries.
// has reports whether the index holds the file p, without decoding its
// record.
func (m *manifest) has(p string) bool {
	if m.table != nil {
		return m.table.index(p) >= 0
	}
	_, ok := m.files[p]
	return ok
}

func (m *manifest) file(p string) (*fileRecord, bool) {
	if m.table != nil {
		return m.table.find(p)
	}
	r, ok := m.files[p]
	return r, ok
}

// detach copies the bytes the decoded manifest still slices from its file
// (imports and edges kept encoded) into one buffer of its own, so the file
// can be released: records outlive the manifest they were read with (an
// index run carries unchanged records into the next manifest, and a
// long-running process loads many manifests), so tying the mapping to the
// manifest's life would not be safe. A one-shot process skips the copy
// and keeps the mapping until it exits instead.
func (m *manifest) detach() {
	size := len(m.edgesRaw)
	for _, r := range m.files {
		size += len(r.importsRaw)
	}
	buf := make([]byte, 0, size)
	keep := func(b []byte) []byte {
		if b == nil {
			return nil
		}
		start := len(buf)
		buf = append(buf, b...)
		return buf[start:len(buf):len(buf)]
	}
	m.edgesRaw = keep(m.edgesRaw)
	for _, r := range m.files {
		r.importsRaw = keep(r.importsRaw)
	}
}

func symbolsFile(dir, generation string) string {
	return filepath.Join(dir, "symbols-"+generation+".jsonl")
}

// symbolsLine is one line of the symbols file.
type symbolsLine struct {
	Path    string        `json:"path"`
	Symbols []core.Symbol `json:"symbols"`
}

// save writes the symbols of the records parsed in this run, then the
// manifest, which is the commit point. Symbols are appended to the
// current generation's file: lines already there stay valid for readers
// holding an older manifest, and a one-file change writes one line
// instead of the whole file. A full index, a missing file or one that is
// mostly lines no record points at any more starts a new generation,
// written whole (unchanged records are copied from the old file as they
// are), and the files of older generations are removed.
func (m *manifest) save(dir string, prev *manifest) error {
	var old []byte
	var oldSize int64 = -1
	if prev != nil && prev.Generation != "" {
		if fi, err := os.Stat(symbolsFile(dir, prev.Generation)); err == nil {
			oldSize = fi.Size()
		}
	}
	var live, fresh int64
	for _, rec := range m.records() {
		switch {
		case rec.fresh:
			fresh += int64(len(rec.syms)) * 64 // an estimate: lines are not encoded yet
		case rec.SymLen > 0:
			live += int64(rec.SymLen)
		}
	}
	appendable := oldSize >= 0 && live > 0 && oldSize+fresh <= 2*(live+fresh)+1<<20
	if appendable {
		if err := m.appendSymbols(dir, prev.Generation, oldSize); err != nil {
			return err
		}
	} else {
		if oldSize >= 0 {
			var err error
			if old, err = os.ReadFile(symbolsFile(dir, prev.Generation)); err != nil {
				return fmt.Errorf("read symbols: %w", err)
			}
		}
		if err := m.rewriteSymbols(dir, old); err != nil {
			return err
		}
	}
	data, err := m.encode()
	if err != nil {
		return fmt.Errorf("encode index: %w", err)
	}
	if err := store.WriteFile(filepath.Join(dir, manifestFile), data, 0o644); err != nil {
		return err
	}
	os.Remove(filepath.Join(dir, legacyManifest))
	stale, _ := filepath.Glob(filepath.Join(dir, "symbols-*.jsonl"))
	for _, f := range stale {
		if f != symbolsFile(dir, m.Generation) {
			os.Remove(f)
		}
	}
	return nil
}

// symbolLine encodes the symbols line of a record.
func symbolLine(rec *fileRecord) ([]byte, error) {
	line, err := json.Marshal(symbolsLine{Path: rec.Path, Symbols: rec.syms})
	if err != nil {
		return nil, fmt.Errorf("encode symbols of %s: %w", rec.Path, err)
	}
	return append(line, '\n'), nil
}

// appendSymbols appends the lines of the records parsed in this run to
// the generation's file, which holds size bytes, and syncs it.
func (m *manifest) appendSymbols(dir, generation string, size int64) error {
	var buf bytes.Buffer
	for _, p := range m.sortedPaths() {
		rec := m.records()[p]
		if !rec.fresh {
			continue
		}
		rec.SymOff, rec.SymLen = 0, 0
		if len(rec.syms) == 0 {
			continue
		}
		line, err := symbolLine(rec)
		if err != nil {
			return err
		}
		rec.SymOff, rec.SymLen = size+int64(buf.Len()), len(line)
		buf.Write(line)
	}
	m.Generation = generation
	if buf.Len() == 0 {
		return nil
	}
	f, err := os.OpenFile(symbolsFile(dir, generation), os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("append symbols: %w", err)
	}
	// Write at the size this run saw rather than O_APPEND: a crash after
	// an earlier partial append leaves bytes no manifest points at, which
	// this write simply covers.
	_, err = f.WriteAt(buf.Bytes(), size)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("append symbols: %w", err)
	}
	return nil
}

// rewriteSymbols writes a new generation holding every record's symbols:
// records with symbols in hand are encoded, the others copied from old.
func (m *manifest) rewriteSymbols(dir string, old []byte) error {
	// The lines first, then one buffer of their size: growing it by
	// doubling would copy a large project's file several times over.
	paths := m.sortedPaths()
	lines := make([][]byte, len(paths))
	size := 0
	for i, p := range paths {
		rec := m.records()[p]
		switch {
		case rec.loaded && len(rec.syms) > 0:
			line, err := symbolLine(rec)
			if err != nil {
				return err
			}
			lines[i] = line
		case !rec.loaded && rec.SymLen > 0 && rec.SymOff >= 0 && rec.SymOff <= int64(len(old)) && int64(rec.SymLen) <= int64(len(old))-rec.SymOff:
			lines[i] = old[rec.SymOff : rec.SymOff+int64(rec.SymLen)]
		default:
			// No symbols, or their file vanished: the record keeps none.
			rec.SymOff, rec.SymLen = 0, 0
			continue
		}
		size += len(lines[i])
	}
	buf := make([]byte, 0, size)
	for i, p := range paths {
		if lines[i] == nil {
			continue
		}
		rec := m.records()[p]
		rec.SymOff, rec.SymLen = int64(len(buf)), len(lines[i])
		buf = append(buf, lines[i]...)
	}
	m.Generation = fmt.Sprintf("%x", time.Now().UnixNano())
	return store.WriteFile(symbolsFile(dir, m.Generation), buf, 0o644)
}

// openSymbols opens the symbols file of m's generation.
func (m *manifest) openSymbols(dir string) (*os.File, error) {
	if m == nil || m.Generation == "" {
		return nil, os.ErrNotExist
	}
	return os.Open(symbolsFile(dir, m.Generation))
}

// errSymbolsDamaged marks a symbols file shorter than the manifest says:
// truncated, or overwritten by something else.
var errSymbolsDamaged = errors.New("the symbols file is damaged")

// symbolsIntact reports whether m's symbols file holds every record's
// line, by its size: a cheap check an index run makes, which catches a
// truncated or missing file (a line that does not decode is caught when
// it is read).
func (m *manifest) symbolsIntact(dir string) bool {
	var need int64
	for _, rec := range m.records() {
		need = max(need, rec.SymOff+int64(rec.SymLen))
	}
	if need == 0 {
		return true
	}
	fi, err := os.Stat(symbolsFile(dir, m.Generation))
	return err == nil && fi.Mode().IsRegular() && fi.Size() >= need
}

// symbolReader loads records' symbols from one generation's file.
type symbolReader struct {
	f *os.File
	// size is the file's, once sized.
	size  int64
	sized bool
}

// read fills rec.syms, once.
func (r *symbolReader) read(rec *fileRecord) error {
	if rec.loaded {
		return nil
	}
	if rec.SymLen == 0 {
		rec.loaded = true
		return nil
	}
	if !r.sized {
		fi, err := r.f.Stat()
		if err != nil {
			return fmt.Errorf("read symbols of %s: %w (%w)", rec.Path, errSymbolsDamaged, err)
		}
		r.size, r.sized = fi.Size(), true
	}
	if rec.SymOff < 0 || rec.SymLen < 0 || rec.SymOff > r.size || int64(rec.SymLen) > r.size-rec.SymOff {
		// The line is sized before it is read: a manifest someone wrote
		// could claim a terabyte.
		return fmt.Errorf("read symbols of %s: %w (bytes %d to %d of a file of %d)", rec.Path, errSymbolsDamaged, rec.SymOff, rec.SymOff+int64(rec.SymLen), r.size)
	}
	data := make([]byte, rec.SymLen)
	if _, err := r.f.ReadAt(data, rec.SymOff); err != nil {
		return fmt.Errorf("read symbols of %s: %w (%w)", rec.Path, errSymbolsDamaged, err)
	}
	var line symbolsLine
	if err := json.Unmarshal(data, &line); err != nil || line.Path != rec.Path {
		return fmt.Errorf("symbols of %s do not match the index (%v): %w", rec.Path, err, errSymbolsDamaged)
	}
	for _, s := range line.Symbols {
		// Lines count from 1, as every parser gives them: the units of a
		// file are ranked by indexing its lines with them.
		if s.Line < 1 || s.EndLine < 0 {
			return fmt.Errorf("symbols of %s: %q is at line %d to %d: %w", rec.Path, s.Name, s.Line, s.EndLine, errSymbolsDamaged)
		}
	}
	rec.syms, rec.loaded = line.Symbols, true
	return nil
}

// sortedPaths returns the indexed paths in order.
//
// The list is computed once and shared: callers must not change it. A run
// fills the records before it first asks, and only replaces records after.
func (m *manifest) sortedPaths() []string {
	files := m.records()
	m.sortMu.Lock()
	defer m.sortMu.Unlock()
	if m.sorted != nil && len(m.sorted) == len(files) {
		return m.sorted
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	m.sorted = paths
	return paths
}

// facts rebuilds the FileFacts the resolver needs (no symbols).
func (rec *fileRecord) facts() core.FileFacts {
	return core.FileFacts{Path: rec.Path, Language: rec.Language, Package: rec.Package, Imports: rec.imports()}
}

// allFacts returns every file's facts (no symbols), in path order.
func (m *manifest) allFacts() []core.FileFacts {
	paths := m.sortedPaths()
	facts := make([]core.FileFacts, len(paths))
	for i, p := range paths {
		facts[i] = m.records()[p].facts()
	}
	return facts
}

// isGenerationGone reports an error from reading a symbols file that
// another process replaced meanwhile.
func isGenerationGone(err error) bool {
	return errors.Is(err, os.ErrNotExist) || err != nil && strings.Contains(err.Error(), "do not match the index")
}

// eachPath calls fn with every file's path, in path order, without
// decoding the records of a manifest read for queries; fn returns false
// to stop.
func (m *manifest) eachPath(fn func(p string) bool) {
	if m.table != nil {
		for i := range m.table.n {
			if !fn(string(m.table.pathAt(i))) {
				return
			}
		}
		return
	}
	for _, p := range m.sortedPaths() {
		if !fn(p) {
			return
		}
	}
}
