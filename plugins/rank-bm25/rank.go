package bm25

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/text"
)

// view is the live segments prepared for ranking with given settings:
// which documents newer segments deleted, and the average document length
// the length normalization divides by. Both come from the deletions and
// the segments' length totals, so a view costs nothing per document; a
// document's kind and normalization are read from its segment when a
// query scores or filters it. Documents are numbered globally: the
// documents of segment i come after those of segments before it.
type view struct {
	segs    []*segment
	base    []int    // global number of each segment's first document
	total   int      // documents stored
	dead    []uint64 // bit set of the deleted documents; nil when none
	nlive   []int    // per segment, its live documents
	kinds   []string
	local   [][]uint32 // per segment, its kind index → index in kinds
	n       int        // live documents
	avg     float64    // average weighted length of the live documents
	k1, b   float64
	k3      float64 // query term frequency saturation
	weights [numFields]float64
	// A view that serves more than one query (a long-lived process)
	// computes every document's normalization once, into norms; a
	// one-query process computes those of the postings it scores.
	served    atomic.Int64
	normsOnce sync.Once
	norms     []float64
}

type posting struct {
	doc uint32
	tf  float32 // Σ field weight × count
}

func newView(segs []*segment, s Settings) *view {
	v := &view{segs: segs, k1: s.K1, b: s.B, k3: s.K3, weights: [numFields]float64{s.TitleWeight, s.PathWeight, s.NamesWeight, s.BodyWeight, s.BodyWeight * s.PartsWeight}}
	var sums [numFields]uint64 // token counts of the live documents
	for _, sg := range segs {
		v.base = append(v.base, v.total)
		v.total += sg.ndocs
		v.nlive = append(v.nlive, sg.ndocs)
		for f, l := range sg.fieldLens {
			sums[f] += l
		}
	}
	v.n = v.total
	// A segment's deletions apply to the segments before it: find each
	// deleted id there by binary search.
	for i := 1; i < len(segs); i++ {
		for _, id := range segs[i].deletes {
			for j := range i {
				d, found := segs[j].search(id)
				if !found {
					continue
				}
				g := v.base[j] + d
				if v.dead == nil {
					v.dead = make([]uint64, (v.total+63)/64)
				}
				if v.dead[g/64]&(1<<(g%64)) != 0 {
					continue // deleted by an earlier segment too
				}
				v.dead[g/64] |= 1 << (g % 64)
				v.n--
				v.nlive[j]--
				for f, l := range segs[j].lens(d) {
					sums[f] -= uint64(l)
				}
			}
		}
	}
	kindIndex := map[string]uint32{}
	for _, sg := range segs {
		local := make([]uint32, len(sg.kinds))
		for k, name := range sg.kinds {
			g, ok := kindIndex[name]
			if !ok {
				g = uint32(len(v.kinds))
				kindIndex[name] = g
				v.kinds = append(v.kinds, name)
			}
			local[k] = g
		}
		v.local = append(v.local, local)
	}
	sum := 0.0
	for f, l := range sums {
		sum += v.weights[f] * float64(l)
	}
	v.avg = sum / float64(max(v.n, 1))
	return v
}

// live reports whether global document g is not deleted.
func (v *view) live(g int) bool {
	return v.dead == nil || v.dead[g/64]&(1<<(g%64)) == 0
}

// find returns the global number of the live document with id, by
// binary search in the segments' sorted id tables, newest first (a
// document that changed lives in a late segment): an update names the
// documents it replaces without a map of every id.
func (v *view) find(id string) (int, bool) {
	for i := len(v.segs) - 1; i >= 0; i-- {
		if d, ok := v.segs[i].search(id); ok && v.live(v.base[i]+d) {
			return v.base[i] + d, true
		}
	}
	return 0, false
}

// norm returns the length normalization of global document d:
// k1 · (1 − b + b · length / average length).
func (v *view) norm(d uint32) float64 {
	s, i := v.seg(d)
	return v.segNorm(v.segs[s], i)
}

// segNorm returns the length normalization of document i of sg.
func (v *view) segNorm(sg *segment, i int) float64 {
	length := 0.0
	for f, l := range sg.lens(i) {
		length += v.weights[f] * float64(l)
	}
	ratio := 1.0
	if v.avg > 0 {
		ratio = length / v.avg
	}
	return v.k1 * (1 - v.b + v.b*ratio)
}

