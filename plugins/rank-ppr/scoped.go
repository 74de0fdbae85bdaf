package ppr

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codec"
	"github.com/rubi-dev/rubi/core/graph"
	"github.com/rubi-dev/rubi/core/store"
)

// A scoped corpus (core.Corpus.Scope) is a delta of the notes alone, sent
// when an agent writes a note: the hook that indexes it must be done in a
// few milliseconds, while rebuilding the graph of a large project with a
// graph.Builder (string maps, a sort of every edge) takes more than ten.
// The graph numbers the notes last (see isNote), and edges from the code's
// documents never point at a note, so every out-edge between the code's
// nodes comes from the code and stays, and every other one comes from the
// notes' edges, which the delta sends whole. The update copies the code's
// rows but for their tails of out-edges to notes (the targets are sorted,
// and the notes numbered last), adds the out-edges the notes' edges make,
// merged as graph.Builder merges them, and lays out the notes' rows after:
// arrays copied and a few thousand entries sorted, where a full build
// sorts every edge. The graph comes out the same, to the byte of its file,
// as a full build of the same documents and edges.

// indexScoped applies a scoped corpus to the stored graph: the one in the
// state directory, read and checked whole as an index run checks what it
// builds on, or the one in memory without a state directory. Without a
// graph to build on, or given a scope other than the notes' (the graph
// orders only those last), it asks for core.ErrFullIndexNeeded. A delta
// that changes nothing in the graph writes nothing.
func (r *Ranker) indexScoped(c *core.Corpus) error {
	if c.Full || !isNotesScope(c.Scope) {
		return fmt.Errorf("%s: a scope of %v: %w", Name, c.Scope, core.ErrFullIndexNeeded)
	}
	if c.TextsOnly {
		// The same notes, paths and edges: the graph holds no text. The
		// stored graph is not even read, and a delta that says otherwise
		// is not trusted.
		if len(c.Removed) > 0 || c.EdgeCount() > 0 {
			return fmt.Errorf("%s: a delta of texts only that removes documents or sends edges: %w", Name, core.ErrFullIndexNeeded)
		}
		return nil
	}
	r.mu.Lock()
	dir, base, oneShot := r.stateDir, r.state, r.oneShot
	r.mu.Unlock()
	if dir != "" {
		m, err := readChecked(dir, oneShot)
		if err != nil {
			return fmt.Errorf("%s: %s %v: %w", Name, stateFile, err, core.ErrFullIndexNeeded)
		}
		// Nothing of base outlives this call: the update copies what it
		// keeps, and an unchanged graph is not kept in memory.
		defer m.Close()
		if base, err = decodeState(m.Data, false); err != nil {
			return fmt.Errorf("%s: %s %w: %w", Name, stateFile, err, core.ErrFullIndexNeeded)
		}
	}
	if base == nil {
		return fmt.Errorf("%s: no graph to update: %w", Name, core.ErrFullIndexNeeded)
	}
	next, err := base.update(c)
	if err != nil {
		return fmt.Errorf("%s: the graph %v: %w", Name, err, core.ErrFullIndexNeeded)
	}
	if next == base {
		if dir != "" {
			// Checked whole above, as keepable would have.
			store.RecordVerified(filepath.Join(dir, stateFile))
		}
		return nil
	}
	return r.keep(next, false, true)
}

// isNotesScope says whether scope is core.NotesScope, in any order.
func isNotesScope(scope []string) bool {
	for _, k := range scope {
		if !slices.Contains(core.NotesScope, k) {
			return false
		}
	}
	for _, k := range core.NotesScope {
		if !slices.Contains(scope, k) {
			return false
		}
	}
	return true
}

// readChecked maps the state file in dir and checks its checksum whatever
// store.Unchanged says: damage that leaves a file's stamp alone is left to
// the index runs, which check a file before they build on it. oneShot is
// core.Setup.OneShot.
func readChecked(dir string, oneShot bool) (*store.Mapped, error) {
	m, err := store.Map(filepath.Join(dir, stateFile), oneShot)
	if err != nil {
		return nil, fmt.Errorf("cannot be read (%w)", err)
	}
	if _, ok := codec.Unseal(m.Data); !ok {
		m.Close()
		return nil, fmt.Errorf("is %w (checksum mismatch)", errCorrupt)
	}
	return m, nil
}

// update returns st with its notes' part replaced as the scoped corpus c
// says, or st itself when that changes nothing. The result shares nothing
// with st.
func (st *state) update(c *core.Corpus) (*state, error) {
	n, err := st.notesStart()
	if err != nil {
		return nil, err
	}
	notes := st.updatedNotes(n, c)
	edges := slices.Collect(c.EachEdge()) // a delta's: the notes' edges
	in := inputs{code: st.inputs.code, notes: notesInputs(notes, edges)}
	if in == st.inputs {
		return st, nil
	}
	next := &state{inputs: in}
	next.number(st, n, notes)
	byID := st.g.Tables().ByID
	next.link(st, n, noteAdjacency(st, byID, n, notes, edges), edges, byID)
	return next, nil
}

