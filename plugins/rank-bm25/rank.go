package bm25

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/text"
)

// view is an index prepared for ranking with given settings: posting lists
// with field-weighted term frequencies and each document's length
// normalization, computed once per index instead of once per query.
type view struct {
	idx   *index
	start []uint32  // the postings of term t are post[start[t]:start[t+1]]
	post  []posting // each list sorted by document
	norm  []float64 // per document: k1 · (1 − b + b · length / average length)
	kind  []uint32  // per document, an index in kinds
	kinds []string
	k1    float64
}

type posting struct {
	doc uint32
	tf  float32 // Σ field weight × count
}

func newView(idx *index, s Settings) *view {
	weights := [numFields]float64{s.TitleWeight, s.PathWeight, s.NamesWeight, s.BodyWeight}
	weighted := func(n [numFields]uint16) float64 {
		w := 0.0
		for f, c := range n {
			w += weights[f] * float64(c)
		}
		return w
	}
	v := &view{
		idx:   idx,
		start: make([]uint32, len(idx.terms)+1),
		norm:  make([]float64, len(idx.docs)),
		kind:  make([]uint32, len(idx.docs)),
		k1:    s.K1,
	}
	// Count the postings of each term, then fill them in document order
	// into one flat slice (fewer allocations than a slice per term).
	for i := range idx.docs {
		for _, tc := range idx.docs[i].terms {
			if weighted(tc.n) > 0 {
				v.start[tc.term+1]++
			}
		}
	}
	for t := 1; t < len(v.start); t++ {
		v.start[t] += v.start[t-1]
	}
	v.post = make([]posting, v.start[len(idx.terms)])
	fill := slices.Clone(v.start[:len(idx.terms)])
	kindIndex := map[string]uint32{}
	total := 0.0
	for i := range idx.docs {
		d := &idx.docs[i]
		for _, tc := range d.terms {
			if w := weighted(tc.n); w > 0 {
				v.post[fill[tc.term]] = posting{doc: uint32(i), tf: float32(w)}
				fill[tc.term]++
			}
		}
		length := 0.0
		for f, l := range d.lens {
			length += weights[f] * float64(l)
		}
		v.norm[i] = length
		total += length
		k, ok := kindIndex[d.kind]
		if !ok {
			k = uint32(len(v.kinds))
			kindIndex[d.kind] = k
			v.kinds = append(v.kinds, d.kind)
		}
		v.kind[i] = k
	}
	avg := total / float64(max(len(idx.docs), 1))
	for i, length := range v.norm {
		ratio := 1.0
		if avg > 0 {
			ratio = length / avg
		}
		v.norm[i] = s.K1 * (1 - s.B + s.B*ratio)
	}
	return v
}

func (v *view) postings(term uint32) []posting {
	return v.post[v.start[term]:v.start[term+1]]
}

// idf is the BM25 inverse document frequency in its non-negative form
// (as Lucene has it), so a term in most documents adds little instead of
// subtracting.
func (v *view) idf(term uint32) float64 {
	n, df := float64(len(v.idx.docs)), float64(len(v.postings(term)))
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}

func (v *view) score(qt *queryTerm, p posting) float64 {
	tf := float64(p.tf)
	return qt.weight * qt.idf * tf * (v.k1 + 1) / (tf + v.norm[p.doc])
}

// queryTerm is one distinct term of a query that the index knows.
type queryTerm struct {
	id     uint32
	weight float64 // 1 for the query text, TermsWeight for Query.Terms
	idf    float64
	// Where it came from, for the reason: the words as written, and which
	// word of which input (0 for the text, i+1 for Terms[i]).
	source      string
	input, word int
	joined      bool
}

func (v *view) queryTerms(a text.Analyzer, q core.Query) []queryTerm {
	var out []queryTerm
	seen := map[uint32]int{}
	add := func(s string, input int, weight float64) {
		for _, tk := range a.Analyze(s) {
			id, ok := v.idx.termID[tk.Text]
			if !ok {
				continue
			}
			if i, dup := seen[id]; dup {
				// A word repeated, or also among the terms: it counts once,
				// at its highest weight.
				out[i].weight = max(out[i].weight, weight)
				continue
			}
			seen[id] = len(out)
			out = append(out, queryTerm{id: id, weight: weight, idf: v.idf(id),
				source: tk.Source, input: input, word: tk.Word, joined: tk.Joined})
		}
	}
	add(q.Text, 0, 1)
	for i, t := range q.Terms {
		add(t, i+1, TermsWeight)
	}
	return out
}

