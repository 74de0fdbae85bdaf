package pipeline

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/memory"
	"github.com/rubi-dev/rubi/core/query"
	"github.com/rubi-dev/rubi/core/text"
	"github.com/rubi-dev/rubi/core/tokens"
)

// Query is a retrieval request.
type Query struct {
	Text string
	// Terms are the agent's extra words: synonyms, related concepts,
	// likely identifiers.
	Terms []string
	// Budget is the token budget of the result; 0 means budgets.context.
	Budget int
	// Limit caps the number of items; 0 means DefaultLimit.
	Limit int
	// Kinds restricts results to these document kinds.
	Kinds []string
	// PathPrefix keeps files and modules under this path, and nodes about
	// a file under it.
	PathPrefix string
	// Module keeps the module, its files and the nodes about them.
	Module string
	// NodeTypes keeps knowledge nodes of these types (decision, bug,
	// gotcha, concept, …); files and modules are not affected.
	NodeTypes []string
	// Statuses are the node statuses to show; empty means active only, so
	// superseded and retracted nodes stay out unless asked for.
	Statuses []string
	// Since and Until keep files modified and nodes updated in the window
	// (either may be zero); modules, which have no time, are left out
	// when a window is given.
	Since, Until time.Time
	// Direct leaves out the rankers seeded by the others (the graph): only
	// what matches the query's own words and names is ranked. It is for
	// callers that keep direct matches only, such as the recall hook, and
	// saves loading the graph.
	Direct bool
}

// nodesOnly reports a query that can be answered from the knowledge
// notes alone, without the code map's manifest.
func (q Query) nodesOnly() bool {
	return len(q.Kinds) == 1 && q.Kinds[0] == core.DocNode && q.PathPrefix == "" && q.Module == ""
}

// filtered reports whether the query filters beyond kinds, so rankers are
// asked for more hits to filter from.
func (q Query) filtered() bool {
	return q.PathPrefix != "" || q.Module != "" || len(q.NodeTypes) > 0 || len(q.Statuses) > 0 || !q.Since.IsZero() || !q.Until.IsZero()
}

// inWindow reports whether t falls in the query's time window.
func (q Query) inWindow(t time.Time) bool {
	return (q.Since.IsZero() || !t.Before(q.Since)) && (q.Until.IsZero() || !t.After(q.Until))
}

// underPath reports whether p is the query's path prefix or below it.
func (q Query) underPath(p string) bool {
	pre := strings.TrimSuffix(q.PathPrefix, "/")
	return pre == "" || p == pre || strings.HasPrefix(p, pre+"/")
}

// minWant is how many hits each ranker is asked for at least.
const minWant = 100

// maxFiltered is how many hits each ranker is asked for when filters
// apply after ranking.
const maxFiltered = 1000

// DefaultLimit is how many items a result holds at most unless asked.
const DefaultLimit = 10

// Item is one result.
type Item struct {
	ID    string  `json:"id"`
	Kind  string  `json:"kind"`
	Path  string  `json:"path,omitempty"`
	Title string  `json:"title"`
	Score float64 `json:"score"`
	// Reasons say why the item is here, strongest first.
	Reasons []string `json:"reasons"`
	// Scores holds each ranker's own score for the item.
	Scores map[string]float64 `json:"scores"`
	// Text is what an agent reads for this item; Tokens estimates it.
	Text   string `json:"text"`
	Tokens int    `json:"tokens"`
	// Stale lists, for a knowledge node, what changed in the code it is
	// about since it was written.
	Stale []string `json:"stale,omitempty"`
	// Role is a file's role in the project (code, test, docs, config,
	// build, data, vendored, generated).
	Role string `json:"role,omitempty"`
	// Units are, for a file, the functions, methods and classes to open,
	// best first, each with its line range and why it is there.
	Units []Unit `json:"units,omitempty"`
}

// Unit is a function, method or class of a file item that the answer
// points to.
type Unit struct {
	// Name is qualified by its enclosing type: "Session.send".
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Line    int    `json:"line"`
	EndLine int    `json:"end_line"`
	Why     string `json:"why,omitempty"`
}

// Result is a packed answer.
type Result struct {
	Query  string   `json:"query"`
	Terms  []string `json:"terms,omitempty"`
	Items  []Item   `json:"items"`
	Tokens int      `json:"tokens"`
	Budget int      `json:"budget"`
	// Omitted counts matches left out by the budget or the limit.
	Omitted  int      `json:"omitted"`
	Problems []string `json:"problems,omitempty"`
}

