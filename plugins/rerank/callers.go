package rerank

import (
	"github.com/rubi-dev/rubi/core"
)

// A question asking what calls or uses a symbol ("what calls
// Cart.Total"; query.Analysis.Uses) is answered by the units that do:
// each file's units holding a use of it (a reference's From) come first
// in the file, with the use as their reason ("calls Cart.Total at line
// 5"), and lead the listing across files by the caller_weight part. The
// symbol's definition, which the question names, may follow them.

// maxCallerNames bounds the names of one question whose uses are looked
// up, as query.callers does by default.
const maxCallerNames = 4

// callerBonus is what a caller adds to its unit's score within its file:
// more than the name bonus and the match together can reach, so a file's
// callers come first under it.
const callerBonus = 4

// caller is the first use in a unit of a symbol the question asks about.
type caller struct {
	site core.UseSite
	name string // the definition's qualified name
}

// findCallers looks up the uses of the names the question asks the
// callers of, and keeps the first in each unit of each file.
func (p *profile) findCallers(facts core.Facts) error {
	names := facts.Analysis().Uses
	for _, name := range names[:min(len(names), maxCallerNames)] {
		u, err := facts.Uses(name)
		if err != nil {
			return err
		}
		for _, s := range u.Sites {
			if s.From == "" {
				continue
			}
			if p.callers == nil {
				p.callers = map[string]map[string]caller{}
			}
			in := p.callers[s.Path]
			if in == nil {
				in = map[string]caller{}
				p.callers[s.Path] = in
			}
			if old, ok := in[s.From]; !ok || s.Line < old.site.Line {
				in[s.From] = caller{site: s, name: u.Defs[s.Def].Name}
			}
		}
	}
	return nil
}

// markCallers marks the spans of the file at path that use a symbol the
// question asks about.
func (p *profile) markCallers(path string, spans []*unitSpan) {
	in := p.callers[path]
	if in == nil {
		return
	}
	for _, u := range spans {
		if c, ok := in[u.name]; ok {
			u.caller = 1
			u.score += callerBonus
			u.why = c.site.Why(c.name)
		}
	}
}
