package facts

import (
	"context"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/when"
)

// TimeSettings are query.time's settings.
type TimeSettings struct {
	// Candidates bounds the notes and chunks whose date is read.
	Candidates int `hcl:"candidates,optional"`
}

// Time is query.time. The time a question names ("in June", "8 May
// 2023", "last week") picks out the notes and chunks written then
// (LongMemEval, Wu et al. 2024: time-aware query handling helps temporal
// questions most): among the notes and chunks the rankers of the
// question's own words found, those dated in that time make its list, in
// the order the rankers found them. Their reason says the date.
type Time struct {
	noIndex
	s TimeSettings
}

// NewTime returns query.time with its default settings.
func NewTime() *Time { return &Time{s: TimeSettings{Candidates: 100}} }

// Info describes the stage: seeded, and by its seeds alone.
func (t *Time) Info() core.Info {
	return core.Info{Name: TimeName, Kind: core.KindRanker, Version: "1.0.0", Stateless: true,
		Description: "The notes and chunks written in the time the question names, among those its words found.",
		Seeded:      true, Scoped: true,
		Schema: core.MustSchemaOf(&TimeSettings{})}
}

// Configure reads the settings.
func (t *Time) Configure(_ context.Context, setup core.Setup) error {
	if err := core.DecodeSettings(setup.Settings, &t.s); err != nil {
		return err
	}
	if t.s.Candidates < 1 {
		return &core.SettingError{Setting: "candidates", Message: "must be at least 1"}
	}
	return nil
}

// RankFacts returns the notes and chunks of the seeds written in the time
// the question names, best first; none when it names none.
func (t *Time) RankFacts(_ context.Context, q core.Query, facts core.Facts) ([]core.Hit, error) {
	if !q.AcceptsKind(core.DocNode) && !q.AcceptsKind(core.DocChunk) {
		return nil, nil
	}
	span, ok := when.Mentioned(facts.Question(), facts.Now())
	if !ok {
		return nil, nil
	}
	seen := map[string]bool{}
	var hits []core.Hit
	// Round-robin over the lists, by rank: the candidates every ranker
	// put first come first.
	for r := 0; len(seen) < t.s.Candidates; r++ {
		more := false
		for _, l := range q.Seeds {
			if r >= len(l.Hits) {
				continue
			}
			more = true
			id := l.Hits[r].ID
			kind, _, err := core.SplitDocID(id)
			if err != nil || kind != core.DocNode && kind != core.DocChunk || seen[id] {
				continue
			}
			seen[id] = true
			if at := facts.Time(id); span.Contains(at) {
				hits = append(hits, core.Hit{ID: id, Score: 1 / float64(len(hits)+1), Reason: "dated " + at.Format("2 January 2006")})
			}
		}
		if !more {
			break
		}
	}
	return hits, nil
}