// docKinds are the document kinds a query may ask for.
var docKinds = []string{core.DocFile, core.DocModule, core.DocNode, core.DocChunk}

// ErrNoIndex is returned by Retrieve before the project was ever indexed.
var ErrNoIndex = errors.New("the project has no index yet: run `rubi index` first")

// Retrieve answers a query from the index.
func (e *Engine) Retrieve(ctx context.Context, q Query) (*Result, error) {
	if strings.TrimSpace(q.Text) == "" && len(q.Terms) == 0 {
		return nil, errors.New("the query is empty: say what you are looking for")
	}
	for _, k := range q.Kinds {
		if slices.Contains(docKinds, k) {
			continue
		}
		sourced := e.sourceKinds()
		if _, ok := sourced[k]; !ok {
			known := slices.Clone(docKinds)
			for sk := range sourced {
				known = append(known, sk)
			}
			slices.Sort(known[len(docKinds):])
			return nil, fmt.Errorf("unknown kind %q: kinds are %s", k, strings.Join(known, ", "))
		}
	}
	if q.Budget <= 0 {
		q.Budget = e.cfg.Budgets.Context
	}
	if q.Limit <= 0 {
		q.Limit = DefaultLimit
	}
	if !e.HasIndex() {
		return nil, ErrNoIndex
	}
	// The manifest is read while the rankers rank. A query for notes
	// alone does without it.
	var (
		m       *manifest
		mErr    error
		mLoaded = make(chan struct{})
	)
	if q.nodesOnly() {
		close(mLoaded)
	} else {
		go func() {
			defer close(mLoaded)
			m, mErr = e.currentManifest()
		}()
	}
	// Each ranker is asked for the same depth whatever the limit, so an
	// answer's first items do not change with how many are asked for (a
	// file the words rank 60th still has their vote when it comes third
	// through the graph or a note), and the benchmarks, which ask for 50,
	// measure what an agent asking for 10 gets.
	want := max(5*q.Limit, minWant)
	if q.filtered() {
		want = maxFiltered
	}
	an := query.Analyze(q.Text)
	if slices.ContainsFunc(q.Terms, query.AsksForTests) {
		an.Intent = query.IntentTests
	}
	// The files the question names by path join the rankers' lists (and
	// seed the graph), once the manifest that resolves them is read.
	named := func() []core.RankedList {
		<-mLoaded
		if m == nil || !q.acceptsKind(core.DocFile) || !e.cfg.Retrieve.NamedPaths {
			return nil
		}
		if hits := mentionedPaths(m, &an); len(hits) > 0 {
			return []core.RankedList{{Stage: pathsStage, Weight: pathsWeight, Hits: hits}}
		}
		return nil
	}
	rankText := an.Text
	if strings.TrimSpace(rankText) == "" {
		rankText = q.Text
	}
	lists, nDirect, left, err := e.rank(ctx, core.Query{Text: rankText, Terms: q.Terms, Limit: want, Kinds: q.Kinds}, q.Direct, an.Report, named)
	<-mLoaded
	if errors.Is(mErr, errNoIndex) {
		return nil, ErrNoIndex
	}
	if mErr != nil {
		return nil, mErr
	}
	if err != nil {
		return nil, err
	}
	if e.cfg.Retrieve.NoteFiles && m != nil && q.acceptsKind(core.DocFile) && q.acceptsKind(core.DocNode) {
		hits := noteFiles(lists[:nDirect], func(p string) bool {
			_, ok := m.file(p)
			return ok
		}, func(key string) (string, []string, bool) {
			n, err := e.project.Knowledge().Get(key)
			if err != nil || !q.acceptsNode(n, m) {
				return "", nil, false
			}
			return n.Title, n.Files, true
		})
		if len(hits) > 0 {
			lists = append(lists, core.RankedList{Stage: notesStage, Weight: notesWeight, Hits: hits})
		}
	}
	if e.cfg.Retrieve.DatedQuestions && (q.acceptsKind(core.DocNode) || q.acceptsKind(core.DocChunk)) {
		if hits := datedHits(lists[:nDirect], q.Text, time.Now(), e.docTime); len(hits) > 0 {
			lists = append(lists, core.RankedList{Stage: datedStage, Weight: datedWeight, Hits: hits})
		}
	}
	fused, err := e.fuse(ctx, lists)
	if err != nil {
		return nil, err
	}
	qtokens := queryTokens(q)
	e.applyPriors(fused, m, &an)
	if len(q.Kinds) == 0 && e.cfg.Retrieve.LiftNotes {
		liftNotes(fused, lists[:nDirect])
	}
	res, err := e.pack(m, q, &an, qtokens, lists, fused, false)
	if isGenerationGone(err) && m != nil {
		// Another process re-indexed between our manifest and its
		// symbols: read the new index and pack again.
		e.setManifest(nil)
		if m, err = e.currentManifest(); err == nil {
			res, err = e.pack(m, q, &an, qtokens, lists, fused, false)
		}
	}
	var damaged string
	if err != nil && m != nil && errors.Is(err, errSymbolsDamaged) {
		// The symbols file is damaged (truncated, overwritten): answer
		// without the symbols that cannot be read, and say so. The next
		// index repairs it.
		damaged = err.Error() + ": the answer lacks those symbols; `rubi index` repairs the file"
		res, err = e.pack(m, q, &an, qtokens, lists, fused, true)
	}
	if err != nil {
		return nil, err
	}
	res.Problems = e.Problems()
	for _, name := range slices.Sorted(maps.Keys(left)) {
		// A plugin's failure is in the host's problems already.
		if !slices.ContainsFunc(res.Problems, func(p string) bool { return strings.Contains(p, name) }) {
			res.Problems = append(res.Problems, fmt.Sprintf("%s is left out of this answer: %v", name, left[name]))
		}
	}
	if damaged != "" {
		res.Problems = append(res.Problems, damaged)
	}
	return res, nil
}

