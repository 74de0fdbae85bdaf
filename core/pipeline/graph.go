package pipeline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/resolve"
	"github.com/rubi-dev/rubi/core/store"
	"github.com/rubi-dev/rubi/core/text"
)

// GraphSymbol is a symbol as `rubi graph` lists it.
type GraphSymbol struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	Line int    `json:"line"`
}

// GraphFile is a file of the project graph.
type GraphFile struct {
	Path     string        `json:"path"`
	Lang     string        `json:"lang"`
	Module   string        `json:"module"`
	PageRank float64       `json:"pagerank"`
	Symbols  []GraphSymbol `json:"symbols"`
}

// GraphEdge is an import between two project files.
type GraphEdge struct {
	From string `json:"from"`
	To   string `json:"to"`
	Kind string `json:"kind"`
}

// GraphModule is a module with its files and neighbours.
type GraphModule struct {
	Name      string   `json:"name"`
	Files     int      `json:"files"`
	PageRank  float64  `json:"pagerank"`
	Central   []string `json:"central"`
	DependsOn []string `json:"depends_on"`
	UsedBy    []string `json:"used_by"`
}

// Graph is the project graph as other tools read it (`rubi graph --json`).
// Its paths and module names are escaped (core.EscapePath): a file name
// that is not UTF-8 is written \xHH, reversibly, and the JSON stays valid.
type Graph struct {
	Files      []GraphFile    `json:"files"`
	Edges      []GraphEdge    `json:"edges"`
	Modules    []GraphModule  `json:"modules"`
	Unresolved map[string]int `json:"unresolved"`
}

// Graph returns the whole project graph from the index.
func (e *Engine) Graph() (*Graph, error) {
	m, err := e.indexed()
	if err != nil {
		return nil, err
	}
	if err := e.loadSymbols(m, m, func(string) bool { return true }); err != nil {
		return nil, err
	}
	project, err := resolve.NewProject(e.cfg.Root, m.SortedPaths())
	if err != nil {
		return nil, err
	}
	edges, rs := resolve.Analyze(project, m.AllFacts())
	g := &Graph{Files: []GraphFile{}, Edges: []GraphEdge{}, Modules: []GraphModule{}, Unresolved: rs.Unresolved}
	if g.Unresolved == nil {
		g.Unresolved = map[string]int{}
	}
	for _, p := range m.SortedPaths() {
		rec := m.Records()[p]
		f := GraphFile{Path: core.EscapePath(p), Lang: rec.Language, Module: rec.Module, PageRank: rec.Rank, Symbols: []GraphSymbol{}}
		for _, s := range rec.Syms {
			f.Symbols = append(f.Symbols, GraphSymbol{Name: s.Name, Kind: s.Kind, Line: s.Line})
		}
		g.Files = append(g.Files, f)
	}
	for _, ed := range edges {
		g.Edges = append(g.Edges, GraphEdge{From: core.EscapePath(strings.TrimPrefix(ed.From, "file:")), To: core.EscapePath(strings.TrimPrefix(ed.To, "file:")), Kind: ed.Kind})
	}
	for _, mod := range e.buildMap(m, edges).Modules {
		gm := GraphModule{Name: core.EscapePath(mod.Name), Files: len(mod.Files), PageRank: mod.Rank, Central: []string{}, DependsOn: escaped(mod.DependsOn), UsedBy: escaped(mod.UsedBy)}
		for i, f := range mod.Files {
			if i == 3 {
				break
			}
			gm.Central = append(gm.Central, core.EscapePath(f.Path))
		}
		g.Modules = append(g.Modules, gm)
	}
	return g, nil
}

// escaped returns the paths or module names escaped (core.EscapePath),
// never nil.
func escaped(s []string) []string {
	out := make([]string, len(s))
	for i, p := range s {
		out[i] = core.EscapePath(p)
	}
	return out
}

// indexed returns the manifest, or ErrNoIndex.
func (e *Engine) indexed() (*manifest.Manifest, error) {
	m, err := e.currentManifest()
	if errors.Is(err, manifest.ErrNoIndex) {
		return nil, ErrNoIndex
	}
	return m, err
}

// MapText returns the level-0 map, or the level-1 page of a module. A
// module may be named in full ("core/host"), by its page's name
// ("core-host"), or by a unique last part ("host").
func (e *Engine) MapText(module string) (string, error) {
	text, _, err := e.mapPage(module)
	return text, err
}

// MapTextIn is MapText with the map's fixed phrases (headings, labels,
// counts) in l; what the map lists, and its curated summary, stay as
// they are (codemap.Localize).
func (e *Engine) MapTextIn(module string, l messages.Lang) (string, error) {
	text, target, err := e.mapPage(module)
	if err != nil || l == messages.English {
		return text, err
	}
	return codemap.Localize(text, e.summary(target), l), nil
}

// mapPage returns the map or a module's page, and the target of its
// curated summary ("map", "module:NAME").
func (e *Engine) mapPage(module string) (string, string, error) {
	m, err := e.indexed()
	if err != nil {
		return "", "", err
	}
	if module == "" {
		// The map files may be the repository's: nothing in them reaches
		// the terminal or the agent raw.
		data, err := store.ReadWithin(e.cfg.Root, filepath.Join(e.dataDir(), mapFile), maxMapFile)
		return text.EscapeLines(string(data)), "map", err
	}
	mods := e.mapModules(m)
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
	data, err := store.ReadWithin(e.cfg.Root, filepath.Join(e.dataDir(), modulesDir, codemap.Slug(found[0])+".md"), maxModulePage)
	return text.EscapeLines(string(data)), "module:" + found[0], err
}

// HasIndex reports whether the project was indexed at least once (its
// manifest exists), without reading the index.
func (e *Engine) HasIndex() bool {
	_, err := os.Stat(filepath.Join(e.indexDir(), manifest.FileName))
	return err == nil
}

// MapPath is the level-0 map's file, .rubi/map.md.
func (e *Engine) MapPath() string { return filepath.Join(e.dataDir(), mapFile) }
