// Package manifest is the on-disk format of a project's derived index:
// the manifest, which records what the index knows of each file, and the
// symbols file it points into. It reads and writes them; building the
// index and searching it are the pipeline's (core/pipeline).
//
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
// and beside them the table of references the manifest names
// (refs-<generation>.bin, core/refs), which the pipeline writes before
// the manifest and removes the older ones of after.
//
// The manifest also keeps what the index run knew of the project as a
// whole: each module's file count and central files (for the map and the
// module items of an answer, without decoding a record), the resolved
// import edges (reused when no import changed), each ranker's and
// parser's configuration fingerprint (a different one calls for a full
// index), and the signature of what decided the files' roles (a change
// makes the next run a full one).
//
// Its binary layout (codec.go) serves two readers. An index run checks
// the whole file and decodes every record. A query, often a fresh
// process, maps the file, checks only its head (the header, the module
// summaries and a table of record offsets, with a CRC-32C of their own)
// and decodes just the records it shows, found by binary search on the
// path. A damaged manifest, or one of an older Version, is reported and
// the index rebuilt.
//
// A new symbols file is written before the manifest that points at it;
// older generations are removed after. A reader holding an older manifest
// finds its generation gone and reloads. An update appends the changed
// files' lines to the current generation, so older offsets stay valid; a
// full index, or a file mostly made of lines no record points at any
// more, starts a new generation, unchanged records copied byte for byte.
package manifest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/store"
)

// Version is the manifest's format. It changes whenever the layout or
// the meaning of the facts changes; an older index is then rebuilt, not
// misread.
const Version = 7

// FileName is the manifest's name in the index directory.
const FileName = "manifest.bin"

// legacyFile is the gob file of versions 1 and 2, removed once a new
// manifest is written.
const legacyFile = "manifest.gob"

// Record is what the index remembers of one file.
type Record struct {
	Path     string
	Language string
	Size     int64
	// ModTime in Unix nanoseconds: with Size, it lets a refresh skip
	// reading files that did not change.
	ModTime int64
	// Hash of the content (SHA-256): tells a touched file from a changed
	// one, and anchors knowledge to a version of the file (in hex, see
	// the pipeline's FileHash).
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

	// Syms holds the file's symbols while this process has them: parsed
	// in this run (Fresh), or read back by a SymbolReader for documents
	// or rendering. They are not in the manifest: Save writes the symbols
	// of fresh records to the symbols file.
	Syms []core.Symbol
	// Loaded says Syms holds the file's symbols (possibly none); Fresh,
	// that this run parsed the file, so Save writes its symbols line.
	Loaded bool
	Fresh  bool
	// importsRaw holds the encoded imports (importsN of them) as read from
	// the manifest, or as CompactImports encoded them; DecodedImports
	// decodes them.
	importsRaw []byte
	importsN   int
	// importsSize is the length of the encoded imports while Spill
	// holds them in the manifest's spill (0 otherwise: only imports
	// that take bytes are spilled), importsAt where they start.
	importsAt   int64
	importsSize int
}

// Manifest is the derived index of one project: a record per file and
// what the index run that wrote it knew of the project as a whole. A
// manifest from Load is read-only but for the records an index run
// carries into a New one; queries may read it at once.
type Manifest struct {
	// Version is the format the manifest was written in (see Version).
	Version   int
	IndexedAt time.Time
	// Generation names the symbols file, References the table of
	// references (core/refs) that goes with this manifest: none when the
	// index run found none to keep (references turned off, no resolver).
	Generation string
	References string
	// files holds the records by path: all of them, except in a manifest
	// read for queries, which decodes from table the records File asks
	// for, and in one that holds them in path order (list), each filling
	// files when Records is first called.
	files map[string]*Record
	table *recordTable
	fill  sync.Once
	// list holds the records in path order, their paths in sorted, in a
	// manifest read whole (Load) or filled in order (SetRecords): File
	// finds a record by binary search, and a run that asks for no map
	// hashes no path. Its records are replaced through Replace only,
	// which keeps the list and the map alike.
	list []*Record
	// modules summarizes each module for queries: read with a manifest,
	// computed from the records of a new one when first asked for.
	modules    map[string]ModuleSummary
	modulesSet sync.Once
	// Rankers maps each ranker to the fingerprint of the configuration it
	// last indexed with; a different one calls for a full index.
	Rankers map[string]string
	// Parsers maps each language to the fingerprint of the parser that
	// parsed its files.
	Parsers map[string]string
	// Resolution is how the last resolution of imports went.
	Resolution Resolution
	// MapsFormat is the format the code maps on disk were rendered with
	// (the pipeline's own numbering).
	MapsFormat int
	// Roles is the signature of what decided the files' roles
	// (the pipeline's Engine.attributes): the .gitattributes files,
	// hidden_roles and the rules' format.
	Roles string
	// Stateful lists the rankers that left files in their state directory;
	// if those disappear, the ranker is indexed again.
	Stateful map[string]bool

	// edges are the resolved import edges when this run resolved or
	// reused them; edgesRaw, their stored form as read, decoded by
	// ImportEdges only when a run reuses them (hasEdges: it was read).
	edges    []core.Edge
	edgesRaw []byte
	hasEdges bool
	// spill holds the records' encoded imports, and then the stored
	// import edges (edgesAt, edgesSize), from Spill to Unspill.
	spill              *os.File
	edgesAt, edgesSize int64
	edgesSpilled       bool
	// edgesKept says edges were decoded from edgesRaw unchanged, or
	// encoded into it (CompactEdges), so the manifest writes the bytes
	// back instead of encoding them again.
	edgesKept bool
	// sorted caches SortedPaths for queries running at once; with list,
	// it is list's paths.
	sortMu sync.Mutex
	sorted []string
	// symbolsWritten says WriteSymbols wrote this manifest's symbols
	// file: Save then writes the manifest alone.
	symbolsWritten bool
}

