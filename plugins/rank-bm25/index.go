package bm25

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math"
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
	fieldParts // parts of identifiers in the body
	numFields
)

// index is a set of documents in forward form (each document with the
// counts of its terms per field) over a sorted term dictionary: what a
// segment is built from. Sorting both documents and terms makes a segment
// file a pure function of its documents.
type index struct {
	signature string // text.Analyzer.Signature of the analyzer that built it
	terms     []string
	docs      []doc // sorted by id
}

type doc struct {
	id, kind string
	lens     [numFields]uint32 // tokens per field
	terms    counts            // sorted by term once merged
}

type termCount struct {
	term uint32
	n    [numFields]uint16 // saturates at 65535, far past where BM25 stops caring
}

// counts is a document's termCounts, packed: per term, uvarint term id,
// a byte whose bit f says field f counts, and uvarint each such count. A
// full index holds every document's counts until its segment is written,
// the largest part of what indexing holds; packed, most terms of a
// document take 4 or 5 bytes instead of a termCount's 16 (on six copies
// of kubernetes, 87 MB of counts twice over, as analyzed and as merged).
type counts []byte

// appendCount packs tc after b.
func appendCount(b counts, tc termCount) counts {
	b = binary.AppendUvarint(b, uint64(tc.term))
	var mask byte
	for f, n := range tc.n {
		if n != 0 {
			mask |= 1 << f
		}
	}
	b = append(b, mask)
	for _, n := range tc.n {
		if n != 0 {
			b = binary.AppendUvarint(b, uint64(n))
		}
	}
	return b
}

// each calls fn with every termCount packed in c, in order. c is only
// ever what appendCount made in this process.
func (c counts) each(fn func(tc termCount)) {
	for len(c) > 0 {
		var tc termCount
		t, k := binary.Uvarint(c)
		tc.term, c = uint32(t), c[k:]
		mask := c[0]
		c = c[1:]
		for f := range tc.n {
			if mask&(1<<f) != 0 {
				n, k := binary.Uvarint(c)
				tc.n[f], c = uint16(n), c[k:]
			}
		}
		fn(tc)
	}
}

// The segments after the bulk ones (view.bulk: the first segment, or the
// bulk segments a large full index wrote) are merged into one when there
// are more than maxSegments segments. When they hold more than
// 1/mergeShare of the live documents, everything is merged into one
// segment on an index of one bulk segment, and on a larger index they
// are merged into new bulk segments once they hold at least
// segmentDocs/2 documents. Everything is rewritten when deleted documents
// are more than 1/mergeShare of all stored. A one-file change thus writes
// a small segment, and the cost of merging is spread over many changes.
const (
	maxSegments = 8
	mergeShare  = 8
)

