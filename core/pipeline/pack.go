package pipeline

import (
	"errors"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/text"
	"github.com/rubi-dev/rubi/core/tokens"
)

// maxMisses is how many items in a row may fail to fit the budget before
// the packer stops trying smaller ones.
const maxMisses = 3

// pack turns fused hits into items until the budget or the limit is
// reached. An item that does not fit is skipped and a smaller one after it
// may still go in: the budget is a ceiling, not a cut-off point; after
// maxMisses misses in a row the rest are only counted.
//
// tolerant answers without the symbols of a file that cannot be read
// (their file is damaged) instead of failing.
func (e *Engine) pack(a *answer, tolerant bool) (*Result, error) {
	q, m := a.q, a.m
	res := &Result{Query: q.Text, Terms: q.Terms, Budget: q.Budget, Items: []Item{}}
	reserve := footerReserve(q)
	misses := 0
	p := &packer{e: e, m: m, q: q, qtokens: queryTokens(q), tolerant: tolerant}
	defer p.close()
	if q.acceptsKind(core.DocFile) && m != nil && a.units != nil {
		p.prof = newProfile(q, a.an, a.units.MaxUnits)
		var err error
		if p.ranked, err = e.rankFileUnits(m, q, a.units.hits, p.prof, a.units.RankedFiles, p.loadSymbols); err != nil {
			return nil, err
		}
	}
	seen := map[string]bool{} // ids and texts shown: no item twice
	for _, h := range a.fused {
		kind, key, err := core.SplitDocID(h.ID)
		if err != nil || !q.acceptsKind(kind) || seen[h.ID] {
			continue
		}
		// Past the limit, or once several items in a row did not fit the
		// budget, a match is counted and nothing is read or rendered: a
		// query's cost stays bounded by what it can show.
		full := len(res.Items) >= q.Limit || misses >= maxMisses
		it, v, err := p.show(kind, key, full)
		if err != nil {
			return nil, err
		}
		switch v {
		case left:
			continue
		case counted:
			res.Omitted++
			continue
		}
		it.ID, it.Score = h.ID, h.Score
		if q.Admit != nil && !q.Admit(&it, !a.weak[h.ID]) {
			continue
		}
		if text := it.Kind + "\x00" + it.Text; seen[text] {
			continue // the same text under another id
		} else {
			seen[h.ID], seen[text] = true, true
		}
		it.Scores, it.Reasons = explain(h, a.lists)
		if len(it.Reasons) == 0 {
			it.Reasons = []string{fallbackReason(&it, m, it.Scores)}
		}
		it.Reranked = a.reranked[h.ID]
		if it.Role != "" && it.Role != codemap.RoleCode {
			it.Reasons = append(it.Reasons, roleReason(it.Role, it.Reranked))
		}
		// The estimate is of the item as the compact form prints it, and
		// the footer keeps its share: the whole answer fits the budget.
		it.Tokens = tokens.Estimate(renderItem(len(res.Items)+1, &it, false))
		if res.Tokens+it.Tokens > q.Budget-reserve {
			res.Omitted++
			misses++
			continue
		}
		misses = 0
		res.Items = append(res.Items, it)
		res.Tokens += it.Tokens
	}
	return res, nil
}

// verdict is what the packer makes of a hit.
type verdict int

const (
	shown   verdict = iota // an item to fit in the budget
	counted                // a match past the limit: counted, not shown
	left                   // gone since the index, or filtered out
)

// packer shows the hits of one query, one kind of document at a time:
// files, modules, knowledge nodes, conversation chunks and the sources'
// items each have their show method (here, knowledge.go, chunks.go and
// sources.go).
type packer struct {
	e        *Engine
	m        *manifest.Manifest
	q        Query
	qtokens  map[string]bool
	tolerant bool
	// symbols reads the symbols of the files shown, opened at the first.
	symbols *manifest.SymbolReader
	// prof and ranked are the query's profile and the units of the files
	// it ranked, when results show units.
	prof   *profile
	ranked map[string][]Unit
	// sourced are the sources' states, read at the first source's item.
	sourced map[string]*sourceState
}

// show makes the item of the document kind:key, or says why there is none.
// With full set, a document the filters keep is only counted.
func (p *packer) show(kind, key string, full bool) (Item, verdict, error) {
	switch kind {
	case core.DocFile:
		return p.file(key, full)
	case core.DocModule:
		return p.module(key, full)
	case core.DocNode:
		return p.node(key, full)
	case core.DocChunk:
		return p.chunk(key, full)
	}
	return p.sourceItem(kind, key, full)
}