// Resolution is how a resolution of imports went: by language, how many
// imports resolved to a file of the project, how many did not, and how
// many name packages outside it.
type Resolution struct {
	Resolved   map[string]int `json:"resolved"`
	Unresolved map[string]int `json:"unresolved"`
	External   map[string]int `json:"external"`
}

// New returns an empty manifest of the current format, for an index run
// to fill through Records, or in order through SetRecords.
func New() *Manifest {
	return &Manifest{Version: Version, files: map[string]*Record{}, Rankers: map[string]string{}, Stateful: map[string]bool{}, Parsers: map[string]string{}}
}

// ErrNoIndex says the project has not been indexed yet.
var ErrNoIndex = errors.New("no index yet")

// Load reads the manifest of the index directory dir. A missing one is
// ErrNoIndex; an unreadable or outdated one is an error the caller reports
// before rebuilding. whole is for index runs: the whole file is checked
// and every record decoded at once. Otherwise records are decoded as they
// are asked for (see decode): what a query needs. oneShot says the process
// answers once and exits (core.Setup.OneShot): the records then keep
// slicing the mapping, which is never released (core/store.Mapped).
func Load(dir string, whole, oneShot bool) (*Manifest, error) {
	path := filepath.Join(dir, FileName)
	// Populated whole even for a query, which reads a few records: one
	// call that maps every page costs less than the page faults of a
	// binary search (but in a one-shot process: store.Map).
	mapped, err := store.Map(path, oneShot)
	if os.IsNotExist(err) {
		return nil, ErrNoIndex
	}
	if err != nil {
		return nil, fmt.Errorf("read index %s: %w", path, err)
	}
	data := mapped.Data
	if whole && !oneShot {
		// Every record is decoded, and its strings and imports are views
		// of the file's bytes: records outlive the manifest they were
		// read with (an index run carries unchanged records into the
		// next manifest, and a long-running process loads many
		// manifests), so they view a copy, one for all, that the
		// garbage collector keeps while any does, and the mapping goes.
		// A one-shot process keeps the mapping until it exits instead.
		data = bytes.Clone(data)
		mapped.Close()
	}
	m, err := decodeVouched(data, whole, !whole && store.Unchanged(path))
	if err != nil {
		if !whole || oneShot {
			mapped.Close()
		}
		return nil, fmt.Errorf("index %s %v; it will be rebuilt", path, err)
	}
	if oneShot {
		// The records keep slicing the mapping, which is never
		// released: see store.Mapped.
		if m.table != nil {
			m.table.oneShot = true
		}
		return m, nil
	}
	if !whole {
		// The table decodes from the mapping for as long as the
		// manifest lives; what it decodes is copied out of it.
		m.edgesRaw = bytes.Clone(m.edgesRaw)
		store.CloseWith(m, mapped)
	}
	return m, nil
}

// Records returns every record by path, decoding those a manifest read
// for queries has not decoded yet. The map is the manifest's own: an
// index run fills a New manifest through it, and may replace a record
// (never add or remove one) after it first asks for SortedPaths.
//
// A manifest that holds its records in order (read whole, SetRecords)
// builds the map the first time it is asked for; its records are then
// replaced through Replace, not the map.
func (m *Manifest) Records() map[string]*Record {
	switch {
	case m.table != nil:
		m.fill.Do(func() {
			files := make(map[string]*Record, m.table.n)
			for i := range m.table.n {
				if r := m.table.get(i); r != nil {
					files[r.Path] = r
				}
			}
			m.files = files
		})
	case m.list != nil:
		m.fill.Do(func() {
			files := make(map[string]*Record, len(m.list))
			for _, r := range m.list {
				files[r.Path] = r
			}
			m.files = files
		})
	}
	return m.files
}

