package main

import (
	"math"
	"sort"
	"strings"
	"unicode"
)

// baseline is the reference the benchmark measures rubi against: a
// textbook Okapi BM25 written here, so that it does not move when rubi's
// rankers do. Documents and queries are split into lowercase runs of
// letters and digits; no stemming, no stopwords, no fields. The idf is
// Lucene's non-negative log(1 + (N − n + 0.5) / (n + 0.5)); each distinct
// query word counts once.
type baseline struct {
	k1, b float64
	ids   []string
	lens  []int
	total int
	post  map[string][]posting
}

type posting struct {
	doc, tf int32
}

// newBaseline returns an empty index with the classic parameters
// k1 = 1.2, b = 0.75.
func newBaseline() *baseline {
	return &baseline{k1: 1.2, b: 0.75, post: map[string][]posting{}}
}

// words is the baseline's tokenizer.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// add indexes one document.
func (x *baseline) add(id, text string) {
	doc := int32(len(x.ids))
	ws := words(text)
	tf := map[string]int32{}
	for _, w := range ws {
		tf[w]++
	}
	for w, n := range tf {
		x.post[w] = append(x.post[w], posting{doc, n})
	}
	x.ids = append(x.ids, id)
	x.lens = append(x.lens, len(ws))
	x.total += len(ws)
}

// scores returns the score of every document matching query, by
// position.
func (x *baseline) scores(query string) map[int32]float64 {
	n := len(x.ids)
	scores := map[int32]float64{}
	if n == 0 {
		return scores
	}
	avg := float64(x.total) / float64(n)
	if avg == 0 {
		avg = 1
	}
	seen := map[string]bool{}
	for _, w := range words(query) {
		if seen[w] {
			continue
		}
		seen[w] = true
		ps := x.post[w]
		if len(ps) == 0 {
			continue
		}
		idf := math.Log(1 + (float64(n)-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		for _, p := range ps {
			tf := float64(p.tf)
			norm := x.k1 * (1 - x.b + x.b*float64(x.lens[p.doc])/avg)
			scores[p.doc] += idf * tf * (x.k1 + 1) / (tf + norm)
		}
	}
	return scores
}

// search returns the ids of the k best documents for query, best first;
// ties go to the document added first.
func (x *baseline) search(query string, k int) []string {
	if k <= 0 {
		return nil
	}
	scores := x.scores(query)
	if len(scores) == 0 {
		return nil
	}
	docs := make([]int32, 0, len(scores))
	for d := range scores {
		docs = append(docs, d)
	}
	sort.Slice(docs, func(i, j int) bool {
		if scores[docs[i]] != scores[docs[j]] {
			return scores[docs[i]] > scores[docs[j]]
		}
		return docs[i] < docs[j]
	})
	if len(docs) > k {
		docs = docs[:k]
	}
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = x.ids[d]
	}
	return out
}
