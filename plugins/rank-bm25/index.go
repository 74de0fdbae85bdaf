package bm25

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/text"
)

// The fields of a document, in the order of their counts.
const (
	fieldTitle = iota
	fieldPath
	fieldNames
	fieldBody
	numFields
)

// index is what is persisted: a forward index (each document with the
// counts of its terms per field) over a sorted term dictionary. Keeping
// documents rather than posting lists makes an incremental update cheap
// (replace the changed documents' entries, re-derive the posting lists
// without tokenizing anything), and sorting both documents and terms makes
// the file a pure function of the corpus: an incremental update writes the
// same bytes as a full rebuild.
type index struct {
	signature string // text.Analyzer.Signature of the analyzer that built it
	terms     []string
	termID    map[string]uint32 // terms inverted; not persisted
	docs      []doc             // sorted by id
}

type doc struct {
	id, kind string
	lens     [numFields]uint32 // tokens per field
	terms    []termCount       // sorted by term
}

type termCount struct {
	term uint32
	n    [numFields]uint16 // saturates at 65535, far past where BM25 stops caring
}

// Index builds the index from the corpus, or updates it: unless
// corpus.Full, the documents of the persisted index that are neither in
// corpus.Changed nor gone from corpus.Documents are kept as they were
// indexed (their Body is not re-read in an incremental corpus).
// Corpus.Documents is taken as the whole corpus, as its contract says, so
// a document absent from it is dropped even when corpus.Removed does not
// name it. An incremental corpus that cannot be applied, because the
// persisted index is missing, unreadable, of another format version or
// built with another stemmer, or because it lists a document the index
// does not know without marking it changed, gets core.ErrFullIndexNeeded:
// rebuilding from it would index documents without their bodies.
//
// Rank calls of the same process go on with the previous index while
// Index works; they see the new one once it is saved.
func (r *Ranker) Index(ctx context.Context, corpus *core.Corpus) error {
	r.indexMu.Lock()
	defer r.indexMu.Unlock()
	r.mu.RLock()
	cur, stamp, dir, analyzer, settings := r.idx, r.stamp, r.stateDir, r.analyzer, r.settings
	r.mu.RUnlock()
	if dir == "" {
		return fmt.Errorf("%s: used before Configure", Name)
	}
	path := filepath.Join(dir, stateFile)
	var old *index
	if !corpus.Full {
		old = cur
		if old == nil || !stamp.current(path) {
			var err error
			if old, _, err = readIndex(path); err != nil {
				return fmt.Errorf("%s: %w: %v", Name, core.ErrFullIndexNeeded, err)
			}
		}
		if old.signature != analyzer.Signature() {
			return fmt.Errorf("%s: %w: the index was built with %q, the settings ask for %q", Name, core.ErrFullIndexNeeded, old.signature, analyzer.Signature())
		}
	}

	changed := make(map[string]bool, len(corpus.Changed))
	for _, id := range corpus.Changed {
		changed[id] = true
	}
	oldByID := map[string]int{}
	if old != nil {
		for i := range old.docs {
			oldByID[old.docs[i].id] = i
		}
	}
	seen := make(map[string]bool, len(corpus.Documents))
	var keep []int             // old documents to reuse
	var fresh []*core.Document // documents to tokenize
	for i := range corpus.Documents {
		d := &corpus.Documents[i]
		if seen[d.ID] {
			continue // a duplicate id: the first one wins
		}
		seen[d.ID] = true
		j, known := oldByID[d.ID]
		switch {
		case known && !changed[d.ID]:
			keep = append(keep, j)
		case old != nil && !known && !changed[d.ID]:
			return fmt.Errorf("%s: %w: %s is not in the index and not marked changed", Name, core.ErrFullIndexNeeded, d.ID)
		default:
			fresh = append(fresh, d)
		}
	}

	analyzed, dicts, err := analyzeAll(ctx, analyzer, fresh)
	if err != nil {
		return err
	}
	idx := merge(analyzer.Signature(), old, keep, analyzed, dicts)
	if err := writeIndex(path, idx.encode()); err != nil {
		return fmt.Errorf("%s: %w", Name, err)
	}
	v := newView(idx, settings)
	r.mu.Lock()
	r.idx, r.view, r.stamp = idx, v, stampOf(path)
	r.mu.Unlock()
	return nil
}

// analyzedDoc is a tokenized document whose term ids are those of the
// dictionary of the worker that analyzed it.
type analyzedDoc struct {
	doc
	worker int
}

