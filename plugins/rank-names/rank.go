package names

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/store"
	"github.com/rubi-dev/rubi/core/text"
)

// DefaultLimit is the number of hits Rank returns when Query.Limit is not
// positive.
const DefaultLimit = 50

// TermsWeight scales the agent's extra terms against the question's own
// words, as in rank.bm25.
const TermsWeight = 0.7

// How much each kind of match is worth, before the name's rarity and
// field: a name given exactly says the most; a plural of it nearly as
// much; a prefix or a near miss less.
const (
	exactWeight  = 1.0
	pluralWeight = 0.9
	prefixWeight = 0.6
	typo1Weight  = 0.6
	typo2Weight  = 0.4
	// maxExpand bounds how many names one prefix or typo may reach, so a
	// short word in a huge project stays cheap and specific.
	maxExpand = 64
	// maxJoin is the longest run of adjacent words tried as one name.
	maxJoin = 3
	// proseWeight scales a match of a single word written as prose (lower
	// case, or capitalized at the start): such words are more often words
	// than names, and the full-text ranker already weighs them in file
	// names and symbols. They are not matched as prefixes, and in a
	// question that reads as a sentence (it has stopwords, or more than
	// maxLookupWords words) not at all: "guards" in "how are the guards
	// set up" names nothing, while "cupom" or "recieve message handling"
	// reads as a lookup.
	proseWeight    = 0.35
	maxLookupWords = 3
)

// candidate is a word of the question, or a run of adjacent words joined,
// to look up as a name.
type candidate struct {
	key    string
	source string // as written, for the reason
	words  int
	weight float64
	prose  bool // a single word written as prose, not as a name
}

// isProse reports whether a word as written reads as prose rather than a
// name: letters only, no capital past the first letter, and a capital
// first letter only at the start of the input. LoadPlugin, http2, the
// mid-sentence Checkout and anything joined from several words are names.
func isProse(word string, first bool) bool {
	for i, r := range word {
		switch {
		case unicode.IsDigit(r):
			return false
		case unicode.IsUpper(r) && (i > 0 || !first):
			return false
		}
	}
	return true
}

// candidates lists the names to look for in the question and the terms.
func candidates(q core.Query) []candidate {
	var out []candidate
	at := map[string]int{}
	add := func(input string, weight float64, lookup bool) {
		// Words are runs of letters and digits; a run of adjacent words
		// is tried joined whatever separates them (load_plugin, host.go,
		// "load plugin"), and the reason quotes the span as written.
		type word struct {
			key        string
			start, end int
		}
		var words []word
		start := -1
		for i, r := range input + " " {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				if start < 0 {
					start = i
				}
				continue
			}
			if start >= 0 {
				if k := normalize(input[start:i]); k != "" {
					words = append(words, word{k, start, i})
				}
				start = -1
			}
		}
		for i := range words {
			key := ""
			for n := 1; n <= maxJoin && i+n <= len(words); n++ {
				key += words[i+n-1].key
				if n == 1 && (len(key) < 2 || text.IsStopword(key)) {
					continue
				}
				source := input[words[i].start:words[i+n-1].end]
				prose := n == 1 && isProse(source, i == 0)
				if prose && !lookup {
					continue
				}
				if j, ok := at[key]; ok {
					out[j].weight = max(out[j].weight, weight)
					continue
				}
				at[key] = len(out)
				out = append(out, candidate{key: key, source: source, words: n, weight: weight, prose: prose})
			}
		}
	}
	add(q.Text, 1, readsAsLookup(q.Text))
	for _, t := range q.Terms {
		add(t, TermsWeight, true) // the agent's terms are names or keywords
	}
	return out
}