// rank runs the unseeded rankers in parallel, then the seeded ones with
// the first lists as seeds. A ranker that fails is left out of the fusion
// and its error goes in left, by ranker (a damaged index says what
// repairs it), besides the host's problems and a log line.
//
// more, when not nil, gives lists of the engine's own (the paths the
// question names) that join the first lists before the seeded rankers
// start from them.
//
// report says the question reads as a bug report: its own words and
// names are then evidence enough, and the graph's vote counts
// retrieve.report_graph_weight of its weight (bench/quality: on real bug reports a
// full-weight walk from their many matches crowds the files they are
// about out of the first five).
//
// The lists of the rankers of the question's own words (and the
// engine's) come first, nDirect of them, then the seeded rankers'.
func (e *Engine) rank(ctx context.Context, q core.Query, direct, report bool, more func() []core.RankedList) (lists []core.RankedList, nDirect int, left map[string]error, err error) {
	type slot struct {
		list core.RankedList
		ok   bool
	}
	var leftMu sync.Mutex
	run := func(stages []rankerStage, q core.Query) []core.RankedList {
		slots := make([]slot, len(stages))
		rank := func(i int) {
			rs := stages[i]
			hits, err := rs.ranker.Rank(ctx, q)
			if err != nil {
				e.logger.Debug("ranker left out of this query", "ranker", rs.name, "error", err)
				if ctx.Err() == nil {
					leftMu.Lock()
					if left == nil {
						left = map[string]error{}
					}
					left[rs.name] = err
					leftMu.Unlock()
				}
				return
			}
			slots[i] = slot{core.RankedList{Stage: rs.name, Weight: rs.weight, Hits: hits}, true}
		}
		// The first ranker (rank.bm25 by default, the longest) runs here
		// at once; the others, and whatever loads alongside, take the
		// other cores.
		var wg sync.WaitGroup
		for i := 1; i < len(stages); i++ {
			wg.Go(func() { rank(i) })
		}
		if len(stages) > 0 {
			rank(0)
		}
		wg.Wait()
		var out []core.RankedList
		for _, s := range slots {
			if s.ok {
				out = append(out, s.list)
			}
		}
		return out
	}
	first, seeded, err := e.rankers(ctx)
	if err != nil {
		return nil, 0, nil, err
	}
	// Seeded rankers load their state while the others rank; an error
	// is Rank's to report.
	var prepared sync.WaitGroup
	for _, rs := range seeded {
		if p, ok := rs.ranker.(core.Preparer); ok && !direct {
			prepared.Go(func() { _ = p.Prepare(ctx) })
		}
	}
	lists = run(first, q)
	if more != nil {
		lists = append(lists, more()...)
	}
	nDirect = len(lists)
	prepared.Wait()
	if len(seeded) > 0 && !direct {
		sq := q
		sq.Seeds = lists
		graph := run(seeded, sq)
		if report {
			for i := range graph {
				graph[i].Weight *= e.cfg.Retrieve.ReportGraphWeight
			}
		}
		lists = append(lists, graph...)
	}
	return lists, nDirect, left, ctx.Err()
}