// SetRecords fills an empty New manifest with recs, which must be in
// strictly increasing path order (an index run's, in the walk's order):
// no path is hashed, or sorted, until a caller asks for the map
// (Records). Records out of order are put in the map as they come. When
// recs are every record of prev (a manifest read whole, or filled so) in
// its order, as a run that changed nothing has them, m takes prev's paths
// as they are (SortedPaths then returns the same list).
func (m *Manifest) SetRecords(recs []*Record, prev *Manifest) {
	if prev != nil && prev.list != nil && slices.Equal(recs, prev.list) {
		m.files, m.list, m.sorted = nil, recs, prev.sorted
		return
	}
	paths := make([]string, len(recs))
	for i, r := range recs {
		paths[i] = r.Path
	}
	if !strictlyIncreasing(paths) {
		for _, r := range recs {
			m.Records()[r.Path] = r
		}
		return
	}
	m.files, m.list, m.sorted = nil, recs, paths
}

// Replace puts rec in place of the record of its path, which m holds.
// It is for an index run, before its manifest is shared.
func (m *Manifest) Replace(rec *Record) {
	if m.list != nil {
		if i, ok := slices.BinarySearch(m.sorted, rec.Path); ok {
			m.list[i] = rec
		}
		if m.files == nil {
			return // the map, when built, is built from the list
		}
	}
	m.Records()[rec.Path] = rec
}

// Len is the number of records m holds.
func (m *Manifest) Len() int {
	switch {
	case m.table != nil:
		return m.table.n
	case m.list != nil:
		return len(m.list)
	}
	return len(m.files)
}

// all yields every record: in path order where m holds them so (list),
// which walks the records as they lie in memory, else as the map has
// them.
func (m *Manifest) all() iter.Seq[*Record] {
	if m.list != nil {
		return slices.Values(m.list)
	}
	return maps.Values(m.Records())
}

// listed returns the index of path p in m's list, -1 when it holds none.
func (m *Manifest) listed(p string) int {
	if i, ok := slices.BinarySearch(m.sorted, p); ok {
		return i
	}
	return -1
}

// ModuleSummary is what a query shows of a module: how many files it
// has and the names of its most central ones.
type ModuleSummary struct {
	Files   int
	Central []string // base names, most central first, at most moduleCentral
}

// moduleCentral is how many central files a module's summary names.
const moduleCentral = 6

// summarizeModules computes the module summaries of the records.
func summarizeModules(files map[string]*Record) map[string]ModuleSummary {
	mods := map[string][]*Record{}
	for _, r := range files {
		mods[r.Module] = append(mods[r.Module], r)
	}
	out := make(map[string]ModuleSummary, len(mods))
	for name, fs := range mods {
		sort.Slice(fs, func(i, j int) bool {
			if fs[i].Rank != fs[j].Rank {
				return fs[i].Rank > fs[j].Rank
			}
			return fs[i].Path < fs[j].Path
		})
		s := ModuleSummary{Files: len(fs), Central: make([]string, 0, min(len(fs), moduleCentral))}
		for _, f := range fs[:min(len(fs), moduleCentral)] {
			s.Central = append(s.Central, path.Base(f.Path))
		}
		out[name] = s
	}
	return out
}

// ModuleSummaries returns the summary of every module by name: as the
// manifest was read with, or computed from the records of a New one when
// first asked for. The map is shared: callers must not change it.
func (m *Manifest) ModuleSummaries() map[string]ModuleSummary {
	m.modulesSet.Do(func() {
		if m.modules == nil {
			m.modules = summarizeModules(m.Records())
		}
	})
	return m.modules
}

// Has reports whether the index holds the file p, without decoding its
// record.
func (m *Manifest) Has(p string) bool {
	switch {
	case m.table != nil:
		return m.table.index(p) >= 0
	case m.list != nil:
		return m.listed(p) >= 0
	}
	_, ok := m.files[p]
	return ok
}

// File returns the record of path p, decoding only it in a manifest read
// for queries.
func (m *Manifest) File(p string) (*Record, bool) {
	switch {
	case m.table != nil:
		return m.table.find(p)
	case m.list != nil:
		if i := m.listed(p); i >= 0 {
			return m.list[i], true
		}
		return nil, false
	}
	r, ok := m.files[p]
	return r, ok
}

// RoleIn reports whether the index holds the file p with a role among
// roles (none is never among them). A manifest read for queries decodes
// the role alone, not the record.
func (m *Manifest) RoleIn(p string, roles []string) bool {
	if m.table == nil {
		rec, ok := m.File(p)
		return ok && rec != nil && rec.Role != "" && slices.Contains(roles, rec.Role)
	}
	i := m.table.index(p)
	if i < 0 {
		return false
	}
	role := m.table.roleAt(i)
	for _, h := range roles {
		if len(role) > 0 && string(role) == h {
			return true
		}
	}
	return false
}

