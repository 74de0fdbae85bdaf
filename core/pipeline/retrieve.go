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
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/notes"
	"github.com/rubi-dev/rubi/core/query"
)

// minWant is how many hits each ranker is asked for at least.
const minWant = 100

// maxFiltered is how many hits each ranker is asked for when filters
// apply after ranking.
const maxFiltered = 1000

// docKinds are the document kinds a query may ask for.
var docKinds = []string{core.DocFile, core.DocModule, core.DocNode, core.DocChunk}

// ErrNoIndex is returned by Retrieve before the project was ever indexed.
var ErrNoIndex = errors.New("the project has no index yet: run `rubi index` first")

// retrieval is one query on its way through the engine: the question
// and its analysis, the engine's facts of it, what the rankers ranked
// and the fuser fused. The answer is made from it (answer.go).
type retrieval struct {
	e     *Engine
	q     answer.Query
	an    query.Analysis
	facts *queryFacts
	// cq is the question as the rankers and rerankers are given it.
	cq core.Query
	// direct are the lists of the rankers of the question's own words,
	// the seeds of the others; seeded the lists of the rankers seeded by
	// them. Both are fused, direct first.
	direct, seeded []core.RankedList
	// left holds, by ranker, the error of a ranker left out of the query.
	left map[string]error
	// fused is the fuser's list, before the rerankers.
	fused []core.Hit
	// damaged says the answer lacks the symbols a damaged symbols file
	// could not give.
	damaged string
	// pending is the work started ahead of its need (ahead, readAhead):
	// the query waits for it before it returns.
	pending sync.WaitGroup
	// chunks are the reads of the chunks the answer may show, by key,
	// started as soon as the fused list is known (readAhead).
	chunks map[string]func() notes.ReadChunk
}

// Retrieve answers a query from the index.
func (e *Engine) Retrieve(ctx context.Context, q answer.Query) (*answer.Result, error) {
	if strings.TrimSpace(q.Text) == "" && len(q.Terms) == 0 {
		return nil, errors.New("the query is empty: say what you are looking for")
	}
	for _, k := range q.Kinds {
		if slices.Contains(docKinds, k) {
			continue
		}
		sourced := e.sources.kinds(e.cfg)
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
		q.Limit = answer.DefaultLimit
	}
	if !e.HasIndex() {
		return nil, ErrNoIndex
	}
	r := &retrieval{e: e, q: q, an: query.Analyze(q.Text)}
	if slices.ContainsFunc(q.Terms, query.AsksForTests) {
		r.an.Intent = query.IntentTests
	}
	// The manifest is read while the rankers rank. A query for the
	// memory alone (notes, chunks) does without it.
	r.facts = &queryFacts{e: e, q: q, an: &r.an, now: time.Now(), loaded: make(chan struct{})}
	defer r.pending.Wait()
	defer r.facts.closeRefs()
	if q.MemoryOnly() {
		close(r.facts.loaded)
	} else {
		go r.facts.load()
	}
	// Each ranker is asked for the same depth whatever the limit, so an
	// answer's first items do not change with how many are asked for (a
	// file the words rank 60th still has their vote when it comes third
	// through the graph or a note), and the benchmarks, which ask for 50,
	// measure what an agent asking for 10 gets.
	want := max(5*q.Limit, minWant)
	if q.Filtered() {
		want = maxFiltered
	}
	rankText := r.an.Text
	if strings.TrimSpace(rankText) == "" {
		rankText = q.Text
	}
	r.cq = core.Query{Text: rankText, Terms: q.Terms, Limit: want, Kinds: q.Kinds}
	err := r.rank(ctx)
	<-r.facts.loaded
	if errors.Is(r.facts.mErr, manifest.ErrNoIndex) {
		return nil, ErrNoIndex
	}
	if r.facts.mErr != nil {
		return nil, r.facts.mErr
	}
	if err != nil {
		return nil, err
	}
	if err := r.fuse(ctx); err != nil {
		return nil, err
	}
	res, err := r.answer(ctx)
	if err != nil {
		return nil, err
	}
	res.Problems = e.Problems()
	for _, name := range slices.Sorted(maps.Keys(r.left)) {
		// A plugin's failure is in the host's problems already.
		if !slices.ContainsFunc(res.Problems, func(p string) bool { return strings.Contains(p, name) }) {
			res.Problems = append(res.Problems, fmt.Sprintf("%s is left out of this answer: %v", name, r.left[name]))
		}
	}
	if r.damaged != "" {
		res.Problems = append(res.Problems, r.damaged)
	}
	return res, nil
}

// lists are every ranker's list, in the order they are fused.
func (r *retrieval) lists() []core.RankedList {
	return append(slices.Clip(r.direct), r.seeded...)
}

