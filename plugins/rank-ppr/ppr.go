// Package ppr is the built-in ranker "rank.ppr": Personalized PageRank over
// the project graph. It is a seeded ranker: the text rankers find the
// documents that match the query, and rank.ppr spreads relevance from
// those matches along imports and module membership, surfacing files that
// matter for the query without containing its words — the interface a
// matching file implements, the helper it calls, the caller that wires it.
//
// The graph is rebuilt from the corpus on every Index (it is cheap next to
// parsing) and persisted in the stage's state directory, so a process that
// only ranks loads it instead of re-indexing. A change of the notes alone
// (core.Corpus.Scope), which comes as often as an agent writes a note, is
// applied to the stored graph instead of rebuilding it (see scoped.go).
//
// Defaults (rubi.hcl): weight 1.25 from at most 20 seeds, damping 0.85,
// Personalized PageRank by forward push (core/graph.PersonalizedPush), so
// a query's work depends on the neighbourhood the walk reaches, not on the
// project's size; a module → file edge weighs a quarter of an import (the
// corpus the pipeline builds), and hub_penalty 0.5 divides a score by the
// square root of one plus the document's in-degree, so a file everything
// imports does not win every question. The vote was
// chosen on bench/quality: the graph helps recall of notes linked to each
// other and costs a little top-1 accuracy on code. For a question that
// reads as a bug report the vote is multiplied by report_weight (0.4): a
// report's own words and names are evidence enough, and a full-weight
// walk from its many matches crowds the files it is about out of the
// first five. Its reasons name the link the walk followed (explain.go).
//
// The state file (state.go) holds the built graph as aligned tables (CSR
// in both directions, transition probabilities, ids in sorted order, the
// labelled edges' positions and their words) with hashes of the corpus
// graph it came from, so a query process uses the tables where the file
// is mapped, and an update whose documents and edges did not change
// writes nothing. A file that store.Unchanged finds to be the version an
// index run wrote also skips the one check that reads every edge of both
// directions in no order (that the in-edges are the out-edges reversed,
// graph.FromOwnTables); the shape of every table and each node's
// out-weight, which a walk relies on to end, are checked whatever wrote
// it. Fuzz target: FuzzState.
package ppr

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sync"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/store"
)

// Name is the stage name used in rubi.hcl.
const Name = "rank.ppr"

// Version is the stage version reported by Info. The pipeline indexes a
// built-in again when its version changes, so it changes with
// formatVersion: an index run then rebuilds a graph stored in another
// format.
const Version = "0.6.0"

func init() { core.Register(Name, core.KindRanker, func() core.Stage { return New() }) }

// Settings are the attributes of the stage's rubi.hcl block.
type Settings struct {
	// Damping is the probability that the walk follows an edge instead
	// of jumping back to a match: higher values reach further from the
	// matches. Default 0.85.
	Damping float64 `hcl:"damping,optional"`
	// HubPenalty is the exponent of the hub discount: a score is divided
	// by (1+degree)^HubPenalty, where degree counts the documents linked
	// to it either way (importers, imports, its module; a module's
	// files). A walk over undirected links piles mass onto well-linked
	// documents whatever the query, so without it the files everything
	// imports (logging, errors, config) outrank the specific neighbours
	// of the matches. 0 disables it. Default 0.5.
	HubPenalty float64 `hcl:"hub_penalty,optional"`
	// MaxSeeds caps how many matches the walk starts from. Default 20.
	MaxSeeds int `hcl:"max_seeds,optional"`
	// References is the weight of the references between two files
	// (core.EdgeReferences, log2(1+uses) each) in the walk, beside an
	// import's 1: the walk then goes from a match to the files whose
	// functions it calls and those calling it, which the imports of a Go
	// package cannot tell apart. 0, the default, leaves them out: on
	// SWE-bench dev (Python, whose files import what they use) the walk
	// found no more with them, at 0.5 or 1 (bench/results/
	// quality-2026-12-06-refedges.md).
	References float64 `hcl:"references,optional"`
}