// SymbolsFile is the path of the symbols file of a generation in the
// index directory dir.
func SymbolsFile(dir, generation string) string {
	return filepath.Join(dir, "symbols-"+generation+".jsonl")
}

// SymbolsLine is one line of the symbols file: a file's symbols, in JSON.
type SymbolsLine struct {
	Path    string        `json:"path"`
	Symbols []core.Symbol `json:"symbols"`
}

// Save writes the manifest to the index directory dir, with the symbols
// of the records parsed in this run (Fresh); prev is the manifest it
// replaces, nil for none. The symbols are written first, then the
// manifest, which is the commit point. Symbols are appended to the
// current generation's file: lines already there stay valid for readers
// holding an older manifest, and a one-file change writes one line
// instead of the whole file. A full index, a missing file or one that is
// mostly lines no record points at any more starts a new generation,
// written whole (unchanged records are copied from the old file as they
// are), and the files of older generations are removed.
func (m *Manifest) Save(dir string, prev *Manifest) error {
	if !m.symbolsWritten {
		if err := m.WriteSymbols(dir, prev); err != nil {
			return err
		}
	}
	if err := m.write(filepath.Join(dir, FileName)); err != nil {
		return err
	}
	os.Remove(filepath.Join(dir, legacyFile))
	stale, _ := filepath.Glob(filepath.Join(dir, "symbols-*.jsonl"))
	for _, f := range stale {
		if f != SymbolsFile(dir, m.Generation) {
			os.Remove(f)
		}
	}
	return nil
}

// write writes the manifest to path, atomically and durably, as it is
// encoded (encodeTo), and records the version written as verified.
func (m *Manifest) write(path string) error {
	w, err := store.CreateWriter(path, 0o644)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	err = m.encodeTo(bw)
	if err != nil {
		err = fmt.Errorf("encode index: %w", err)
	} else {
		err = bw.Flush()
	}
	if err != nil {
		w.Abort()
		return err
	}
	if err := w.Commit(); err != nil {
		return err
	}
	store.RecordVerified(path)
	return nil
}

// WriteSymbols writes the symbols file Save would, ahead of it: an index
// run writes its symbols as soon as the files are parsed and lets them go
// (ReleaseSymbols), reading a file's back when a step needs them
// (OpenSymbols on this manifest), so that no later step holds every
// file's symbols. Save then writes the manifest alone, which stays the
// commit point: until it is written no manifest points at what this
// wrote, and a reader of the last one reads the lines it knew, which an
// append leaves in place and a new generation leaves alone. The records'
// symbol offsets are set as Save documents. WriteSymbols is for a
// manifest whose records are its own (a full run's: prev shares none of
// them), as it sets their offsets; a record prev shares keeps prev's.
func (m *Manifest) WriteSymbols(dir string, prev *Manifest) error {
	var old []byte
	var oldSize int64 = -1
	if prev != nil && prev.Generation != "" {
		// A link or anything but a regular file is not the index's own:
		// a new generation replaces it.
		if fi, err := os.Lstat(SymbolsFile(dir, prev.Generation)); err == nil && fi.Mode().IsRegular() {
			oldSize = fi.Size()
		}
	}
	var live, fresh int64
	for rec := range m.all() {
		switch {
		case rec.Fresh:
			fresh += int64(len(rec.Syms)) * 64 // an estimate: lines are not encoded yet
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
			if old, err = store.ReadLeaf(SymbolsFile(dir, prev.Generation), oldSize); err != nil {
				return fmt.Errorf("read symbols: %w", err)
			}
		}
		if err := m.rewriteSymbols(dir, old); err != nil {
			return err
		}
	}
	m.symbolsWritten = true
	return nil
}

// SymbolsWriter writes a full run's symbols file as its files are
// parsed, a few at a time, rather than once all are (WriteSymbols):
// each file's symbols are let go once written, so that the run never
// holds the whole tree's, nor the file's bytes beside them (at the end
// of the parse of six copies of kubernetes, those were the live heap's
// largest part). The file is the one WriteSymbols writes for the same
// records: their lines in path order.
type SymbolsWriter struct {
	w    *store.Writer
	gen  string
	off  int64
	last string
	n    int
}

// NewSymbolsWriter starts a new generation's symbols file in the index
// directory dir, whose lock the caller holds. What a run that crashed
// left half written (a temporary file beside a symbols file, which no
// manifest names) is removed first: it grows with the tree.
func NewSymbolsWriter(dir string) (*SymbolsWriter, error) {
	left, _ := filepath.Glob(filepath.Join(dir, ".symbols-*.jsonl.tmp-*"))
	for _, f := range left {
		os.Remove(f)
	}
	gen := fmt.Sprintf("%x", time.Now().UnixNano())
	w, err := store.CreateWriter(SymbolsFile(dir, gen), 0o644)
	if err != nil {
		return nil, err
	}
	return &SymbolsWriter{w: w, gen: gen}, nil
}

