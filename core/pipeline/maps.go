package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/store"
)

// Map files, relative to .rubi/. They are derived and rewritten by every
// index that changes them; curated summaries live apart, in the knowledge
// store (.rubi/summaries/), and are woven in.
const (
	mapFile    = "map.md"
	modulesDir = "modules"
	summaryDir = "summaries"
)

// What is read of the maps, which the repository may have replaced (a
// committed .rubi/map.md -> /dev/zero, or -> ~/.aws/credentials). rubi
// writes the level-0 map within budgets.map, at most 1 Mi tokens (about
// 4 MiB of text): 16 MiB is four times that. A module's page lists its
// files and their exported names without a budget: 10,000 files of 200
// bytes each are 2 MiB, and 32 MiB leaves room for the largest monorepo
// module. A file past its cap is refused and, by rubi index, rewritten.
const (
	maxMapFile    = 16 << 20
	maxModulePage = 32 << 20
)

// maxManifestFile bounds what is read of go.mod and package.json to name
// the project: real ones are kilobytes, the largest workspace roots some
// hundred; 4 MiB is room to spare, and a larger one (or one that is a link
// or a FIFO) leaves the project named by its folder.
const maxManifestFile = 4 << 20

// mapsFormat changes whenever the rendering of the maps changes, so that
// maps written by an older rubi are rewritten even if no code changed.
const mapsFormat = 4 // 3: modules of hidden files only are left out; 4: names escaped

// buildMap assembles the code map from the manifest and the file edges.
// Files of index.hidden_roles are marked hidden: a module of only those
// (a vendored folder) is not on the map.
func (e *Engine) buildMap(m *manifest.Manifest, edges []core.Edge) *codemap.Map {
	files := make([]*codemap.File, 0, len(m.Records()))
	for _, p := range m.SortedPaths() {
		rec := m.Records()[p]
		f := &codemap.File{Path: p, Language: rec.Language, Module: rec.Module, Rank: rec.Rank, Doc: rec.Doc, Symbols: rec.Symbols, Hidden: e.hidden(rec)}
		if rec.Loaded {
			f.Exported = []string{}
			for _, s := range rec.Syms {
				if s.Exported && s.Parent == "" {
					f.Exported = append(f.Exported, s.Name)
				}
			}
		}
		files = append(files, f)
	}
	return codemap.Build(files, edges)
}

// writeMaps writes .rubi/map.md and the pages of the modules in dirty (all
// of them when full), and removes the pages of modules that are gone.
// Files are only rewritten when their content changes.
func (e *Engine) writeMaps(prev, next *manifest.Manifest, edges []core.Edge, dirty map[string]bool, full bool) error {
	full = full || prev.MapsFormat != mapsFormat
	if err := e.loadSymbols(prev, next, func(p string) bool { return full || dirty[next.Records()[p].Module] }); err != nil {
		return err
	}
	cm := e.buildMap(next, edges)
	next.MapsFormat = mapsFormat
	if err := e.writeMap(cm.Level0(e.projectName(), e.cfg.Budgets.Map, e.summary("map"))); err != nil {
		return err
	}
	dir := filepath.Join(e.dataDir(), modulesDir)
	want := map[string]bool{}
	for _, mod := range cm.Modules {
		name := codemap.Slug(mod.Name) + ".md"
		want[name] = true
		if !full && !dirty[mod.Name] && isRegular(filepath.Join(dir, name)) {
			continue
		}
		page := cm.Level1(mod, e.summary("module:"+mod.Name))
		if err := e.writeIfChanged(filepath.Join(dir, name), page); err != nil {
			return err
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	for _, de := range entries {
		if !de.IsDir() && strings.HasSuffix(de.Name(), ".md") && !want[de.Name()] {
			os.Remove(filepath.Join(dir, de.Name()))
		}
	}
	return nil
}

// mapModules are the modules on the map, with their files: those with
// at least one file of a role not hidden (index.hidden_roles).
func (e *Engine) mapModules(m *manifest.Manifest) map[string][]*manifest.Record {
	mods := moduleIndex(m)
	for name, recs := range mods {
		if !slices.ContainsFunc(recs, func(rec *manifest.Record) bool { return !e.hidden(rec) }) {
			delete(mods, name)
		}
	}
	return mods
}

// mapsStale reports whether the maps must be rewritten although no code
// changed: map.md is missing, was rendered by an older rubi, is not the
// file an index wrote (committed, pulled, edited), or a curated summary is
// newer than it; or map.md or a module's page is not a regular file (a
// link the repository committed, a FIFO), or map.md is larger than rubi
// reads of it, which the rewrite replaces.
func (e *Engine) mapsStale(m *manifest.Manifest) bool {
	st, err := os.Lstat(filepath.Join(e.dataDir(), mapFile))
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxMapFile || m.MapsFormat != mapsFormat || !e.MapWritten() {
		return true
	}
	pages, _ := os.ReadDir(filepath.Join(e.dataDir(), modulesDir))
	for _, de := range pages {
		if strings.HasSuffix(de.Name(), ".md") && !de.Type().IsRegular() {
			return true
		}
	}
	stale := false
	filepath.WalkDir(filepath.Join(e.dataDir(), summaryDir), func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil && info.ModTime().After(st.ModTime()) {
				stale = true
				return filepath.SkipAll
			}
		}
		return nil
	})
	return stale
}

