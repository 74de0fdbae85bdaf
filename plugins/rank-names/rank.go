package names

import (
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
	x, s, err := r.load()
	if err != nil {
		return nil, err
	}
	cands := candidates(q)
	if len(cands) == 0 || x.ndocs == 0 {
		return nil, nil
	}
	n := float64(x.ndocs)
	best := map[int]map[int]match{} // document → candidate → its best match
	// score credits the documents having key, through candidate ci, with
	// a match of weight w. A prefix or a near miss (nodes false) says
	// something only of a name: a note's title is a phrase, and "Caroline"
	// starting the titles of half a conversation names none of them.
	score := func(ci int, key int, w float64, how string, nodes bool) error {
		c := &cands[ci]
		idf := math.Log(1 + n/float64(max(x.df(key), 1)))
		if c.prose {
			w *= proseWeight
		}
		return x.postings(key, func(d int, field uint8) {
			if field == fieldNode && !nodes {
				return
			}
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
	}
	visit := func(ci, key int, w float64, how string) error { return score(ci, key, w, how, true) }
	visitNames := func(ci, key int, w float64, how string) error { return score(ci, key, w, how, false) }
	for ci := range cands {
		c := &cands[ci]
		i := x.search(c.key)
		exact := i < x.nkeys && string(x.key(i)) == c.key
		if exact {
			if err := visit(ci, i, exactWeight, "exact"); err != nil {
				return nil, corrupt(err)
			}
		}
		if k := strings.TrimSuffix(c.key, "s"); len(k) >= 3 && k != c.key {
			if j := x.search(k); j < x.nkeys && string(x.key(j)) == k {
				if err := visit(ci, j, pluralWeight, "exact"); err != nil {
					return nil, corrupt(err)
				}
				exact = true
			}
		}
		if len(c.key) >= s.MinPrefix && !c.prose {
			start := i
			if exact && start < x.nkeys && string(x.key(start)) == c.key {
				start++
			}
			for j := start; j < x.nkeys && j < start+maxExpand && strings.HasPrefix(string(x.key(j)), c.key); j++ {
				w := prefixWeight * float64(len(c.key)) / float64(len(x.key(j)))
				if err := visitNames(ci, j, w, "prefix"); err != nil {
					return nil, corrupt(err)
				}
			}
		}
		if s.Typos && !exact && c.words == 1 && len(c.key) >= 5 {
			if err := r.typos(x, ci, c, visitNames); err != nil {
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
		id, kind, err := x.doc(d)
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

// typos visits the names within the edit distance a candidate allows:
// one edit from five letters, two from nine. Names are searched among
// those sharing the candidate's first letter (a typo there is rare, and
// the sorted keys make that range cheap to find).
func (r *Ranker) typos(x *index, ci int, c *candidate, visit func(ci, key int, w float64, how string) error) error {
	limit := 1
	if len(c.key) >= 9 {
		limit = 2
	}
	first := c.key[:1]
	found := 0
	for j := x.search(first); j < x.nkeys && found < maxExpand; j++ {
		k := x.key(j)
		if len(k) == 0 || k[0] != first[0] {
			break
		}
		if diff := len(k) - len(c.key); diff > limit || -diff > limit {
			continue
		}
		d := text.Distance(c.key, string(k), limit)
		if d == 0 || d > limit {
			continue
		}
		w := typo1Weight
		if d == 2 {
			w = typo2Weight
		}
		if err := visit(ci, j, w, "typo"); err != nil {
			return err
		}
		found++
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

// load returns the index to rank with, reading the file when this process
// has not built or read it yet, or when another process rewrote it.
func (r *Ranker) load() (*index, Settings, error) {
	r.mu.RLock()
	x, stamp, dir, s := r.idx, r.stamp, r.stateDir, r.settings
	r.mu.RUnlock()
	if dir == "" {
		return nil, s, fmt.Errorf("%s: used before Configure", Name)
	}
	file := filepath.Join(dir, stateFile)
	cur, _ := store.StampOf(file)
	if x != nil && (!cur.Valid() || cur.Same(stamp)) {
		return x, s, nil
	}
	mapped, err := store.Map(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil, s, fmt.Errorf("%s: no index yet in %s: run `rubi index` to build it", Name, dir)
	}
	if err != nil {
		return nil, s, fmt.Errorf("%s: %w", Name, err)
	}
	// The checksum reads all of the file: it is checked unless the file
	// is the very version an index run wrote (store.Unchanged).
	x, err = decode(mapped.Data, !store.Unchanged(file))
	if err != nil {
		mapped.Close()
		return nil, s, fmt.Errorf("%s: cannot use %s: %w: run `rubi index` to rebuild it", Name, file, err)
	}
	store.CloseWith(x, mapped) // the index's tables slice the mapping
	r.mu.Lock()
	r.idx, r.stamp = x, cur
	r.mu.Unlock()
	return x, s, nil
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
