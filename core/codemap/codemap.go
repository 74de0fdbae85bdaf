package codemap

import (
	"iter"
	"sort"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/graph"
)

// File is one file as the map sees it.
type File struct {
	Path     string
	Language string
	Module   string
	// Rank is the file's PageRank in the import graph.
	Rank float64
	// Doc is a one-line description (the file's doc comment, or the doc
	// of its first exported symbol); may be empty.
	Doc string
	// Exported names the file's exported top-level symbols, in file order;
	// nil when not loaded (the level-1 page then lists none).
	Exported []string
	Symbols  int
	// Hidden files have a role kept out of search and centrality
	// (index.hidden_roles: vendored and generated code by default).
	Hidden bool
	// ImportsOut and ImportedBy are project files, sorted.
	ImportsOut []string
	ImportedBy []string
	// Referenced says the index finds the references of the file's
	// language: UsedBy, the files using its definitions (most uses
	// first; tests left out), then tells who depends on it, where
	// ImportedBy names every importer of its Go package alike.
	Referenced bool
	UsedBy     []string
}

// Module is a unit of the project with its files and dependencies.
type Module struct {
	Name string
	// Files are sorted by centrality, most central first.
	Files []*File
	// Rank is the module's PageRank in the module graph.
	Rank float64
	// DependsOn and UsedBy are other modules, by how many imports link
	// them, most first.
	DependsOn []string
	UsedBy    []string
}

// Map is the code map of a project.
type Map struct {
	Files   map[string]*File
	Modules []*Module // by Rank, most central first
	byName  map[string]*Module
}

// Build assembles the map from the files (each with its Module set) and
// the file edges (ids "file:<path>", in one list or several): imports,
// and references (core.EdgeReferences). It fills ImportsOut and
// ImportedBy from the imports, UsedBy from the references, and ranks the
// modules with PageRank over the module graph:
// a module is central when central modules depend on it. A module whose
// files are all hidden (a vendored folder, generated code) is not one of
// the map's: it and its files are left out.
func Build(files []*File, edges ...[]core.Edge) *Map { return BuildFrom(files, All(edges...)) }

// BuildFrom is Build from edges read one at a time: a run that keeps its
// import edges encoded decodes them as the map takes them
// (manifest.Manifest.ImportEdgeSeq) rather than into a list.
func BuildFrom(files []*File, edges iter.Seq[*core.Edge]) *Map {
	visible := map[string]bool{}
	for _, f := range files {
		if !f.Hidden {
			visible[f.Module] = true
		}
	}
	kept := make([]*File, 0, len(files))
	for _, f := range files {
		if visible[f.Module] {
			kept = append(kept, f)
		}
	}
	files = kept
	m := &Map{Files: make(map[string]*File, len(files)), byName: map[string]*Module{}}
	for _, f := range files {
		m.Files[f.Path] = f
		f.ImportsOut, f.ImportedBy, f.UsedBy = nil, nil, nil
		mod := m.byName[f.Module]
		if mod == nil {
			mod = &Module{Name: f.Module}
			m.byName[f.Module] = mod
			m.Modules = append(m.Modules, mod)
		}
		mod.Files = append(mod.Files, f)
	}
	type pair struct{ from, to string }
	links := map[pair]float64{}
	b := graph.NewBuilder()
	sort.Slice(m.Modules, func(i, j int) bool { return m.Modules[i].Name < m.Modules[j].Name })
	for _, mod := range m.Modules {
		b.Node(mod.Name)
	}
	uses := map[pair]float64{}
	for e := range edges {
		from, to := m.Files[fileKey(e.From)], m.Files[fileKey(e.To)]
		if from == nil || to == nil {
			continue
		}
		if e.Kind == core.EdgeReferences {
			// The page lists the tests apart: a file's users are code.
			if from != to && !IsTest(from.Path) {
				to.UsedBy = append(to.UsedBy, from.Path)
				uses[pair{from.Path, to.Path}] = e.Weight
			}
			continue
		}
		from.ImportsOut = append(from.ImportsOut, to.Path)
		to.ImportedBy = append(to.ImportedBy, from.Path)
		if from.Module != to.Module {
			w := e.Weight
			if w <= 0 {
				w = 1
			}
			links[pair{from.Module, to.Module}] += w
			b.AddEdge(from.Module, to.Module, w)
		}
	}
	ranks := b.Build().PageRank(graph.Options{})
	for i, mod := range m.Modules {
		mod.Rank = ranks[i]
	}
	deps := map[string][]string{}
	users := map[string][]string{}
	for p := range links {
		deps[p.from] = append(deps[p.from], p.to)
		users[p.to] = append(users[p.to], p.from)
	}
	byWeight := func(list []string, key func(other string) pair) {
		sort.Slice(list, func(i, j int) bool {
			wi, wj := links[key(list[i])], links[key(list[j])]
			if wi != wj {
				return wi > wj
			}
			return list[i] < list[j]
		})
	}
	for _, mod := range m.Modules {
		mod.DependsOn = deps[mod.Name]
		byWeight(mod.DependsOn, func(o string) pair { return pair{mod.Name, o} })
		mod.UsedBy = users[mod.Name]
		byWeight(mod.UsedBy, func(o string) pair { return pair{o, mod.Name} })
		sort.Slice(mod.Files, func(i, j int) bool { return byRank(mod.Files[i], mod.Files[j]) })
	}
	for _, f := range files {
		sort.Strings(f.ImportsOut)
		sort.Strings(f.ImportedBy)
		sort.Slice(f.UsedBy, func(i, j int) bool {
			wi, wj := uses[pair{f.UsedBy[i], f.Path}], uses[pair{f.UsedBy[j], f.Path}]
			if wi != wj {
				return wi > wj
			}
			return f.UsedBy[i] < f.UsedBy[j]
		})
	}
	sort.SliceStable(m.Modules, func(i, j int) bool {
		if m.Modules[i].Rank != m.Modules[j].Rank {
			return m.Modules[i].Rank > m.Modules[j].Rank
		}
		return m.Modules[i].Name < m.Modules[j].Name
	})
	return m
}

func byRank(a, b *File) bool {
	if a.Rank != b.Rank {
		return a.Rank > b.Rank
	}
	return a.Path < b.Path
}

func fileKey(id string) string {
	if len(id) > 5 && id[:5] == "file:" {
		return id[5:]
	}
	return ""
}

// Module returns the module called name.
func (m *Map) Module(name string) (*Module, bool) {
	mod, ok := m.byName[name]
	return mod, ok
}

// CentralFiles returns the n most central files of the project.
func (m *Map) CentralFiles(n int) []*File {
	all := make([]*File, 0, len(m.Files))
	for _, f := range m.Files {
		all = append(all, f)
	}
	sort.Slice(all, func(i, j int) bool { return byRank(all[i], all[j]) })
	if len(all) > n {
		all = all[:n]
	}
	return all
}

// All yields the edges of every list, list after list: a run's import
// and reference edges are two lists, which a large project's map is
// built from without copying them into one (a hundred megabytes at
// 200,000 files).
func All(lists ...[]core.Edge) iter.Seq[*core.Edge] {
	return func(yield func(*core.Edge) bool) {
		for _, l := range lists {
			for k := range l {
				if !yield(&l[k]) {
					return
				}
			}
		}
	}
}