// seg returns the segment of global document d (its index in segs) and
// its number there.
func (v *view) seg(d uint32) (int, int) {
	i, found := slices.BinarySearch(v.base, int(d))
	if !found {
		i--
	}
	for v.segs[i].ndocs == 0 { // an empty segment shares its base with the next
		i++
	}
	return i, int(d) - v.base[i]
}

// kind returns the index in kinds of the kind of global document d.
func (v *view) kind(d uint32) uint32 {
	s, i := v.seg(d)
	return v.local[s][v.segs[s].kind(i)]
}

// idBytes returns the id of global document d, in the file's bytes.
func (v *view) idBytes(d uint32) []byte {
	s, i := v.seg(d)
	return v.segs[s].idBytes(i)
}

// id returns the id of global document d.
func (v *view) id(d uint32) string { return string(v.idBytes(d)) }

// postings returns the live documents containing term, in document order,
// with their field-weighted term frequencies.
func (v *view) postings(term string) ([]posting, error) {
	// A posting takes at least 1 + numFields bytes: size the list
	// once instead of growing it.
	found := make([]int, len(v.segs))
	most := 0
	for i, sg := range v.segs {
		t, ok := sg.find(term)
		found[i] = -1
		if ok {
			found[i] = t
			if a, b := offset(sg.postOffs, t), offset(sg.postOffs, t+1); a <= b && b <= uint32(len(sg.postings)) {
				most += int(b-a) / (1 + numFields)
			} // else eachPosting reports the damage
		}
	}
	out := make([]posting, 0, most)
	for i, sg := range v.segs {
		t := found[i]
		if t < 0 {
			continue
		}
		base := v.base[i]
		err := sg.eachPosting(t, func(d int, n *[numFields]uint16) {
			g := base + d
			if !v.live(g) {
				return
			}
			w := 0.0
			for f, c := range n {
				w += v.weights[f] * float64(c)
			}
			if w > 0 {
				out = append(out, posting{doc: uint32(g), tf: float32(w)})
			}
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// idf is the BM25 inverse document frequency in its non-negative form
// (as Lucene has it), so a term in most documents adds little instead of
// subtracting.
func (v *view) idf(df int) float64 {
	n := float64(v.n)
	return math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
}

// normTable returns every document's normalization from the second
// query the view serves on, and nil for the first.
func (v *view) normTable() []float64 {
	if v.served.Add(1) == 1 {
		return nil
	}
	v.normsOnce.Do(func() {
		t := make([]float64, v.total)
		for s, sg := range v.segs {
			for i := range sg.ndocs {
				t[v.base[s]+i] = v.segNorm(sg, i)
			}
		}
		v.norms = t
	})
	return v.norms
}

// score is the contribution of query term qt to the document of p; norms
// is normTable's.
func (v *view) score(qt *queryTerm, p posting, norms []float64) float64 {
	tf := float64(p.tf)
	var norm float64
	if norms != nil {
		norm = norms[p.doc]
	} else {
		norm = v.norm(p.doc)
	}
	return qt.weight * qt.idf * tf * (v.k1 + 1) / (tf + norm)
}

// queryTerm is one distinct term of a query that the index knows.
type queryTerm struct {
	postings []posting
	weight   float64 // 1 for the query text, TermsWeight for Query.Terms, times the qtf factor
	base     float64 // weight before the qtf factor
	qtf      float64 // times the word occurs in the query text
	idf      float64
	// Where it came from, for the reason: the words as written, and which
	// word of which input (0 for the text, i+1 for Terms[i]).
	source      string
	input, word int
	joined      bool
	// request marks a word of requests ("fix", "look", "read"), which
	// tells nothing of the question's topic (text.RequestWord).
	request bool
}

func (v *view) queryTerms(a text.Analyzer, q core.Query) ([]queryTerm, []float64, error) {
	var out []queryTerm
	var unknown []float64    // the weights of the words no document has
	seen := map[string]int{} // term → index in out, -1 when unknown
	var err error
	add := func(s string, input int, weight float64) {
		for _, tk := range a.Analyze(s) {
			if i, dup := seen[tk.Text]; dup {
				// A word repeated, or also among the terms: it counts at
				// its highest weight, and a word the question repeats
				// counts more, with diminishing returns (BM25's query
				// term frequency, Settings.K3): what a long report keeps
				// coming back to is what it is about.
				if i >= 0 {
					qt := &out[i]
					if input == 0 && qt.input == 0 {
						qt.qtf++
					}
					qt.weight = max(qt.base, weight)
					qt.base = qt.weight
					qt.weight *= (v.k3 + 1) * qt.qtf / (v.k3 + qt.qtf)
				}
				continue
			}
			ps, perr := v.postings(tk.Text)
			if perr != nil {
				err = perr
			}
			if len(ps) == 0 {
				seen[tk.Text] = -1
				if !tk.Joined && !segmented(tk.Text) && !text.RequestWord(tk.Text) {
					unknown = append(unknown, weight)
				}
				continue
			}
			seen[tk.Text] = len(out)
			out = append(out, queryTerm{postings: ps, weight: weight, base: weight, qtf: 1, idf: v.idf(len(ps)),
				source: tk.Source, input: input, word: tk.Word, joined: tk.Joined, request: text.RequestWord(tk.Text)})
		}
	}
	add(q.Text, 0, 1)
	for i, t := range q.Terms {
		add(t, i+1, TermsWeight)
	}
	return out, unknown, err
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
	qts, unknown, err := v.queryTerms(analyzer, q)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: run `rubi index --full` to rebuild it", Name, err)
	}
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
	// A process's first query (a hook's, a command's only one) has no
	// table of every document's normalization: each document's is
	// computed when the query first touches it, and its kind looked up
	// once (both find the document's segment).
	norms := v.normTable()
	lazy := norms == nil
	if lazy {
		norms = make([]float64, v.total)
	}
	var admitted []int8 // by document: 0 not looked up, 1 admitted, -1 not
	if allowed != nil {
		admitted = make([]int8, v.total)
	}
	scores := make([]float64, v.total)
	var touched []uint32
	for i := range qts {
		qt := &qts[i]
		for _, p := range qt.postings {
			if admitted != nil {
				a := admitted[p.doc]
				if a == 0 {
					a = -1
					if allowed[v.kind(p.doc)] {
						a = 1
					}
					admitted[p.doc] = a
				}
				if a < 0 {
					continue
				}
			}
			if scores[p.doc] == 0 { // scores are positive once touched
				touched = append(touched, p.doc)
				if lazy {
					norms[p.doc] = v.norm(p.doc)
				}
			}
			scores[p.doc] += v.score(qt, p, norms)
		}
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	top := topK(touched, scores, v.idBytes, limit)
	hits := make([]core.Hit, len(top))
	tells := v.telling(qts)
	mass := 0.0
	for _, w := range tells {
		mass += w
	}
	// A word no document has is as telling as the rarest word the index
	// holds (one document's), and no document matches it: a question
	// about what the project does not hold ("pagination") matches no note
	// well. Not more telling: in a small corpus idf(0) is far above
	// idf(1) (a vault of one note: 6.7 times), and one word the notes do
	// not use ("look up my preferences": "up") outweighed every word they
	// share. The dev recall set scores both alike (utility 36 at the
	// floor it chooses, 0.30, either way).
	for _, w := range unknown {
		mass += w * (v.idf(1) - v.idf(1)/3)
	}
	for i, d := range top {
		hits[i] = core.Hit{ID: v.id(d), Score: scores[d], Reason: v.reason(d, qts, norms), Match: match(d, qts, tells, mass)}
	}
	return hits, nil
}

// telling weighs each query term by how telling it is: its idf above a
// third of the idf of a word only one document has. A word in more than
// about N^(2/3) of the N documents weighs nothing (a 25-file project's
// "read" in 9 files, a 6,000-file project's "test" in 330), a rarer one
// by its rarity; an agent's term counts at TermsWeight; a word of
// requests (text.RequestWord: "look", "fix", "read") weighs nothing. A third: of 1/4,
// 1/3, 0.4 and 1/2, the one the dev recall set preferred among those
// that still recall a note on its project's own word ("Fix the coupon",
// agent/hooks tests).
func (v *view) telling(qts []queryTerm) []float64 {
	third := v.idf(1) / 3
	out := make([]float64, len(qts))
	for i := range qts {
		if !qts[i].request {
			out[i] = qts[i].base * max(qts[i].idf-third, 0)
		}
	}
	return out
}

// segmented reports a term of a script written without spaces (Chinese,
// Japanese, Korean), which the analyzer cuts into overlapping pairs of
// characters: most of those pairs are grammar, and one the index does not
// hold says nothing about the question's topic.
func segmented(term string) bool {
	for _, r := range term {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			return true
		}
	}
	return false
}

// match is the share of the query's telling weight (telling, summing to
// mass) that document d contains (core.Hit.Match): 0 when the query has
// no telling word.
func match(d uint32, qts []queryTerm, tells []float64, mass float64) float64 {
	if mass <= 0 {
		return 0
	}
	got := 0.0
	for i := range qts {
		ps := qts[i].postings
		if _, found := slices.BinarySearchFunc(ps, d, func(p posting, d uint32) int { return cmp.Compare(p.doc, d) }); found {
			got += tells[i]
		}
	}
	return min(got/mass, 1)
}

// topK returns the k best documents, best first. Equal scores are broken
// by document id, so results are deterministic and do not depend on how
// the index is split into segments. A bounded heap keeps this O(n log k)
// for terms found in most of a large corpus.
func topK(docs []uint32, scores []float64, id func(uint32) []byte, k int) []uint32 {
	better := func(a, b uint32) bool {
		return scores[a] > scores[b] || scores[a] == scores[b] && bytes.Compare(id(a), id(b)) < 0
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
	return topK(h, scores, id, k)
}

// reason names the query terms that matched document d, the most
// contributing first, as the user wrote them: `matches "plugins",
// "loading"`. When the joined form of a compound query word matched, its
// parts are not listed again.
func (v *view) reason(d uint32, qts []queryTerm, norms []float64) string {
	type match struct {
		qt    *queryTerm
		score float64
	}
	var ms []match
	for i := range qts {
		ps := qts[i].postings
		j, found := slices.BinarySearchFunc(ps, d, func(p posting, d uint32) int { return cmp.Compare(p.doc, d) })
		if found {
			ms = append(ms, match{&qts[i], v.score(&qts[i], ps[j], norms)})
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

// load returns the view to rank with, reading the segments when this
// process has not built or read them yet, or when another process changed
// the index since.
func (r *Ranker) load() (*view, text.Analyzer, error) {
	r.mu.RLock()
	v, stamp, dir, analyzer := r.view, r.stamp, r.stateDir, r.analyzer
	r.mu.RUnlock()
	if dir == "" {
		return nil, analyzer, fmt.Errorf("%s: used before Configure", Name)
	}
	if v != nil && fresh(dir, stamp) {
		return v, analyzer, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.view != nil && fresh(dir, r.stamp) {
		return r.view, analyzer, nil
	}
	segs, st, err := readSegments(dir, r.oneShot)
	switch {
	case errors.Is(err, ErrNoIndex):
		return nil, analyzer, fmt.Errorf("%s: %w in %s: run `rubi index` to build it", Name, ErrNoIndex, dir)
	case errors.Is(err, errCorrupt) || errors.Is(err, errWrongFormat):
		return nil, analyzer, fmt.Errorf("%s: cannot use the index in %s: %w: run `rubi index` to rebuild it", Name, dir, err)
	case err != nil:
		return nil, analyzer, fmt.Errorf("%s: %w", Name, err)
	}
	want := analyzer.Signature()
	for _, sg := range segs {
		if sg.signature != want {
			return nil, analyzer, fmt.Errorf("%s: the index in %s was built with %q but this rubi and its settings ask for %q (%w): run `rubi index` to rebuild it", Name, dir, sg.signature, want, core.ErrOutdated)
		}
	}
	r.view, r.stamp = newView(segs, r.settings), st
	return r.view, analyzer, nil
}

// fresh reports whether a view stamped s still reflects the index in dir.
// An index whose list vanished leaves the view in use: it is still valid.
func fresh(dir string, s listStamp) bool {
	cur := currentList(dir)
	return cur == "" || cur == s
}

var _ core.Verifier = (*Ranker)(nil)

// Verify loads the index as Rank would: a damaged or missing segment or
// list fails it, and the next index run rebuilds the index in full.
func (r *Ranker) Verify(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	_, _, err := r.load()
	return err
}
