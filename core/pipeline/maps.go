package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/project"
	"github.com/rubi-dev/rubi/core/store"
	"github.com/rubi-dev/rubi/core/text"
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
const mapsFormat = 6 // 3: modules of hidden files only are left out; 4: names escaped; 5: methods, used by; 6: links for Obsidian

// codeMaps are the maps an index writes beside itself: .rubi/map.md, the
// level-0 map a session start injects, and one page per module in
// .rubi/modules/, with the curated summaries of the knowledge store
// woven in. They are read back as they are on disk (MapText), never
// trusted to be rubi's: the repository may have committed or replaced
// them.
type codeMaps struct {
	cfg      *config.Config
	project  *project.Project
	roles    roles
	indexDir string
	// refLangs are the languages whose references the index keeps: a
	// file of one is shown with the files using it, not its importers.
	refLangs map[string]bool
	// rewrote holds the modules whose pages the last write wrote anew,
	// without their links section, which the vault's write adds back.
	rewrote map[string]bool
}

// build assembles the code map from the manifest and the file edges, a
// file's exported names from its symbols, loaded or digested (dg).
// Files of index.hidden_roles are marked hidden: a module of only those
// (a vendored folder) is not on the map.
func (c *codeMaps) build(m *manifest.Manifest, dg *symbolDigests, edges iter.Seq[*core.Edge]) *codemap.Map {
	files := make([]*codemap.File, 0, len(m.Records()))
	for _, p := range m.SortedPaths() {
		rec := m.Records()[p]
		f := &codemap.File{Path: p, Language: rec.Language, Module: rec.Module, Rank: rec.Rank, Doc: rec.Doc, Symbols: rec.Symbols, Hidden: c.roles.hides(rec), Referenced: c.refLangs[rec.Language]}
		if rec.Loaded {
			f.Exported = exports(rec.Syms)
		} else if g := dg.of(rec); g != nil {
			f.Exported = g.exports
		}
		files = append(files, f)
	}
	return codemap.BuildFrom(files, edges)
}

// exports are the names a module's page lists for a file: its exported
// top-level symbols in file order, then its exported methods named with
// their receivers ("Arena.Alloc"), in file order. A Go file of methods
// alone (arena_linux.go) exports no top-level name, and a method's name
// without its type says little; the top-level names come first, as the
// page shows the first dozen.
func exports(syms []core.Symbol) []string {
	out := []string{}
	for _, s := range syms {
		if s.Exported && s.Parent == "" {
			out = append(out, s.Name)
		}
	}
	for _, s := range syms {
		if s.Exported && s.Parent != "" && s.Kind == core.SymbolMethod {
			out = append(out, s.Parent+"."+s.Name)
		}
	}
	return out
}

// write writes .rubi/map.md and the pages of the modules in dirty (all
// of them when full), and removes the pages of modules that are gone.
// Files are only rewritten when their content changes.
func (c *codeMaps) write(prev, next *manifest.Manifest, edges []core.Edge, dirty map[string]bool, full bool) error {
	b, err := c.built(prev, next, codemap.All(edges), dirty, full, newSymbolDigests(c.indexDir, prev, next, nil))
	if err != nil {
		return err
	}
	return b.write()
}

// builtMaps are the maps built, to be written (write): the symbols they
// show are in them, so the files' symbols may go before they are.
type builtMaps struct {
	c     *codeMaps
	cm    *codemap.Map
	dirty map[string]bool
	full  bool
}

// built builds the maps write writes, digesting (dg) the symbols of the
// files of the modules it rewrites that are not loaded.
func (c *codeMaps) built(prev, next *manifest.Manifest, edges iter.Seq[*core.Edge], dirty map[string]bool, full bool, dg *symbolDigests) (*builtMaps, error) {
	full = full || prev.MapsFormat != mapsFormat
	if err := dg.read(func(p string) bool { return full || dirty[next.Records()[p].Module] }); err != nil {
		return nil, err
	}
	next.MapsFormat = mapsFormat
	return &builtMaps{c: c, cm: c.build(next, dg, edges), dirty: dirty, full: full}, nil
}