// pushEpsilon is the residual threshold of the forward push.
const pushEpsilon = 1e-5

// DefaultSettings returns the settings used for attributes rubi.hcl omits.
func DefaultSettings() Settings {
	return Settings{Damping: 0.85, HubPenalty: 0.5, MaxSeeds: 20}
}

// Ranker is the rank.ppr stage. Rank may run concurrently with itself and
// with Index.
type Ranker struct {
	settings Settings
	stateDir string // "" keeps the graph in memory only
	// oneShot is core.Setup.OneShot: a state read from the file keeps
	// the mapping (load).
	oneShot bool

	mu    sync.Mutex
	state *state
	stamp store.Stamp // of the state file state was loaded from or saved to
}

var (
	_ core.Ranker   = (*Ranker)(nil)
	_ core.Preparer = (*Ranker)(nil)
)

// New returns an unconfigured ranker with the default settings.
func New() *Ranker { return &Ranker{settings: DefaultSettings()} }

// Info describes the stage.
func (r *Ranker) Info() core.Info {
	return core.Info{
		Name:        Name,
		Kind:        core.KindRanker,
		Version:     Version,
		Description: "Personalized PageRank over imports and modules: finds documents connected to the other rankers' matches.",
		Seeded:      true,
		Scoped:      true,
		Schema:      core.MustSchemaOf(&Settings{}),
	}
}

// Configure reads and validates the settings and remembers the state
// directory.
func (r *Ranker) Configure(_ context.Context, setup core.Setup) error {
	s := DefaultSettings()
	if err := core.DecodeSettings(setup.Settings, &s); err != nil {
		return err
	}
	switch {
	case !(s.Damping > 0 && s.Damping < 1):
		return &core.SettingError{Setting: "damping", Message: fmt.Sprintf("must be between 0 and 1 (exclusive), got %v", s.Damping)}
	case !(s.HubPenalty >= 0 && s.HubPenalty <= 2):
		return &core.SettingError{Setting: "hub_penalty", Message: fmt.Sprintf("must be between 0 (no discount) and 2, got %v", s.HubPenalty)}
	case s.MaxSeeds < 1 || s.MaxSeeds > 1000:
		return &core.SettingError{Setting: "max_seeds", Message: fmt.Sprintf("must be between 1 and 1000, got %d", s.MaxSeeds)}
	case !(s.References >= 0 && s.References <= 10):
		return &core.SettingError{Setting: "references", Message: fmt.Sprintf("must be between 0 (imports alone) and 10, got %v", s.References)}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.settings = s
	r.stateDir = setup.StateDir
	r.oneShot = setup.OneShot
	r.state = nil
	return nil
}

// Settings returns the settings in effect.
func (r *Ranker) Settings() Settings {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.settings
}

// Index rebuilds the graph from the whole corpus and persists it.
// Documents and Edges are complete in every corpus, full or incremental,
// and the graph needs neither bodies nor the change lists, so it is
// rebuilt whole (it is cheap next to parsing). A scoped corpus, a delta of
// the notes alone, is applied to the stored graph instead (indexScoped);
// it is the one Index that may ask for core.ErrFullIndexNeeded. When the
// corpus describes the graph already stored (an edit that changed no
// import), nothing is rebuilt or written.
func (r *Ranker) Index(ctx context.Context, corpus *core.Corpus) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if len(corpus.Scope) > 0 {
		return r.indexScoped(corpus)
	}
	r.mu.Lock()
	dir, refWeight, oneShot := r.stateDir, r.settings.References, r.oneShot
	r.mu.Unlock()
	notes := notesOf(corpus.Documents)
	in := inputsOf(corpus, notes, refWeight)
	if dir != "" {
		if stored, ok := storedInputs(dir); ok && stored == in && keepable(dir) {
			return nil
		}
	}
	// A process that answers once and indexes in full is an index run
	// (rubi index, or a project's first before its question): it holds
	// no graph for the rest of the run, the largest of the rankers'
	// states (78 MB at 200,000 files), and a question maps the file
	// just written.
	return r.keep(buildState(corpus, notes, in, refWeight), true, !(corpus.Full && oneShot && dir != ""))
}

