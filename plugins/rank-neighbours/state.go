package neighbours

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strings"

	"github.com/rubi-dev/rubi/core/codec"
)

// The state file holds what Rank looks up, laid out to be read where it
// lies: the recall hook reads it once per prompt, and a decoding that
// built maps of every note and edge cost more than the rest of its
// ranking together (about 5 ms with 2,000 chunks). Rank looks up the few
// matching documents by binary search over the sorted ids.
//
// After the magic line, little-endian 32-bit words: the counts of
// documents (n), session edges (e) and sittings (s), and the length of
// the ids' bytes; then the arrays
//
//	ids        n+1   offsets of each id in the ids' bytes, ids sorted
//	sitting    n     the document's sitting, or none (all ones)
//	before     n+1   edges[before[d]:before[d+1]] have later d
//	later      e     each edge's later document (edges sorted by it)
//	earlier    e     each edge's earlier document
//	weight     2e    each edge's weight, a float64 in two words
//	after      n+1   afterEdges[after[d]:after[d+1]] have earlier d
//	afterEdges e     edges, in their order
//	members    s+1   memberDocs[members[k]:members[k+1]] are sitting k's
//	memberDocs m     documents, in the order of their ids
//
// then the ids' bytes, and core/codec's CRC-32C trailer over it all. The
// order of every list is the order a sum over it takes, so scores do not
// depend on how the file was written.
const (
	stateFile = "neighbours"
	magic     = "rubi-neighbours 3\n"
	// maxState bounds the read: far above a million notes' state.
	maxState = 1 << 28
	none     = math.MaxUint32
)

var errDamaged = errors.New("is damaged")

// state is a view of the state file's bytes.
type state struct {
	n, e, s                                         int
	ids, sitting, before, later, earlier, weight    []byte
	after, afterEdges, members, memberDocs, idBytes []byte
}

func word(b []byte, i int) int { return int(binary.LittleEndian.Uint32(b[4*i:])) }

// id is document d's id.
func (st *state) id(d int) string {
	return string(st.idBytes[word(st.ids, d):word(st.ids, d+1)])
}

// kind returns the kind of document d: its id up to the first colon.
func (st *state) kind(d int) string {
	b := st.idBytes[word(st.ids, d):word(st.ids, d+1)]
	if i := bytes.IndexByte(b, ':'); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// find is the index of id among the sorted documents.
func (st *state) find(id string) (int, bool) {
	lo, hi := 0, st.n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if bytes.Compare(st.idBytes[word(st.ids, m):word(st.ids, m+1)], []byte(id)) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < st.n && string(st.idBytes[word(st.ids, lo):word(st.ids, lo+1)]) == id
}

// edgeWeight is edge i's weight.
func (st *state) edgeWeight(i int) float64 {
	return math.Float64frombits(binary.LittleEndian.Uint64(st.weight[8*i:]))
}

// edge is a session edge while the state is built.
type edge struct {
	later, earlier string
	weight         float64
}

// buildState lays out the state of the documents docs and the session
// edges between them (each from the later to the earlier), as the file
// holds it. A sitting is the documents linked one after the other,
// numbered in the order of their first document's id.
func buildState(docs []string, edges []edge) []byte {
	docs = slices.Clone(docs)
	slices.Sort(docs)
	docs = slices.Compact(docs)
	index := make(map[string]int, len(docs))
	for i, id := range docs {
		index[id] = i
	}
	slices.SortFunc(edges, func(a, b edge) int {
		return cmp.Or(strings.Compare(a.later, b.later), strings.Compare(a.earlier, b.earlier), cmp.Compare(a.weight, b.weight))
	})
	n, e := len(docs), len(edges)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(x int) int {
		if parent[x] != x {
			parent[x] = find(parent[x])
		}
		return parent[x]
	}
	linked := make([]bool, n)
	before := make([]int, n+1)
	later, earlier := make([]int, e), make([]int, e)
	afterLists := make([][]int, n)
	for i, ed := range edges {
		l, r := index[ed.later], index[ed.earlier]
		later[i], earlier[i] = l, r
		before[l+1]++
		afterLists[r] = append(afterLists[r], i)
		linked[l], linked[r] = true, true
		if a, b := find(l), find(r); a != b {
			parent[max(a, b)] = min(a, b)
		}
	}
	for d := range n {
		before[d+1] += before[d]
	}
	sitting := make([]int, n)
	number := map[int]int{}
	var members [][]int
	for d := range n {
		sitting[d] = none
		if !linked[d] {
			continue
		}
		root := find(d)
		k, ok := number[root]
		if !ok {
			k = len(members)
			number[root] = k
			members = append(members, nil)
		}
		sitting[d] = k
		members[k] = append(members[k], d)
	}
	var idBytes []byte
	b := []byte(magic)
	put := func(v int) { b = binary.LittleEndian.AppendUint32(b, uint32(v)) }
	blob := 0
	for _, id := range docs {
		blob += len(id)
	}
	put(n)
	put(e)
	put(len(members))
	put(blob)
	off := 0
	put(0)
	for _, id := range docs {
		off += len(id)
		put(off)
		idBytes = append(idBytes, id...)
	}
	for _, k := range sitting {
		put(k)
	}
	for _, v := range before {
		put(v)
	}
	for _, v := range later {
		put(v)
	}
	for _, v := range earlier {
		put(v)
	}
	for _, ed := range edges {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(ed.weight))
	}
	// A list of lists: its offsets, then its items one after the other.
	putLists := func(lists [][]int) {
		off := 0
		put(0)
		for _, l := range lists {
			off += len(l)
			put(off)
		}
		for _, l := range lists {
			for _, v := range l {
				put(v)
			}
		}
	}
	putLists(afterLists)
	putLists(members)
	b = append(b, idBytes...)
	return codec.Seal(b)
}