// write writes the maps built.
func (b *builtMaps) write() error {
	c, cm, dirty, full := b.c, b.cm, b.dirty, b.full
	c.rewrote = map[string]bool{}
	if err := c.writeMap(cm.Level0(c.projectName(), c.cfg.Budgets.Map, c.summary("map")) + cm.MapLinks()); err != nil {
		return err
	}
	dir := filepath.Join(c.project.Dir(), modulesDir)
	want := map[string]bool{}
	for _, mod := range cm.Modules {
		name := codemap.Slug(mod.Name) + ".md"
		want[name] = true
		if !full && !dirty[mod.Name] && isRegular(filepath.Join(dir, name)) {
			continue
		}
		page := cm.Level1(mod, c.summary("module:"+mod.Name))
		p := filepath.Join(dir, name)
		// The page as the vault left it keeps its links section when
		// nothing above it changed; a page written anew has none, and
		// the vault's write that follows adds it (c.rewrote).
		if old, err := store.ReadWithin(c.cfg.Root, p, maxModulePage); err == nil && codemap.WithoutLinks(string(old)) == page {
			continue
		}
		if err := store.WriteFile(p, []byte(page), 0o644); err != nil {
			return fmt.Errorf("write map: %w", err)
		}
		c.rewrote[mod.Name] = true
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

// modules are the modules on the map, with their files: those with
// at least one file of a role not hidden (index.hidden_roles).
func (c *codeMaps) modules(m *manifest.Manifest) map[string][]*manifest.Record {
	mods := moduleIndex(m)
	for name, recs := range mods {
		if !slices.ContainsFunc(recs, func(rec *manifest.Record) bool { return !c.roles.hides(rec) }) {
			delete(mods, name)
		}
	}
	return mods
}

// moduleCount is len(c.modules(m)) for recs, m's records, counted
// without listing the files: in path order, a module's records mostly
// follow one another, and its name is looked up once for them.
func (c *codeMaps) moduleCount(recs iter.Seq[*manifest.Record]) int {
	shown := map[string]bool{}
	last, lastShown, started := "", false, false
	for rec := range recs {
		if !started || rec.Module != last {
			last, lastShown, started = rec.Module, shown[rec.Module], true
		}
		if !lastShown && !c.roles.hides(rec) {
			shown[last], lastShown = true, true
		}
	}
	return len(shown)
}

// stale reports whether the maps must be rewritten although no code
// changed: map.md is missing, was rendered by an older rubi, is not the
// file an index wrote (committed, pulled, edited), or a curated summary is
// newer than it; or map.md or a module's page is not a regular file (a
// link the repository committed, a FIFO), or map.md is larger than rubi
// reads of it, which the rewrite replaces.
func (c *codeMaps) stale(m *manifest.Manifest) bool {
	st, err := os.Lstat(c.path())
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxMapFile || m.MapsFormat != mapsFormat || !c.written() {
		return true
	}
	pages, _ := os.ReadDir(filepath.Join(c.project.Dir(), modulesDir))
	for _, de := range pages {
		if strings.HasSuffix(de.Name(), ".md") && !de.Type().IsRegular() {
			return true
		}
	}
	stale := false
	filepath.WalkDir(filepath.Join(c.project.Dir(), summaryDir), func(_ string, d os.DirEntry, err error) error {
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

// page returns the map or a module's page of the index m, and the target
// of its curated summary ("map", "module:NAME").
func (c *codeMaps) page(m *manifest.Manifest, module string) (string, string, error) {
	if module == "" {
		// The map files may be the repository's: nothing in them reaches
		// the terminal or the agent raw.
		data, err := store.ReadWithin(c.cfg.Root, c.path(), maxMapFile)
		return text.EscapeLines(codemap.WithoutLinks(string(data))), "map", err
	}
	mods := c.modules(m)
	names := make([]string, 0, len(mods))
	for name := range mods {
		names = append(names, name)
	}
	sort.Strings(names)
	var found []string
	for _, name := range names {
		if name == module || codemap.Slug(name) == module {
			found = []string{name}
			break
		}
		if strings.HasSuffix(name, "/"+module) {
			found = append(found, name)
		}
	}
	switch len(found) {
	case 0:
		return "", "", fmt.Errorf("no module %q; modules are: %s", module, strings.Join(names, ", "))
	case 1:
	default:
		return "", "", fmt.Errorf("%q could be %s; name one in full", module, strings.Join(found, " or "))
	}
	data, err := store.ReadWithin(c.cfg.Root, filepath.Join(c.project.Dir(), modulesDir, codemap.Slug(found[0])+".md"), maxModulePage)
	return text.EscapeLines(codemap.WithoutLinks(string(data))), "module:" + found[0], err
}

// summary returns the curated summary of target ("map", "module:<name>"),
// "" when there is none.
func (c *codeMaps) summary(target string) string {
	text, _ := c.project.Knowledge().Summary(target)
	return text
}

// isRegular reports whether p is a regular file, not a link to one.
func isRegular(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode().IsRegular()
}

// projectName names the project in the map: the last element of its Go
// module path or its package.json name, else the root directory's name.
func (c *codeMaps) projectName() string {
	if data, err := store.ReadWithin(c.cfg.Root, filepath.Join(c.cfg.Root, "go.mod"), maxManifestFile); err == nil {
		if mod := modfile.ModulePath(data); mod != "" {
			return path.Base(mod)
		}
	}
	if data, err := store.ReadWithin(c.cfg.Root, filepath.Join(c.cfg.Root, "package.json"), maxManifestFile); err == nil {
		var pkg struct{ Name string }
		if json.Unmarshal(data, &pkg) == nil && pkg.Name != "" {
			return pkg.Name
		}
	}
	return filepath.Base(c.cfg.Root)
}

// writeMap is writeIfChanged for .rubi/map.md, which a session start
// injects as rubi's own only while it is the very file an index wrote, or
// found equal to what it would write (MapWritten): the record of that
// version is kept in the index's folder.
func (c *codeMaps) writeMap(content string) error {
	path := c.path()
	if err := c.writeIfChanged(path, content); err != nil {
		return err
	}
	store.RecordWrittenAt(path, c.record())
	return nil
}

// path is the level-0 map's file, .rubi/map.md.
func (c *codeMaps) path() string { return filepath.Join(c.project.Dir(), mapFile) }

// record is the record of the version of .rubi/map.md an index wrote.
func (c *codeMaps) record() string { return filepath.Join(c.indexDir, mapFile+store.WrittenSuffix) }

// written reports whether .rubi/map.md is the very file an index of this
// machine wrote: not committed, edited or replaced since.
func (c *codeMaps) written() bool { return store.UnchangedAt(c.path(), c.record()) }

// MapWritten reports whether .rubi/map.md is the very file an index of
// this machine wrote: not committed, edited or replaced since.
func (e *Engine) MapWritten() bool { return e.maps.written() }

// writeIfChanged writes content at path unless the file holds it already.
// The compare reads at most len(content) bytes, never through a link: a
// larger file differs, and a link (or a FIFO) is replaced by the write.
func (c *codeMaps) writeIfChanged(path, content string) error {
	if old, err := store.ReadWithin(c.cfg.Root, path, int64(len(content))); err == nil && bytes.Equal(old, []byte(content)) {
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