// weighed is the edge e as the graph takes it: a reference between files
// weighing w times its own weight, or left out (false) when w is 0; the
// stored inputs then tell a graph of other weights from this one. Each
// edge is weighed as it is read: a copy of the corpus's edges was, on a
// large tree, a gigabyte.
func weighed(e *core.Edge, w float64) (core.Edge, bool) {
	out := *e
	if e.Kind == core.EdgeReferences && w != 1 {
		if w == 0 {
			return out, false
		}
		out.Weight = edgeWeight(e) * w
	}
	return out, true
}

// keep persists st, when the ranker has a state directory, and, when
// hold, ranks with it from now on (otherwise a question loads the file).
// Unless durable, it does not wait for the disk (a scoped delta's, which
// a hook writes): a graph lost in a power cut fails its checksum, and a
// full index rebuilds it.
func (r *Ranker) keep(st *state, durable, hold bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stateDir != "" {
		stamp, err := st.save(r.stateDir, durable)
		if err != nil {
			return fmt.Errorf("%s: %w", Name, err)
		}
		r.stamp = stamp
	}
	if hold {
		r.state = st
	} else {
		r.state = nil
	}
	return nil
}

// Prepare loads the graph ahead of Rank (core.Preparer): a query's engine
// calls it while the rankers that seed this one run.
func (r *Ranker) Prepare(context.Context) error {
	_, _, err := r.current()
	return err
}

// Rank scores the documents connected to q.Seeds, best first: at most
// q.Limit of them, or all with a positive score when q.Limit is not
// positive. Seeds may come back. Without seeds, or with seeds the graph
// does not know, it returns no hits and no error.
func (r *Ranker) Rank(ctx context.Context, q core.Query) ([]core.Hit, error) {
	if len(q.Seeds) == 0 {
		return nil, nil
	}
	st, settings, err := r.current()
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	seeds := st.seeds(q.Seeds, settings.MaxSeeds)
	if len(seeds) == 0 {
		return nil, nil
	}
	// Forward push touches only the neighbourhood the walk reaches: on a
	// large project it is many times cheaper than iterating over the whole
	// graph, and its error (below pushEpsilon per unit of degree) is far
	// under the gaps that order the candidates.
	scores := st.g.PersonalizedPush(seeds, settings.Damping, pushEpsilon)
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	type cand struct {
		node  int
		score float64
	}
	var cands []cand
	for i, s := range scores {
		if s <= 0 || !q.AcceptsKind(st.kind(i)) {
			continue
		}
		if settings.HubPenalty > 0 {
			s /= math.Pow(1+float64(st.g.InDegree(i)), settings.HubPenalty)
		}
		cands = append(cands, cand{i, s})
	}
	order := func(a, b cand) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(st.id(a.node), st.id(b.node)))
	}
	if q.Limit > 0 && len(cands) > 2*q.Limit {
		// Only the best Limit are returned: keep the candidates at least
		// as good as the Limit-th score before sorting, instead of
		// sorting thousands.
		cut := kthLargest(cands, q.Limit, func(c cand) float64 { return c.score })
		kept := cands[:0]
		for _, c := range cands {
			if c.score >= cut {
				kept = append(kept, c)
			}
		}
		cands = kept
	}
	slices.SortFunc(cands, order)
	if q.Limit > 0 && len(cands) > q.Limit {
		cands = cands[:q.Limit]
	}
	if len(cands) == 0 {
		return nil, nil
	}
	ex := st.explainer(seeds, scores)
	hits := make([]core.Hit, len(cands))
	for k, c := range cands {
		hits[k] = core.Hit{ID: st.id(c.node), Score: c.score, Reason: ex.reason(c.node)}
	}
	return hits, nil
}

