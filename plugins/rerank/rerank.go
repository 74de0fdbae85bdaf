// Package rerank holds the built-in rerankers, which reorder the fused
// list of a query before it is packed: rerank.roles (what a file's role
// says before any query), rerank.notes (notes that match as well as the
// best files come first), rerank.units (under each file, the functions
// and classes to open, ranked for the question) and rerank.floor (a weak
// match is no match). The engine runs them in the order rubi.hcl
// declares them, each given the engine's facts of the query (core.Facts):
// rerank.units reads the symbols and lines of the files it ranks through
// them, as the engine reads a repository's files.
//
// The declared order is part of the answer: rerank.units ranks the units
// of the files as the list stands when it runs, so it runs before
// rerank.floor, whose cut would otherwise change which files get their
// units ranked. Each reranker records what it did to a hit (core.Effect),
// which `rubi context --explain` shows under its name. A caller that
// admits items itself (the recall hook, core.Rerank.Keep) gets the weak
// matches marked instead of dropped: the floor is then compared strictly,
// with no relaxation for a question none of whose words is telling.
package rerank

import (
	"github.com/rubi-dev/rubi/core"
)

// The stage names, as rubi.hcl and `rubi context --explain` show them.
const (
	RolesName = "rerank.roles"
	NotesName = "rerank.notes"
	UnitsName = "rerank.units"
	FloorName = "rerank.floor"
)

func init() {
	core.Register(RolesName, core.KindReranker, func() core.Stage { return NewRoles() })
	core.Register(NotesName, core.KindReranker, func() core.Stage { return NewNotes() })
	core.Register(UnitsName, core.KindReranker, func() core.Stage { return NewUnits() })
	core.Register(FloorName, core.KindReranker, func() core.Stage { return NewFloor() })
}

// unit checks that a setting is a factor between 0 and 1.
func unit(name string, v float64) error {
	if !(v >= 0 && v <= 1) {
		return &core.SettingError{Setting: name, Message: "multiplies a score and must be between 0 and 1"}
	}
	return nil
}