// decode checks the state file's bytes and returns a view of them. Every
// offset and index is checked against the counts, so that a damaged or
// hostile file is refused here and never read out of bounds in Rank; the
// checksum of the whole, when verify is set (a reader skips it for the
// very version an index run wrote, store.Unchanged).
func decode(data []byte, verify bool) (*state, error) {
	if len(data) < 4 {
		return nil, errDamaged
	}
	sealed, ok := data[:len(data)-4], true
	if verify {
		sealed, ok = codec.Unseal(data)
	}
	body, isState := bytes.CutPrefix(sealed, []byte(magic))
	if !ok || !isState || len(body) < 16 {
		return nil, errDamaged
	}
	n, e, s, blob := word(body, 0), word(body, 1), word(body, 2), word(body, 3)
	// Each count is bounded by the file's size before any sum of them.
	if n > len(body) || e > len(body) || s > len(body) || blob > len(body) {
		return nil, errDamaged
	}
	st := &state{n: n, e: e, s: s}
	rest := body[16:]
	take := func(words int) []byte {
		if rest == nil || 4*words > len(rest) {
			rest = nil
			return nil
		}
		out := rest[:4*words]
		rest = rest[4*words:]
		return out
	}
	st.ids = take(n + 1)
	st.sitting = take(n)
	st.before = take(n + 1)
	st.later = take(e)
	st.earlier = take(e)
	st.weight = take(2 * e)
	st.after = take(n + 1)
	st.afterEdges = take(e)
	st.members = take(s + 1)
	if rest == nil {
		return nil, errDamaged
	}
	m := word(st.members, s)
	st.memberDocs = take(m)
	if rest == nil || len(rest) != blob {
		return nil, errDamaged
	}
	st.idBytes = rest
	if !offsets(st.ids, n, blob) || !offsets(st.before, n, e) || !offsets(st.after, n, e) || !offsets(st.members, s, m) {
		return nil, errDamaged
	}
	for d := 1; d < n; d++ {
		if bytes.Compare(st.idBytes[word(st.ids, d-1):word(st.ids, d)], st.idBytes[word(st.ids, d):word(st.ids, d+1)]) >= 0 {
			return nil, errDamaged
		}
	}
	for d := range n {
		if k := word(st.sitting, d); k != none && k >= s {
			return nil, errDamaged
		}
		for i := word(st.before, d); i < word(st.before, d+1); i++ {
			if word(st.later, i) != d {
				return nil, errDamaged
			}
		}
		for j := word(st.after, d); j < word(st.after, d+1); j++ {
			if i := word(st.afterEdges, j); i >= e || word(st.earlier, i) != d {
				return nil, errDamaged
			}
		}
	}
	for i := range e {
		if w := st.edgeWeight(i); word(st.earlier, i) >= n || math.IsNaN(w) || math.IsInf(w, 0) {
			return nil, errDamaged
		}
	}
	for j := range m {
		if word(st.memberDocs, j) >= n {
			return nil, errDamaged
		}
	}
	return st, nil
}

// offsets checks an offsets array of count+1 words: from 0 to end, never
// going down.
func offsets(b []byte, count, end int) bool {
	if word(b, 0) != 0 || word(b, count) != end {
		return false
	}
	for i := 1; i <= count; i++ {
		if word(b, i) < word(b, i-1) {
			return false
		}
	}
	return true
}
