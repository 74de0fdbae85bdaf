package ppr

import (
	"bytes"
	"cmp"
	"encoding/gob"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/graph"
	"github.com/rubi-dev/rubi/core/store"
)

// stateFile is the graph's file in the stage's state directory.
const stateFile = "graph.gob"

// formatVersion changes whenever persisted changes incompatibly; an older
// or newer file is refused with a request to re-index rather than
// misread.
const formatVersion = 1

const formatMagic = "rubi rank.ppr graph"

// header is encoded first, on its own, so a reader can check the version
// before decoding a payload whose shape may differ.
type header struct {
	Magic   string
	Version int
}

// persisted is the graph on disk: nodes with their metadata and the edges
// as the corpus gave them, in parallel slices that gob encodes compactly.
// The in-memory graph is rebuilt from it deterministically.
type persisted struct {
	IDs      []string
	DocKinds []string // distinct document kinds
	NodeKind []int32  // index into DocKinds, per node
	// Names are display names; "" means the key of the id, which is the
	// common case and not worth storing twice.
	Names []string

	EdgeKinds  []string
	EdgeFrom   []int32
	EdgeTo     []int32
	EdgeKind   []int32 // index into EdgeKinds
	EdgeWeight []float64
}

// Relations of a node to a neighbour, from the node's point of view.
const (
	relImports    uint8 = 1 << iota // node imports the neighbour
	relImportedBy                   // the neighbour imports node
	relInModule                     // the neighbour (a module) contains node
	relContains                     // node (a module) contains the neighbour
	relLinked                       // any other kind of edge
)

// state is a ready-to-rank graph.
type state struct {
	p   *persisted
	ids []string
	// g is the relevance graph: every corpus edge in both directions,
	// because a file is as relevant to the code it imports as to the
	// code importing it.
	g *graph.Graph
	// rel[relOff[i]+k] holds the relations of node i to g.Out(i)[k]: the
	// direction that the undirected graph forgets, kept for reasons.
	relOff []int32
	rel    []uint8
}

// newState builds the state of a corpus. Documents with a repeated id keep
// the first; edges whose ends are not documents are dropped, so a ranker
// never returns an id the corpus does not have.
func newState(c *core.Corpus) *state {
	p := &persisted{}
	index := make(map[string]int32, len(c.Documents))
	docKinds := map[string]int32{}
	for _, d := range c.Documents {
		if _, dup := index[d.ID]; dup {
			continue
		}
		index[d.ID] = int32(len(p.IDs))
		p.IDs = append(p.IDs, d.ID)
		kind, key, err := core.SplitDocID(d.ID)
		if err != nil {
			key = d.ID
		}
		kind = cmp.Or(d.Kind, kind)
		k, ok := docKinds[kind]
		if !ok {
			k = int32(len(p.DocKinds))
			docKinds[kind] = k
			p.DocKinds = append(p.DocKinds, kind)
		}
		p.NodeKind = append(p.NodeKind, k)
		name := cmp.Or(d.Path, d.Title, key)
		if name == key {
			name = ""
		}
		p.Names = append(p.Names, name)
	}
	edgeKinds := map[string]int32{}
	for _, e := range c.Edges {
		from, ok1 := index[e.From]
		to, ok2 := index[e.To]
		if !ok1 || !ok2 || from == to {
			continue
		}
		k, ok := edgeKinds[e.Kind]
		if !ok {
			k = int32(len(p.EdgeKinds))
			edgeKinds[e.Kind] = k
			p.EdgeKinds = append(p.EdgeKinds, e.Kind)
		}
		w := e.Weight
		if !(w > 0) || math.IsInf(w, 0) {
			w = 1 // core.Edge omits a default weight
		}
		p.EdgeFrom = append(p.EdgeFrom, from)
		p.EdgeTo = append(p.EdgeTo, to)
		p.EdgeKind = append(p.EdgeKind, k)
		p.EdgeWeight = append(p.EdgeWeight, w)
	}
	st, err := fromPersisted(p)
	if err != nil {
		panic(err) // built above, consistent by construction
	}
	return st
}