// notesStart returns the number of the code's nodes, the first note's
// node, and checks that the nodes are numbered as an update relies on:
// the notes last, sorted by id. A graph from anywhere (a cloned
// repository's) is checked, not trusted, at a cost next to nothing beside
// the update's.
func (st *state) notesStart() (int, error) {
	total := st.strs.Len()
	n := total
	for i := range total {
		switch note := isNote(st.id(i)); {
		case note && n == total:
			n = i
		case note && st.id(i-1) >= st.id(i), !note && n < total:
			return 0, errors.New("does not number its notes last, by id")
		}
	}
	return n, nil
}

// updatedNotes returns the notes of st, from node n on, as the scoped
// corpus c leaves them, in node order: those it removes dropped, those it
// sends added or in place of the stored ones. A note both sent and
// removed is kept, as sent.
func (st *state) updatedNotes(n int, c *core.Corpus) []note {
	sent := notesOf(c.Documents)
	removed := make(map[string]bool, len(c.Removed))
	for _, id := range c.Removed {
		removed[id] = true
	}
	total := st.strs.Len()
	out := make([]note, 0, total-n+len(sent))
	for i, j := n, 0; i < total || j < len(sent); {
		switch {
		case j == len(sent) || i < total && st.id(i) < sent[j].id:
			if id := st.id(i); !removed[id] {
				out = append(out, note{id, st.kind(i), st.strs.name(i)})
			}
			i++
		case i == total || sent[j].id < st.id(i):
			out = append(out, sent[j])
			j++
		default:
			out = append(out, sent[j])
			i++
			j++
		}
	}
	return out
}

// number gives next the nodes of st's code, [0, n), and then the notes:
// their ids, display names and kinds. The kinds are numbered by first
// appearance in node order, as buildState numbers them, so the code's are
// a prefix of st's.
func (next *state) number(st *state, n int, notes []note) {
	codeKinds := int32(0)
	for _, k := range st.nodeKind[:n] {
		codeKinds = max(codeKinds, k+1)
	}
	next.kinds = slices.Clone(st.kinds[:codeKinds])
	next.nodeKind = append(make([]int32, 0, n+len(notes)), st.nodeKind[:n]...)
	for _, nt := range notes {
		k := slices.Index(next.kinds, nt.kind)
		if k < 0 {
			k = len(next.kinds)
			next.kinds = append(next.kinds, nt.kind)
		}
		next.nodeKind = append(next.nodeKind, int32(k))
	}
	next.strs.off = append(make([]uint32, 0, 2*(n+len(notes))+1), 0)
	if n > 0 {
		end := st.strs.off[2*n]
		next.strs.blob = append(make([]byte, 0, int(end)+len(notes)*48), st.strs.blob[:end]...)
		next.strs.off = append(next.strs.off, st.strs.off[1:2*n+1]...)
	}
	for _, nt := range notes {
		next.strs.add(nt.id, nt.name)
	}
}

// entry is an out-edge of the graph made of corpus edges from notes: one
// direction of one such edge, and once merged, of all the edges between
// its two nodes.
type entry struct {
	from, to int32
	w        float64
	rel      uint8
	// label is the index of the corpus edge whose Label the out-edge
	// shows, -1 for none: the first edge of the pair with a label, as
	// buildState has it.
	label int32
}

// adjacency is the out-edges the notes' corpus edges make, by row: node
// i's are e[start[i]:start[i+1]], sorted by target.
type adjacency struct {
	start []int32
	e     []entry
}