// Add writes the symbols line of rec, a record as this run parsed it
// (Loaded), whose path comes after the last one added, sets its offsets,
// and lets go of its symbols (as ReleaseSymbols would); a record without
// symbols keeps none, and stays loaded.
func (sw *SymbolsWriter) Add(rec *Record) error {
	if sw.n > 0 && rec.Path <= sw.last {
		return fmt.Errorf("symbols: %s comes after %s", rec.Path, sw.last)
	}
	if !rec.Loaded {
		return fmt.Errorf("symbols: %s was not parsed in this run", rec.Path)
	}
	sw.last, sw.n = rec.Path, sw.n+1
	if len(rec.Syms) == 0 {
		rec.SymOff, rec.SymLen = 0, 0
		return nil
	}
	line, err := symbolLine(rec)
	if err != nil {
		return err
	}
	if _, err := sw.w.Write(line); err != nil {
		return err
	}
	rec.SymOff, rec.SymLen = sw.off, len(line)
	sw.off += int64(len(line))
	rec.Syms, rec.Loaded = nil, false
	return nil
}

// Finish puts the file in place as m's symbols file (SymbolsWritten):
// m's records must be those added, every one.
func (sw *SymbolsWriter) Finish(m *Manifest) error {
	if sw.n != m.Len() {
		sw.w.Abort()
		return fmt.Errorf("symbols: %d files written of %d", sw.n, m.Len())
	}
	if err := sw.w.Commit(); err != nil {
		return err
	}
	m.Generation, m.symbolsWritten = sw.gen, true
	return nil
}

// Abort drops what was written.
func (sw *SymbolsWriter) Abort() { sw.w.Abort() }

// SymbolsWritten reports whether WriteSymbols wrote m's symbols file:
// the symbols of m's records are then read from m's generation
// (OpenSymbols on m), not the last manifest's.
func (m *Manifest) SymbolsWritten() bool { return m.symbolsWritten }

// ReleaseSymbols lets go of the symbols of the records this run parsed
// (Fresh), once WriteSymbols wrote them: a SymbolReader on m's file reads
// them back. Records with no symbols stay loaded, as there is nothing to
// read. Before WriteSymbols it does nothing.
func (m *Manifest) ReleaseSymbols() {
	if !m.symbolsWritten {
		return
	}
	for rec := range m.all() {
		if rec.Fresh && rec.SymLen > 0 {
			rec.Syms, rec.Loaded = nil, false
		}
	}
}

// Spill writes the encoded imports the records hold (as read, or as
// CompactImports encoded them) and the stored import edges
// (CompactEdges) to f, a file of the caller's, and lets them go, until
// Unspill reads them back: an index run's steps after the references'
// read no file's imports, and read the edges once each (ImportEdgeSeq),
// while at 200,000 files the two took 49 MB from the parse to the save,
// beside the peaks of the rankers' step. The records' imports are in f
// in path order, then the edges. A record whose imports are decoded
// (Imports) keeps them. Until Unspill, nothing may read a record's
// imports but Save, and f must stay open.
func (m *Manifest) Spill(f *os.File) error {
	if m.spill != nil {
		return errors.New("manifest: spilled already")
	}
	w := bufio.NewWriterSize(f, 256<<10)
	var spilled []*Record
	var at int64
	undo := func(err error) error {
		for _, rec := range spilled {
			rec.importsAt, rec.importsSize = 0, 0
		}
		return fmt.Errorf("spill the imports: %w", err)
	}
	for _, p := range m.SortedPaths() {
		rec := m.Records()[p]
		if rec.Imports != nil || len(rec.importsRaw) == 0 {
			continue
		}
		if _, err := w.Write(rec.importsRaw); err != nil {
			return undo(err)
		}
		spilled = append(spilled, rec)
		rec.importsAt, rec.importsSize = at, len(rec.importsRaw)
		at += int64(len(rec.importsRaw))
	}
	edges := m.edges == nil && m.edgesRaw != nil
	if edges {
		if _, err := w.Write(m.edgesRaw); err != nil {
			return undo(err)
		}
	}
	if err := w.Flush(); err != nil {
		return undo(err)
	}
	for _, rec := range spilled {
		rec.importsRaw = nil
	}
	// The edges start where the imports end, spilled or not.
	m.edgesAt = at
	if edges {
		m.edgesSize, m.edgesSpilled = int64(len(m.edgesRaw)), true
		m.edgesRaw = nil
	}
	m.spill = f
	return nil
}