// readsAsLookup reports whether a question is a few keywords rather than
// a sentence: no stopwords and at most maxLookupWords words.
func readsAsLookup(q string) bool {
	words := strings.FieldsFunc(q, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(words) > maxLookupWords {
		return false
	}
	for _, w := range words {
		if text.IsStopword(strings.ToLower(w)) {
			return false
		}
	}
	return true
}

// match is how a candidate met a document's name.
type match struct {
	score float64
	cand  *candidate
	how   string // "exact", "prefix" or "typo"
}

// Rank scores the documents whose names the query names.
func (r *Ranker) Rank(ctx context.Context, q core.Query) ([]core.Hit, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	v, s, err := r.load()
	if err != nil {
		return nil, err
	}
	cands := candidates(q)
	if len(cands) == 0 || v.ndocs == 0 {
		return nil, nil
	}
	n := float64(v.ndocs)
	best := map[int]map[int]match{} // document → candidate → its best match
	// score credits the documents having key, through candidate ci, with
	// a match of weight w. A prefix or a near miss (nodes false) says
	// something only of a name: a note's title is a phrase, and "Caroline"
	// starting the titles of half a conversation names none of them.
	score := func(ci int, key keyRef, w float64, how string, nodes bool) error {
		c := &cands[ci]
		idf := math.Log(1 + n/float64(max(v.df(key), 1)))
		if c.prose {
			w *= proseWeight
		}
		// Part after part, each document numbered in the view (it is in
		// one part only).
		for p, x := range v.parts {
			if key[p] < 0 {
				continue
			}
			base := v.base[p]
			err := x.postings(key[p], func(d int, field uint8) {
				if field == fieldNode && !nodes {
					return
				}
				d += base
				sc := w * fieldWeight[field] * idf * c.weight * (1 + 0.5*float64(c.words-1))
				m := best[d]
				if m == nil {
					m = map[int]match{}
					best[d] = m
				}
				if sc > m[ci].score {
					m[ci] = match{sc, c, how}
				}
			})
			if err != nil {
				return err
			}
		}
		return nil
	}
	var found expansion // reused by each expansion
	for ci := range cands {
		c := &cands[ci]
		var at keyRef // where the candidate is, or would be, in each part
		exact := false
		for p, x := range v.parts {
			at[p] = x.search(c.key)
		}
		if key, ok := v.present(at, c.key); ok {
			if err := score(ci, key, exactWeight, "exact", true); err != nil {
				return nil, corrupt(err)
			}
			exact = true
		}
		if k := strings.TrimSuffix(c.key, "s"); len(k) >= 3 && k != c.key {
			if key, ok := v.lookup(k); ok {
				if err := score(ci, key, pluralWeight, "exact", true); err != nil {
					return nil, corrupt(err)
				}
				exact = true
			}
		}
		if len(c.key) >= s.MinPrefix && !c.prose {
			v.prefixed(&found, at, c.key)
			err := v.merge(&found, func(key keyRef, k []byte, _ int) error {
				w := prefixWeight * float64(len(c.key)) / float64(len(k))
				return score(ci, key, w, "prefix", false)
			})
			if err != nil {
				return nil, corrupt(err)
			}
		}
		if s.Typos && !exact && c.words == 1 && len(c.key) >= 5 {
			v.typos(&found, c.key)
			err := v.merge(&found, func(key keyRef, _ []byte, d int) error {
				w := typo1Weight
				if d == 2 {
					w = typo2Weight
				}
				return score(ci, key, w, "typo", false)
			})
			if err != nil {
				return nil, corrupt(err)
			}
		}
	}
	type scored struct {
		doc   int
		id    string
		score float64
		top   match
	}
	var out []scored
	for d, ms := range best {
		id, kind, err := v.doc(d)
		if err != nil {
			return nil, corrupt(err)
		}
		if !q.AcceptsKind(kind) {
			continue
		}
		sc := scored{doc: d, id: id}
		// Summed in candidate order: a float sum in map order differs in
		// its last bits from run to run, and so did the order of ties.
		for _, ci := range slices.Sorted(maps.Keys(ms)) {
			m := ms[ci]
			sc.score += m.score
			if m.score > sc.top.score || m.score == sc.top.score && sc.top.cand != nil && m.cand.key < sc.top.cand.key {
				sc.top = m
			}
		}
		out = append(out, sc)
	}
	slices.SortFunc(out, func(a, b scored) int { return cmp.Or(cmp.Compare(b.score, a.score), strings.Compare(a.id, b.id)) })
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	out = out[:min(len(out), limit)]
	hits := make([]core.Hit, len(out))
	for i, sc := range out {
		hits[i] = core.Hit{ID: sc.id, Score: sc.score, Reason: reason(sc.top)}
	}
	return hits, nil
}

// prefixed finds, in each part, the first maxExpand names from at on
// (where prefix is or would be) that prefix starts, but not prefix itself:
// it was matched exactly.
func (v *view) prefixed(found *expansion, at keyRef, prefix string) {
	for p, x := range v.parts {
		fs := found.keys[p][:0]
		for j := at[p]; j < x.nkeys && len(fs) < maxExpand; j++ {
			k := x.key(j)
			if !strings.HasPrefix(string(k), prefix) {
				break
			}
			if string(k) != prefix {
				fs = append(fs, foundKey{k, j, 0})
			}
		}
		found.keys[p] = fs
	}
}

// typos finds, in each part, the first maxExpand names within the edit
// distance a candidate allows, with their distance: one edit from five
// letters, two from nine. Names are searched among those sharing the
// candidate's first letter (a typo there is rare, and the sorted keys
// make that range cheap to find). A name both parts have is measured
// once: the notes' part, the smaller, is scanned first, and the files'
// part looks up, in order, the distances measured there.
func (v *view) typos(found *expansion, key string) {
	limit := 1
	if len(key) >= 9 {
		limit = 2
	}
	measured := found.measured[:0]
	for i := range numParts {
		p := numParts - 1 - i
		x := v.parts[p]
		fs := found.keys[p][:0]
		m := 0 // the first of measured not below the key at hand
		for j := x.search(key[:1]); j < x.nkeys && len(fs) < maxExpand; j++ {
			k := x.key(j)
			if len(k) == 0 || k[0] != key[0] {
				break
			}
			if diff := len(k) - len(key); diff > limit || -diff > limit {
				continue
			}
			d := -1
			if i > 0 {
				for m < len(measured) && bytes.Compare(measured[m].key, k) < 0 {
					m++
				}
				if m < len(measured) && bytes.Equal(measured[m].key, k) {
					d = measured[m].n
				}
			}
			if d < 0 {
				d = text.Distance(key, string(k), limit)
			}
			if i == 0 {
				measured = append(measured, foundKey{k, j, d})
			}
			if d > 0 && d <= limit {
				fs = append(fs, foundKey{k, j, d})
			}
		}
		found.keys[p] = fs
	}
	found.measured = measured
}

// view is the index as Rank reads it: its parts, read together as one
// index of all their documents. A document is in one part only; a key may
// be in both, and is then one key of the view whose postings are the
// parts' together. The view's documents are numbered part after part.
type view struct {
	parts [numParts]*index
	base  [numParts]int // the view's number of each part's first document
	ndocs int
}

func newView(parts [numParts]*index) *view {
	v := &view{parts: parts}
	for p, x := range parts {
		v.base[p] = v.ndocs
		v.ndocs += x.ndocs
	}
	return v
}

// keyRef is a key of the view: its number in each part, -1 where that
// part has not got it.
type keyRef [numParts]int

// present returns the key of the view that is k, given where k is or
// would be in each part (index.search).
func (v *view) present(at keyRef, k string) (keyRef, bool) {
	var key keyRef
	ok := false
	for p, x := range v.parts {
		key[p] = -1
		if at[p] < x.nkeys && string(x.key(at[p])) == k {
			key[p], ok = at[p], true
		}
	}
	return key, ok
}

// lookup returns the key of the view that is k.
func (v *view) lookup(k string) (keyRef, bool) {
	var at keyRef
	for p, x := range v.parts {
		at[p] = x.search(k)
	}
	return v.present(at, k)
}

// df is the number of documents having key: they are in one part each.
func (v *view) df(key keyRef) int {
	n := 0
	for p, x := range v.parts {
		if key[p] >= 0 {
			n += x.df(key[p])
		}
	}
	return n
}

// doc decodes the id and kind of the view's document d.
func (v *view) doc(d int) (id, kind string, err error) {
	for p := numParts - 1; p >= 0; p-- {
		if d >= v.base[p] {
			return v.parts[p].doc(d - v.base[p])
		}
	}
	return "", "", errCorrupt
}

// foundKey is a key a prefix or a typo reached in one part (see
// view.merge): the key, its number in the part, and its edit distance.
type foundKey struct {
	key   []byte
	at, n int
}

// expansion holds what the scans of a prefix or a typo found, in buffers
// one query reuses from candidate to candidate.
type expansion struct {
	keys     [numParts][]foundKey // found in each part, in order
	measured []foundKey           // the notes' names measured for typos
}

// merge visits the first maxExpand keys of the view among those found in
// each part (by prefixed or typos), in key order, each once. One index of
// all the documents visits exactly these keys: each part found the first
// maxExpand keys of its own that qualify, and the view's first maxExpand
// are among them, whichever parts they are in. So each part is scanned
// alone, as one index would be, without comparing keys across parts at
// every step, and only what the scans found is merged.
func (v *view) merge(found *expansion, visit func(key keyRef, k []byte, n int) error) error {
	var next [numParts]int // the first of each part's found keys not yet visited
	for range maxExpand {
		// The least key not yet visited, and the parts that have it.
		var least []byte
		var n int
		have := false
		for p := range numParts {
			if next[p] < len(found.keys[p]) {
				if f := found.keys[p][next[p]]; !have || bytes.Compare(f.key, least) < 0 {
					least, n, have = f.key, f.n, true
				}
			}
		}
		if !have {
			return nil
		}
		var key keyRef
		for p := range numParts {
			key[p] = -1
			if next[p] < len(found.keys[p]) && bytes.Equal(found.keys[p][next[p]].key, least) {
				key[p] = found.keys[p][next[p]].at
				next[p]++
			}
		}
		if err := visit(key, least, n); err != nil {
			return err
		}
	}
	return nil
}

func reason(m match) string {
	if m.cand == nil {
		return ""
	}
	q := strconv.Quote(m.cand.source)
	switch m.how {
	case "prefix":
		return "a name starts with " + q
	case "typo":
		return "a name close to " + q
	}
	return "named in the question: " + q
}

func corrupt(err error) error {
	return fmt.Errorf("%s: %w: run `rubi index --full` to rebuild it", Name, err)
}

// load returns the index to rank with, reading each part's file when this
// process has not built or read it yet, or when another process rewrote
// it.
func (r *Ranker) load() (*view, Settings, error) {
	r.mu.RLock()
	parts, stamps, dir, s, oneShot := r.idx, r.stamp, r.stateDir, r.settings, r.oneShot
	r.mu.RUnlock()
	if dir == "" {
		return nil, s, fmt.Errorf("%s: used before Configure", Name)
	}
	for p := range numParts {
		file := filepath.Join(dir, partFiles[p])
		cur, _ := store.StampOf(file)
		if parts[p] != nil && (!cur.Valid() || cur.Same(stamps[p])) {
			continue
		}
		mapped, err := store.Map(file, oneShot)
		if errors.Is(err, os.ErrNotExist) {
			return nil, s, fmt.Errorf("%s: no index yet in %s (%s is missing): run `rubi index` to build it", Name, dir, partFiles[p])
		}
		if err != nil {
			return nil, s, fmt.Errorf("%s: %w", Name, err)
		}
		// The checksum reads all of the file: it is checked unless the
		// file is the very version an index run wrote (store.Unchanged).
		x, err := decode(mapped.Data, !store.Unchanged(file))
		if err != nil {
			mapped.Close()
			return nil, s, fmt.Errorf("%s: cannot use %s: %w: run `rubi index` to rebuild it", Name, file, err)
		}
		store.CloseWith(x, mapped) // the index's tables slice the mapping
		r.mu.Lock()
		r.idx[p], r.stamp[p] = x, cur
		r.mu.Unlock()
		parts[p] = x
	}
	return newView(parts), s, nil
}

var _ core.Verifier = (*Ranker)(nil)

// Verify loads the names index as Rank would: a damaged or missing file
// fails it, and the next index run rebuilds it in full.
func (r *Ranker) Verify(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	_, _, err := r.load()
	return err
}
