package pipeline

import (
	"math"

	"github.com/rubi-dev/rubi/core"
)

// MatchFloor is the least share of the question's telling weight
// (core.Hit.Match, from rank.bm25: the question's words weighed by how
// much rarer than common they are in this project, a word no document has
// as much as the rarest it holds, a word of requests nothing) that lets a
// note, a module or a source's item into an answer, and a note into the
// recall hook's injection. A note that shares
// only frequent words with the question ("hook", "read", "test") holds
// little of its weight however often it repeats them, and stays out.
//
// Chosen by cross-validation, never on the prompts reported: on the dev
// recall set (agent/hooks/testdata/recall-dev: its own project, 13 notes,
// 43 prompts), each floor of the grid 0.05, 0.10, …, 0.90 is run through
// the recall hook; utility is +1 a named note recalled, -0.5 a note beside
// it, +1 an unrelated prompt answered with nothing. With 5 folds, the
// floor best on four folds was 0.30 for four of them and 0.40 for one
// (held out: 19/22 named notes, 0.09 others, 17/21 silent); 0.30 is what
// all the dev prompts choose. TestMatchFloorIsCrossValidated re-runs it
// and fails if this constant differs. The reported set
// (agent/hooks/testdata/recall) only checks it (TestRecallSet).
const MatchFloor = 0.30

// floor is the query's floor: its own, or MatchFloor.
func (q Query) floor() float64 {
	if q.Floor > 0 {
		return q.Floor
	}
	return MatchFloor
}

// matches is, per document, the best share of the question's weight a
// ranker said it matches (core.Hit.Match), clamped to [0, 1]: a
// subprocess ranker's number is not trusted beyond that. Documents that
// match none of it are left out: an empty map says no ranker measured
// any match (no telling word, or no ranker that measures).
func matches(lists []core.RankedList) map[string]float64 {
	out := map[string]float64{}
	for _, l := range lists {
		for _, h := range l.Hits {
			if m := h.Match; m > 0 && m > out[h.ID] && !math.IsNaN(m) {
				out[h.ID] = min(m, 1)
			}
		}
	}
	return out
}

// otherEvidence reports whether a ranker that does not measure words
// found the document (the graph, exact names, a path the question names,
// a note about it): a file it found is there for more than its words.
func otherEvidence(id string, lists []core.RankedList) bool {
	for _, l := range lists {
		for _, h := range l.Hits {
			if h.ID == id && h.Match == 0 {
				return true
			}
		}
	}
	return false
}

// strongEnough decides whether a document of kind, matching the share
// match of the question's weight, may enter an answer. A note, module
// or source item needs the floor; a file needs it only when words alone
// found it (other, lazily asked, is otherEvidence): a file the graph
// links to a good match, or that the question names, is kept, as the
// file rankings are measured (bench/quality). A conversation chunk is
// exempt: a question about a conversation asks in other words than were
// said (bench/quality's LoCoMo part), and no dev set chose a floor for it.
func strongEnough(kind string, match, floor float64, other func() bool) bool {
	switch {
	case match >= floor || kind == core.DocChunk:
		return true
	case kind == core.DocFile:
		return other()
	}
	return false
}

// fileEvidence is otherEvidence of id, asked only when needed.
func fileEvidence(id string, lists []core.RankedList) func() bool {
	return func() bool { return otherEvidence(id, lists) }
}