// rank runs the unseeded rankers in parallel, then the seeded ones with
// the first lists as seeds. A ranker that fails is left out of the fusion
// and its error goes in left, by ranker (a damaged index says what
// repairs it), besides the host's problems and a log line. A ranker that
// ranks from the engine's facts of the query (core.FactRanker: the paths
// the question names, the files of its notes, its dates) is given them.
//
// report says the question reads as a bug report: its own words and
// names are then evidence enough, and each ranker's vote counts its
// report_weight of its weight (rank.ppr's is 0.4: bench/quality, on real
// bug reports a full-weight walk from their many matches crowds the files
// they are about out of the first five).
//
// The lists of the unseeded rankers are r.direct, the seeded rankers'
// r.seeded.
func (r *retrieval) rank(ctx context.Context) error {
	e, report := r.e, r.an.Report
	type slot struct {
		list core.RankedList
		ok   bool
	}
	var leftMu sync.Mutex
	// alongside starts what loads beside the rankers, once theirs are
	// under way: the other cores take the rankers first.
	run := func(stages []rankerStage, q core.Query, alongside func()) []core.RankedList {
		slots := make([]slot, len(stages))
		rank := func(i int) {
			rs := stages[i]
			var hits []core.Hit
			var err error
			if fr, ok := rs.ranker.(core.FactRanker); ok {
				hits, err = fr.RankFacts(ctx, q, r.facts)
			} else {
				hits, err = rs.ranker.Rank(ctx, q)
			}
			if err != nil {
				e.logger.Debug("ranker left out of this query", "ranker", rs.name, "error", err)
				if ctx.Err() == nil {
					leftMu.Lock()
					if r.left == nil {
						r.left = map[string]error{}
					}
					r.left[rs.name] = err
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
		alongside()
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
	first, seeded, err := r.rankers(ctx)
	if err != nil {
		return err
	}
	// Seeded rankers load their state while the others rank; an error
	// is Rank's to report.
	var prepared sync.WaitGroup
	r.direct = run(first, r.cq, func() {
		for _, rs := range seeded {
			if p, ok := rs.ranker.(core.Preparer); ok {
				prepared.Go(func() { _ = p.Prepare(ctx) })
			}
		}
	})
	prepared.Wait()
	sq := r.cq
	sq.Seeds = r.direct
	r.seeded = run(seeded, sq, func() { r.pending.Go(func() { r.ahead(ctx) }) })
	return ctx.Err()
}

// ahead readies, while the seeded rankers rank, what the answer needs
// next: the fuser and the rerankers opened, and the notes' cache read for
// a question about the memory (rerank.floor asks notes' types); the
// chunks it may show are read once the fused list is known (readAhead).
// Each is done again, or waited for, where it is needed: an error here is
// theirs to report.
func (r *retrieval) ahead(ctx context.Context) {
	for _, kind := range []core.Kind{core.KindFuser, core.KindReranker} {
		for _, st := range r.e.cfg.Enabled(kind) {
			_, _ = r.e.stages.open(ctx, st)
		}
	}
	if r.q.MemoryOnly() {
		r.e.nodes.ImportCache()
	}
}

type rankerStage struct {
	name                 string
	weight, reportWeight float64
	ranker               core.Ranker
}

// rankers opens the enabled rankers, split into unseeded and seeded.
func (r *retrieval) rankers(ctx context.Context) (first, seeded []rankerStage, err error) {
	for _, st := range r.e.cfg.Enabled(core.KindRanker) {
		s, err := r.e.stages.open(ctx, st)
		if err != nil {
			return nil, nil, err
		}
		rk, ok := s.(core.Ranker)
		if !ok {
			continue
		}
		rs := rankerStage{name: st.Name, weight: st.Weight, reportWeight: st.ReportWeight, ranker: rk}
		if rk.Info().Seeded {
			seeded = append(seeded, rs)
		} else {
			first = append(first, rs)
		}
	}
	return first, seeded, nil
}

// fuse merges the rankers' lists with the enabled fuser.
func (r *retrieval) fuse(ctx context.Context) error {
	fusers := r.e.cfg.Enabled(core.KindFuser)
	s, err := r.e.stages.open(ctx, fusers[0])
	if err != nil {
		return err
	}
	f, ok := s.(core.Fuser)
	if !ok {
		return fmt.Errorf("fuser %s is unavailable", fusers[0].Name)
	}
	r.fused, err = f.Fuse(ctx, r.lists())
	if err == nil {
		r.readAhead()
	}
	return err
}

// readAheadChunks caps the chunks read ahead: a recall shows at most six
// items, and a longer answer's later chunks may never be shown.
const readAheadChunks = 8

// readAhead starts reading the first chunks of the fused list, as many as
// the answer may show (readAheadChunks at most), while the rerankers weigh
// them: a chunk's file is read and its frontmatter decoded when it is
// shown, a tenth of a recall's time.
func (r *retrieval) readAhead() {
	var keys []string
	for _, h := range r.fused {
		if kind, key, err := core.SplitDocID(h.ID); err == nil && kind == core.DocChunk {
			keys = append(keys, key)
			if len(keys) == min(r.q.Limit, readAheadChunks) {
				break
			}
		}
	}
	if len(keys) == 0 {
		return
	}
	r.chunks = make(map[string]func() notes.ReadChunk, len(keys))
	for _, key := range keys {
		r.chunks[key] = sync.OnceValue(func() notes.ReadChunk { return r.e.chunks.Read(key) })
	}
	r.pending.Go(func() {
		for _, key := range keys {
			r.chunks[key]()
		}
	})
}
