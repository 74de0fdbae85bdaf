package pipeline

import (
	"math"
	"sort"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/graph"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/refs"
)

// The graph of references: a file links to each file whose definitions
// it uses, weighted by how many uses, log2(1 + uses), so that a file
// calling another's helpers fifty times does not outweigh six imports.
// Imports alone cannot order a Go package: its files import what the
// others do, and use each other without importing anything. The
// references tell which file the others lean on: it leads the map's list
// of the module (centrality). The edges go to the rankers too, and the
// walk of rank.ppr takes them at the weight its references setting
// gives (none by default).

// referenceWeight is the weight of an edge of uses references: the
// shape, before a setting scales it.
func referenceWeight(uses int) float64 { return math.Log2(1 + float64(uses)) }

// referenceEdges returns the edges the table of references of m holds
// (core.EdgeReferences, file to file, a file's uses of itself left out),
// sorted by their ends; none when m keeps no table. A table that cannot
// be read gives none and its error: the ranks fall back on the imports.
func referenceEdges(dir string, m *manifest.Manifest, oneShot bool, ids docIDs) ([]core.Edge, error) {
	if m.References == "" {
		return nil, nil
	}
	rd, err := refs.Open(dir, m.References, oneShot)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	var edges []core.Edge
	for _, p := range m.SortedPaths() {
		rs, err := rd.From(p)
		if err != nil {
			return nil, err
		}
		uses := map[string]int{}
		for _, ref := range rs {
			if ref.Path != p && m.Has(ref.Path) {
				uses[ref.Path]++
			}
		}
		if len(uses) == 0 {
			continue
		}
		from := ids.of(p)
		start := len(edges)
		for to, n := range uses {
			edges = append(edges, core.Edge{From: from, To: ids.of(to), Kind: core.EdgeReferences, Weight: referenceWeight(n)})
		}
		part := edges[start:]
		sort.Slice(part, func(i, j int) bool { return part[i].To < part[j].To })
	}
	return edges, nil
}

// rankFiles stores each file's PageRank in the graph of its imports and,
// each weighing refWeight times its own, its references, and how many
// files import it.
func rankFiles(m *manifest.Manifest, imports, references []core.Edge, refWeight float64) {
	b := graph.NewBuilder()
	paths := m.SortedPaths()
	for _, p := range paths {
		b.Node(core.DocID(core.DocFile, p))
		m.Records()[p].Importers = 0
	}
	importers := map[string]int{}
	for _, e := range imports {
		b.AddEdge(e.From, e.To, e.Weight)
		if e.From != e.To {
			importers[e.To]++
		}
	}
	if refWeight > 0 {
		for _, e := range references {
			b.AddEdge(e.From, e.To, refWeight*e.Weight)
		}
	}
	g := b.Build()
	ranks := g.PageRank(graph.Options{})
	for i, p := range paths {
		m.Records()[p].Rank = ranks[i]
		m.Records()[p].Importers = importers[core.DocID(core.DocFile, p)]
	}
}