// Rank scores the documents that contain at least one query term. It loads
// the persisted index on first use, and again when another process has
// re-indexed since.
func (r *Ranker) Rank(ctx context.Context, q core.Query) ([]core.Hit, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	v, analyzer, err := r.load()
	if err != nil {
		return nil, err
	}
	qts := v.queryTerms(analyzer, q)
	if len(qts) == 0 {
		return nil, nil
	}
	var allowed []bool // by kind index; nil admits all
	if len(q.Kinds) > 0 {
		allowed = make([]bool, len(v.kinds))
		for k, name := range v.kinds {
			allowed[k] = q.AcceptsKind(name)
		}
	}
	scores := make([]float64, len(v.idx.docs))
	var touched []uint32
	for i := range qts {
		qt := &qts[i]
		for _, p := range v.postings(qt.id) {
			if allowed != nil && !allowed[v.kind[p.doc]] {
				continue
			}
			if scores[p.doc] == 0 { // scores are positive once touched
				touched = append(touched, p.doc)
			}
			scores[p.doc] += v.score(qt, p)
		}
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	top := topK(touched, scores, limit)
	hits := make([]core.Hit, len(top))
	for i, d := range top {
		hits[i] = core.Hit{ID: v.idx.docs[d].id, Score: scores[d], Reason: v.reason(d, qts)}
	}
	return hits, nil
}

// topK returns the k best documents, best first. Equal scores are broken
// by document id (documents are numbered in id order), so results are
// deterministic. A bounded heap keeps this O(n log k) for terms found in
// most of a large corpus.
func topK(docs []uint32, scores []float64, k int) []uint32 {
	better := func(a, b uint32) bool {
		return scores[a] > scores[b] || scores[a] == scores[b] && a < b
	}
	if len(docs) <= k {
		slices.SortFunc(docs, func(a, b uint32) int {
			switch {
			case a == b:
				return 0
			case better(a, b):
				return -1
			}
			return 1
		})
		return docs
	}
	// h is a min-heap on "better": its root is the worst kept document.
	h := slices.Clone(docs[:k])
	down := func(i int) {
		for {
			w, l, r := i, 2*i+1, 2*i+2
			if l < len(h) && better(h[w], h[l]) {
				w = l
			}
			if r < len(h) && better(h[w], h[r]) {
				w = r
			}
			if w == i {
				return
			}
			h[i], h[w] = h[w], h[i]
			i = w
		}
	}
	for i := len(h)/2 - 1; i >= 0; i-- {
		down(i)
	}
	for _, d := range docs[k:] {
		if better(d, h[0]) {
			h[0] = d
			down(0)
		}
	}
	return topK(h, scores, k)
}

// reason names the query terms that matched document d, the most
// contributing first, as the user wrote them: `matches "plugins",
// "loading"`. When the joined form of a compound query word matched, its
// parts are not listed again.
func (v *view) reason(d uint32, qts []queryTerm) string {
	type match struct {
		qt    *queryTerm
		score float64
	}
	var ms []match
	for i := range qts {
		ps := v.postings(qts[i].id)
		j, found := slices.BinarySearchFunc(ps, d, func(p posting, d uint32) int { return cmp.Compare(p.doc, d) })
		if found {
			ms = append(ms, match{&qts[i], v.score(&qts[i], ps[j])})
		}
	}
	type wordKey struct{ input, word int }
	joined := map[wordKey]bool{}
	for _, m := range ms {
		if m.qt.joined {
			joined[wordKey{m.qt.input, m.qt.word}] = true
		}
	}
	slices.SortStableFunc(ms, func(a, b match) int { return cmp.Compare(b.score, a.score) })
	var words []string
	for _, m := range ms {
		if !m.qt.joined && joined[wordKey{m.qt.input, m.qt.word}] {
			continue
		}
		q := strconv.Quote(m.qt.source)
		if !slices.Contains(words, q) {
			words = append(words, q)
		}
		if len(words) == 3 {
			break
		}
	}
	if len(words) == 0 {
		return ""
	}
	return "matches " + strings.Join(words, ", ")
}

// load returns the view to rank with, reading the index file when this
// process has not built or read it yet, or when it changed on disk.
func (r *Ranker) load() (*view, text.Analyzer, error) {
	r.mu.RLock()
	v, stamp, dir, analyzer := r.view, r.stamp, r.stateDir, r.analyzer
	r.mu.RUnlock()
	if dir == "" {
		return nil, analyzer, fmt.Errorf("%s: used before Configure", Name)
	}
	path := filepath.Join(dir, stateFile)
	if v != nil && fresh(path, stamp) {
		return v, analyzer, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.view != nil && fresh(path, r.stamp) {
		return r.view, analyzer, nil
	}
	idx, st, err := readIndex(path)
	switch {
	case errors.Is(err, ErrNoIndex):
		return nil, analyzer, fmt.Errorf("%s: %w in %s: run `rubi index` to build it", Name, ErrNoIndex, dir)
	case errors.Is(err, errCorrupt) || errors.Is(err, errWrongFormat):
		return nil, analyzer, fmt.Errorf("%s: cannot use %s: %v: run `rubi index` to rebuild it", Name, path, err)
	case err != nil:
		return nil, analyzer, fmt.Errorf("%s: %w", Name, err)
	}
	if want := analyzer.Signature(); idx.signature != want {
		return nil, analyzer, fmt.Errorf("%s: %s was built with %q but the settings ask for %q: run `rubi index` to rebuild it", Name, path, idx.signature, want)
	}
	r.idx, r.view, r.stamp = idx, newView(idx, r.settings), st
	return r.view, analyzer, nil
}

// fresh reports whether a view stamped s still reflects the index file at
// path. A file that vanished leaves the view in use: it is still a valid
// index.
func fresh(path string, s fileStamp) bool {
	cur := stampOf(path)
	return cur == (fileStamp{}) || cur == s
}
