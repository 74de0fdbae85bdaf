package facts

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/rubi-dev/rubi/core"
)

// CallersSettings are query.callers' settings.
type CallersSettings struct {
	// MaxNames bounds the names of one question whose uses are looked up.
	MaxNames int `hcl:"max_names,optional"`
	// MaxFiles is how many files, those with the most uses, the list
	// holds at most.
	MaxFiles int `hcl:"max_files,optional"`
}

// Callers is query.callers: for a question that asks what calls or uses
// a symbol ("what calls Cart.Total", "where is `Session.send` used";
// query.Analysis.Uses), the files holding references to it, the files
// with the most first. The symbol is resolved as `rubi refs` resolves a
// target, from the index's table of references: Cart.Total is not
// Invoice.Total, and a bare name defined in several places stands for
// all of them. Its definition is no answer to such a question, and the
// list does not hold it unless the file also uses it. The stage is
// unseeded, so its files seed the graph as query.paths' do; a question
// that asks no such thing gets no list, and its answer is as without
// the stage.
type Callers struct {
	noIndex
	s CallersSettings
}

// NewCallers returns query.callers with its default settings.
func NewCallers() *Callers { return &Callers{s: CallersSettings{MaxNames: 4, MaxFiles: 50}} }

// Info describes the stage.
func (c *Callers) Info() core.Info {
	return core.Info{Name: CallersName, Kind: core.KindRanker, Version: "1.0.0", Stateless: true,
		Description: "For \"what calls X\": the files that call or use X, from the index's references.",
		Scoped:      true,
		Schema:      core.MustSchemaOf(&CallersSettings{})}
}

// Configure reads the settings.
func (c *Callers) Configure(_ context.Context, setup core.Setup) error {
	if err := core.DecodeSettings(setup.Settings, &c.s); err != nil {
		return err
	}
	if c.s.MaxNames < 1 {
		return &core.SettingError{Setting: "max_names", Message: "must be at least 1"}
	}
	if c.s.MaxFiles < 1 {
		return &core.SettingError{Setting: "max_files", Message: "must be at least 1"}
	}
	return nil
}

// RankFacts lists the files that use the names the question asks about,
// scored by how many uses each holds, the reason naming the first: "calls
// Cart.Total at line 5".
func (c *Callers) RankFacts(_ context.Context, q core.Query, facts core.Facts) ([]core.Hit, error) {
	if !q.AcceptsKind(core.DocFile) {
		return nil, nil
	}
	names := facts.Analysis().Uses
	type found struct {
		n    int
		site core.UseSite
		name string
	}
	byPath := map[string]*found{}
	for _, name := range names[:min(len(names), c.s.MaxNames)] {
		u, err := facts.Uses(name)
		if err != nil {
			return nil, err
		}
		for _, s := range u.Sites {
			if !facts.Keeps(s.Path) {
				continue
			}
			f := byPath[s.Path]
			if f == nil {
				f = &found{site: s, name: u.Defs[s.Def].Name}
				byPath[s.Path] = f
			}
			f.n++
		}
	}
	hits := make([]core.Hit, 0, len(byPath))
	for path, f := range byPath {
		hits = append(hits, core.Hit{ID: core.DocID(core.DocFile, path), Score: float64(f.n), Reason: f.site.Why(f.name)})
	}
	slices.SortFunc(hits, func(a, b core.Hit) int { return cmp.Or(cmp.Compare(b.Score, a.Score), strings.Compare(a.ID, b.ID)) })
	return hits[:min(len(hits), c.s.MaxFiles)], nil
}
