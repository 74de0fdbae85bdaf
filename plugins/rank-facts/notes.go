package facts

import (
	"cmp"
	"context"
	"slices"
	"strconv"

	"github.com/rubi-dev/rubi/core"
)

// NotesSettings are notes.files' settings.
type NotesSettings struct {
	// NoteShare is the least share of a ranker's best score a note must
	// have to count as matching well (GoodNotes).
	NoteShare float64 `hcl:"note_share,optional"`
	// MaxNoteRank is how far down a ranker's list such a note may be.
	MaxNoteRank int `hcl:"max_note_rank,optional"`
	// MaxNotes is how many of those notes lend their files.
	MaxNotes int `hcl:"max_notes,optional"`
	// MaxFiles bounds the files one note lends its vote to; a note about
	// more is about an area, not a place to open.
	MaxFiles int `hcl:"max_files,optional"`
}

// Notes is notes.files: the files of the notes that answer the question.
// A note is a few lines someone wrote about exactly these files, so when
// it matches the question as well as the best hits do, the files it is
// about answer it too, whatever words they use ("how are plugins
// loaded": the note says so; host.go "opens stages"). Its default weight
// is half a ranker's: a note is a hint where to look, and a note about a
// wide area names files beside the point (bench/quality's self set: at a
// full vote the questions a broad note matches lost their file; at half,
// two questions gained theirs).
type Notes struct {
	noIndex
	s NotesSettings
}

// NewNotes returns notes.files with its default settings.
func NewNotes() *Notes {
	return &Notes{s: NotesSettings{NoteShare: 0.75, MaxNoteRank: 50, MaxNotes: 2, MaxFiles: 8}}
}

// Info describes the stage: seeded, since it reads the notes the
// question's own words found, and by them alone.
func (n *Notes) Info() core.Info {
	return core.Info{Name: NotesName, Kind: core.KindRanker, Version: "1.0.0", Stateless: true,
		Description: "The files of the notes that match the question as well as its best hits.",
		Seeded:      true, Scoped: true,
		Schema: core.MustSchemaOf(&NotesSettings{})}
}

// Configure reads the settings.
func (n *Notes) Configure(_ context.Context, setup core.Setup) error {
	if err := core.DecodeSettings(setup.Settings, &n.s); err != nil {
		return err
	}
	if err := share("note_share", n.s.NoteShare); err != nil {
		return err
	}
	for _, s := range []struct {
		name string
		v    int
	}{{"max_note_rank", n.s.MaxNoteRank}, {"max_notes", n.s.MaxNotes}, {"max_files", n.s.MaxFiles}} {
		if s.v < 1 {
			return &core.SettingError{Setting: s.name, Message: "must be at least 1"}
		}
	}
	return nil
}

// RankFacts returns the files, indexed and admitted by the query, of the
// notes that match the question well (GoodNotes over the seeds, the
// lists of the question's own words), best note first and each note's
// files in its own order, with the reason naming the note. A file the
// question names by path has that vote already (the query.paths list
// among the seeds), and the note may have matched through it (a note's
// names hold its files): it gets no second one.
func (n *Notes) RankFacts(_ context.Context, q core.Query, facts core.Facts) ([]core.Hit, error) {
	if !q.AcceptsKind(core.DocFile) || !q.AcceptsKind(core.DocNode) {
		return nil, nil
	}
	var out []core.Hit
	seen := map[string]bool{}
	for _, l := range q.Seeds {
		if l.Stage == PathsName {
			for _, h := range l.Hits {
				if _, key, err := core.SplitDocID(h.ID); err == nil {
					seen[key] = true
				}
			}
		}
	}
	_, good := GoodNotes(q.Seeds, n.s.NoteShare, n.s.MaxNoteRank)
	for _, id := range good[:min(len(good), n.s.MaxNotes)] {
		_, key, err := core.SplitDocID(id)
		if err != nil {
			continue
		}
		title, about, ok := facts.Note(key)
		if !ok || len(about) > n.s.MaxFiles {
			continue
		}
		for _, f := range about {
			if seen[f] {
				continue
			}
			if _, ok := facts.File(f); !ok {
				continue
			}
			seen[f] = true
			out = append(out, core.Hit{
				ID:     core.DocID(core.DocFile, f),
				Score:  1 / float64(len(out)+1),
				Reason: "named by the note " + strconv.Quote(title),
			})
		}
	}
	return out, nil
}

// GoodNotes are the notes that a list of the question's own words
// (direct) scores at least share of its best hit, within its first
// maxRank, each with its best share of a list's top, and in order: best
// share first, the lists' order breaking ties.
func GoodNotes(direct []core.RankedList, share float64, maxRank int) (map[string]float64, []string) {
	best := map[string]float64{}
	var order []string
	for _, l := range direct {
		if len(l.Hits) == 0 || l.Hits[0].Score <= 0 {
			continue
		}
		top := l.Hits[0].Score
		for i, h := range l.Hits {
			if i >= maxRank {
				break
			}
			if kind, _, _ := core.SplitDocID(h.ID); kind != core.DocNode || h.Score < share*top {
				continue
			}
			if _, ok := best[h.ID]; !ok {
				order = append(order, h.ID)
			}
			best[h.ID] = max(best[h.ID], h.Score/top)
		}
	}
	slices.SortStableFunc(order, func(a, b string) int { return cmp.Compare(best[b], best[a]) })
	return best, order
}
