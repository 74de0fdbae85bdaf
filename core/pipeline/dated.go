package pipeline

import (
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/when"
)

// The time a question names ("in June", "8 May 2023", "last week") picks
// out the notes and chunks written then (LongMemEval, Wu et al. 2024:
// time-aware query handling helps temporal questions most): among the
// notes and chunks the rankers of the question's own words found, those
// dated in that time join the fusion as one more list, datedStage, in the
// order the rankers found them. Their reason says the date.
const (
	datedStage  = "query.time"
	datedWeight = 1.0
	// datedCandidates bounds the notes and chunks whose date is read.
	datedCandidates = 100
)

// datedHits returns the notes and chunks of the direct lists written in
// the time the question names, best first; nil when it names none. when
// tells a document's time (zero when unknown).
func datedHits(direct []core.RankedList, question string, now time.Time, at func(id string) time.Time) []core.Hit {
	span, ok := when.Mentioned(question, now)
	if !ok {
		return nil
	}
	seen := map[string]bool{}
	var hits []core.Hit
	// Round-robin over the lists, by rank: the candidates every ranker
	// put first come first.
	for r := 0; len(seen) < datedCandidates; r++ {
		more := false
		for _, l := range direct {
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
			if t := at(id); span.Contains(t) {
				hits = append(hits, core.Hit{ID: id, Score: 1 / float64(len(hits)+1), Reason: "dated " + t.Format("2 January 2006")})
			}
		}
		if !more {
			break
		}
	}
	return hits
}

// docTime is when a note or chunk was written, zero when it cannot be
// read.
func (e *Engine) docTime(id string) time.Time {
	kind, key, err := core.SplitDocID(id)
	if err != nil {
		return time.Time{}
	}
	var at time.Time
	switch kind {
	case core.DocNode:
		at, _ = e.nodes.Time(key)
	case core.DocChunk:
		at, _ = e.chunks.Time(key)
	}
	return at
}