// Index builds the index from the corpus, or updates it: unless
// corpus.Full, the indexed documents that are neither in corpus.Changed
// nor gone from corpus.Documents are kept as they were indexed (their Body
// is not re-read in an incremental corpus). Corpus.Documents is taken as
// the whole corpus, as its contract says, so a document absent from it is
// dropped even when corpus.Removed does not name it. An incremental corpus
// that cannot be applied, because the index is missing, unreadable, of
// another format version or built with another stemmer, or because it
// lists a document the index does not know without marking it changed,
// gets core.ErrFullIndexNeeded: rebuilding from it would index documents
// without their bodies.
//
// A corpus with a Scope is a delta instead (see scopedUpdate): it touches
// only the documents it names, and costs what they and the segments it
// merges cost, not what the whole index does.
//
// Rank calls of the same process go on with the previous index while
// Index works; they see the new one once it is saved.
func (r *Ranker) Index(ctx context.Context, corpus *core.Corpus) error {
	r.indexMu.Lock()
	defer r.indexMu.Unlock()
	r.mu.RLock()
	cur, stamp, dir, analyzer, settings, oneShot := r.view, r.stamp, r.stateDir, r.analyzer, r.settings, r.oneShot
	r.mu.RUnlock()
	if dir == "" {
		return fmt.Errorf("%s: used before Configure", Name)
	}
	scoped := len(corpus.Scope) > 0
	if scoped && corpus.Full {
		// The contract never sends one; its documents would be only
		// those of the scope, so rebuilding from it would lose the rest.
		return fmt.Errorf("%s: %w: a corpus with a scope is a delta, it cannot be full", Name, core.ErrFullIndexNeeded)
	}
	sig := analyzer.Signature()
	var old *view
	if !corpus.Full {
		old = cur
		if old == nil || stamp == "" || currentList(dir) != stamp {
			segs, _, err := readSegments(dir, oneShot)
			if err != nil {
				return fmt.Errorf("%s: %w: %v", Name, core.ErrFullIndexNeeded, err)
			}
			old = newView(segs, settings)
		}
		for _, sg := range old.segs {
			if sg.signature != sig {
				return fmt.Errorf("%s: %w: the index was built with %q, the settings ask for %q", Name, core.ErrFullIndexNeeded, sg.signature, sig)
			}
		}
	}

	var u *update
	var err error
	if scoped {
		u, err = old.scopedUpdate(corpus)
	} else {
		u, err = wholeUpdate(old, corpus)
	}
	if err != nil {
		return err
	}
	if old != nil && len(u.fresh) == 0 && len(u.deletes) == 0 {
		return nil // nothing changed for this ranker
	}
	from := 0 // the first segment merged into the new one
	if old != nil {
		from = old.mergeFrom(u.gone, len(u.fresh))
		// Queries checked the tables; the index builds on the postings
		// of the segments it merges. A whole corpus has every segment
		// checked, so that an index run finds damage anywhere; a
		// scoped delta must cost what it changes, and the segments it
		// keeps are only named by id in its deletions.
		check := old.segs
		if scoped {
			check = old.segs[from:]
		}
		for _, sg := range check {
			if err := sg.verify(); err != nil {
				return fmt.Errorf("%s: %w: %v", Name, core.ErrFullIndexNeeded, err)
			}
		}
	}

	var kept []*segment // the segments that stay as they are
	if old != nil {
		kept = old.segs[:from]
	}
	names := make([]string, len(kept), len(kept)+1)
	for i, sg := range kept {
		names[i] = sg.name
	}
	var written []string // the new segments, in order
	var data []byte      // the new segment's bytes, when there is one
	if old == nil && len(u.fresh) > segmentDocs {
		written, err = writeBulk(ctx, dir, analyzer, corpus, u.fresh)
	} else {
		written, data, err = writeMerged(ctx, dir, analyzer, corpus, u, old, from, kept, scoped)
	}
	if err != nil {
		return err
	}
	st, err := commitList(dir, append(names, written...), !scoped)
	if err != nil {
		return fmt.Errorf("%s: %w", Name, err)
	}
	var v *view
	if data != nil {
		seg, err := decodeSegment(written[0], data, true)
		if err != nil {
			return fmt.Errorf("%s: %w", Name, err) // not reached: data was just encoded
		}
		v = newView(append(slices.Clip(kept), seg), settings)
	}
	// A run that wrote bulk segments keeps none of their bytes: the next
	// query maps them (load), as another process would.
	r.mu.Lock()
	r.view, r.stamp = v, st
	r.mu.Unlock()
	return nil
}

// segmentDocs is the most documents a segment written by an index run
// holds. A full corpus of more is tokenized and written as bulk segments
// of at most segmentDocs documents each (writeBulk), one after the other,
// so that indexing holds one segment's counts and encoding at a time
// instead of the whole tree's (at 200,000 files, ~410 MB in one
// segment); a merge of more is written in parts of that size too. Each
// bulk segment holds at least segmentDocs/2 documents, which is how the
// merge policy tells them (view.bulk). Queries find the same documents
// with the same scores in any number of segments: the statistics are
// summed over them. A variable for the tests only.
var segmentDocs = 1 << 15

