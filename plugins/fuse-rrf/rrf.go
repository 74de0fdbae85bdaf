// Package rrf is the built-in fuser "fuse.rrf": Reciprocal Rank Fusion
// (Cormack, Clarke and Büttcher, SIGIR 2009). Each ranked list gives the
// document at 1-based rank r the vote weight/(k + r); votes are summed. It
// needs no score calibration between rankers, which is why it is the
// default: BM25 scores, PageRank mass and recency have nothing in common
// but their order.
//
// A list's weight is its ranker's weight in rubi.hcl (times report_weight
// for a question that reads as a bug report), and k is 60, the paper's
// value. The order of the lists matters only to the float sums, which is
// why the stages' declared order is part of byte-identical answers.
// Exactly one fuser is enabled; fuse.rrf is also what the host falls back
// to when a fuser plugin fails.
package rrf

import (
	"context"
	"math"
	"sort"
	"strings"

	"github.com/rubi-dev/rubi/core"
)

// Name is the stage id.
const Name = "fuse.rrf"

func init() {
	core.Register(Name, core.KindFuser, func() core.Stage { return New() })
}

// Settings of fuse.rrf.
type Settings struct {
	// K damps the advantage of the very first ranks; 60 is the paper's
	// value and works across collections.
	K float64 `hcl:"k,optional"`
}

// Fuser implements Reciprocal Rank Fusion.
type Fuser struct {
	settings Settings
}

// New returns a fuser with the textbook k = 60.
func New() *Fuser { return &Fuser{settings: Settings{K: 60}} }

// Info describes the stage.
func (f *Fuser) Info() core.Info {
	return core.Info{
		Name:        Name,
		Kind:        core.KindFuser,
		Version:     "1.0.0",
		Description: "Reciprocal Rank Fusion: sums weight/(k + rank) over the rankers' lists.",
		Schema:      core.MustSchemaOf(&Settings{}),
		Stateless:   true,
	}
}

// Configure reads k.
func (f *Fuser) Configure(_ context.Context, setup core.Setup) error {
	if err := core.DecodeSettings(setup.Settings, &f.settings); err != nil {
		return err
	}
	if f.settings.K < 0 || math.IsNaN(f.settings.K) || math.IsInf(f.settings.K, 0) {
		return &core.SettingError{Setting: "k", Message: "must be a finite number ≥ 0 (60 is the usual value)"}
	}
	return nil
}

// Fuse merges the lists. Ties are broken by the best rank any list gave
// the document, then by id, so the order is deterministic. Each hit's
// reason joins the reasons its lists gave, strongest vote first.
func (f *Fuser) Fuse(_ context.Context, lists []core.RankedList) ([]core.Hit, error) {
	type acc struct {
		score    float64
		bestRank int
		reasons  []vote
	}
	byID := map[string]*acc{}
	for _, l := range lists {
		for i, h := range l.Hits {
			rank := i + 1
			v := l.Weight / (f.settings.K + float64(rank))
			a := byID[h.ID]
			if a == nil {
				a = &acc{bestRank: rank}
				byID[h.ID] = a
			}
			a.score += v
			a.bestRank = min(a.bestRank, rank)
			if h.Reason != "" {
				a.reasons = append(a.reasons, vote{v, h.Reason})
			}
		}
	}
	out := make([]core.Hit, 0, len(byID))
	for id, a := range byID {
		out = append(out, core.Hit{ID: id, Score: a.score, Reason: joinReasons(a.reasons)})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		if bi, bj := byID[out[i].ID].bestRank, byID[out[j].ID].bestRank; bi != bj {
			return bi < bj
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

type vote struct {
	weight float64
	reason string
}

func joinReasons(vs []vote) string {
	sort.SliceStable(vs, func(i, j int) bool { return vs[i].weight > vs[j].weight })
	seen := map[string]bool{}
	var parts []string
	for _, v := range vs {
		if !seen[v.reason] {
			seen[v.reason] = true
			parts = append(parts, v.reason)
		}
	}
	return strings.Join(parts, "; ")
}

var _ core.Fuser = (*Fuser)(nil)
