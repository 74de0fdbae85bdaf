package pipeline

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/query"
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
	// Admit, when set, decides in place of the floor (rerank.floor)
	// which items enter the answer, given the item as it would be shown
	// and whether it reaches the floor (true when no floor is enabled);
	// it runs before the item is fitted to the budget, so an item it
	// leaves out takes none of it.
	Admit func(it *Item, strong bool) bool `json:"-"`
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
	// Reranked says what each reranker that changed the item did to it,
	// in pipeline order.
	Reranked []Reranked `json:"reranked,omitempty"`
}

// Reranked is what a reranker did to an item.
type Reranked struct {
	Stage string `json:"stage"`
	// Factor multiplied the item's score (0: not rescaled).
	Factor float64 `json:"factor,omitempty"`
	// From is the 1-based place the item held before the reranker moved
	// it (0: not moved).
	From int `json:"from,omitempty"`
	// reason is the reranker's word on it, for the item's reasons.
	reason string
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
		m       *manifest.Manifest
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
	facts := &queryFacts{e: e, q: q, an: &an, now: time.Now(), manifest: func() *manifest.Manifest {
		<-mLoaded
		return m
	}}
	rankText := an.Text
	if strings.TrimSpace(rankText) == "" {
		rankText = q.Text
	}
	cq := core.Query{Text: rankText, Terms: q.Terms, Limit: want, Kinds: q.Kinds}
	lists, nDirect, left, err := e.rank(ctx, cq, q.Direct, an.Report, facts)
	<-mLoaded
	if errors.Is(mErr, manifest.ErrNoIndex) {
		return nil, ErrNoIndex
	}
	if mErr != nil {
		return nil, mErr
	}
	if err != nil {
		return nil, err
	}
	fused, err := e.fuse(ctx, lists)
	if err != nil {
		return nil, err
	}
	a := &answer{q: q, an: &an, m: m, lists: lists}
	cq.Seeds = lists[:nDirect]
	if err := e.rerank(ctx, a, core.Rerank{Query: cq, Lists: lists, Hits: fused, Keep: q.Admit != nil}, facts); err != nil {
		return nil, err
	}
	res, err := e.pack(a, false)
	if manifest.IsGenerationGone(err) && m != nil {
		// Another process re-indexed between our manifest and its
		// symbols: read the new index and pack again.
		e.setManifest(nil)
		if a.m, err = e.currentManifest(); err == nil {
			res, err = e.pack(a, false)
		}
	}
	var damaged string
	if err != nil && a.m != nil && errors.Is(err, manifest.ErrSymbolsDamaged) {
		// The symbols file is damaged (truncated, overwritten): answer
		// without the symbols that cannot be read, and say so. The next
		// index repairs it.
		damaged = err.Error() + ": the answer lacks those symbols; `rubi index` repairs the file"
		res, err = e.pack(a, true)
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
// repairs it), besides the host's problems and a log line. A ranker that
// ranks from the engine's facts of the query (core.FactRanker: the paths
// the question names, the files of its notes, its dates) is given them.
//
// direct leaves out the seeded rankers that walk from the seeds (the
// graph), keeping those that draw from the seeds alone (Info.SeedsOnly).
//
// report says the question reads as a bug report: its own words and
// names are then evidence enough, and each ranker's vote counts its
// report_weight of its weight (rank.ppr's is 0.4: bench/quality, on real
// bug reports a full-weight walk from their many matches crowds the files
// they are about out of the first five).
//
// The lists of the unseeded rankers come first, nDirect of them, then
// the seeded rankers'.
func (e *Engine) rank(ctx context.Context, q core.Query, direct, report bool, facts core.Facts) (lists []core.RankedList, nDirect int, left map[string]error, err error) {
	type slot struct {
		list core.RankedList
		ok   bool
	}
	var leftMu sync.Mutex
	run := func(stages []rankerStage, q core.Query) []core.RankedList {
		slots := make([]slot, len(stages))
		rank := func(i int) {
			rs := stages[i]
			var hits []core.Hit
			var err error
			if fr, ok := rs.ranker.(core.FactRanker); ok {
				hits, err = fr.RankFacts(ctx, q, facts)
			} else {
				hits, err = rs.ranker.Rank(ctx, q)
			}
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
			w := rs.weight
			if report {
				w *= rs.reportWeight
			}
			slots[i] = slot{core.RankedList{Stage: rs.name, Weight: w, Hits: hits}, true}
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
	first, seeded, err := e.rankers(ctx, direct)
	if err != nil {
		return nil, 0, nil, err
	}
	// Seeded rankers load their state while the others rank; an error
	// is Rank's to report.
	var prepared sync.WaitGroup
	for _, rs := range seeded {
		if p, ok := rs.ranker.(core.Preparer); ok {
			prepared.Go(func() { _ = p.Prepare(ctx) })
		}
	}
	lists = run(first, q)
	nDirect = len(lists)
	prepared.Wait()
	if len(seeded) > 0 {
		sq := q
		sq.Seeds = lists
		lists = append(lists, run(seeded, sq)...)
	}
	return lists, nDirect, left, ctx.Err()
}

type rankerStage struct {
	name                 string
	weight, reportWeight float64
	ranker               core.Ranker
}

// rankers opens the enabled rankers, split into unseeded and seeded; with
// direct, the seeded ones that walk from their seeds are left out.
func (e *Engine) rankers(ctx context.Context, direct bool) (first, seeded []rankerStage, err error) {
	for _, st := range e.cfg.Enabled(core.KindRanker) {
		s, err := e.open(ctx, st)
		if err != nil {
			return nil, nil, err
		}
		r, ok := s.(core.Ranker)
		if !ok {
			continue
		}
		rs := rankerStage{name: st.Name, weight: st.Weight, reportWeight: st.ReportWeight, ranker: r}
		switch info := r.Info(); {
		case !info.Seeded:
			first = append(first, rs)
		case !direct || info.SeedsOnly:
			seeded = append(seeded, rs)
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

func (q Query) acceptsKind(kind string) bool {
	return len(q.Kinds) == 0 || slices.Contains(q.Kinds, kind)
}