// writeBulk indexes docs, a full corpus of more than segmentDocs
// documents, as bulk segments: sorted by id, cut into runs of equal size
// (each at most segmentDocs, at least half of it), each tokenized,
// encoded and written before the next is read. The segments together
// hold the documents in the order one segment would, so queries rank as
// on one. It returns the segments' names, in order.
func writeBulk(ctx context.Context, dir string, analyzer text.Analyzer, corpus *core.Corpus, docs []*core.Document) ([]string, error) {
	docs = slices.Clone(docs)
	slices.SortFunc(docs, func(a, b *core.Document) int { return strings.Compare(a.ID, b.ID) })
	var names []string
	for _, part := range parts(len(docs)) {
		analyzed, dicts, err := analyzeAll(ctx, analyzer, corpus, docs[part[0]:part[1]])
		if err != nil {
			return nil, err
		}
		data, err := encodeSegment(merge(analyzer.Signature(), analyzed, dicts), nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", Name, err)
		}
		name, err := writeSegment(dir, data, true)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", Name, err)
		}
		names = append(names, name)
	}
	return names, nil
}

// parts cuts n documents into runs of equal size, each of at most
// segmentDocs, as [from, to) bounds: one run when n is at most
// segmentDocs (none when 0), else runs of at least segmentDocs/2.
func parts(n int) [][2]int {
	k := max(1, (n+segmentDocs-1)/segmentDocs)
	out := make([][2]int, 0, k)
	for i := range k {
		out = append(out, [2]int{i * n / k, (i + 1) * n / k})
	}
	return out
}

// writeMerged writes the segment of an update: its fresh documents,
// tokenized, with the live documents of old's segments from from on,
// merged. It returns the name of what it wrote (several bulk segments
// when the merge holds more than segmentDocs documents) and, when it
// wrote one segment, its bytes.
func writeMerged(ctx context.Context, dir string, analyzer text.Analyzer, corpus *core.Corpus, u *update, old *view, from int, kept []*segment, scoped bool) ([]string, []byte, error) {
	analyzed, dicts, err := analyzeAll(ctx, analyzer, corpus, u.fresh)
	if err != nil {
		return nil, nil, err
	}
	var segDeletes []string
	if old != nil {
		if from == len(old.segs) {
			segDeletes = u.deletes
		} else {
			var merged []analyzedDoc
			var mdicts [][]string
			for i := from; i < len(old.segs); i++ {
				sg, base := old.segs[i], old.base[i]
				docs, terms, err := sg.forward(func(d int) bool { return old.live(base+d) && !u.gone[base+d] })
				if err != nil {
					return nil, nil, fmt.Errorf("%s: %w: %s: %v", Name, core.ErrFullIndexNeeded, sg.name, err)
				}
				for _, d := range docs {
					merged = append(merged, analyzedDoc{doc: d, worker: len(mdicts)})
				}
				mdicts = append(mdicts, terms)
				segDeletes = append(segDeletes, sg.deletes...)
			}
			for _, a := range analyzed {
				a.worker += len(mdicts)
				merged = append(merged, a)
			}
			analyzed, dicts = merged, append(mdicts, dicts...)
			// The merged segment's deletions apply to the kept ones only.
			segDeletes = append(segDeletes, u.deletes...)
			segDeletes = keptIDs(kept, segDeletes)
		}
	}
	idx := merge(analyzer.Signature(), analyzed, dicts)
	cuts := parts(len(idx.docs))
	if len(cuts) == 0 {
		cuts = [][2]int{{0, 0}} // no document: the segment carries the deletions
	}
	var names []string
	var data []byte
	for i, c := range cuts {
		part := idx
		if len(cuts) > 1 {
			part = idx.slice(c[0], c[1])
		}
		// The deletions go with the first part: a segment's deletions
		// apply to the segments before it, the kept ones.
		var dels []string
		if i == 0 {
			dels = segDeletes
		}
		data, err = encodeSegment(part, dels)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", Name, err)
		}
		name, err := writeSegment(dir, data, !scoped)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", Name, err)
		}
		names = append(names, name)
	}
	if len(names) > 1 {
		data = nil
	}
	return names, data, nil
}

// update is what an index run changes: the documents it tokenizes, and
// the live documents it deletes (replaced or gone), by id for the new
// segment's deletions and by global number for merging.
type update struct {
	fresh   []*core.Document
	deletes []string     // sorted
	gone    map[int]bool // the global numbers of deletes' documents
}