// analyzeAll tokenizes docs on every core: tokenizing is nearly all the
// cost of indexing, and documents are independent. Each worker numbers
// terms in its own dictionary, returned in dicts, so that merging costs a
// map lookup per distinct term of a worker instead of one per term of
// every document.
func analyzeAll(ctx context.Context, a text.Analyzer, docs []*core.Document) (out []analyzedDoc, dicts [][]string, err error) {
	out = make([]analyzedDoc, len(docs))
	workers := min(runtime.GOMAXPROCS(0), len(docs)/32+1)
	dicts = make([][]string, workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			da := docAnalyzer{a: a, dict: map[string]uint32{}}
			for {
				i := int(next.Add(1) - 1)
				if i >= len(docs) || ctx.Err() != nil {
					break
				}
				out[i] = analyzedDoc{doc: da.analyze(docs[i]), worker: w}
			}
			dicts[w] = da.terms
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	return out, dicts, nil
}

// docAnalyzer counts the terms of one document at a time, reusing its
// buffers across documents.
type docAnalyzer struct {
	a      text.Analyzer
	tokens []string
	dict   map[string]uint32 // term → id in terms
	terms  []string
	slot   []int32 // term id → index in counts + 1, 0 when absent
	counts []termCount
}

func (da *docAnalyzer) analyze(d *core.Document) doc {
	da.counts = da.counts[:0]
	out := doc{id: d.ID, kind: d.Kind}
	add := func(field int, s string) {
		da.tokens = da.a.AppendTokens(da.tokens[:0], s)
		out.lens[field] += uint32(len(da.tokens))
		for _, t := range da.tokens {
			id, ok := da.dict[t]
			if !ok {
				id = uint32(len(da.terms))
				da.dict[t] = id
				da.terms = append(da.terms, t)
				da.slot = append(da.slot, 0)
			}
			k := da.slot[id] - 1
			if k < 0 {
				k = int32(len(da.counts))
				da.slot[id] = k + 1
				da.counts = append(da.counts, termCount{term: id})
			}
			if da.counts[k].n[field] < math.MaxUint16 {
				da.counts[k].n[field]++
			}
		}
	}
	add(fieldTitle, d.Title)
	add(fieldPath, d.Path)
	for _, n := range d.Names {
		add(fieldNames, n)
	}
	add(fieldBody, d.Body)
	for _, c := range da.counts {
		da.slot[c.term] = 0
	}
	out.terms = slices.Clone(da.counts)
	return out
}

// merge builds an index from the old documents to keep and the freshly
// analyzed ones. The dictionary is rebuilt, sorted, from the terms still
// in use, so terms of removed documents do not pile up. Terms first get
// provisional ids, one map lookup per distinct term of each source, and
// are renumbered through arrays once sorted.
func merge(signature string, old *index, keep []int, fresh []analyzedDoc, dicts [][]string) *index {
	size := 0 // a guess at the dictionary size, to spare the map rehashing
	if old != nil {
		size = len(old.terms)
	}
	for _, d := range dicts {
		size = max(size, len(d))
	}
	termID := make(map[string]uint32, size)
	list := make([]string, 0, size)
	intern := func(t string) uint32 {
		id, ok := termID[t]
		if !ok {
			id = uint32(len(list))
			termID[t] = id
			list = append(list, t)
		}
		return id
	}
	docs := make([]doc, 0, len(keep)+len(fresh))
	if old != nil {
		// Intern the old terms still in use in their (sorted) order, so
		// that only the new terms need sorting below.
		used := make([]bool, len(old.terms))
		for _, j := range keep {
			for _, tc := range old.docs[j].terms {
				used[tc.term] = true
			}
		}
		prov := make([]uint32, len(old.terms)) // old id → provisional id
		for i, u := range used {
			if u {
				prov[i] = intern(old.terms[i])
			}
		}
		for _, j := range keep {
			d := old.docs[j]
			tcs := make([]termCount, len(d.terms))
			for k, tc := range d.terms {
				tcs[k] = termCount{term: prov[tc.term], n: tc.n}
			}
			d.terms = tcs
			docs = append(docs, d)
		}
	}
	sortedPrefix := len(list)
	prov := make([][]uint32, len(dicts)) // worker, worker id → provisional id
	for w, dict := range dicts {
		prov[w] = make([]uint32, len(dict))
		for i, t := range dict {
			prov[w][i] = intern(t)
		}
	}
	for i := range fresh {
		d := fresh[i].doc
		for k := range d.terms { // fresh documents own their term slices
			d.terms[k].term = prov[fresh[i].worker][d.terms[k].term]
		}
		docs = append(docs, d)
	}

	// Sort the new terms and merge them with the sorted old ones.
	added := make([]uint32, 0, len(list)-sortedPrefix)
	for p := sortedPrefix; p < len(list); p++ {
		added = append(added, uint32(p))
	}
	slices.SortFunc(added, func(a, b uint32) int { return strings.Compare(list[a], list[b]) })
	final := make([]uint32, len(list)) // provisional id → final id
	terms := make([]string, 0, len(list))
	place := func(p uint32) {
		final[p] = uint32(len(terms))
		termID[list[p]] = uint32(len(terms))
		terms = append(terms, list[p])
	}
	o, a := 0, 0
	for o < sortedPrefix || a < len(added) {
		if a == len(added) || o < sortedPrefix && list[o] < list[added[a]] {
			place(uint32(o))
			o++
		} else {
			place(added[a])
			a++
		}
	}
	for i := range docs {
		tcs := docs[i].terms
		for k := range tcs {
			tcs[k].term = final[tcs[k].term]
		}
		// Kept documents are still sorted: old and new ids both follow the
		// terms' order.
		if i >= len(keep) {
			slices.SortFunc(tcs, func(a, b termCount) int { return cmp.Compare(a.term, b.term) })
		}
	}
	slices.SortFunc(docs, func(a, b doc) int { return cmp.Compare(a.id, b.id) })
	return &index{signature: signature, terms: terms, termID: termID, docs: docs}
}
