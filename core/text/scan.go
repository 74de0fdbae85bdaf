package text

import (
	"sync"
	"unicode"
	"unicode/utf8"
)

// Byte classes of a folded word. The scanner is a hand-written loop over
// bytes with a table for ASCII: it runs over every file of a repository,
// and a regexp or a rune-by-rune unicode lookup would dominate indexing.
const (
	clsNone  uint8 = iota
	clsUpper       // uppercase letter
	clsLower       // lowercase or caseless letter
	clsDigit       // digit
	clsSep         // '_' or '-' inside a compound word
	clsCont        // continuation byte of a multi-byte rune
	clsCJK         // a Chinese, Japanese or Korean letter (no case)
)

// isCJK reports whether r is written in a script that does not put spaces
// between words: Han ideographs, hiragana, katakana (and its prolonged
// sound mark) and Hangul. A run of them is indexed as overlapping pairs of
// letters (bigrams, as Lucene's CJK analyzer does): "リトライ上限" holds
// リト, トラ, ライ, イ上 and 上限, and so does any text that writes the
// same words, whatever surrounds them.
func isCJK(r rune) bool {
	switch {
	case r < 0x1100:
		return false
	case r == 0x30FC || r == 0xFF70: // ー and its half-width form
		return true
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = clsUpper
		t[c+'a'-'A'] = clsLower
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = clsDigit
	}
	t['_'], t['-'] = clsSep, clsSep
	return t
}()

// part is a byte range of scratch.word.
type part struct{ start, end int }

// scratch holds the buffers of one tokenization. Pooled, so steady-state
// tokenization does not allocate them, and each goroutine keeps warm stem
// caches.
type scratch struct {
	word     []byte  // the current word, folded, original case
	cls      []uint8 // class of each byte of word
	src      []int   // offset in the input of the rune each byte came from
	lower    []byte
	joined   []byte
	parts    []part
	stemmers [len(langIndex)]*stemmer
	folds    map[rune]string // folded forms beyond latinFold()
}

// fold is folded with a cache, since outside the table folding allocates
// (Vietnamese, Greek or Cyrillic text).
func (sc *scratch) fold(r rune) string {
	if r < 0x250 {
		return folded(r)
	}
	f, ok := sc.folds[r]
	if !ok {
		if sc.folds == nil || len(sc.folds) >= maxCache {
			sc.folds = map[rune]string{}
		}
		f = folded(r)
		sc.folds[r] = f
	}
	return f
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// langIndex numbers the languages for scratch.stemmers.
var langIndex = [...]Language{English, Portuguese, French, Spanish, NoStemming}

func (sc *scratch) stemmer(lang Language) *stemmer {
	for i, l := range langIndex {
		if l == lang {
			if sc.stemmers[i] == nil {
				sc.stemmers[i] = newStemmer(lang)
			}
			return sc.stemmers[i]
		}
	}
	panic("text: unknown language " + lang) // lang() never returns one
}

// run calls emit for every token of s.
func (a Analyzer) run(s string, emit func(Token)) {
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	out := sink{st: sc.stemmer(a.lang()), stop: !a.KeepStopwords, emit: emit}
	sc.words(s, func(i, j, word int) { sc.emit(s, i, j, word, &out) })
}

// sink is where one run's tokens go: the stemmer of its language,
// whether stopwords are dropped, and the caller's emit.
type sink struct {
	st   *stemmer
	stop bool
	emit func(Token)
}

// words calls fn for each word of s that has parts to emit: its byte
// range, and its number.
func (sc *scratch) words(s string, fn func(i, j, word int)) {
	word := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if k := asciiClass[c]; k == clsNone || k == clsSep {
				i++
				continue
			}
		} else if r, n := utf8.DecodeRuneInString(s[i:]); !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			i += n
			continue
		}
		j := sc.scan(s, i)
		if sc.split() {
			fn(i, j, word)
			word++
		}
		i = j
	}
}

