package pipeline

import (
	"slices"
	"sort"
	"strings"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/resolve"
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
	m, err := e.folder.indexed()
	if err != nil {
		return nil, err
	}
	if err := loadSymbols(e.folder.dir, m, m, func(string) bool { return true }); err != nil {
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
	for _, mod := range e.maps.build(m, nil, codemap.All(edges)).Modules {
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

// MapText returns the level-0 map, or the level-1 page of a module. A
// module may be named in full ("core/host"), by its page's name
// ("core-host"), or by a unique last part ("host").
func (e *Engine) MapText(module string) (string, error) {
	m, err := e.folder.indexed()
	if err != nil {
		return "", err
	}
	text, _, err := e.maps.page(m, module)
	return text, err
}

// MapTextIn is MapText with the map's fixed phrases (headings, labels,
// counts) in l; what the map lists, and its curated summary, stay as
// they are (codemap.Localize).
func (e *Engine) MapTextIn(module string, l messages.Lang) (string, error) {
	m, err := e.folder.indexed()
	if err != nil {
		return "", err
	}
	text, target, err := e.maps.page(m, module)
	if err != nil || l == messages.English {
		return text, err
	}
	return codemap.Localize(text, e.maps.summary(target), l), nil
}

// HasIndex reports whether the project was indexed at least once (its
// manifest exists), without reading the index.
func (e *Engine) HasIndex() bool { return e.folder.exists() }

// MapPath is the level-0 map's file, .rubi/map.md.
func (e *Engine) MapPath() string { return e.maps.path() }

// What follows builds the graph in an index run (indexRun.buildGraph):
// the imports resolved project-wide, or the last run's kept when no
// change can alter them, each file's centrality, and the modules whose
// documents changed.

// reuseResolution returns the previous run's import edges when this run
// cannot change them: the same files as before, and every changed file
// one a parser handles (so not go.mod, tsconfig.json, package.json and
// the like, which steer resolution) whose language, package and imports
// are what they were. Ranks and importer counts then carry over too. A
// one-file edit inside a function body costs no resolution at all.
func (r *indexRun) reuseResolution() ([]core.Edge, bool) {
	prev, next, files, full := r.prev, r.next, r.files, r.opts.Full
	if full || !prev.HasEdges() || len(prev.Records()) != len(next.Records()) {
		return nil, false
	}
	for p := range next.Records() {
		if _, ok := prev.File(p); !ok {
			return nil, false
		}
	}
	var changed []*manifest.Record
	for _, s := range files {
		if s.skip != "" || !s.changed {
			continue
		}
		old, rec := prev.Records()[s.rec.Path], next.Records()[s.rec.Path]
		if rec.Language == "" || next.Parsers[rec.Language] == "" || old.Language != rec.Language ||
			old.Package != rec.Package || !slices.EqualFunc(old.DecodedImports(), rec.DecodedImports(), sameImport) {
			return nil, false
		}
		changed = append(changed, rec)
	}
	edges, err := prev.ImportEdges()
	if err != nil {
		return nil, false
	}
	for _, rec := range changed {
		old := prev.Records()[rec.Path]
		rec.Rank, rec.Importers = old.Rank, old.Importers
	}
	return edges, true
}

func sameImport(a, b core.Import) bool {
	return a.Spec == b.Spec && a.Kind == b.Kind && slices.Equal(a.Names, b.Names)
}

// dirtyModules are the modules whose set of files or whose files changed
// (on both sides, when a file moved from one module to another).
func dirtyModules(prev, next *manifest.Manifest) map[string]bool {
	dirty := map[string]bool{}
	for p, rec := range next.Records() {
		if old, ok := prev.File(p); !ok || old.Hash != rec.Hash || old.Module != rec.Module {
			dirty[rec.Module] = true
			if ok {
				dirty[old.Module] = true
			}
		}
	}
	for p, old := range prev.Records() {
		if _, ok := next.File(p); !ok {
			dirty[old.Module] = true
		}
	}
	return dirty
}

// removedModules lists the modules that no longer have any file.
func removedModules(prev, next *manifest.Manifest) []string {
	have := map[string]bool{}
	for _, rec := range next.Records() {
		have[rec.Module] = true
	}
	gone := map[string]bool{}
	for _, rec := range prev.Records() {
		if !have[rec.Module] {
			gone[rec.Module] = true
		}
	}
	ids := make([]string, 0, len(gone))
	for mod := range gone {
		ids = append(ids, core.DocID(core.DocModule, mod))
	}
	sort.Strings(ids)
	return ids
}

// Draw returns the module graph of the index, or its file graph, cut to
// a drawing (`rubi graph --dot`, `--mermaid`): the imports resolved
// project-wide, and the references where the index keeps them.
func (e *Engine) Draw(opts codemap.DrawOptions) (*codemap.Drawing, error) {
	m, err := e.folder.indexed()
	if err != nil {
		return nil, err
	}
	project, err := resolve.NewProject(e.cfg.Root, m.SortedPaths())
	if err != nil {
		return nil, err
	}
	edges, _ := resolve.Analyze(project, m.AllFacts())
	refEdges, err := referenceEdges(e.folder.dir, m, e.oneShot, nil)
	if err != nil {
		return nil, err
	}
	return e.maps.build(m, nil, codemap.All(edges, refEdges)).Draw(opts), nil
}