func fromPersisted(p *persisted) (*state, error) {
	n, m := len(p.IDs), len(p.EdgeFrom)
	if len(p.NodeKind) != n || len(p.Names) != n || len(p.EdgeTo) != m || len(p.EdgeKind) != m || len(p.EdgeWeight) != m {
		return nil, errors.New("inconsistent lengths")
	}
	for _, k := range p.NodeKind {
		if k < 0 || int(k) >= len(p.DocKinds) {
			return nil, errors.New("node kind out of range")
		}
	}
	b := graph.NewBuilder()
	for _, id := range p.IDs {
		b.Node(id)
	}
	for k := range m {
		f, t := int(p.EdgeFrom[k]), int(p.EdgeTo[k])
		if f < 0 || f >= n || t < 0 || t >= n || p.EdgeKind[k] < 0 || int(p.EdgeKind[k]) >= len(p.EdgeKinds) {
			return nil, errors.New("edge out of range")
		}
		b.AddEdgeIndex(f, t, p.EdgeWeight[k])
		b.AddEdgeIndex(t, f, p.EdgeWeight[k])
	}
	g := b.Build()
	if g.Len() != n {
		return nil, errors.New("duplicate node ids")
	}
	st := &state{p: p, ids: p.IDs, g: g, relOff: make([]int32, n+1)}
	for i := range n {
		st.relOff[i+1] = st.relOff[i] + int32(g.OutDegree(i))
	}
	st.rel = make([]uint8, st.relOff[n])
	for k := range m {
		f, t := int(p.EdgeFrom[k]), int(p.EdgeTo[k])
		if f == t {
			continue
		}
		fwd, back := relLinked, relLinked
		switch p.EdgeKinds[p.EdgeKind[k]] {
		case core.EdgeImports:
			fwd, back = relImports, relImportedBy
		case core.EdgeContains:
			fwd, back = relContains, relInModule
		}
		st.setRel(f, t, fwd)
		st.setRel(t, f, back)
	}
	return st, nil
}

func (st *state) setRel(i, j int, r uint8) {
	to, _ := st.g.Out(i)
	if k, ok := slices.BinarySearch(to, int32(j)); ok {
		st.rel[int(st.relOff[i])+k] |= r
	}
}

func (st *state) kind(i int) string { return st.p.DocKinds[st.p.NodeKind[i]] }

// name is how a reason refers to node i: the document's path, title or
// key.
func (st *state) name(i int) string {
	if n := st.p.Names[i]; n != "" {
		return n
	}
	if _, key, err := core.SplitDocID(st.ids[i]); err == nil {
		return key
	}
	return st.ids[i]
}

// fileStamp identifies a version of the state file cheaply.
type fileStamp struct {
	mod  int64 // Unix nanoseconds
	size int64
}

func statState(dir string) (fileStamp, error) {
	fi, err := os.Stat(filepath.Join(dir, stateFile))
	if err != nil {
		return fileStamp{}, err
	}
	return fileStamp{fi.ModTime().UnixNano(), fi.Size()}, nil
}

// save writes the state atomically, so a concurrent reader sees the old
// graph or the new one.
func (st *state) save(dir string) (fileStamp, error) {
	var buf bytes.Buffer
	enc := gob.NewEncoder(&buf)
	if err := enc.Encode(header{formatMagic, formatVersion}); err != nil {
		return fileStamp{}, err
	}
	if err := enc.Encode(st.p); err != nil {
		return fileStamp{}, err
	}
	if err := store.WriteFile(filepath.Join(dir, stateFile), buf.Bytes(), 0o644); err != nil {
		return fileStamp{}, err
	}
	return statState(dir)
}

func load(dir string) (*state, fileStamp, error) {
	name := filepath.Join(dir, stateFile)
	// Stat before reading: if the file changes in between, the stamp is
	// older than the content and the next Rank merely reloads again.
	stamp, err := statState(dir)
	if err != nil {
		return nil, fileStamp{}, err
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fileStamp{}, err
	}
	dec := gob.NewDecoder(bytes.NewReader(data))
	var h header
	if err := dec.Decode(&h); err != nil || h.Magic != formatMagic {
		return nil, fileStamp{}, fmt.Errorf("%s is not a rank.ppr graph; run `rubi index` to rebuild it", name)
	}
	if h.Version != formatVersion {
		return nil, fileStamp{}, fmt.Errorf("%s has format %d, this rubi reads %d; run `rubi index` to rebuild it", name, h.Version, formatVersion)
	}
	var p persisted
	if err := dec.Decode(&p); err != nil {
		return nil, fileStamp{}, fmt.Errorf("%s is corrupt (%v); run `rubi index` to rebuild it", name, err)
	}
	st, err := fromPersisted(&p)
	if err != nil {
		return nil, fileStamp{}, fmt.Errorf("%s is corrupt (%v); run `rubi index` to rebuild it", name, err)
	}
	return st, stamp, nil
}