type rankerStage struct {
	name   string
	weight float64
	ranker core.Ranker
}

// rankers opens the enabled rankers, split into unseeded and seeded.
func (e *Engine) rankers(ctx context.Context) (first, seeded []rankerStage, err error) {
	for _, st := range e.cfg.Enabled(core.KindRanker) {
		s, err := e.open(ctx, st)
		if err != nil {
			return nil, nil, err
		}
		r, ok := s.(core.Ranker)
		if !ok {
			continue
		}
		rs := rankerStage{name: st.Name, weight: st.Weight, ranker: r}
		if r.Info().Seeded {
			seeded = append(seeded, rs)
		} else {
			first = append(first, rs)
		}
	}
	return first, seeded, nil
}

func (e *Engine) fuse(ctx context.Context, lists []core.RankedList) ([]core.Hit, error) {
	fusers := e.cfg.Enabled(core.KindFuser)
	s, err := e.open(ctx, fusers[0])
	if err != nil {
		return nil, err
	}
	f, ok := s.(core.Fuser)
	if !ok {
		return nil, fmt.Errorf("fuser %s is unavailable", fusers[0].Name)
	}
	return f.Fuse(ctx, lists)
}

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
func (e *Engine) pack(m *manifest, q Query, an *query.Analysis, qtokens map[string]bool, lists []core.RankedList, fused []core.Hit, tolerant bool) (*Result, error) {
	res := &Result{Query: q.Text, Terms: q.Terms, Budget: q.Budget, Items: []Item{}}
	reserve := footerReserve(q)
	misses := 0
	var symbols *symbolReader
	loadSymbols := func(rec *fileRecord) error {
		if !rec.loaded && symbols == nil {
			f, err := m.openSymbols(e.indexDir())
			if err != nil {
				return err
			}
			symbols = &symbolReader{f: f}
		}
		if symbols == nil {
			return nil
		}
		// Records cache their symbols once read; queries may run
		// concurrently.
		e.symMu.Lock()
		defer e.symMu.Unlock()
		if err := symbols.read(rec); err != nil && !(tolerant && errors.Is(err, errSymbolsDamaged)) {
			return err
		}
		return nil
	}
	defer func() {
		if symbols != nil {
			symbols.f.Close()
		}
	}()
	var prof *profile
	var ranked map[string][]Unit
	if q.acceptsKind(core.DocFile) && m != nil && e.cfg.Retrieve.Units {
		prof = newProfile(q, an)
		var err error
		if ranked, err = e.rankFileUnits(m, q, fused, prof, loadSymbols); err != nil {
			return nil, err
		}
	}
	var sourced map[string]*sourceState // read at the first source's item
	for _, h := range fused {
		kind, key, err := core.SplitDocID(h.ID)
		if err != nil || !q.acceptsKind(kind) {
			continue
		}
		// Past the limit, or once several items in a row did not fit the
		// budget, a match is counted and nothing is read or rendered: a
		// query's cost stays bounded by what it can show.
		full := len(res.Items) >= q.Limit || misses >= maxMisses
		var it Item
		switch kind {
		case core.DocFile:
			if full && q.Module == "" && q.Since.IsZero() && q.Until.IsZero() {
				// Counted without finding the file's record, which costs
				// a search of the manifest: the count may include a file
				// gone since the index.
				if q.underPath(key) {
					res.Omitted++
				}
				continue
			}
			rec, ok := m.file(key)
			if !ok {
				continue // a ranker remembered a file that is gone
			}
			if !q.underPath(key) || q.Module != "" && rec.Module != q.Module || !q.inWindow(time.Unix(0, rec.ModTime)) {
				continue
			}
			if full {
				res.Omitted++
				continue
			}
			if err := loadSymbols(rec); err != nil {
				return nil, err
			}
			units, ok := ranked[key]
			if !ok && prof != nil {
				units = e.fileUnits(rec, prof, nil)
			}
			it = Item{Kind: kind, Path: key, Title: key, Text: renderFile(rec, units, qtokens), Role: rec.Role, Units: units}
		case core.DocModule:
			var sum moduleSummary
			ok := m != nil
			if ok {
				sum, ok = m.moduleSummaries()[key]
			}
			if !ok || !q.underPath(key) || q.Module != "" && key != q.Module || !q.Since.IsZero() || !q.Until.IsZero() {
				continue
			}
			if full {
				res.Omitted++
				continue
			}
			it = Item{Kind: kind, Path: key, Title: key, Text: renderModule(key, sum)}
		case core.DocNode:
			if full && !q.filtered() {
				// Counted without reading the node: the count may include
				// a superseded one the default filter would drop.
				res.Omitted++
				continue
			}
			n, err := e.project.Knowledge().Get(key)
			if err != nil {
				continue // deleted since the index
			}
			if !q.acceptsNode(n, m) {
				continue
			}
			if full {
				res.Omitted++
				continue
			}
			stale := e.project.Knowledge().Stale(n)
			it = Item{Kind: kind, Path: e.relPath(n.Path), Title: n.Title, Text: renderNode(n, stale), Stale: stale}
		case core.DocChunk:
			if full {
				res.Omitted++
				continue
			}
			c, err := memory.Open(e.cfg.Root).Get(key)
			if err != nil || !q.acceptsChunk(c) {
				continue // removed since the index, or filtered out
			}
			it = Item{Kind: kind, Path: e.relPath(c.Path), Title: c.Summary, Text: renderChunk(c)}
		default:
			// A source's item (core.Source), shown from what the index
			// holds of it. Path and module filters are the code's.
			if q.PathPrefix != "" || q.Module != "" {
				continue
			}
			if sourced == nil {
				sourced = e.sourceKinds()
			}
			st, ok := sourced[kind]
			if !ok {
				continue // its source was taken out of the configuration
			}
			entry, ok := st.entry(key)
			if !ok || entry.Time != 0 && !q.inWindow(time.Unix(entry.Time, 0)) || entry.Time == 0 && (!q.Since.IsZero() || !q.Until.IsZero()) {
				continue
			}
			if full {
				res.Omitted++
				continue
			}
			it = Item{Kind: kind, Path: entry.Location, Title: entry.Title, Text: renderSourceItem(kind, entry)}
		}
		it.ID, it.Score = h.ID, h.Score
		it.Scores, it.Reasons = explain(h, lists)
		if len(it.Reasons) == 0 {
			it.Reasons = []string{fallbackReason(&it, m, it.Scores)}
		}
		if it.Role != "" && it.Role != codemap.RoleCode {
			it.Reasons = append(it.Reasons, roleReason(it.Role, an.Intent, e.cfg.Retrieve.RolePriors))
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

// fallbackReason says why an item is there when no ranker gave a reason:
// a central file, or the rankers that found it.
func fallbackReason(it *Item, m *manifest, scores map[string]float64) string {
	if m != nil && it.Kind == core.DocFile {
		if rec, ok := m.file(it.Path); ok && rec.Importers >= 5 {
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

// queryTokens are the analyzed words of the query and its terms.
func queryTokens(q Query) map[string]bool {
	out := map[string]bool{}
	for _, t := range text.Tokenize(q.Text + " " + strings.Join(q.Terms, " ")) {
		out[t] = true
	}
	return out
}

// acceptsNode applies the node filters: status (active unless asked),
// type, time window, and path or module through the files the node is
// about.
func (q Query) acceptsNode(n *knowledge.Node, m *manifest) bool {
	status := cmp.Or(n.Status, "active")
	if len(q.Statuses) == 0 && status != "active" || len(q.Statuses) > 0 && !slices.Contains(q.Statuses, status) {
		return false
	}
	if len(q.NodeTypes) > 0 && !slices.Contains(q.NodeTypes, n.Type) || !q.inWindow(n.Updated) {
		return false
	}
	if q.PathPrefix == "" && q.Module == "" {
		return true
	}
	for _, f := range n.Files {
		rec, ok := m.file(f)
		if q.underPath(f) && (q.Module == "" || ok && rec.Module == q.Module) {
			return true
		}
	}
	return false
}

// acceptsChunk applies the filters to a chunk: its creation time, and a
// path or module through the files it names. Note types and statuses are
// the notes'.
func (q Query) acceptsChunk(c *memory.Chunk) bool {
	if len(q.NodeTypes) > 0 || len(q.Statuses) > 0 || !q.inWindow(c.Created) {
		return false
	}
	if q.PathPrefix == "" && q.Module == "" {
		return true
	}
	if q.Module != "" {
		return false // a module is code; a conversation is not in one
	}
	for _, f := range c.Entities.Files {
		if q.underPath(f) {
			return true
		}
	}
	return false
}

func (q Query) acceptsKind(kind string) bool {
	return len(q.Kinds) == 0 || slices.Contains(q.Kinds, kind)
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

// maxSymbolLines bounds the symbols shown for one file.
const maxSymbolLines = 4

// renderFile is a file as the agent reads it in a result: its path and
// shape, then the definitions most related to the query (or its main
// exported ones), with the line to open them at.
//
// The units, when the file has any, are those lines: each with its line
// range and why it is there.
func renderFile(rec *fileRecord, units []Unit, qtokens map[string]bool) string {
	var b strings.Builder
	b.WriteString(rec.Path)
	var info []string
	if rec.Language != "" {
		info = append(info, rec.Language)
	}
	if rec.Symbols > 0 {
		info = append(info, plural(rec.Symbols, "symbol"))
	}
	if rec.Importers > 0 {
		info = append(info, "imported by "+plural(rec.Importers, "file"))
	}
	if len(info) > 0 {
		b.WriteString(" (" + strings.Join(info, ", ") + ")")
	}
	if len(units) > 0 {
		// Each unit with its range, signature and doc; why it is there
		// when the question names it (the words it matches are in the
		// JSON, not worth the tokens here).
		for _, u := range units {
			line := u.Kind + " " + u.Name
			sym := unitSymbol(rec, u)
			if sym != nil && sym.Signature != "" {
				line = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(sym.Signature), "{"))
			}
			if u.EndLine > u.Line {
				fmt.Fprintf(&b, "\n  L%d-%d %s", u.Line, u.EndLine, line)
			} else {
				fmt.Fprintf(&b, "\n  L%d %s", u.Line, line)
			}
			if sym != nil && sym.Doc != "" {
				b.WriteString(" — " + sym.Doc)
			}
			if u.Why != "" && !strings.HasPrefix(u.Why, "matches ") {
				b.WriteString(" [" + u.Why + "]")
			}
		}
		return b.String()
	}
	for _, s := range pickSymbols(rec.syms, qtokens) {
		// An opening brace says nothing the agent needs.
		line := strings.TrimSpace(strings.TrimSuffix(s.Signature, "{"))
		if line == "" {
			line = s.Kind + " " + s.Name
		}
		fmt.Fprintf(&b, "\n  L%d %s", s.Line, line)
		if s.Doc != "" {
			b.WriteString(" — " + s.Doc)
		}
	}
	return b.String()
}

// unitSymbol is the symbol a unit stands for.
func unitSymbol(rec *fileRecord, u Unit) *core.Symbol {
	for i := range rec.syms {
		s := &rec.syms[i]
		if s.Line == u.Line && (s.Name == u.Name || strings.HasSuffix(u.Name, "."+s.Name)) {
			return s
		}
	}
	return nil
}

// pickSymbols prefers symbols whose names share a token with the query,
// then exported top-level ones, in file order.
func pickSymbols(syms []core.Symbol, qtokens map[string]bool) []core.Symbol {
	score := func(s core.Symbol) int {
		n := 0
		for _, t := range text.Tokenize(s.Name) {
			if qtokens[t] {
				n += 4
				break
			}
		}
		if s.Exported {
			n += 2
		}
		if s.Parent == "" {
			n++
		}
		return n
	}
	idx := make([]int, len(syms))
	scores := make([]int, len(syms)) // computed once: scoring tokenizes the name
	for i := range idx {
		idx[i], scores[i] = i, score(syms[i])
	}
	sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] })
	if len(idx) > maxSymbolLines {
		idx = idx[:maxSymbolLines]
	}
	sort.Ints(idx)
	out := make([]core.Symbol, len(idx))
	for i, j := range idx {
		out[i] = syms[j]
	}
	return out
}

func renderModule(mod string, s moduleSummary) string {
	names := s.Central
	if s.Files > len(names) {
		names = append(slices.Clip(names), "…")
	}
	return fmt.Sprintf("module %s (%s): %s", mod, plural(s.Files, "file"), strings.Join(names, ", "))
}

func moduleIndex(m *manifest) map[string][]*fileRecord {
	out := map[string][]*fileRecord{}
	for _, rec := range m.records() {
		out[rec.Module] = append(out[rec.Module], rec)
	}
	return out
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