// wholeUpdate compares a whole corpus with the live documents of old
// (nil for a full corpus): every live id is listed once, as the corpus
// names every document.
func wholeUpdate(old *view, corpus *core.Corpus) (*update, error) {
	changed := make(map[string]bool, len(corpus.Changed))
	for _, id := range corpus.Changed {
		changed[id] = true
	}
	live := map[string]int{} // id → global number
	if old != nil {
		for i, sg := range old.segs {
			for d := range sg.ndocs {
				if g := old.base[i] + d; old.live(g) {
					live[sg.id(d)] = g
				}
			}
		}
	}
	u := &update{gone: map[int]bool{}}
	seen := make(map[string]bool, len(corpus.Documents))
	for i := range corpus.Documents {
		d := &corpus.Documents[i]
		if seen[d.ID] || d.ID == "" {
			continue // a duplicate id: the first one wins; no id, no hit
		}
		seen[d.ID] = true
		g, known := live[d.ID]
		switch {
		case known && !changed[d.ID]:
		case old != nil && !known && !changed[d.ID]:
			return nil, fmt.Errorf("%s: %w: %s is not in the index and not marked changed", Name, core.ErrFullIndexNeeded, d.ID)
		default:
			u.fresh = append(u.fresh, d)
			if known {
				u.deletes = append(u.deletes, d.ID)
				u.gone[g] = true
			}
		}
	}
	for id, g := range live {
		if !seen[id] {
			u.deletes = append(u.deletes, id)
			u.gone[g] = true
		}
	}
	slices.Sort(u.deletes)
	return u, nil
}

// scopedUpdate reads a corpus with a Scope as the delta it is: its
// documents are tokenized and replace the live ones of the same id, the
// live documents it removes are deleted, and every other document stays,
// whether the corpus lists it or not. Nothing here is proportional to the
// index: each id is looked up in the segments' sorted id tables (find).
// An id outside the scope breaks the contract; the full corpus the
// error asks for puts the index right whatever the mistake.
func (v *view) scopedUpdate(corpus *core.Corpus) (*update, error) {
	u := &update{gone: map[int]bool{}}
	drop := func(id string) {
		if g, ok := v.find(id); ok && !u.gone[g] {
			u.gone[g] = true
			u.deletes = append(u.deletes, id)
		}
	}
	outside := func(id string) error {
		return fmt.Errorf("%s: %w: %s is outside the corpus's scope %v", Name, core.ErrFullIndexNeeded, id, corpus.Scope)
	}
	seen := make(map[string]bool, len(corpus.Documents))
	for i := range corpus.Documents {
		d := &corpus.Documents[i]
		if seen[d.ID] || d.ID == "" {
			continue // a duplicate id: the first one wins; no id, no hit
		}
		if !core.InScope(corpus.Scope, d.ID) {
			return nil, outside(d.ID)
		}
		seen[d.ID] = true
		u.fresh = append(u.fresh, d)
		drop(d.ID)
	}
	for _, id := range corpus.Removed {
		if id == "" {
			continue // no id, no document
		}
		if !core.InScope(corpus.Scope, id) {
			return nil, outside(id)
		}
		drop(id)
	}
	slices.Sort(u.deletes)
	return u, nil
}

// mergeFrom decides which segments an update merges into its new
// segment, from the returned one to the last (len(v.segs) when none),
// given the global numbers of the live documents it deletes and the
// number it adds. It counts from the view's per-segment live counts and
// the deletions alone: a one-note update must not visit the documents of
// every later segment. On an index of one bulk segment (any project of at
// most segmentDocs documents), merging the later segments means merging
// everything; on a larger one, the bulk segments stay as they are and the
// later ones are merged into new bulk segments once they are enough for
// one.
func (v *view) mergeFrom(gone map[int]bool, added int) int {
	stored := v.total
	liveAfter := v.n - len(gone) + added
	dead := stored - v.n + len(gone)
	b := v.bulk()
	bulkDocs := v.base[b-1] + v.segs[b-1].ndocs // the global numbers below are the bulk segments'
	later := added + v.n                        // live documents outside the bulk segments afterwards
	for i := range b {
		later -= v.nlive[i]
	}
	for g := range gone {
		if g >= bulkDocs {
			later--
		}
	}
	switch {
	case dead*mergeShare > stored:
		return 0
	case b == 1 && later*mergeShare > liveAfter:
		return 0
	case b > 1 && later*2 >= segmentDocs:
		// Enough for a bulk segment: merged later ones that stayed
		// smaller would be merged again by every update.
		return b
	case len(v.segs)-b+1 >= maxSegments:
		return b
	}
	return len(v.segs)
}

