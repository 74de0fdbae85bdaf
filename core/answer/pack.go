package answer

import (
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/notes"
	"github.com/rubi-dev/rubi/core/text"
	"github.com/rubi-dev/rubi/core/tokens"
)

// Answer is one query on its way from the rerankers to the agent: what
// the engine's stages made of it, which Pack fits to the budget.
type Answer struct {
	Query Query
	// Manifest is the code map's manifest the files and modules are shown
	// from; nil for a query of notes alone.
	Manifest *manifest.Manifest
	// Lists are every ranker's list, in the order they were fused: an
	// item's scores and reasons come from them.
	Lists []core.RankedList
	// Hits is the fused list as the rerankers left it, best first.
	Hits []core.Hit
	// Reranked holds, by document id, what each reranker did to it.
	Reranked map[string][]Reranked
	// Weak are the hits the floor would have left out, for a query whose
	// caller admits items itself (Query.Admit).
	Weak map[string]bool
	// Units chooses the units under each file shown (rerank.units); nil
	// shows a file's definitions most related to the question instead.
	Units core.Units
}

// Documents are the documents an answer shows, as the index holds them;
// the engine gives them for one query, over the index it read. Files and
// modules are read from the Answer's manifest.
type Documents interface {
	// Symbols reads an indexed file's symbols into its record, once.
	Symbols(rec *manifest.Record) error
	// Note shows a knowledge note, as its file is now, when f keeps it;
	// how says how much (notes.Decide, Render, Check).
	Note(key string, f notes.Filter, how notes.Showing) (notes.Shown, bool)
	// Chunk shows a chunk of the conversation memory when f keeps it.
	Chunk(key string, f notes.Filter) (notes.Shown, bool)
	// SourceItem is a source's item as the index holds it, kind being the
	// kind of its source's documents; false when no enabled source gives
	// that kind, or the item is gone.
	SourceItem(kind, key string) (*core.SourceDocument, bool)
}

// maxMisses is how many items in a row may fail to fit the budget before
// the packer stops trying smaller ones.
const maxMisses = 3

