package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/host"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/project"
	"github.com/rubi-dev/rubi/core/store"
)

// indexFolder is the project's index on disk, .rubi/index/, as one
// engine holds it: the manifest it last wrote or read, and the locks
// that let one index run at a time write there.
type indexFolder struct {
	root    string // the project
	dir     string // .rubi/index/
	dataDir string // .rubi/
	oneShot bool   // Options.OneShot: manifest.Load keeps the file mapped

	// runs serializes this engine's runs that write the index; the
	// directory's lock (store.LockDir) does it across processes.
	runs sync.Mutex

	mu sync.Mutex
	// manifest is the index as this engine last wrote or read it, so a
	// refresh followed by a query decodes it once; stamp is the file's
	// size and mtime then, to notice another process re-indexing.
	manifest *manifest.Manifest
	stamp    string
}

func newIndexFolder(root string, oneShot bool) *indexFolder {
	return &indexFolder{root: root, dir: filepath.Join(root, host.StateDir), dataDir: filepath.Join(root, project.DataDir), oneShot: oneShot}
}

// lock readies .rubi/ and takes the index for one run that writes it,
// waiting for this engine's other runs and for other processes'; ctx
// bounds the wait. The returned func releases it.
func (f *indexFolder) lock(ctx context.Context) (func(), error) {
	if err := f.ensure(); err != nil {
		return nil, err
	}
	f.runs.Lock()
	lock, err := store.LockDir(ctx, f.dir) // ensure checked it is the project's
	if err != nil {
		f.runs.Unlock()
		return nil, err
	}
	return func() {
		lock.Unlock()
		f.runs.Unlock()
	}, nil
}

// ensure creates .rubi/index/ and keeps .rubi/.gitignore.
func (f *indexFolder) ensure() error {
	if err := store.Confined(f.root, f.dir); err != nil {
		return err
	}
	if err := os.MkdirAll(f.dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", f.dir, err)
	}
	// Every run puts rubi's lines back at the end of .rubi/.gitignore: a
	// committed one may have dropped them or undone them with "!*".
	return store.KeepIgnored(f.root, f.dataDir)
}

// exists reports whether the project was indexed at least once (its
// manifest exists), without reading the index.
func (f *indexFolder) exists() bool {
	_, err := os.Stat(filepath.Join(f.dir, manifest.FileName))
	return err == nil
}

// set makes m the manifest in hand (nil: read it again next time).
func (f *indexFolder) set(m *manifest.Manifest) {
	stamp := f.fileStamp()
	f.mu.Lock()
	f.manifest, f.stamp = m, stamp
	f.mu.Unlock()
}

// held is the manifest in hand, nil when none was read yet; it reads
// nothing.
func (f *indexFolder) held() *manifest.Manifest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.manifest
}

// fileStamp identifies the manifest file's version by its size and
// modification time ("" when there is none).
func (f *indexFolder) fileStamp() string { return statOf(filepath.Join(f.dir, manifest.FileName)) }

// current returns the manifest, reading it from disk the first time and
// whenever another process has rewritten it since.
func (f *indexFolder) current() (*manifest.Manifest, error) {
	f.mu.Lock()
	m, stamp := f.manifest, f.stamp
	f.mu.Unlock()
	if m != nil && stamp != "" && stamp == f.fileStamp() {
		return m, nil
	}
	m, err := manifest.Load(f.dir, false, f.oneShot)
	if err != nil {
		return nil, err
	}
	f.set(m)
	return m, nil
}

// indexed is current, with ErrNoIndex before the first index run.
func (f *indexFolder) indexed() (*manifest.Manifest, error) {
	m, err := f.current()
	if errors.Is(err, manifest.ErrNoIndex) {
		return nil, ErrNoIndex
	}
	return m, err
}

// hasState reports whether the stage keeps files in its state folder.
func (f *indexFolder) hasState(stage string) bool {
	d, err := os.Open(filepath.Join(f.dir, stage))
	if err != nil {
		return false
	}
	defer d.Close()
	names, _ := d.Readdirnames(1)
	return len(names) > 0
}

// loadSymbols reads back the symbols of the files want selects that are
// not loaded (symbolsSource: the last run's file, or this run's once it
// wrote it).
func loadSymbols(dir string, prev, next *manifest.Manifest, want func(path string) bool) error {
	var need []*manifest.Record
	for p, rec := range next.Records() {
		if !rec.Loaded && rec.SymLen > 0 && want(p) {
			need = append(need, rec)
		}
	}
	if len(need) == 0 {
		return nil
	}
	f, err := symbolsSource(prev, next).OpenSymbols(dir)
	if err != nil {
		return fmt.Errorf("read symbols: %w", err)
	}
	defer f.Close()
	r := manifest.NewSymbolReader(f)
	for _, rec := range need {
		if err := r.Read(rec); err != nil {
			return err
		}
	}
	return nil
}

// symbolsSource is the manifest whose symbols file holds the symbols of
// next's records that are not loaded: next's once the run wrote it
// (manifest.WriteSymbols; a full run, as soon as its files are parsed),
// else the last run's, which the unchanged files' records point into.
func symbolsSource(prev, next *manifest.Manifest) *manifest.Manifest {
	if next.SymbolsWritten() {
		return next
	}
	return prev
}

// hasSymbols says eachSymbols gives rec's symbols: they are in hand, or
// in the symbols file.
func hasSymbols(rec *manifest.Record) bool { return rec.Loaded || rec.SymLen != 0 }

// eachSymbols calls fn with the symbols of each of recs that has some
// recorded: those loaded as they are, the others read from the symbols
// file (symbolsSource) into a copy of the record and let go once fn
// returns, so that a step over every file never holds every file's
// symbols.
func eachSymbols(dir string, prev, next *manifest.Manifest, recs []*manifest.Record, fn func(rec *manifest.Record, syms []core.Symbol)) error {
	var r *manifest.SymbolReader
	for _, rec := range recs {
		switch {
		case rec.Loaded:
			fn(rec, rec.Syms)
			continue
		case !hasSymbols(rec):
			continue
		}
		if r == nil {
			f, err := symbolsSource(prev, next).OpenSymbols(dir)
			if err != nil {
				return fmt.Errorf("read symbols: %w", err)
			}
			r = manifest.NewSymbolReader(f)
			defer r.Close()
		}
		read := *rec
		if err := r.Read(&read); err != nil {
			return err
		}
		fn(rec, read.Syms)
	}
	return nil
}
