package rerank

import (
	"context"
	"math"

	"github.com/rubi-dev/rubi/core"
)

// FloorSettings are rerank.floor's settings.
type FloorSettings struct {
	// Floor is the least share of the question's telling weight
	// (core.Hit.Match) a note, module or source item must match.
	Floor float64 `hcl:"floor,optional"`
	// TypeFloors are, by note type, the floor of the notes of that type,
	// in place of Floor.
	TypeFloors map[string]float64 `hcl:"type_floors,optional"`
}

// Floor is rerank.floor: a weak match is no match. Floor is the least
// share of the question's telling weight (core.Hit.Match, from rank.bm25:
// the question's words weighed by how much rarer than common they are in
// this project) that lets a note, a module or a source's item into an
// answer; a note that shares only frequent words with the question
// ("hook", "read", "test") holds little of its weight however often it
// repeats them, and stays out. A file needs it only when words alone
// found it: a file the graph links to a good match, or that the question
// names, is kept, as the file rankings are measured (bench/quality). A
// conversation chunk is exempt: a question about a conversation asks in
// other words than were said.
//
// So is, in a question about the memory alone (core.Query.MemoryOnly), a turn of a
// conversation saved as a note, the type note (TypeFloors): "When did Melanie paint a sunrise?" is answered
// by "I painted that lake sunset", which holds none of the question's
// telling weight but the little "paint" has, and on LoCoMo's first
// conversation 102 of the 251 evidence turns were below the floor (turn
// recall at 10 fell from 67.5 to 48.6). A design note (a decision, a
// gotcha, a bug, …) is written in the words of what it is about and keeps
// Floor. A type's floor is chosen where notes of that type are asked
// about: the note type's, 0, by leave-one-conversation-out on LoCoMo's
// dev conversations (bench/quality -memory), set in the built-in rubi.hcl
// and here.
//
// The default, 0.30, was chosen by cross-validation, never on the
// prompts reported: on the dev recall set (agent/hooks/testdata/
// recall-dev) each floor of a grid is run through the recall hook, and
// TestMatchFloorIsCrossValidated fails if the built-in rubi.hcl's floor
// is not the one the dev set chooses.
type Floor struct {
	s FloorSettings
}

// NewFloor returns rerank.floor with its default setting.
func NewFloor() *Floor {
	return &Floor{s: FloorSettings{Floor: 0.30, TypeFloors: map[string]float64{"note": 0}}}
}

// Info describes the stage.
func (f *Floor) Info() core.Info {
	return core.Info{Name: FloorName, Kind: core.KindReranker, Version: "1.0.0", Stateless: true,
		Description: "Leaves out the notes, modules and items that match too little of the question's telling words.",
		Schema:      core.MustSchemaOf(&FloorSettings{})}
}

// Configure reads the setting.
func (f *Floor) Configure(_ context.Context, setup core.Setup) error {
	if err := core.DecodeSettings(setup.Settings, &f.s); err != nil {
		return err
	}
	if !(f.s.Floor >= 0 && f.s.Floor <= 1) {
		return &core.SettingError{Setting: "floor", Message: "is a share of the question's telling weight and must be between 0 and 1"}
	}
	for t, fl := range f.s.TypeFloors {
		if t == "" || !(fl >= 0 && fl <= 1) {
			return &core.SettingError{Setting: "type_floors", Message: "maps a note type to a share of the question's telling weight, between 0 and 1"}
		}
	}
	return nil
}

// Rerank is RerankFacts without the engine's facts: every note has
// Floor, whatever its type.
func (f *Floor) Rerank(ctx context.Context, rr core.Rerank) (core.Reranked, error) {
	return f.RerankFacts(ctx, rr, nil)
}

// RerankFacts leaves the weak matches out, or, for a caller that keeps
// every hit (Rerank.Keep), marks them: strictly, so that with no telling
// word in the question every hit the floor asks of is weak. A note's
// type is read (core.Facts.NoteType) only when a type's floor could
// change its verdict.
func (f *Floor) RerankFacts(_ context.Context, rr core.Rerank, facts core.Facts) (core.Reranked, error) {
	match := Matches(rr.Lists)
	floor := f.s.Floor
	if len(match) == 0 && !rr.Keep {
		// No word of the question is telling (each is in a good part of
		// the project, as "coupon" is in a shop's): there is no weak
		// match to tell from a good one, and the ranking alone decides.
		floor = 0
	}
	// The lowest and highest floor of any type; with no telling word in
	// the question, there is no match to weigh and types change nothing,
	// and neither do they in a question that is not about the memory
	// alone (core.Query.MemoryOnly): a question about the code too is
	// answered by what it names, and a conversation's turn saved as a
	// note that holds too little of its weight is no answer to it (on
	// rubi's tree with 400 of LoCoMo's turns saved as notes, 2 of the self
	// set's 28 code questions showed 7 of them, on a word such as
	// "happens").
	lo, hi := floor, floor
	if facts != nil && len(match) > 0 && rr.Query.MemoryOnly() {
		for _, fl := range f.s.TypeFloors {
			lo, hi = min(lo, fl), max(hi, fl)
		}
	}
	out := core.Reranked{Hits: rr.Hits[:0:0]}
	for _, h := range rr.Hits {
		kind, key, err := core.SplitDocID(h.ID)
		fl := floor
		if err == nil && kind == core.DocNode && (match[h.ID] < floor && match[h.ID] >= lo || match[h.ID] >= floor && match[h.ID] < hi) {
			if tf, ok := f.s.TypeFloors[facts.NoteType(key)]; ok {
				fl = tf
			}
		}
		if err != nil || strongEnough(kind, match[h.ID], fl, func() bool { return otherEvidence(h.ID, rr.Lists) }) {
			out.Hits = append(out.Hits, h)
			continue
		}
		if rr.Keep {
			out.Hits = append(out.Hits, h)
			if out.Effects == nil {
				out.Effects = map[string]core.Effect{}
			}
			out.Effects[h.ID] = core.Effect{Weak: true}
		}
	}
	return out, nil
}

// Matches is, per document, the best share of the question's weight a
// ranker said it matches (core.Hit.Match), clamped to [0, 1]: a
// subprocess ranker's number is not trusted beyond that. Documents that
// match none of it are left out: an empty map says no ranker measured
// any match (no telling word, or no ranker that measures).
func Matches(lists []core.RankedList) map[string]float64 {
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
// match of the question's weight, may enter an answer; other, lazily
// asked, is otherEvidence.
func strongEnough(kind string, match, floor float64, other func() bool) bool {
	switch {
	case match >= floor || kind == core.DocChunk:
		return true
	case kind == core.DocFile:
		return other()
	}
	return false
}