// Pack turns the answer's hits into items until the budget or the limit
// is reached. An item that does not fit is skipped and a smaller one
// after it may still go in: the budget is a ceiling, not a cut-off point;
// after maxMisses misses in a row the rest are only counted.
func (a *Answer) Pack(docs Documents) (*Result, error) {
	q, m := a.Query, a.Manifest
	res := &Result{Query: q.Text, Terms: q.Terms, Budget: q.Budget, Items: []Item{}}
	reserve := footerReserve(q)
	first := a.openFirst(q.Budget - reserve)
	if len(first) > 0 {
		reserve += tokens.Estimate(renderOpenFirst(first, false))
	}
	misses := 0
	p := &packer{a: a, docs: docs, qtokens: queryTokens(q)}
	seen := map[string]bool{} // ids and texts shown: no item twice
	for _, h := range a.Hits {
		kind, key, err := core.SplitDocID(h.ID)
		if err != nil || !q.Accepts(kind) || seen[h.ID] {
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
		if q.Admit != nil {
			if !q.Admit(&it, !a.Weak[h.ID]) {
				continue
			}
			// Admitted on what the note says, the note is shown as it is
			// shown now: checked against the code (a check reads and
			// scans the files it is about) and marked when the repository
			// wrote it; a recall weighs many notes to admit a few.
			var ok bool
			if it, ok, err = p.checked(it); err != nil {
				return nil, err
			} else if !ok {
				continue
			}
		}
		if text := it.Kind + "\x00" + it.Text; seen[text] {
			continue // the same text under another id
		} else {
			seen[h.ID], seen[text] = true, true
		}
		it.Scores, it.Reasons = explain(h, a.Lists)
		if len(it.Reasons) == 0 {
			it.Reasons = []string{fallbackReason(&it, m, it.Scores)}
		}
		it.Reranked = a.Reranked[h.ID]
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
	// The listing names units of the files shown only: a file the floor,
	// the filters or the budget left out is not pointed to. It is a part
	// of the listing reserved, so it fits.
	for _, u := range first {
		if slices.ContainsFunc(res.Items, func(it Item) bool { return it.Kind == core.DocFile && it.Path == u.Path }) {
			res.OpenFirst = append(res.OpenFirst, u)
		}
	}
	if len(res.OpenFirst) > 0 {
		res.OpenFirstTokens = tokens.Estimate(renderOpenFirst(res.OpenFirst, false))
		res.Tokens += res.OpenFirstTokens
	}
	return res, nil
}

// openFirst is the listing of units across files the answer may show
// (rerank.units), cut to take at most a quarter of room, the tokens the
// items and the listing share: the items stay the answer's body.
func (a *Answer) openFirst(room int) []core.Unit {
	if a.Units == nil || !a.Query.Accepts(core.DocFile) {
		return nil
	}
	first := a.Units.First()
	for len(first) > 0 && tokens.Estimate(renderOpenFirst(first, false)) > room/4 {
		first = first[:len(first)-1]
	}
	return first
}

// verdict is what the packer makes of a hit.
type verdict int

const (
	shown   verdict = iota // an item to fit in the budget
	counted                // a match past the limit: counted, not shown
	left                   // gone since the index, or filtered out
)

// packer shows the hits of one answer, one kind of document at a time:
// files, modules, knowledge nodes, conversation chunks and the sources'
// items each have their show method.
type packer struct {
	a       *Answer
	docs    Documents
	qtokens map[string]bool
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

// file shows a file: its record, its definitions and units.
func (p *packer) file(key string, full bool) (Item, verdict, error) {
	q := p.a.Query
	if full && q.Module == "" && !q.windowed() {
		// Counted without finding the file's record, which costs a search
		// of the manifest: the count may include a file gone since the
		// index.
		if q.underPath(key) {
			return Item{}, counted, nil
		}
		return Item{}, left, nil
	}
	rec, ok := p.a.Manifest.File(key)
	if !ok {
		return Item{}, left, nil // a ranker remembered a file that is gone
	}
	if !q.KeepsFile(rec) {
		return Item{}, left, nil
	}
	if full {
		return Item{}, counted, nil
	}
	if err := p.docs.Symbols(rec); err != nil {
		return Item{}, left, err
	}
	var units []core.Unit
	if p.a.Units != nil {
		units = p.a.Units.Of(key, rec.Syms)
	}
	return Item{Kind: core.DocFile, Path: key, Title: key, Text: renderFile(rec, units, p.qtokens), Role: rec.Role, Units: units}, shown, nil
}

// module shows a module: its summary.
func (p *packer) module(key string, full bool) (Item, verdict, error) {
	q, m := p.a.Query, p.a.Manifest
	var sum manifest.ModuleSummary
	ok := m != nil
	if ok {
		sum, ok = m.ModuleSummaries()[key]
	}
	if !ok || !q.underPath(key) || q.Module != "" && key != q.Module || q.windowed() {
		return Item{}, left, nil
	}
	if full {
		return Item{}, counted, nil
	}
	return Item{Kind: core.DocModule, Path: key, Title: key, Text: renderModule(key, sum)}, shown, nil
}

// node shows a knowledge node, read from its file as it is now, with
// what changed in the code it is about since it was written; for a
// caller that admits items itself, without that until it is admitted
// (checked).
func (p *packer) node(key string, full bool) (Item, verdict, error) {
	q := p.a.Query
	if full && !q.Filtered() {
		// Counted without reading the node: the count may include a
		// superseded one the default filter would drop.
		return Item{}, counted, nil
	}
	how := notes.Check
	switch {
	case full:
		how = notes.Decide
	case q.Admit != nil:
		how = notes.Render
	}
	sh, ok := p.docs.Note(key, q.NoteFilter(p.a.Manifest), how)
	switch {
	case !ok:
		return Item{}, left, nil // deleted since the index, or filtered out
	case full:
		return Item{}, counted, nil
	}
	return Item{Kind: core.DocNode, Path: sh.Path, Title: sh.Title, Text: sh.Text, Stale: sh.Stale}, shown, nil
}

// checked is an admitted item as it is shown: a knowledge node marked
// when the repository wrote it, with what changed in the code it is about
// since it was written. ok is false for a node gone between the two
// reads, which is not shown: its text was read as the user's own.
func (p *packer) checked(it Item) (_ Item, ok bool, _ error) {
	if it.Kind != core.DocNode {
		return it, true, nil
	}
	_, key, err := core.SplitDocID(it.ID)
	if err != nil {
		return it, false, err
	}
	sh, ok := p.docs.Note(key, p.a.Query.NoteFilter(p.a.Manifest), notes.Check)
	if !ok {
		return it, false, nil
	}
	it.Text, it.Stale = sh.Text, sh.Stale
	return it, true, nil
}

// chunk shows a chunk of the conversation memory, read from its file.
func (p *packer) chunk(key string, full bool) (Item, verdict, error) {
	if full {
		return Item{}, counted, nil
	}
	sh, ok := p.docs.Chunk(key, p.a.Query.NoteFilter(p.a.Manifest))
	if !ok {
		return Item{}, left, nil // removed since the index, or filtered out
	}
	return Item{Kind: core.DocChunk, Path: sh.Path, Title: sh.Title, Text: sh.Text}, shown, nil
}

// sourceItem shows a source's item (core.Source) from what the index holds
// of it. Path and module filters are the code's, note types and statuses
// the notes'; a time window applies to the item's time.
func (p *packer) sourceItem(kind, key string, full bool) (Item, verdict, error) {
	q := p.a.Query
	if q.PathPrefix != "" || q.Module != "" || len(q.NodeTypes) > 0 || len(q.Statuses) > 0 {
		return Item{}, left, nil
	}
	it, ok := p.docs.SourceItem(kind, key)
	if !ok || q.windowed() && (it.Time == 0 || !q.inWindow(time.Unix(it.Time, 0))) {
		return Item{}, left, nil
	}
	if full {
		return Item{}, counted, nil
	}
	return Item{Kind: kind, Path: it.Location, Title: it.Title, Text: renderSourceItem(kind, it)}, shown, nil
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
		if r.Reason != "" {
			return r.Reason
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