// bulk returns how many segments at the start of v are bulk segments,
// those a full index of more than segmentDocs documents wrote (each of
// at least segmentDocs/2): at least 1, the first segment standing for
// the index of a smaller project.
func (v *view) bulk() int {
	b := 1
	for b < len(v.segs) && v.segs[b-1].ndocs*2 >= segmentDocs && v.segs[b].ndocs*2 >= segmentDocs {
		b++
	}
	return b
}

// keptIDs returns the ids, sorted and without repeats, that some kept
// segment holds: a deletion matters only where the document is.
func keptIDs(kept []*segment, ids []string) []string {
	slices.Sort(ids)
	ids = slices.Compact(ids)
	out := ids[:0]
	for _, id := range ids {
		for _, sg := range kept {
			if _, found := sg.search(id); found {
				out = append(out, id)
				break
			}
		}
	}
	return out
}

// analyzedDoc is a tokenized document whose term ids are those of the
// dictionary of the worker that analyzed it.
type analyzedDoc struct {
	doc
	worker int
}

// analyzeRun is how many documents in a row a worker of analyzeAll takes
// at a time. The corpus lists a folder's files together, and the words
// of a package are mostly its own (its identifiers): a worker taking
// them in a row learns them alone, where workers taking every other
// document each learned most of the tree's words, and each dictionary
// held them all.
const analyzeRun = 64

