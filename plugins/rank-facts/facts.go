// Package facts holds the built-in rankers of what the engine knows of a
// question beyond the words of the documents: query.paths (the files it
// names by path), query.callers (the files that call or use the symbol it
// asks the callers of), notes.files (the files of the notes that answer
// it) and query.time (the notes and chunks written in the time it names).
// Each adds one ranked list to the fusion, with the weight its rubi.hcl
// block gives. They rank from core.Facts, which the engine hands built-ins
// (core.FactRanker); asked through Rank alone, as a plugin would be, they
// have nothing to say and return no hits. A project replaces one by
// declaring a plugin under its name: a plain ranker, given the question's
// direct lists in Query.Seeds when its Info says it is seeded.
//
// Their kinds are chosen for what reads them. query.paths and
// query.callers are unseeded, so their lists are among the seeds of
// rank.ppr: a traceback's files, and a symbol's callers, seed the graph. notes.files and query.time are seeded, since they read the notes
// and chunks the question's own words found. Their weights and limits are settings in
// rubi.hcl (query.paths 1.5, four files at most for a bare name;
// notes.files 0.5, the first two good notes, eight files each;
// query.time 1, the first 100 notes and chunks dated; query.callers 4,
// above the definition the question names); enabled = false
// switches one off, and a retrieve block of earlier versions is read as
// those settings (core/config).
package facts

import (
	"context"

	"github.com/rubi-dev/rubi/core"
)

// The stage names. They are the names `rubi context --explain` shows the
// lists' scores under.
const (
	PathsName = "query.paths"
	NotesName = "notes.files"
	TimeName  = "query.time"
	// CallersName answers "what calls X" (callers.go).
	CallersName = "query.callers"
)

func init() {
	core.Register(PathsName, core.KindRanker, func() core.Stage { return NewPaths() })
	core.Register(NotesName, core.KindRanker, func() core.Stage { return NewNotes() })
	core.Register(TimeName, core.KindRanker, func() core.Stage { return NewTime() })
	core.Register(CallersName, core.KindRanker, func() core.Stage { return NewCallers() })
}

// noIndex is what the three rankers share: they keep no state of their
// own (Info.Stateless: the engine gives them no corpus and the index
// records no fingerprint of them, so an index written before they
// existed stays current), and a delta of the notes alone would be as good
// as any corpus to them (Info.Scoped).
type noIndex struct{}

// Index does nothing: what these rankers read, the engine already holds.
func (noIndex) Index(context.Context, *core.Corpus) error { return nil }

// Rank without the engine's facts has nothing to rank by.
func (noIndex) Rank(context.Context, core.Query) ([]core.Hit, error) { return nil, nil }

// share checks that a setting is a share of a best score, in (0, 1].
func share(name string, v float64) error {
	if !(v > 0 && v <= 1) {
		return &core.SettingError{Setting: name, Message: "is a share of the best score and must be above 0 and at most 1"}
	}
	return nil
}
