package pipeline

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/query"
)

// answer is one query on its way from the fuser to the packer: what the
// stages made of it.
type answer struct {
	q  Query
	an *query.Analysis
	// m is the code map's manifest; nil for a query of notes alone.
	m *manifest.Manifest
	// lists are every ranker's list, in the order they were fused.
	lists []core.RankedList
	// fused is the fuser's list as the rerankers left it.
	fused []core.Hit
	// reranked holds, by document id, what each reranker did to it.
	reranked map[string][]Reranked
	// weak are the hits the floor would have left out, for a query whose
	// caller admits items itself (Query.Admit).
	weak map[string]bool
	// units is where rerank.units ranks the files' units: nil when it is
	// off.
	units *unitPlan
}

// unitPlan is rerank.units' part of an answer: the list as it stood at
// its turn, whose first files have their units ranked by their lines,
// and its settings.
type unitPlan struct {
	hits []core.Hit
	unitsSettings
}

// rerank runs the enabled rerankers on the fused list, in the order
// rubi.hcl declares them, and keeps what each did to the hits.
func (e *Engine) rerank(ctx context.Context, a *answer, r core.Rerank, facts core.Facts) error {
	for _, st := range e.cfg.Enabled(core.KindReranker) {
		s, err := e.open(ctx, st)
		if err != nil {
			return err
		}
		if u, ok := s.(*unitsStage); ok {
			a.units = &unitPlan{hits: slices.Clone(r.Hits), unitsSettings: u.s}
			continue
		}
		rr, ok := s.(core.Reranker)
		if !ok {
			return fmt.Errorf("reranker %s is unavailable", st.Name)
		}
		var out core.Reranked
		if fr, ok := rr.(core.FactReranker); ok {
			out, err = fr.RerankFacts(ctx, r, facts)
		} else {
			out, err = rr.Rerank(ctx, r)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", st.Name, err)
		}
		r.Hits = out.Hits
		for id, eff := range out.Effects {
			if eff.Weak {
				if a.weak == nil {
					a.weak = map[string]bool{}
				}
				a.weak[id] = true
				continue
			}
			if a.reranked == nil {
				a.reranked = map[string][]Reranked{}
			}
			a.reranked[id] = append(a.reranked[id], Reranked{Stage: st.Name, Factor: eff.Factor, From: eff.From, reason: eff.Reason})
		}
	}
	a.fused = r.Hits
	return nil
}

// queryFacts are the engine's facts of one query (core.Facts), for the
// built-in stages that rank and rerank by them. The manifest is read
// while the rankers rank: manifest waits for it.
type queryFacts struct {
	e        *Engine
	q        Query
	an       *query.Analysis
	now      time.Time
	manifest func() *manifest.Manifest
}

func (f *queryFacts) Question() string          { return f.q.Text }
func (f *queryFacts) Analysis() *query.Analysis { return f.an }
func (f *queryFacts) Now() time.Time            { return f.now }
func (f *queryFacts) Time(id string) time.Time  { return f.e.docTime(id) }

func (f *queryFacts) File(path string) (core.FileInfo, bool) {
	m := f.manifest()
	if m == nil {
		return core.FileInfo{}, false
	}
	rec, ok := m.File(path)
	if !ok {
		return core.FileInfo{}, false
	}
	return core.FileInfo{Role: rec.Role, Language: rec.Language}, true
}

func (f *queryFacts) EachPath(fn func(path string) bool) {
	if m := f.manifest(); m != nil {
		m.EachPath(fn)
	}
}

func (f *queryFacts) Note(key string) (string, []string, bool) {
	m := f.manifest()
	if m == nil {
		return "", nil, false
	}
	return f.e.nodes.Named(key, f.q.noteFilter(m))
}

// unitsName is the reranker that lists, under each file of an answer,
// the functions and classes to open.
const unitsName = "rerank.units"

func init() {
	core.Register(unitsName, core.KindReranker, func() core.Stage { return newUnitsStage() })
}

// unitsSettings are rerank.units' settings.
type unitsSettings struct {
	// MaxUnits is how many units an answer lists under one file.
	MaxUnits int `hcl:"max_units,optional"`
	// RankedFiles is how many of the list's first files have their units
	// ranked by their lines, the files read for it; the others list only
	// the units the question names.
	RankedFiles int `hcl:"ranked_files,optional"`
}

// unitsStage is rerank.units. It reorders what is under each file of the
// list, not the list: at its turn the engine notes the list as it stands,
// and the packer, which reads the symbols of the files it shows, ranks
// their units (units.go). It lives here for that reason.
type unitsStage struct {
	s unitsSettings
}

func newUnitsStage() *unitsStage {
	return &unitsStage{s: unitsSettings{MaxUnits: maxUnits, RankedFiles: maxUnitFiles}}
}

func (u *unitsStage) Info() core.Info {
	return core.Info{Name: unitsName, Kind: core.KindReranker, Version: "1.0.0",
		Description: "Lists under each file the functions and classes to open, ranked for the question.",
		Schema:      core.MustSchemaOf(&unitsSettings{})}
}

func (u *unitsStage) Configure(_ context.Context, setup core.Setup) error {
	if err := core.DecodeSettings(setup.Settings, &u.s); err != nil {
		return err
	}
	if u.s.MaxUnits < 1 {
		return &core.SettingError{Setting: "max_units", Message: "must be at least 1"}
	}
	if u.s.RankedFiles < 0 {
		return &core.SettingError{Setting: "ranked_files", Message: "cannot be negative"}
	}
	return nil
}

// Rerank keeps the list: the units are ranked as the answer is packed.
func (u *unitsStage) Rerank(_ context.Context, r core.Rerank) (core.Reranked, error) {
	return core.Reranked{Hits: r.Hits}, nil
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