// analyzeAll tokenizes docs, documents of corpus, on every core:
// tokenizing is nearly all the cost of indexing, and documents are
// independent. Each worker numbers terms in its own dictionary, returned
// in dicts, so that merging costs a map lookup per distinct term of a
// worker instead of one per term of every document. A worker reads a
// document's body as it comes to it (core.Corpus.Body) and keeps only its
// counts.
func analyzeAll(ctx context.Context, a text.Analyzer, corpus *core.Corpus, docs []*core.Document) (out []analyzedDoc, dicts [][]string, err error) {
	out = make([]analyzedDoc, len(docs))
	workers := min(runtime.GOMAXPROCS(0), len(docs)/32+1)
	dicts = make([][]string, workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			da := docAnalyzer{vocab: a.Vocabulary()}
			for {
				from := int(next.Add(analyzeRun) - analyzeRun)
				if from >= len(docs) || ctx.Err() != nil {
					break
				}
				for i := from; i < min(from+analyzeRun, len(docs)); i++ {
					out[i] = analyzedDoc{doc: da.analyze(docs[i], corpus.Body(docs[i])), worker: w}
				}
			}
			dicts[w] = da.vocab.Terms()
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
	lens   *[numFields]uint32 // of the document being analyzed
	vocab  *text.Vocabulary   // numbers the terms: ids in vocab.Terms()
	slot   []int32            // term id → index in counts + 1, 0 when absent
	counts []termCount
	packed counts // counts, packed before a copy of the right size is kept
}

// analyze counts the terms of d, whose body is body.
func (da *docAnalyzer) analyze(d *core.Document, body string) doc {
	da.counts = da.counts[:0]
	out := doc{id: d.ID, kind: d.Kind}
	da.lens = &out.lens
	add := func(field int, s string) {
		da.vocab.Each(s, func(id uint32, _ bool) { da.count(field, id) })
	}
	add(fieldTitle, d.Title)
	add(fieldPath, d.Path)
	for _, n := range d.Names {
		add(fieldNames, n)
	}
	// In the body, the parts of identifiers (the "client" of
	// newClientForConfig) count apart from whole words: code repeats them
	// everywhere, and prose questions are answered by the words.
	da.vocab.Each(body, func(id uint32, part bool) {
		if part {
			da.count(fieldParts, id)
		} else {
			da.count(fieldBody, id)
		}
	})
	for _, c := range da.counts {
		da.slot[c.term] = 0
	}
	da.packed = da.packed[:0]
	for _, c := range da.counts {
		da.packed = appendCount(da.packed, c)
	}
	out.terms = slices.Clone(da.packed)
	return out
}

// count adds one occurrence of term id in field to the current document.
func (da *docAnalyzer) count(field int, id uint32) {
	da.lens[field]++
	for int(id) >= len(da.slot) {
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

// merge builds an index from analyzed documents, whose term ids number
// the dictionary of their source (a tokenizing worker, or a segment being
// merged). Terms first get provisional ids, one map lookup per distinct
// term of each source, and are renumbered through arrays once sorted.
func merge(signature string, docs []analyzedDoc, dicts [][]string) *index {
	size := 0 // a guess at the dictionary size, to spare the map rehashing
	for _, d := range dicts {
		size = max(size, len(d))
	}
	termID := make(map[string]uint32, size)
	list := make([]string, 0, size)
	prov := make([][]uint32, len(dicts)) // source, source id → provisional id
	for w, dict := range dicts {
		prov[w] = make([]uint32, len(dict))
		for i, t := range dict {
			id, ok := termID[t]
			if !ok {
				id = uint32(len(list))
				termID[t] = id
				list = append(list, t)
			}
			prov[w][i] = id
		}
	}
	order := make([]uint32, len(list))
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int { return strings.Compare(list[a], list[b]) })
	final := make([]uint32, len(list)) // provisional id → final id
	terms := make([]string, len(list))
	for f, p := range order {
		final[p] = uint32(f)
		terms[f] = list[p]
	}
	// Only terms some document uses: a merged segment's dictionary may
	// hold terms of deleted documents.
	used := make([]bool, len(terms))
	for i := range docs {
		p := prov[docs[i].worker]
		docs[i].terms.each(func(tc termCount) { used[final[p[tc.term]]] = true })
	}
	renum := make([]uint32, len(terms))
	kept := terms[:0]
	for t, u := range used {
		if u {
			renum[t] = uint32(len(kept))
			kept = append(kept, terms[t])
		}
	}
	// Each document's counts renumbered and sorted, packed again; the
	// analyzed ones are let go as they are.
	out := make([]doc, len(docs))
	var tcs []termCount
	var packed counts
	for i := range docs {
		d := docs[i].doc
		p := prov[docs[i].worker]
		tcs = tcs[:0]
		d.terms.each(func(tc termCount) {
			tc.term = renum[final[p[tc.term]]]
			tcs = append(tcs, tc)
		})
		slices.SortFunc(tcs, func(a, b termCount) int { return cmp.Compare(a.term, b.term) })
		packed = packed[:0]
		for _, tc := range tcs {
			packed = appendCount(packed, tc)
		}
		d.terms = slices.Clone(packed)
		docs[i].terms = nil
		out[i] = d
	}
	slices.SortFunc(out, func(a, b doc) int { return strings.Compare(a.id, b.id) })
	return &index{signature: signature, terms: kept, docs: out}
}

// slice returns the index of idx's documents from to to (exclusive) over
// the terms they use, renumbered: one bulk segment of a merge. Those
// documents' counts are moved out of idx.
func (idx *index) slice(from, to int) *index {
	docs := idx.docs[from:to]
	used := make([]bool, len(idx.terms))
	for i := range docs {
		docs[i].terms.each(func(tc termCount) { used[tc.term] = true })
	}
	renum := make([]uint32, len(idx.terms))
	var terms []string
	for t, u := range used {
		if u {
			renum[t] = uint32(len(terms))
			terms = append(terms, idx.terms[t])
		}
	}
	// Each document's counts are let go in idx as its part's are made:
	// the merge is not held twice over.
	out := make([]doc, len(docs))
	var packed counts
	for i, d := range docs {
		packed = packed[:0]
		d.terms.each(func(tc termCount) {
			tc.term = renum[tc.term]
			packed = appendCount(packed, tc)
		})
		d.terms = slices.Clone(packed)
		docs[i].terms = nil
		out[i] = d
	}
	return &index{signature: idx.signature, terms: terms, docs: out}
}
