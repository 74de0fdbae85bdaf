package knowledge

import (
	"slices"
	"sort"

	"github.com/rubi-dev/rubi/core/text"
)

// Near-duplicates. A new node is "similar" to an active node of the same
// type when the Jaccard index of their title terms is at least 3/5, or that
// of their title+body terms at least 1/2. Terms are text.Tokenize's (accents
// folded, identifiers split, stopwords dropped, stemmed), so "Coupon applied
// twice" and "Coupons get applied twice" match. Such a node is still
// created; the agent is told, and may merge or supersede.
const (
	titleNum, titleDen = 3, 5
	fullNum, fullDen   = 1, 2
)

// nodeTerms are the distinct terms of a node, cached with its file.
type nodeTerms struct {
	title, full []string
}

func termsOf(title, body string) *nodeTerms {
	t := uniq(text.Tokenize(title))
	f := uniq(append(text.Tokenize(body), t...))
	return &nodeTerms{title: t, full: f}
}

// uniq returns the distinct strings of s, sorted, in a slice of their
// own: s (every token of a long body) is not kept alive by it.
func uniq(s []string) []string {
	sort.Strings(s)
	return slices.Clone(slices.Compact(s))
}

// simIndex finds near-duplicates without comparing every pair: it is a
// prefix-filtering index (Chaudhuri et al., 2006). Each term set is sorted
// rarest term first, and two sets whose Jaccard index reaches t must share
// a term among the first n-ceil(t·n)+1 of each, so only those prefixes are
// indexed and probed; candidates are then verified exactly. Any fixed
// order is correct; rarest-first keeps the posting lists short. A term's
// key is its document frequency (over the scope and the batch, counted once
// per batch) in the high bits and a hash of it in the low ones, which
// orders terms without sorting them all.
type simIndex struct {
	df     map[string]int
	keys   map[string]uint64
	byType map[string]*typeIndex
	docs   map[*Node]*simDoc
}

type typeIndex struct {
	docs  []*simDoc
	seen  []uint32 // seen[i] == probe: docs[i] already checked by this probe
	probe uint32
	title map[uint64][]int32
	full  map[uint64][]int32
}

type simDoc struct {
	node        *Node
	idx         int32 // position in typeIndex.docs
	title, full []uint64
}

type match struct {
	node  *Node
	score float64
}

func newSimIndex(sets [][]string) *simIndex {
	df := map[string]int{}
	for _, s := range sets {
		for _, t := range s {
			df[t]++
		}
	}
	return &simIndex{df: df, keys: make(map[string]uint64, len(df)), byType: map[string]*typeIndex{}, docs: map[*Node]*simDoc{}}
}

// ids maps terms to their keys, sorted rarest first. Two terms sharing a
// key (a 40-bit hash collision at equal frequency) would count as one,
// which only nudges a similarity score.
func (x *simIndex) ids(terms []string) []uint64 {
	out := make([]uint64, len(terms))
	for i, t := range terms {
		k, ok := x.keys[t]
		if !ok {
			// FNV-1a, inline: this runs for every term of the scope.
			h := uint64(14695981039346656037)
			for i := 0; i < len(t); i++ {
				h = (h ^ uint64(t[i])) * 1099511628211
			}
			k = uint64(min(x.df[t], 1<<24-1))<<40 | h&(1<<40-1)
			x.keys[t] = k
		}
		out[i] = k
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func prefixLen(n, num, den int) int {
	if n == 0 {
		return 0
	}
	return n - (num*n+den-1)/den + 1
}

// put indexes (or re-indexes, after a merge) an active node. Postings of
// an older version stay: they only add candidates, which are verified.
func (x *simIndex) put(n *Node, t *nodeTerms) {
	ti := x.byType[n.Type]
	if ti == nil {
		ti = &typeIndex{title: map[uint64][]int32{}, full: map[uint64][]int32{}}
		x.byType[n.Type] = ti
	}
	d := x.docs[n]
	if d == nil {
		d = &simDoc{node: n, idx: int32(len(ti.docs))}
		x.docs[n] = d
		ti.docs = append(ti.docs, d)
	}
	idx := d.idx
	d.title, d.full = x.ids(t.title), x.ids(t.full)
	for _, r := range d.title[:prefixLen(len(d.title), titleNum, titleDen)] {
		ti.title[r] = appendOnce(ti.title[r], idx)
	}
	for _, r := range d.full[:prefixLen(len(d.full), fullNum, fullDen)] {
		ti.full[r] = appendOnce(ti.full[r], idx)
	}
}

func appendOnce(p []int32, i int32) []int32 {
	if len(p) > 0 && p[len(p)-1] == i {
		return p
	}
	return append(p, i)
}

// rename moves a node's index entry to its replacement (a merged clone).
func (x *simIndex) rename(old, n *Node) {
	if d := x.docs[old]; d != nil {
		delete(x.docs, old)
		d.node = n
		x.docs[n] = d
	}
}

// similar returns the active nodes of type typ that t nearly duplicates,
// best first.
func (x *simIndex) similar(typ string, t *nodeTerms, self *Node) []match {
	ti := x.byType[typ]
	if ti == nil {
		return nil
	}
	title, full := x.ids(t.title), x.ids(t.full)
	if len(ti.seen) < len(ti.docs) {
		ti.seen = append(ti.seen, make([]uint32, len(ti.docs)-len(ti.seen))...)
	}
	ti.probe++
	var out []match
	check := func(posting []int32) {
		for _, i := range posting {
			if ti.seen[i] == ti.probe {
				continue
			}
			ti.seen[i] = ti.probe
			d := ti.docs[i]
			if d.node == self || d.node.Status != StatusActive {
				continue
			}
			tInter, tUnion := overlap(title, d.title)
			fInter, fUnion := overlap(full, d.full)
			if tInter > 0 && tInter*titleDen >= titleNum*tUnion || fInter > 0 && fInter*fullDen >= fullNum*fUnion {
				score := float64(tInter) / float64(max(tUnion, 1))
				score = max(score, float64(fInter)/float64(max(fUnion, 1)))
				out = append(out, match{node: d.node, score: score})
			}
		}
	}
	for _, r := range title[:prefixLen(len(title), titleNum, titleDen)] {
		check(ti.title[r])
	}
	for _, r := range full[:prefixLen(len(full), fullNum, fullDen)] {
		check(ti.full[r])
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
	return out
}

// overlap returns the sizes of the intersection and union of two sorted
// sets: their Jaccard index, as a fraction compared exactly.
func overlap(a, b []uint64) (inter, union int) {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			inter++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return inter, len(a) + len(b) - inter
}