// loadSymbols reads a file's symbols into its record, once.
func (p *packer) loadSymbols(rec *manifest.Record) error {
	e := p.e
	if !rec.Loaded && p.symbols == nil {
		f, err := p.m.OpenSymbols(e.indexDir())
		if err != nil {
			return err
		}
		p.symbols = manifest.NewSymbolReader(f)
	}
	if p.symbols == nil {
		return nil
	}
	// Records cache their symbols once read; queries may run
	// concurrently.
	e.symMu.Lock()
	defer e.symMu.Unlock()
	if err := p.symbols.Read(rec); err != nil && !(p.tolerant && errors.Is(err, manifest.ErrSymbolsDamaged)) {
		return err
	}
	return nil
}

func (p *packer) close() {
	if p.symbols != nil {
		p.symbols.Close()
	}
}

// file shows a file: its record, its definitions and units.
func (p *packer) file(key string, full bool) (Item, verdict, error) {
	q := p.q
	if full && q.Module == "" && q.Since.IsZero() && q.Until.IsZero() {
		// Counted without finding the file's record, which costs a search
		// of the manifest: the count may include a file gone since the
		// index.
		if q.underPath(key) {
			return Item{}, counted, nil
		}
		return Item{}, left, nil
	}
	rec, ok := p.m.File(key)
	if !ok {
		return Item{}, left, nil // a ranker remembered a file that is gone
	}
	if !q.underPath(key) || q.Module != "" && rec.Module != q.Module || !q.inWindow(time.Unix(0, rec.ModTime)) {
		return Item{}, left, nil
	}
	if full {
		return Item{}, counted, nil
	}
	if err := p.loadSymbols(rec); err != nil {
		return Item{}, left, err
	}
	units, ok := p.ranked[key]
	if !ok && p.prof != nil {
		units = p.e.fileUnits(rec, p.prof, nil)
	}
	return Item{Kind: core.DocFile, Path: key, Title: key, Text: renderFile(rec, units, p.qtokens), Role: rec.Role, Units: units}, shown, nil
}

// module shows a module: its summary.
func (p *packer) module(key string, full bool) (Item, verdict, error) {
	q := p.q
	var sum manifest.ModuleSummary
	ok := p.m != nil
	if ok {
		sum, ok = p.m.ModuleSummaries()[key]
	}
	if !ok || !q.underPath(key) || q.Module != "" && key != q.Module || !q.Since.IsZero() || !q.Until.IsZero() {
		return Item{}, left, nil
	}
	if full {
		return Item{}, counted, nil
	}
	return Item{Kind: core.DocModule, Path: key, Title: key, Text: renderModule(key, sum)}, shown, nil
}

// fallbackReason says why an item is there when no ranker gave a reason:
// a central file, or the rankers that found it.
func fallbackReason(it *Item, m *manifest.Manifest, scores map[string]float64) string {
	if m != nil && it.Kind == core.DocFile {
		if rec, ok := m.File(it.Path); ok && rec.Importers >= 5 {
			return "central file, imported by " + plural(rec.Importers, "file")
		}
	}
	names := make([]string, 0, len(scores))
	for n := range scores {
		names = append(names, n)
	}
	if len(names) == 0 {
		return "found by the fuser"
	}
	sort.Strings(names)
	return "found by " + strings.Join(names, ", ")
}

// roleReason says what a file's role made of its rank: a reranker that
// weighed it by its role (rerank.roles) says how.
func roleReason(role string, reranked []Reranked) string {
	for _, r := range reranked {
		if r.reason != "" {
			return r.reason
		}
	}
	return role + " file"
}

// queryTokens are the analyzed words of the query and its terms.
func queryTokens(q Query) map[string]bool {
	out := map[string]bool{}
	for _, t := range text.Tokenize(q.Text + " " + strings.Join(q.Terms, " ")) {
		out[t] = true
	}
	return out
}

// explain gathers each ranker's score and reason for the hit, strongest
// contribution first (the order RRF weighs them: weight over rank).
func explain(h core.Hit, lists []core.RankedList) (map[string]float64, []string) {
	scores := map[string]float64{}
	type reason struct {
		text string
		vote float64
	}
	var rs []reason
	for _, l := range lists {
		for i, lh := range l.Hits {
			if lh.ID != h.ID {
				continue
			}
			scores[l.Stage] = lh.Score
			if lh.Reason != "" {
				rs = append(rs, reason{lh.Reason, l.Weight / float64(i+1)})
			}
			break
		}
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].vote > rs[j].vote })
	reasons := []string{}
	for _, r := range rs {
		if !slices.Contains(reasons, r.text) {
			reasons = append(reasons, r.text)
		}
	}
	if len(reasons) == 0 && h.Reason != "" {
		reasons = append(reasons, h.Reason)
	}
	return scores, reasons
}
