package text

import (
	"sync"
	"unicode/utf8"
)

// CountTokens returns how many tokens a.Tokenize(string(b)) would give,
// without making them: nothing is folded, stemmed or looked up but the
// stopwords. For text of many words where only a few are wanted (the
// length of a passage, against which the terms found in it are weighed)
// it costs a fraction of tokenizing. ASCII words are counted by the rules
// the analyzer follows (see the package documentation); a word with any
// other byte is analyzed.
func (a Analyzer) CountTokens(b []byte) int {
	n := 0
	var parts [32][2]int // a word's parts; more are appended beyond
	EachChunk(b, func(c []byte, ascii bool) {
		if ascii {
			n += a.countASCII(c, parts[:0])
		} else {
			a.Each(string(c), func(string, bool) { n++ })
		}
	})
	return n
}

// EachChunk calls fn with each chunk of b, in order: each run of ASCII
// letters, digits, '_' and '-' and bytes of other characters, which
// holds whole words of the analyzer's (its words never cross anything
// else), and whether it is all ASCII. Tokenizing the chunks one by one
// gives the tokens of b.
func EachChunk(b []byte, fn func(chunk []byte, ascii bool)) {
	for i := 0; i < len(b); {
		if !chunkByte(b[i]) {
			i++
			continue
		}
		j, ascii := i, true
		for ; j < len(b) && chunkByte(b[j]); j++ {
			ascii = ascii && b[j] < utf8.RuneSelf
		}
		fn(b[i:j], ascii)
		i = j
	}
}

// chunkByte reports whether c may be inside a word: a letter or digit,
// '_' or '-', or a byte of a character that is not ASCII.
func chunkByte(c byte) bool {
	if c >= utf8.RuneSelf {
		return true
	}
	k := asciiClass[c]
	return k == clsUpper || k == clsLower || k == clsDigit || k == clsSep
}

// countASCII counts the tokens of a chunk of ASCII letters, digits, '_'
// and '-', cutting words and parts as scan and split do; parts is room
// for a word's parts, as byte ranges of c.
func (a Analyzer) countASCII(c []byte, parts [][2]int) int {
	n := 0
	for i := 0; i < len(c); {
		if asciiClass[c[i]] == clsSep {
			i++
			continue
		}
		parts = parts[:0]
		start := i // of the current part
		var prev, prev2 uint8
		prevAt := i
		j := i
		for j < len(c) {
			k := asciiClass[c[j]]
			if k == clsSep {
				// A run of '_' and '-' joins two parts when an alphanumeric
				// follows; a '-' between digits is a date or a range.
				e, hyphen := j, false
				for e < len(c) && asciiClass[c[e]] == clsSep {
					hyphen = hyphen || c[e] == '-'
					e++
				}
				if e == len(c) || hyphen && prev == clsDigit && asciiClass[c[e]] == clsDigit {
					break
				}
				parts = appendPart(parts, start, j)
				start, prev, prev2 = e, clsNone, clsNone
				j = e
				continue
			}
			cut := -1
			switch {
			case prev == clsNone:
			case k == clsUpper && prev == clsLower:
				cut = j
			case (k == clsDigit) != (prev == clsDigit):
				cut = j
			case k == clsLower && prev == clsUpper && prev2 == clsUpper:
				if !(c[j] == 's' && (j+1 == len(c) || asciiClass[c[j+1]] != clsLower)) {
					cut = prevAt
				}
			}
			if cut >= 0 {
				parts = appendPart(parts, start, cut)
				start = cut
			}
			prev2, prev, prevAt = prev, k, j
			j++
		}
		parts = appendPart(parts, start, j)
		n += a.countParts(c, parts)
		i = j
	}
	return n
}

func appendPart(parts [][2]int, start, end int) [][2]int {
	if end > start {
		parts = append(parts, [2]int{start, end})
	}
	return parts
}

// countParts counts the tokens of one ASCII word cut into parts: those
// emit keeps, and the joined form of a compound.
func (a Analyzer) countParts(c []byte, parts [][2]int) int {
	compound := len(parts) > 1
	n, joined := 0, 0
	var low [MaxTokenLen]byte
	for _, p := range parts {
		w := c[p[0]:p[1]]
		joined += len(w)
		digits := asciiClass[w[0]] == clsDigit
		if len(w) > MaxTokenLen || len(w) == 1 && (!digits || !compound) {
			continue // too long, a single letter, a lone digit
		}
		if !a.KeepStopwords && mayBeStopword(w) {
			for k, ch := range w {
				if asciiClass[ch] == clsUpper {
					ch += 'a' - 'A'
				}
				low[k] = ch
			}
			if isStopword(low[:len(w)]) {
				continue
			}
		}
		n++
	}
	if compound && joined <= MaxTokenLen {
		n++
	}
	return n
}

// stopwordShapes marks the (length, first letter, last letter) of every
// stopword: most parts of code have a shape none has, and skip the map.
var stopwordShapes = sync.OnceValue(func() *[16 * 26 * 26]bool {
	var t [16 * 26 * 26]bool
	set, _ := stopwordSet()
	for w := range set {
		if i, ok := shapeOf([]byte(w)); ok {
			t[i] = true
		}
	}
	return &t
})

// shapeOf is w's index in stopwordShapes; false when w has no shape
// there (longer than 15 bytes, or not ending in lowercase ASCII letters
// either side), for which only the map can tell.
func shapeOf(w []byte) (int, bool) {
	first, last := w[0]|0x20, w[len(w)-1]|0x20
	if len(w) > 15 || first < 'a' || first > 'z' || last < 'a' || last > 'z' {
		return 0, false
	}
	return (len(w)*26+int(first-'a'))*26 + int(last-'a'), true
}

// mayBeStopword reports whether the ASCII part w could be a stopword,
// whatever its case.
func mayBeStopword(w []byte) bool {
	i, ok := shapeOf(w)
	return !ok || stopwordShapes()[i]
}
