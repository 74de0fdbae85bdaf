package main

import (
	"math"
	"slices"
	"sort"
)

// The SWE-bench baselines are the textbook BM25 of bm25.go (same
// tokenizer, k1, b, idf, ties to the earlier document), laid out for a
// corpus that changes with every instance's tree: each document is kept
// tokenized (a bag of word ids and counts, computed once per file
// version), and a query scans the bags of the documents of the tree at
// hand, so moving to the next commit rebuilds nothing but the bags of the
// files that changed.

// termDict numbers words for the bags.
type termDict struct {
	ids map[string]int32
	// slot marks the words of the query being scored (0: not one of
	// them, else slot+1), indexed by word id; cleared after each query.
	slot []int32
}

func newTermDict() *termDict { return &termDict{ids: map[string]int32{}} }

// termBag is a tokenized document: its distinct words, their counts, and
// its length in words.
type termBag struct {
	terms []int32
	tfs   []int32
	n     int
}

// bag tokenizes text as the baseline does.
func (d *termDict) bag(text string) *termBag {
	ws := words(text)
	tf := map[int32]int32{}
	var order []int32
	for _, w := range ws {
		id, ok := d.ids[w]
		if !ok {
			id = int32(len(d.ids))
			d.ids[w] = id
		}
		if tf[id] == 0 {
			order = append(order, id)
		}
		tf[id]++
	}
	b := &termBag{terms: order, tfs: make([]int32, len(order)), n: len(ws)}
	for i, id := range order {
		b.tfs[i] = tf[id]
	}
	return b
}

type bm25Match struct {
	doc, slot, tf int32
}

// search returns the positions of the k best documents of docs for
// query, best first, scored as baseline.scores does; ties go to the
// earlier document.
func (d *termDict) search(docs []*termBag, query string, k int) []int {
	if k <= 0 || len(docs) == 0 {
		return nil
	}
	// The query's distinct known words, in order: slots.
	var qterms []int32
	for _, w := range words(query) {
		id, ok := d.ids[w]
		if !ok || slices.Contains(qterms, id) {
			continue
		}
		qterms = append(qterms, id)
	}
	if len(qterms) == 0 {
		return nil
	}
	if len(d.slot) < len(d.ids) {
		d.slot = append(d.slot, make([]int32, len(d.ids)-len(d.slot))...)
	}
	for i, id := range qterms {
		d.slot[id] = int32(i + 1)
	}
	defer func() {
		for _, id := range qterms {
			d.slot[id] = 0
		}
	}()
	total := 0
	df := make([]int, len(qterms))
	var matches []bm25Match
	for i, b := range docs {
		total += b.n
		for j, t := range b.terms {
			if int(t) >= len(d.slot) {
				continue
			}
			if s := d.slot[t]; s > 0 {
				df[s-1]++
				matches = append(matches, bm25Match{int32(i), s - 1, b.tfs[j]})
			}
		}
	}
	// Sum each document's terms in query order, as baseline.scores does,
	// so the floating-point sums are the very same.
	// (A counting sort by slot keeps each slot's documents in order.)
	off := make([]int, len(qterms)+1)
	for i, c := range df {
		off[i+1] = off[i] + c
	}
	bySlot := make([]bm25Match, len(matches))
	for _, m := range matches {
		bySlot[off[m.slot]] = m
		off[m.slot]++
	}
	matches = bySlot
	const k1, b = 1.2, 0.75
	n := len(docs)
	avg := float64(total) / float64(n)
	if avg == 0 {
		avg = 1
	}
	scores := make([]float64, n)
	hit := make([]bool, n)
	var ranked []int
	for _, m := range matches {
		idf := math.Log(1 + (float64(n)-float64(df[m.slot])+0.5)/(float64(df[m.slot])+0.5))
		tf := float64(m.tf)
		norm := k1 * (1 - b + b*float64(docs[m.doc].n)/avg)
		scores[m.doc] += idf * tf * (k1 + 1) / (tf + norm)
		if !hit[m.doc] {
			hit[m.doc] = true
			ranked = append(ranked, int(m.doc))
		}
	}
	sort.Slice(ranked, func(i, j int) bool {
		if scores[ranked[i]] != scores[ranked[j]] {
			return scores[ranked[i]] > scores[ranked[j]]
		}
		return ranked[i] < ranked[j]
	})
	return ranked[:min(k, len(ranked))]
}