// Unspill reads back what Spill wrote, into one buffer the records and
// the edges share; with nothing spilled it does nothing.
func (m *Manifest) Unspill() error {
	if m.spill == nil {
		return nil
	}
	size := m.edgesAt + m.edgesSize
	buf := make([]byte, size)
	if _, err := m.spill.ReadAt(buf, 0); err != nil {
		return fmt.Errorf("read back the imports: %w", err)
	}
	for rec := range m.all() {
		if rec.importsSize > 0 {
			at, end := rec.importsAt, rec.importsAt+int64(rec.importsSize)
			rec.importsRaw = buf[at:end:end]
			rec.importsAt, rec.importsSize = 0, 0
		}
	}
	if m.edgesSpilled {
		m.edgesRaw = buf[m.edgesAt:size:size]
	}
	m.spill, m.edgesAt, m.edgesSize, m.edgesSpilled = nil, 0, 0, false
	return nil
}

// spilledImports reads the imports of rec, spilled, into buf.
func (m *Manifest) spilledImports(buf []byte, rec *Record) ([]byte, error) {
	buf = slices.Grow(buf[:0], rec.importsSize)[:rec.importsSize]
	if _, err := m.spill.ReadAt(buf, rec.importsAt); err != nil {
		return nil, fmt.Errorf("read back the imports of %s: %w", rec.Path, err)
	}
	return buf, nil
}

// storedEdges are the stored import edges: the bytes in hand, or those
// Spill wrote, read into a buffer of their own.
func (m *Manifest) storedEdges() ([]byte, error) {
	if !m.edgesSpilled {
		return m.edgesRaw, nil
	}
	buf := make([]byte, m.edgesSize)
	if _, err := m.spill.ReadAt(buf, m.edgesAt); err != nil {
		return nil, fmt.Errorf("read back the import edges: %w", err)
	}
	return buf, nil
}

// CompactImports keeps the imports of the records this run parsed
// (Fresh) encoded as the manifest writes them, rather than as
// core.Imports, once nothing needs them all decoded: the imports are
// resolved, and what still reads a file's imports (Facts) decodes them.
// A file's imports, as core.Imports and their strings, take twice their
// encoding, and a large tree has millions (a tenth of the live heap of
// an index run's last steps on six copies of kubernetes). Save writes
// the same bytes either way.
func (m *Manifest) CompactImports() {
	var scratch []byte
	for rec := range m.all() {
		if !rec.Fresh || rec.Imports == nil {
			continue
		}
		scratch = scratch[:0]
		for _, im := range rec.Imports {
			scratch = appendImport(scratch, im)
		}
		var raw []byte
		if len(scratch) > 0 {
			raw = bytes.Clone(scratch)
		}
		rec.importsRaw, rec.importsN, rec.Imports = raw, len(rec.Imports), nil
	}
}

// symbolLine encodes the symbols line of a record.
func symbolLine(rec *Record) ([]byte, error) {
	line, err := json.Marshal(SymbolsLine{Path: core.EscapePath(rec.Path), Symbols: rec.Syms})
	if err != nil {
		return nil, fmt.Errorf("encode symbols of %s: %w", rec.Path, err)
	}
	return append(line, '\n'), nil
}