// summary returns the curated summary of target ("map", "module:<name>"),
// "" when there is none.
func (e *Engine) summary(target string) string {
	text, _ := e.project.Knowledge().Summary(target)
	return text
}

// isRegular reports whether p is a regular file, not a link to one.
func isRegular(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode().IsRegular()
}

// projectName names the project in the map: the last element of its Go
// module path or its package.json name, else the root directory's name.
func (e *Engine) projectName() string {
	if data, err := store.ReadWithin(e.cfg.Root, filepath.Join(e.cfg.Root, "go.mod"), maxManifestFile); err == nil {
		if mod := modfile.ModulePath(data); mod != "" {
			return path.Base(mod)
		}
	}
	if data, err := store.ReadWithin(e.cfg.Root, filepath.Join(e.cfg.Root, "package.json"), maxManifestFile); err == nil {
		var pkg struct{ Name string }
		if json.Unmarshal(data, &pkg) == nil && pkg.Name != "" {
			return pkg.Name
		}
	}
	return filepath.Base(e.cfg.Root)
}

// writeMap is writeIfChanged for .rubi/map.md, which a session start
// injects as rubi's own only while it is the very file an index wrote, or
// found equal to what it would write (MapWritten): the record of that
// version is kept in the index's folder.
func (e *Engine) writeMap(content string) error {
	path := e.MapPath()
	if err := e.writeIfChanged(path, content); err != nil {
		return err
	}
	store.RecordWrittenAt(path, e.mapRecord())
	return nil
}

// mapRecord is the record of the version of .rubi/map.md an index wrote.
func (e *Engine) mapRecord() string { return filepath.Join(e.indexDir(), mapFile+store.WrittenSuffix) }

// MapWritten reports whether .rubi/map.md is the very file an index of
// this machine wrote: not committed, edited or replaced since.
func (e *Engine) MapWritten() bool { return store.UnchangedAt(e.MapPath(), e.mapRecord()) }

// writeIfChanged writes content at path unless the file holds it already.
// The compare reads at most len(content) bytes, never through a link: a
// larger file differs, and a link (or a FIFO) is replaced by the write.
func (e *Engine) writeIfChanged(path, content string) error {
	if old, err := store.ReadWithin(e.cfg.Root, path, int64(len(content))); err == nil && bytes.Equal(old, []byte(content)) {
		return nil
	}
	if err := store.WriteFile(path, []byte(content), 0o644); err != nil {
		return fmt.Errorf("write map: %w", err)
	}
	return nil
}

func moduleIndex(m *manifest.Manifest) map[string][]*manifest.Record {
	out := map[string][]*manifest.Record{}
	for _, rec := range m.Records() {
		out[rec.Module] = append(out[rec.Module], rec)
	}
	return out
}