// isWordStart reports whether s[i:] starts with a letter or digit.
func isWordStart(s string, i int) bool {
	if c := s[i]; c < utf8.RuneSelf {
		k := asciiClass[c]
		return k == clsUpper || k == clsLower || k == clsDigit
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// scan reads the word starting at s[i] (a letter or digit) into sc.word,
// folded, and returns where it ends.
func (sc *scratch) scan(s string, i int) int {
	sc.word, sc.cls, sc.src = sc.word[:0], sc.cls[:0], sc.src[:0]
	latin := false // whether the previous rune was folded
	// A word is written in a CJK script or in none: "APIの設定" is the
	// words API and の設定, each tokenized as its script is.
	cjk := false
	j := i
	for j < len(s) {
		c := s[j]
		if c < utf8.RuneSelf {
			if cjk {
				return j
			}
			switch k := asciiClass[c]; k {
			case clsUpper, clsLower, clsDigit:
				sc.add(c, k, j)
				latin = true
				j++
				continue
			case clsSep:
				// A run of '_' and '-' joins two parts when an alphanumeric
				// follows; a '-' between digits is a date or a range.
				e, hyphen := j, false
				for e < len(s) && (s[e] == '_' || s[e] == '-') {
					hyphen = hyphen || s[e] == '-'
					e++
				}
				if e == len(s) || !isWordStart(s, e) ||
					hyphen && len(sc.cls) > 0 && sc.cls[len(sc.cls)-1] == clsDigit && s[e] >= '0' && s[e] <= '9' {
					return j
				}
				sc.add('_', clsSep, j)
				j = e
				continue
			}
			return j
		}
		r, n := utf8.DecodeRuneInString(s[j:])
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if c := isCJK(r); j == i {
				cjk = c
			} else if c != cjk {
				return j
			}
			latin = foldable(r)
			if latin {
				sc.addFolded(sc.fold(r), j)
			} else {
				sc.addFolded(s[j:j+n], j)
			}
		case unicode.IsMark(r):
			// The accent of a decomposed Latin letter is folded away like
			// that of a precomposed one; any other mark is part of the
			// letter before it.
			if !latin || !unicode.Is(unicode.Mn, r) {
				for p := j; p < j+n; p++ {
					sc.add(s[p], clsCont, j)
				}
			}
		default:
			return j
		}
		j += n
	}
	return j
}

func (sc *scratch) add(c byte, k uint8, at int) {
	sc.word = append(sc.word, c)
	sc.cls = append(sc.cls, k)
	sc.src = append(sc.src, at)
}

// addFolded adds the folded form f of the rune at s[at]. When one rune
// folds to several (Æ → AE, ß → ss), the rest are continuation bytes of the
// first, so that the split never cuts inside them ("Æsir" is not an
// acronym).
func (sc *scratch) addFolded(f string, at int) {
	n := len(sc.word)
	for _, r := range f {
		if r < utf8.RuneSelf {
			if k := asciiClass[r]; k != clsSep && k != clsNone {
				sc.add(byte(r), k, at)
			}
			continue
		}
		k := clsLower
		if unicode.IsUpper(r) {
			k = clsUpper
		} else if unicode.IsDigit(r) {
			k = clsDigit
		} else if isCJK(r) {
			k = clsCJK
		}
		m := len(sc.word)
		sc.word = utf8.AppendRune(sc.word, r)
		for p := m; p < len(sc.word); p++ {
			sc.cls = append(sc.cls, clsCont)
			sc.src = append(sc.src, at)
		}
		sc.cls[m] = k
	}
	for p := n + 1; p < len(sc.cls); p++ {
		sc.cls[p] = clsCont
	}
}

// split cuts sc.word into parts. It reports false when nothing is left
// (a word made only of dropped marks).
func (sc *scratch) split() bool {
	sc.parts = sc.parts[:0]
	w, cls := sc.word, sc.cls
	start := 0
	var prev, prev2 uint8 // classes of the two previous runes in this part
	prevAt := 0
	for p := 0; p < len(w); p++ {
		c := cls[p]
		switch c {
		case clsCont:
			continue
		case clsSep:
			sc.addPart(start, p)
			start, prev, prev2 = p+1, clsNone, clsNone
			continue
		}
		cut := -1
		switch {
		case prev == clsNone:
		case c == clsUpper && prev == clsLower: // paymentError
			cut = p
		case (c == clsDigit) != (prev == clsDigit): // utf8Decode
			cut = p
		case c == clsLower && prev == clsUpper && prev2 == clsUpper:
			// HTTPServer: the acronym ends before the last capital, unless
			// the lowercase run is a lone plural s (IDs, URLsFor).
			if !(w[p] == 's' && (p+1 == len(w) || cls[p+1] != clsLower)) {
				cut = prevAt
			}
		}
		if cut >= 0 {
			sc.addPart(start, cut)
			start = cut
		}
		prev2, prev, prevAt = prev, c, p
	}
	sc.addPart(start, len(w))
	return len(sc.parts) > 0
}

func (sc *scratch) addPart(start, end int) {
	if end > start {
		sc.parts = append(sc.parts, part{start, end})
	}
}

// emit lowercases the parts of the word s[i:j], filters and stems them,
// and emits them and the joined form.
func (sc *scratch) emit(s string, i, j, word int, out *sink) {
	st, stop, emit := out.st, out.stop, out.emit
	compound := len(sc.parts) > 1
	sc.joined = sc.joined[:0]
	for _, pt := range sc.parts {
		if sc.cls[pt.start] == clsCJK {
			sc.pairs(pt, func(start, end int) {
				emit(Token{Text: string(sc.word[start:end]), Source: sc.source(s, i, j, start, end), Word: word})
			})
			continue
		}
		low, digits, runes := sc.lowercase(pt)
		sc.joined = append(sc.joined, low...)
		switch {
		case len(low) > MaxTokenLen:
			continue
		case runes == 1 && !digits: // single letters
			continue
		case runes == 1 && !compound: // a lone single digit
			continue
		}
		term, isStop := st.term(low)
		if stop && isStop {
			continue
		}
		emit(Token{Text: term, Source: sc.source(s, i, j, pt.start, pt.end), Word: word, Part: compound})
	}
	if compound && len(sc.joined) <= MaxTokenLen {
		term, _ := st.term(sc.joined)
		emit(Token{Text: term, Source: s[i:j], Word: word, Joined: true})
	}
}

// pairs calls fn with the byte range in sc.word of each overlapping pair
// of letters of a part written in a CJK script (isCJK), or of its one
// letter: such text has no spaces to find words by, and pairs match
// whatever words a question cuts it into. They are neither stemmed nor
// stopwords, and a run of any length is kept.
func (sc *scratch) pairs(pt part, fn func(start, end int)) {
	first, second := pt.start, -1 // the starts of the pair's two letters
	for p := pt.start; p < pt.end; {
		_, size := utf8.DecodeRune(sc.word[p:pt.end])
		p += size
		for p < pt.end && sc.cls[p] == clsCont {
			p++ // a mark written after the letter
		}
		if second < 0 {
			second = p
			if p == pt.end {
				fn(first, p) // a lone letter
			}
			continue
		}
		fn(first, p)
		first, second = second, p
	}
}

// source is the input the bytes start:end of the word s[i:j] came from,
// as written; the whole word for a part inside one source rune (ß → ss).
func (sc *scratch) source(s string, i, j, start, end int) string {
	from, to := sc.src[start], j
	if end < len(sc.word) {
		to = sc.src[end]
	}
	if to <= from {
		return s[i:j]
	}
	return s[from:to]
}

// lowercase writes the part lowercased to sc.lower and describes it.
func (sc *scratch) lowercase(pt part) (low []byte, digits bool, runes int) {
	low = sc.lower[:0]
	digits = true
	for p := pt.start; p < pt.end; {
		c := sc.word[p]
		runes++
		if c < utf8.RuneSelf {
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c < '0' || c > '9' {
				digits = false
			}
			low = append(low, c)
			p++
			continue
		}
		r, n := utf8.DecodeRune(sc.word[p:pt.end])
		if !unicode.IsDigit(r) {
			digits = false
		}
		low = utf8.AppendRune(low, unicode.ToLower(r))
		p += n
	}
	sc.lower = low
	return low, digits, runes
}
