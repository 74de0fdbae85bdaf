package text

// Vocabulary numbers the terms an analyzer makes, for an index that keeps
// term ids rather than strings. Each gives each token's id, as
// Analyzer.Each gives its term. It remembers the id of every word as
// written (lowercased), so a word seen before costs one map lookup, where
// Each would find its term in the stem cache and the index would then look
// the term up again: on a large repository that second lookup is a tenth
// of indexing. A Vocabulary is for one goroutine at a time.
type Vocabulary struct {
	a     Analyzer
	words map[string]wordID // lowercased word → its term's id
	ids   map[string]uint32 // term → id
	terms []string          // id → term
}

// maxWords bounds a vocabulary's memory of words: a large repository has
// a few hundred thousand distinct ones (identifiers), and a vocabulary
// lives for one index run; past the bound it starts over, which costs
// speed, not correctness.
const maxWords = 1 << 20

// wordID is what a Vocabulary knows of a word.
type wordID struct {
	id   uint32
	stop bool
}

// Vocabulary returns an empty vocabulary of a's terms.
func (a Analyzer) Vocabulary() *Vocabulary {
	return &Vocabulary{a: a, words: map[string]wordID{}, ids: map[string]uint32{}}
}

// Terms returns the terms numbered so far: the id of Terms()[i] is i.
func (v *Vocabulary) Terms() []string { return v.terms }

// Each calls fn with the id of every token of s, in order, and whether
// the token is one part of a compound word (see Token.Part).
func (v *Vocabulary) Each(s string, fn func(id uint32, part bool)) {
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	st := sc.stemmer(v.a.lang())
	stop := !v.a.KeepStopwords
	sc.words(s, func(_, _, _ int) {
		compound := len(sc.parts) > 1
		sc.joined = sc.joined[:0]
		for _, pt := range sc.parts {
			if sc.cls[pt.start] == clsCJK {
				sc.pairs(pt, func(start, end int) { fn(v.word(sc.word[start:end], st).id, false) })
				continue
			}
			low, digits, runes := sc.lowercase(pt)
			sc.joined = append(sc.joined, low...)
			if len(low) > MaxTokenLen || runes == 1 && (!digits || !compound) {
				continue // as emit: too long, a single letter, a lone digit
			}
			w := v.word(low, st)
			if stop && w.stop {
				continue
			}
			fn(w.id, compound)
		}
		if compound && len(sc.joined) <= MaxTokenLen {
			fn(v.word(sc.joined, st).id, false)
		}
	})
}

// word returns the id of the lowercased word b's term, numbering the term
// if it is new.
func (v *Vocabulary) word(b []byte, st *stemmer) wordID {
	if w, ok := v.words[string(b)]; ok {
		return w
	}
	// Not through the stemmer's cache: the vocabulary remembers each
	// word itself, and a second memory of the same words per worker was
	// a sixth of a large index run's heap.
	word, c := st.fresh(b)
	term, stop := c.term, c.stop
	id, ok := v.ids[term]
	if !ok {
		id = uint32(len(v.terms))
		v.ids[term] = id
		v.terms = append(v.terms, term)
	}
	if len(v.words) >= maxWords {
		clear(v.words)
	}
	w := wordID{id, stop}
	v.words[word] = w
	return w
}