// appendSymbols appends the lines of the records parsed in this run to
// the generation's file, which holds size bytes, and syncs it.
func (m *Manifest) appendSymbols(dir, generation string, size int64) error {
	var buf bytes.Buffer
	for _, p := range m.SortedPaths() {
		rec := m.Records()[p]
		if !rec.Fresh {
			continue
		}
		rec.SymOff, rec.SymLen = 0, 0
		if len(rec.Syms) == 0 {
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
	f, err := os.OpenFile(SymbolsFile(dir, generation), os.O_WRONLY, 0)
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
func (m *Manifest) rewriteSymbols(dir string, old []byte) error {
	// The lines first, then one buffer of their size: growing it by
	// doubling would copy a large project's file several times over.
	paths := m.SortedPaths()
	lines := make([][]byte, len(paths))
	size := 0
	for i, p := range paths {
		rec := m.Records()[p]
		switch {
		case rec.Loaded && len(rec.Syms) > 0:
			line, err := symbolLine(rec)
			if err != nil {
				return err
			}
			lines[i] = line
		case !rec.Loaded && rec.SymLen > 0 && rec.SymOff >= 0 && rec.SymOff <= int64(len(old)) && int64(rec.SymLen) <= int64(len(old))-rec.SymOff:
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
		rec := m.Records()[p]
		rec.SymOff, rec.SymLen = int64(len(buf)), len(lines[i])
		buf = append(buf, lines[i]...)
	}
	m.Generation = fmt.Sprintf("%x", time.Now().UnixNano())
	return store.WriteFile(SymbolsFile(dir, m.Generation), buf, 0o644)
}

// OpenSymbols opens the symbols file of m's generation in the index
// directory dir, for a SymbolReader. A nil manifest, or one without a
// generation, has none: os.ErrNotExist.
func (m *Manifest) OpenSymbols(dir string) (*os.File, error) {
	if m == nil || m.Generation == "" {
		return nil, os.ErrNotExist
	}
	return store.OpenLeaf(SymbolsFile(dir, m.Generation))
}

// ErrSymbolsDamaged marks a symbols file that does not hold what the
// manifest says: truncated, or overwritten by something else.
var ErrSymbolsDamaged = errors.New("the symbols file is damaged")

// SymbolsIntact reports whether m's symbols file holds every record's
// line, by its size: a cheap check an index run makes, which catches a
// truncated or missing file (a line that does not decode is caught when
// it is read). The lines of the files whose paths are escaped in it (not
// UTF-8, or with a backslash) are read too: an index written before paths
// were escaped holds U+FFFD there, which no query matches again.
func (m *Manifest) SymbolsIntact(dir string) bool {
	var need int64
	var escaped []*Record
	for rec := range m.all() {
		need = max(need, rec.SymOff+int64(rec.SymLen))
		if rec.SymLen > 0 && core.EscapePath(rec.Path) != rec.Path {
			escaped = append(escaped, rec)
		}
	}
	if need == 0 {
		return true
	}
	path := SymbolsFile(dir, m.Generation)
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() < need {
		return false
	}
	if len(escaped) == 0 {
		return true
	}
	f, err := store.OpenRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	for _, rec := range escaped {
		data := make([]byte, rec.SymLen)
		var line struct {
			Path string `json:"path"`
		}
		if _, err := f.ReadAt(data, rec.SymOff); err != nil || json.Unmarshal(data, &line) != nil || line.Path != core.EscapePath(rec.Path) {
			return false
		}
	}
	return true
}

// SymbolReader loads records' symbols from one generation's file. It is
// not safe for concurrent use.
type SymbolReader struct {
	f *os.File
	// size is the file's, once sized.
	size  int64
	sized bool
}

// NewSymbolReader returns a reader of the symbols file f (see
// OpenSymbols). Close closes f.
func NewSymbolReader(f *os.File) *SymbolReader { return &SymbolReader{f: f} }

// Close closes the reader's file.
func (r *SymbolReader) Close() error { return r.f.Close() }

// Read fills rec.Syms and sets rec.Loaded, unless rec is loaded already.
// A line that is out of the file's bounds, does not decode, or is another
// file's is ErrSymbolsDamaged; one of another file, also what
// IsGenerationGone reports.
func (r *SymbolReader) Read(rec *Record) error {
	if rec.Loaded {
		return nil
	}
	if rec.SymLen == 0 {
		rec.Loaded = true
		return nil
	}
	if !r.sized {
		fi, err := r.f.Stat()
		if err != nil {
			return fmt.Errorf("read symbols of %s: %w (%w)", rec.Path, ErrSymbolsDamaged, err)
		}
		r.size, r.sized = fi.Size(), true
	}
	if rec.SymOff < 0 || rec.SymLen < 0 || rec.SymOff > r.size || int64(rec.SymLen) > r.size-rec.SymOff {
		// The line is sized before it is read: a manifest someone wrote
		// could claim a terabyte.
		return fmt.Errorf("read symbols of %s: %w (bytes %d to %d of a file of %d)", rec.Path, ErrSymbolsDamaged, rec.SymOff, rec.SymOff+int64(rec.SymLen), r.size)
	}
	data := make([]byte, rec.SymLen)
	if _, err := r.f.ReadAt(data, rec.SymOff); err != nil {
		return fmt.Errorf("read symbols of %s: %w (%w)", rec.Path, ErrSymbolsDamaged, err)
	}
	var line SymbolsLine
	// The path is written escaped: JSON would turn a file name that is
	// not UTF-8 into U+FFFD, and the line never match its record again.
	if err := json.Unmarshal(data, &line); err != nil || line.Path != core.EscapePath(rec.Path) {
		return fmt.Errorf("symbols of %s do not match the index (%v): %w", rec.Path, err, ErrSymbolsDamaged)
	}
	for _, s := range line.Symbols {
		// Lines count from 1, as every parser gives them: the units of a
		// file are ranked by indexing its lines with them.
		if s.Line < 1 || s.EndLine < 0 {
			return fmt.Errorf("symbols of %s: %q is at line %d to %d: %w", rec.Path, s.Name, s.Line, s.EndLine, ErrSymbolsDamaged)
		}
	}
	rec.Syms, rec.Loaded = line.Symbols, true
	return nil
}

// SortedPaths returns the indexed paths in order.
//
// The list is computed once and shared: callers must not change it. A run
// fills the records before it first asks, and only replaces records after.
func (m *Manifest) SortedPaths() []string {
	if m.list != nil {
		return m.sorted
	}
	files := m.Records()
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

// ReadInOrder returns the records of a manifest read whole (Load) or
// filled in order (SetRecords), in path order, for a caller that
// replaces none of them (an index run's previous manifest); nil for any
// other manifest. The list is m's own: callers must not change it.
func (m *Manifest) ReadInOrder() []*Record { return m.list }

// RecordsInOrder yields every record in path order: without a lookup
// where m holds them in order (ReadInOrder), by path otherwise.
func (m *Manifest) RecordsInOrder() iter.Seq[*Record] {
	if m.list != nil {
		return slices.Values(m.list)
	}
	return func(yield func(*Record) bool) {
		files := m.Records()
		for _, p := range m.SortedPaths() {
			if !yield(files[p]) {
				return
			}
		}
	}
}

// InOrder tells m its paths in order, as the caller that filled its
// records has them (an index run, in the walk's order): SortedPaths then
// returns paths, which m keeps, without sorting. Paths that are not in
// strictly increasing order, or fewer or more than the records, are
// ignored: SortedPaths sorts as before.
func (m *Manifest) InOrder(paths []string) {
	if m.list != nil || len(paths) != len(m.Records()) || !strictlyIncreasing(paths) {
		return
	}
	m.sortMu.Lock()
	m.sorted = paths
	m.sortMu.Unlock()
}

func strictlyIncreasing(paths []string) bool {
	for i := 1; i < len(paths); i++ {
		if paths[i-1] >= paths[i] {
			return false
		}
	}
	return true
}

// Facts rebuilds the FileFacts the resolver needs (no symbols).
func (rec *Record) Facts() core.FileFacts {
	return core.FileFacts{Path: rec.Path, Language: rec.Language, Package: rec.Package, Imports: rec.DecodedImports()}
}

// AllFacts returns every file's facts (no symbols), in path order.
func (m *Manifest) AllFacts() []core.FileFacts {
	paths := m.SortedPaths()
	facts := make([]core.FileFacts, len(paths))
	for i, p := range paths {
		facts[i] = m.Records()[p].Facts()
	}
	return facts
}

// IsGenerationGone reports an error from reading a symbols file that
// another process replaced meanwhile (see OpenSymbols and
// SymbolReader.Read): the manifest in hand is stale, and a reload reads
// the new one.
func IsGenerationGone(err error) bool {
	return errors.Is(err, os.ErrNotExist) || err != nil && strings.Contains(err.Error(), "do not match the index")
}

// EachPath calls fn with every file's path, in path order, without
// decoding the records of a manifest read for queries; fn returns false
// to stop.
func (m *Manifest) EachPath(fn func(p string) bool) {
	if m.table != nil {
		for i := range m.table.n {
			if !fn(string(m.table.pathAt(i))) {
				return
			}
		}
		return
	}
	for _, p := range m.SortedPaths() {
		if !fn(p) {
			return
		}
	}
}

// HasEdges reports whether the manifest holds stored import edges for
// ImportEdges to decode: it was read from disk, or took them over from
// one that was (CarryEdges).
func (m *Manifest) HasEdges() bool { return m.hasEdges }

// SetEdges sets the file import edges Save writes: those this run
// resolved.
func (m *Manifest) SetEdges(edges []core.Edge) { m.edges = edges }

// CompactEdges keeps the import edges SetEdges gave in the form Save
// writes them, numbered by file (ImportEdges decodes them), rather than
// as core.Edges: about a tenth of their size, for the rest of a run that
// no longer reads them but to save them and draw the vault. The
// manifest's files must be final (SortedPaths numbers them).
func (m *Manifest) CompactEdges() error {
	if m.edges == nil {
		return nil
	}
	if !m.edgesKept {
		raw, err := encodeEdges(m.SortedPaths(), m.edges)
		if err != nil {
			return err
		}
		m.edgesRaw, m.edgesKept = raw, true
	}
	m.edges = nil
	return nil
}

// CarryEdges takes over prev's stored import edges as they are, for a
// run that did not resolve imports: Save writes them back, unless
// SetEdges gives others, and HasEdges and ImportEdges answer as for prev.
func (m *Manifest) CarryEdges(prev *Manifest) {
	m.edgesRaw, m.hasEdges = prev.edgesRaw, prev.hasEdges
}

// CarrySummaries takes prev's module summaries (ModuleSummaries) for m,
// whose records are prev's in path, module and rank: those of a run that
// changed no file's content. A query of m then needs no summarizing.
func (m *Manifest) CarrySummaries(prev *Manifest) {
	m.modulesSet.Do(func() { m.modules = prev.ModuleSummaries() })
}

// ReuseEdges keeps prev's stored import edges, which still hold: Save
// writes their bytes back instead of encoding the edges SetEdges gives,
// which must be the same ones (decoded by prev.ImportEdges).
func (m *Manifest) ReuseEdges(prev *Manifest) {
	m.edgesRaw, m.edgesKept = prev.edgesRaw, true
}
