// Package neighbours is the seeded ranker rank.neighbours: each note
// scored by its own match of the question, the matches of the notes
// written next to it and the best match of its sitting.
//
// A question is often answered by what was written right after the words
// it repeats: "what did we decide about the retries?" matches the note
// that raised the retries, and the decision is the note registered
// minutes later in the same sitting; in a conversation the question's
// words are in one turn and the answer is the reply. And the notes an
// agent registers in one sitting are about one task: a sitting where one
// note matches well is where the answer is likely to be (LongMemEval's
// session-then-turn retrieval). The index already says which notes and
// chunks were written one after the other (index.link_sessions: a note
// and the one registered within half an hour after it; a chunk and the
// next two of its session); this stage reads those session edges, and
// nothing else of the graph.
//
// The rule: a note's own match is the sum, over the lists of the rankers
// of the question's words (the seeds, as rank.ppr gets them), of the
// list's weight times its score over the list's best, for the first
// candidates of each list. Its score here is own times its own match,
// plus previous times the match of each note written before it and next
// times the match of each one written after it, each times the session
// edge's weight (1 for the one right before or after, less for the one
// two places away), plus sitting times the best match among the notes
// linked to it one after the other (its sitting, a session's chunks). The
// list holds every note with a score, best first: the matches themselves,
// so that a match with no neighbours keeps its place, their neighbours
// and their sittings'.
//
// Only a question asked of notes and chunks alone is ranked (the recall
// hook's, `rubi context --kinds node,chunk`; questions = "all" ranks
// every one): in an answer of every kind a second vote for every matching
// note would push the files down, where rerank.notes decides which notes
// come first, and code answers do not move. The kinds setting says which
// of notes and chunks it scores: notes alone by default, since a chunk is
// indexed with the start of the one before it already
// (index.session_context). A note or chunk of another kind the question
// admits is listed by its own match alone: in the recall hook's question
// of notes and chunks, the vote for the notes does not push the chunks
// down.
//
// Its state is the session edges and the ids of the notes and chunks,
// one small file read once per process (per prompt of the recall hook)
// and looked up where it lies (state.go). Every corpus carries all the
// notes' edges, so each Index rebuilds it whole and never needs the state
// it had; a delta of the notes' texts alone changes nothing.
package neighbours

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/store"
)

// Name is the stage's name in rubi.hcl and in `rubi context --explain`.
const Name = "rank.neighbours"

// Version is the stage's version.
const Version = "1.2.0"

func init() { core.Register(Name, core.KindRanker, func() core.Stage { return New() }) }

// Settings are the attributes of the stage's rubi.hcl block.
type Settings struct {
	// Previous weighs the match of a note or chunk written before one
	// (the question before its answer) in that one's score; Next, the
	// match of one written after it. Each is times the session edge's
	// weight. Defaults 1 and 0.
	Previous float64 `hcl:"previous,optional"`
	Next     float64 `hcl:"next,optional"`
	// Sitting weighs the best match among the notes or chunks linked to
	// one through session edges, one after the other (its sitting, or
	// session): each of them gets it. Default 0.
	Sitting float64 `hcl:"sitting,optional"`
	// Own weighs a note or chunk's own match. Default 1.
	Own float64 `hcl:"own,optional"`
	// Candidates is how many of each list's first hits count as matches.
	// Default 50.
	Candidates int `hcl:"candidates,optional"`
	// Kinds are the kinds of document scored: "node" (knowledge notes),
	// "chunk" (conversation chunks). Default ["node"].
	Kinds []string `hcl:"kinds,optional"`
	// Questions are those it ranks: "notes", asked of notes and chunks
	// alone (the default), or "all", every question that admits them.
	Questions string `hcl:"questions,optional"`
}

// DefaultSettings are the settings of a block that sets none.
func DefaultSettings() Settings {
	return Settings{Previous: 1, Next: 0, Own: 1, Candidates: 50, Kinds: []string{core.DocNode}, Questions: "notes"}
}

// Ranker is rank.neighbours.
type Ranker struct {
	mu       sync.Mutex
	settings Settings
	stateDir string
	// oneShot is core.Setup.OneShot: the state is a view of the mapped
	// file, never released, instead of a copy (store.Mapped).
	oneShot bool
	state   *state
	stamp   store.Stamp
}

// New returns the ranker with its default settings.
func New() *Ranker { return &Ranker{settings: DefaultSettings()} }

// Info describes the stage.
func (r *Ranker) Info() core.Info {
	return core.Info{Name: Name, Kind: core.KindRanker, Version: Version,
		Description: "Each note and chunk scored by its own match and the matches of those written next to it.",
		Seeded:      true, Scoped: true,
		Schema: core.MustSchemaOf(&Settings{})}
}

