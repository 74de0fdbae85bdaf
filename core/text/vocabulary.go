package text

import "strings"

// Vocabulary numbers the terms an analyzer makes, for an index that keeps
// term ids rather than strings. Each gives each token's id, as
// Analyzer.Each gives its term. It remembers the id of every word as
// written (lowercased), so a word seen before costs one map lookup, where
// Each would find its term in the stem cache and the index would then look
// the term up again: on a large repository that second lookup is a tenth
// of indexing. It also remembers the tokens of every short chunk of text
// (EachChunk) it has tokenized: code names the same identifiers file
// after file, and a chunk seen before is one lookup instead of being
// scanned, split into parts and each part looked up. A Vocabulary is for
// one goroutine at a time.
type Vocabulary struct {
	a     Analyzer
	words map[string]wordID // lowercased word → its term's id
	ids   map[string]uint32 // term → id
	terms []string          // id → term
	// chunks maps a chunk as written to where its tokens start in toks:
	// their number, then each token's id shifted left by one, its low
	// bit set for a part of a compound word.
	chunks map[string]uint32
	toks   []uint32
}

// maxWords bounds a vocabulary's memory of words: a large repository has
// a few hundred thousand distinct ones (identifiers), and a vocabulary
// lives for one index run; past the bound it starts over, which costs
// speed, not correctness.
const maxWords = 1 << 20

// maxChunk is the longest chunk a Vocabulary remembers the tokens of:
// identifiers and words are shorter, and a longer run (an encoded blob,
// a hash) seldom comes again.
const maxChunk = 48

// maxChunks bounds how many chunks a Vocabulary remembers, about 10 MB.
// Past it, new chunks are tokenized without being remembered: the first
// ones seen hold the names that come back most (the language's keywords,
// the project's common names), and a few thousand files of kubernetes
// have fewer than 40,000 different ones.
const maxChunks = 1 << 17

// wordID is what a Vocabulary knows of a word.
type wordID struct {
	id   uint32
	stop bool
}

// Vocabulary returns an empty vocabulary of a's terms.
func (a Analyzer) Vocabulary() *Vocabulary {
	return &Vocabulary{a: a, words: map[string]wordID{}, ids: map[string]uint32{}, chunks: map[string]uint32{}}
}

// Terms returns the terms numbered so far: the id of Terms()[i] is i.
func (v *Vocabulary) Terms() []string { return v.terms }

// Each calls fn with the id of every token of s, in order, and whether
// the token is one part of a compound word (see Token.Part).
func (v *Vocabulary) Each(s string, fn func(id uint32, part bool)) {
	var sc *scratch
	defer func() {
		if sc != nil {
			scratchPool.Put(sc)
		}
	}()
	// The chunks as EachChunk cuts them, its loop written out: through
	// EachChunk's callback (and its test of ASCII, unused here) this step
	// took 1.18 times as long.
	for i := 0; i < len(s); {
		if !chunkByte(s[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && chunkByte(s[j]) {
			j++
		}
		chunk := s[i:j]
		i = j
		if at, ok := v.chunks[chunk]; ok {
			n := v.toks[at]
			for _, t := range v.toks[at+1 : at+1+n] {
				fn(t>>1, t&1 == 1)
			}
			continue
		}
		if sc == nil {
			sc = scratchPool.Get().(*scratch)
		}
		if len(chunk) > maxChunk || len(v.chunks) >= maxChunks {
			v.chunk(sc, chunk, fn)
			continue
		}
		at := uint32(len(v.toks))
		v.toks = append(v.toks, 0)
		v.chunk(sc, chunk, func(id uint32, part bool) {
			t := id << 1
			if part {
				t |= 1
			}
			v.toks = append(v.toks, t)
			fn(id, part)
		})
		v.toks[at] = uint32(len(v.toks)) - at - 1
		v.chunks[strings.Clone(chunk)] = at
	}
}

// chunk calls fn with the id of every token of the chunk s (EachChunk),
// tokenized with sc.
func (v *Vocabulary) chunk(sc *scratch, s string, fn func(id uint32, part bool)) {
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