// current returns the graph to rank with: the one in memory, unless the
// state file changed since (another process re-indexed), in which case it
// is reloaded.
func (r *Ranker) current() (*state, Settings, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stateDir == "" {
		if r.state == nil {
			return nil, r.settings, fmt.Errorf("%s: not indexed", Name)
		}
		return r.state, r.settings, nil
	}
	stamp, err := statState(r.stateDir)
	if err == nil && r.state != nil && stamp.Same(r.stamp) {
		return r.state, r.settings, nil
	}
	if err != nil {
		if r.state != nil {
			// The file went away (a cleaned .rubi/) but what Index built
			// in this process is still right.
			return r.state, r.settings, nil
		}
		return nil, r.settings, fmt.Errorf("%s: no graph in %s; run `rubi index`: %w", Name, r.stateDir, err)
	}
	st, stamp, err := load(r.stateDir, r.oneShot)
	if err != nil {
		return nil, r.settings, fmt.Errorf("%s: %w", Name, err)
	}
	r.state, r.stamp = st, stamp
	return st, r.settings, nil
}

// seeds builds the personalization vector: each list contributes its top
// hits with weight list.Weight/(rank+1), matches found by several rankers
// add up, and the maxSeeds strongest are kept. Hits the graph does not
// know are skipped.
func (st *state) seeds(lists []core.RankedList, maxSeeds int) map[int]float64 {
	acc := map[int]float64{}
	for _, l := range lists {
		w := l.Weight
		if w == 0 {
			w = 1 // an unweighted list
		}
		if !(w > 0) || math.IsInf(w, 0) {
			continue
		}
		for rank, h := range l.Hits[:min(len(l.Hits), maxSeeds)] {
			if i, ok := st.g.Index(h.ID); ok {
				acc[i] += w / float64(rank+1)
			}
		}
	}
	if len(acc) <= maxSeeds {
		return acc
	}
	nodes := make([]int, 0, len(acc))
	for i := range acc {
		nodes = append(nodes, i)
	}
	slices.SortFunc(nodes, func(a, b int) int {
		return cmp.Or(cmp.Compare(acc[b], acc[a]), cmp.Compare(st.id(a), st.id(b)))
	})
	for _, i := range nodes[maxSeeds:] {
		delete(acc, i)
	}
	return acc
}

var _ core.Verifier = (*Ranker)(nil)

// Verify loads the graph as Rank would: a damaged or missing state file
// fails it, and the next index run rebuilds the graph. A state file that
// is the very version an index run wrote (store.Unchanged), in this
// rubi's format, is vouched for without being loaded: a run that changes
// nothing (most refreshes) then never reads the graph, and a query loads
// it when it ranks.
func (r *Ranker) Verify(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	r.mu.Lock()
	dir, loaded := r.stateDir, r.state != nil
	r.mu.Unlock()
	if dir != "" && !loaded && writtenCurrent(filepath.Join(dir, stateFile)) {
		return nil
	}
	_, _, err := r.current()
	return err
}

// kthLargest returns the k-th largest of the scores of items (1 ≤ k ≤
// len(items)), through a min-heap of the k largest seen: a pass over the
// items, where sorting a copy of their scores took a tenth of the walk.
func kthLargest[T any](items []T, k int, score func(T) float64) float64 {
	h := make([]float64, 0, k)
	down := func(i int) {
		for {
			l, m := 2*i+1, i
			if l < len(h) && h[l] < h[m] {
				m = l
			}
			if r := l + 1; r < len(h) && h[r] < h[m] {
				m = r
			}
			if m == i {
				return
			}
			h[i], h[m] = h[m], h[i]
			i = m
		}
	}
	for _, it := range items {
		s := score(it)
		switch {
		case len(h) < k:
			h = append(h, s)
			for i := len(h) - 1; i > 0 && h[(i-1)/2] > h[i]; i = (i - 1) / 2 {
				h[i], h[(i-1)/2] = h[(i-1)/2], h[i]
			}
		case s > h[0]:
			h[0] = s
			down(0)
		}
	}
	return h[0]
}