// Configure reads the settings.
func (r *Ranker) Configure(_ context.Context, setup core.Setup) error {
	s := DefaultSettings()
	if err := core.DecodeSettings(setup.Settings, &s); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"previous", s.Previous}, {"next", s.Next}, {"own", s.Own}, {"sitting", s.Sitting}} {
		if !(f.v >= 0 && f.v <= 10) {
			return &core.SettingError{Setting: f.name, Message: "weighs a neighbour's match and must be between 0 and 10"}
		}
	}
	for _, k := range s.Kinds {
		if k != core.DocNode && k != core.DocChunk {
			return &core.SettingError{Setting: "kinds", Message: fmt.Sprintf("holds %q: the kinds are \"node\" and \"chunk\"", k)}
		}
	}
	if s.Questions != "notes" && s.Questions != "all" {
		return &core.SettingError{Setting: "questions", Message: `must be "notes" or "all"`}
	}
	if s.Candidates < 1 {
		return &core.SettingError{Setting: "candidates", Message: "must be at least 1"}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.settings, r.stateDir, r.oneShot = s, setup.StateDir, setup.OneShot
	return nil
}

// Index rebuilds the state from the corpus: its notes and chunks (a
// delta's: those the state held, less the removed, plus the changed) and
// every session edge between two of them.
func (r *Ranker) Index(ctx context.Context, c *core.Corpus) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if c.TextsOnly {
		return nil
	}
	docs := map[string]bool{}
	if len(c.Scope) > 0 {
		prev, err := r.current()
		if err != nil {
			return core.ErrFullIndexNeeded
		}
		for d := range prev.n {
			docs[prev.id(d)] = true
		}
		for _, id := range c.Removed {
			delete(docs, id)
		}
	}
	for _, d := range c.Documents {
		if isNote(d.ID) {
			docs[d.ID] = true
		}
	}
	var edges []edge
	for e := range c.EachEdge() {
		if e.Kind != core.EdgeSession || e.From == e.To || !docs[e.From] || !docs[e.To] {
			continue
		}
		w := e.Weight
		if w <= 0 {
			w = 1
		}
		edges = append(edges, edge{later: e.From, earlier: e.To, weight: w})
	}
	data := buildState(slices.Collect(maps.Keys(docs)), edges)
	st, err := decode(data, true)
	if err != nil {
		return fmt.Errorf("%s: the state it made %w", Name, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stateDir != "" {
		if err := store.WriteVerified(filepath.Join(r.stateDir, stateFile), data, 0o644); err != nil {
			return fmt.Errorf("%s: %w", Name, err)
		}
		stamp, err := store.StampOf(filepath.Join(r.stateDir, stateFile))
		if err != nil {
			return fmt.Errorf("%s: %w", Name, err)
		}
		r.stamp = stamp
	}
	r.state = st
	return nil
}

func isNote(id string) bool {
	kind, _, _ := strings.Cut(id, ":")
	return kind == core.DocNode || kind == core.DocChunk
}

// Rank scores the notes and chunks of q.Seeds and their neighbours, best
// first: at most q.Limit of them, or all when it is not positive. Without
// seeds it returns none.
func (r *Ranker) Rank(ctx context.Context, q core.Query) ([]core.Hit, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r.mu.Lock()
	s := r.settings
	r.mu.Unlock()
	// The state is read whatever the question: a damaged one is said in
	// every answer, with what to do.
	st, err := r.current()
	if err != nil {
		return nil, err
	}
	if len(q.Seeds) == 0 || s.Questions == "notes" && !q.MemoryOnly() || !slices.ContainsFunc(s.Kinds, q.AcceptsKind) {
		return nil, nil
	}
	// Documents are the state's numbers, which order them as their ids
	// do: sorted, summed and tied as the ids would be, with no id made
	// but for the hits returned.
	own := map[int]float64{}
	for _, l := range q.Seeds {
		best := 0.0
		for _, h := range l.Hits[:min(len(l.Hits), s.Candidates)] {
			if best == 0 && h.Score > 0 {
				best = h.Score
			}
			if best == 0 || h.Score <= 0 || !q.AcceptsKind(kindOf(h.ID)) {
				continue
			}
			d, ok := st.find(h.ID)
			if !ok {
				continue
			}
			w := l.Weight
			if w <= 0 {
				w = 1
			}
			own[d] += w * h.Score / best
		}
	}
	if len(own) == 0 {
		return nil, nil
	}
	// The kinds of s.Kinds get the whole score; a note or chunk of
	// another kind the question admits (chunks, in the recall hook's
	// question of notes and chunks) is listed by its own match alone, so
	// that the vote for the notes does not push it down: what its
	// neighbours and sitting would give it is not summed at all.
	wholeDoc := make(map[int]bool)
	whole := func(d int) bool {
		w, ok := wholeDoc[d]
		if !ok {
			w = slices.Contains(s.Kinds, st.kind(d))
			wholeDoc[d] = w
		}
		return w
	}
	score := map[int]float64{}
	from := map[int]int{} // the neighbour that gave the most
	gave := map[int]float64{}
	add := func(d, src int, v float64) {
		if v <= 0 || !whole(d) {
			return
		}
		score[d] += v
		if f, ok := from[d]; !ok || v > gave[d] || v == gave[d] && src < f {
			from[d], gave[d] = src, v
		}
	}
	// In the order of the ids: sums of the same terms in another order
	// could differ in their last bit, and order two documents by chance.
	for _, d := range slices.Sorted(maps.Keys(own)) {
		m := own[d]
		score[d] += s.Own * m
		for j := word(st.after, d); j < word(st.after, d+1); j++ { // written after the match
			i := word(st.afterEdges, j)
			add(word(st.later, i), d, s.Previous*st.edgeWeight(i)*m)
		}
		for i := word(st.before, d); i < word(st.before, d+1); i++ { // written before the match
			add(word(st.earlier, i), d, s.Next*st.edgeWeight(i)*m)
		}
	}
	if s.Sitting > 0 {
		best := map[int]float64{}
		for d, m := range own {
			if n := word(st.sitting, d); n != none {
				best[n] = max(best[n], m)
			}
		}
		for _, n := range slices.Sorted(maps.Keys(best)) {
			for j := word(st.members, n); j < word(st.members, n+1); j++ {
				if m := word(st.memberDocs, j); whole(m) {
					score[m] += s.Sitting * best[n]
				}
			}
		}
	}
	type scored struct {
		d int
		v float64
	}
	list := make([]scored, 0, len(score))
	for d, v := range score {
		if !whole(d) {
			v = s.Own * own[d]
		} else if !q.AcceptsKind(st.kind(d)) {
			continue
		}
		if v <= 0 {
			continue
		}
		list = append(list, scored{d, v})
	}
	slices.SortFunc(list, func(a, b scored) int { return cmp.Or(cmp.Compare(b.v, a.v), cmp.Compare(a.d, b.d)) })
	if q.Limit > 0 && len(list) > q.Limit {
		list = list[:q.Limit]
	}
	hits := make([]core.Hit, len(list))
	for i, c := range list {
		h := core.Hit{ID: st.id(c.d), Score: c.v}
		switch src, ok := from[c.d]; {
		case !whole(c.d):
			h.Reason = "matches the question"
		case ok && gave[c.d] >= s.Own*own[c.d]:
			h.Reason = "written next to " + st.id(src)
		case own[c.d] > 0:
			h.Reason = "matches the question"
		default:
			h.Reason = "written in a sitting that matches the question"
		}
		hits[i] = h
	}
	return hits, nil
}

func kindOf(id string) string {
	kind, _, _ := strings.Cut(id, ":")
	return kind
}

// current returns the state to rank with: the one in memory, unless the
// file changed since (another process indexed), then it is read again.
func (r *Ranker) current() (*state, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stateDir == "" {
		if r.state == nil {
			return nil, fmt.Errorf("%s: not indexed", Name)
		}
		return r.state, nil
	}
	path := filepath.Join(r.stateDir, stateFile)
	stamp, err := store.StampOf(path)
	if err == nil && r.state != nil && stamp.Same(r.stamp) {
		return r.state, nil
	}
	if err != nil {
		if r.state != nil {
			return r.state, nil
		}
		return nil, fmt.Errorf("%s: no state in %s; run `rubi index`: %w", Name, r.stateDir, err)
	}
	// The state is a view of the bytes (store.ReadLeafKept).
	data, err := store.ReadLeafKept(path, maxState, r.oneShot)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	// The checksum is checked unless the file is the very version an
	// index run wrote (store.Unchanged); the shape of every table is
	// checked either way.
	st, err := decode(data, !store.Unchanged(path))
	if err != nil {
		return nil, fmt.Errorf("%s: %s %w; run `rubi index --full` to rebuild it", Name, path, err)
	}
	r.state, r.stamp = st, stamp
	return st, nil
}

// Prepare reads the state ahead of Rank (core.Preparer), while the
// rankers that seed this one run.
func (r *Ranker) Prepare(context.Context) error {
	_, err := r.current()
	return err
}

// Verify checks the state file (core.Verifier).
func (r *Ranker) Verify(context.Context) error {
	r.mu.Lock()
	r.state = nil
	r.mu.Unlock()
	_, err := r.current()
	return err
}

var (
	_ core.Ranker   = (*Ranker)(nil)
	_ core.Verifier = (*Ranker)(nil)
	_ core.Preparer = (*Ranker)(nil)
)