// noteAdjacency turns the edges from notes into out-edges of the nodes
// of the updated graph, both ways as buildState adds them: the code's
// nodes of st, [0, n), then the notes. Edges whose ends are not nodes are
// dropped. byID is st's nodes in the order of their ids. The entries are
// grouped by row without a sort of them all, and each row's parallel
// entries merged as graph.Builder merges them: their weights summed
// lightest first.
func noteAdjacency(st *state, byID []int32, n int, notes []note, edges []core.Edge) adjacency {
	// Notes are looked up the most, as the ends of most edges: by map.
	noteAt := make(map[string]int32, len(notes))
	for k, nt := range notes {
		noteAt[nt.id] = int32(n + k)
	}
	index := func(id string) (int32, bool) {
		if isNote(id) {
			i, ok := noteAt[id]
			return i, ok
		}
		i, ok := st.strs.find(byID, id)
		return i, ok && int(i) < n
	}
	halves := make([]entry, 0, 2*len(edges))
	lastFrom, from, fromOK := "", int32(0), false
	for k := range edges {
		e := &edges[k]
		if !isNote(e.From) {
			continue
		}
		if e.From != lastFrom {
			// The edges of a note come together: look it up once.
			lastFrom = e.From
			from, fromOK = index(e.From)
		}
		to, ok := index(e.To)
		if !fromOK || !ok || from == to {
			continue
		}
		w := edgeWeight(e)
		fwd, back := edgeRels(e.Kind)
		label := int32(-1)
		if e.Label != "" {
			label = int32(k)
		}
		halves = append(halves, entry{from, to, w, fwd, label}, entry{to, from, w, back, label})
	}
	rows := n + len(notes)
	start := make([]int32, rows+1)
	for _, h := range halves {
		start[h.from+1]++
	}
	for i := range rows {
		start[i+1] += start[i]
	}
	byRow := make([]entry, len(halves))
	next := slices.Clone(start[:rows])
	for _, h := range halves {
		byRow[next[h.from]] = h
		next[h.from]++
	}
	// Merged in place: a row's merged entries end before its own start.
	merged := byRow[:0]
	for i := range rows {
		row := byRow[start[i]:start[i+1]]
		slices.SortFunc(row, func(a, b entry) int { return cmp.Or(cmp.Compare(a.to, b.to), cmp.Compare(a.w, b.w)) })
		first := len(merged)
		for _, h := range row {
			if k := len(merged) - 1; k >= first && merged[k].to == h.to {
				m := &merged[k]
				m.w += h.w
				m.rel |= h.rel
				if h.label >= 0 && (m.label < 0 || h.label < m.label) {
					m.label = h.label
				}
				continue
			}
			merged = append(merged, h)
		}
		start[i] = int32(first)
	}
	start[rows] = int32(len(merged))
	return adjacency{start, merged}
}

// link lays out next's edges: each row of st's code, [0, n), but for the
// out-edges to notes, with its relations and labels, then the row's
// out-edges of adj; then the notes' rows, of adj alone. Each edge has its
// reverse of the same weight (both ways from the same corpus edges, summed
// in the same order), so the graph is undirected (graph.FromUndirected).
// byID is st's nodes in the order of their ids. A node whose row did not
// change keeps its out-weight; the others' are summed in CSR order, as
// graph.Builder sums them.
func (next *state) link(st *state, n int, adj adjacency, edges []core.Edge, byID []int32) {
	rows := next.strs.Len()
	oldStart, oldTo, oldW := st.g.CSR()
	size := int(oldStart[n]) + len(adj.e)
	start := append(make([]int32, 0, rows+1), 0)
	to := make([]int32, 0, size)
	w := make([]float64, 0, size)
	next.rel = make([]uint8, 0, size)
	sums := make([]float64, rows)
	next.labOff = []uint32{0}
	lp := 0 // st's next label
	for i := range rows {
		at := len(to)
		same := false
		if i < n {
			lo, hi := oldStart[i], oldStart[i+1]
			cut, _ := slices.BinarySearch(oldTo[lo:hi], int32(n))
			end := lo + int32(cut)
			to = append(to, oldTo[lo:end]...)
			w = append(w, oldW[lo:end]...)
			next.rel = append(next.rel, st.rel[lo:end]...)
			for ; lp < len(st.labPos) && st.labPos[lp] < hi; lp++ {
				if p := st.labPos[lp]; p < end {
					next.addLabel(int32(at)+p-lo, string(st.labBlob[st.labOff[lp]:st.labOff[lp+1]]))
				}
			}
			same = end == hi && adj.start[i] == adj.start[i+1]
		}
		for _, e := range adj.e[adj.start[i]:adj.start[i+1]] {
			if e.label >= 0 {
				next.addLabel(int32(len(to)), edges[e.label].Label)
			}
			to = append(to, e.to)
			w = append(w, e.w)
			next.rel = append(next.rel, e.rel)
		}
		if same {
			sums[i] = st.g.OutWeight(i)
		} else {
			for _, x := range w[at:] {
				sums[i] += x
			}
		}
		start = append(start, int32(len(to)))
	}
	next.g = graph.FromUndirected(&next.strs, graph.Tables{OutStart: start, OutTo: to, OutW: w, OutSum: sums, ByID: next.byID(byID, n)})
}

// addLabel gives the out-edge at CSR position pos, past those labelled
// so far, the words text.
func (st *state) addLabel(pos int32, text string) {
	st.labPos = append(st.labPos, pos)
	st.labBlob = append(st.labBlob, text...)
	st.labOff = append(st.labOff, uint32(len(st.labBlob)))
}

// byID returns next's nodes in the order of their ids: the code's in the
// order of old, the nodes of the graph updated sorted by id, merged with
// the notes, which come sorted.
func (next *state) byID(old []int32, n int) []int32 {
	rows := next.strs.Len()
	out := make([]int32, 0, rows)
	j := int32(n)
	for _, i := range old {
		if int(i) >= n {
			continue
		}
		for ; int(j) < rows && next.id(int(j)) < next.id(int(i)); j++ {
			out = append(out, j)
		}
		out = append(out, i)
	}
	for ; int(j) < rows; j++ {
		out = append(out, j)
	}
	return out
}
