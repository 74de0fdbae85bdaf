package rerank

import (
	"context"

	"github.com/rubi-dev/rubi/core"
	facts "github.com/rubi-dev/rubi/plugins/rank-facts"
)

// NotesSettings are rerank.notes' settings.
type NotesSettings struct {
	// NoteShare and MaxNoteRank say which notes match well: a ranker of
	// the question's own words scores them at least NoteShare of its best
	// hit, within its first MaxNoteRank (facts.GoodNotes).
	NoteShare   float64 `hcl:"note_share,optional"`
	MaxNoteRank int     `hcl:"max_note_rank,optional"`
	// MaxLifted is how many of them are lifted.
	MaxLifted int `hcl:"max_lifted,optional"`
}

// Notes is rerank.notes. A knowledge note is a few lines someone wrote
// for exactly this kind of question, while a project has thousands of
// files that share its words and neighbours, so in a fusion of ranks over
// all kinds a note that matches as well as the best file still loses to
// the crowd of files that match nearly as well. A note that matches well
// is lifted to the answer's first places: the best one second (after the
// best match, whatever its kind), the next third. Only a query that does
// not restrict kinds is reordered.
type Notes struct {
	s NotesSettings
}

// NewNotes returns rerank.notes with its default settings.
func NewNotes() *Notes {
	return &Notes{s: NotesSettings{NoteShare: 0.75, MaxNoteRank: 50, MaxLifted: 2}}
}

// Info describes the stage.
func (n *Notes) Info() core.Info {
	return core.Info{Name: NotesName, Kind: core.KindReranker, Version: "1.0.0", Stateless: true,
		Description: "Lifts the notes that match as well as the best files to the answer's first places.",
		Schema:      core.MustSchemaOf(&NotesSettings{})}
}

// Configure reads the settings.
func (n *Notes) Configure(_ context.Context, setup core.Setup) error {
	if err := core.DecodeSettings(setup.Settings, &n.s); err != nil {
		return err
	}
	if !(n.s.NoteShare > 0 && n.s.NoteShare <= 1) {
		return &core.SettingError{Setting: "note_share", Message: "is a share of the best score and must be above 0 and at most 1"}
	}
	if n.s.MaxNoteRank < 1 {
		return &core.SettingError{Setting: "max_note_rank", Message: "must be at least 1"}
	}
	if n.s.MaxLifted < 0 {
		return &core.SettingError{Setting: "max_lifted", Message: "cannot be negative"}
	}
	return nil
}

// Rerank lifts the notes, in place.
func (n *Notes) Rerank(_ context.Context, rr core.Rerank) (core.Reranked, error) {
	fused := rr.Hits
	out := core.Reranked{Hits: fused}
	if len(rr.Query.Kinds) > 0 {
		return out, nil
	}
	good, _ := facts.GoodNotes(rr.Query.Seeds, n.s.NoteShare, n.s.MaxNoteRank)
	slot := 1
	for i := 0; i < len(fused) && slot <= n.s.MaxLifted; i++ {
		if _, ok := good[fused[i].ID]; !ok {
			continue
		}
		if i > slot {
			h := fused[i]
			copy(fused[slot+1:i+1], fused[slot:i])
			fused[slot] = h
			if out.Effects == nil {
				out.Effects = map[string]core.Effect{}
			}
			out.Effects[h.ID] = core.Effect{From: i + 1}
			slot++
		} else {
			slot = i + 1
		}
	}
	return out, nil
}
