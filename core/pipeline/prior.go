package pipeline

import (
	"sort"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/query"
)

// applyPriors scales fused scores by what is known of a document before
// any query, weighed by what the question asks for (query.Analysis):
//   - test cases, fixtures and test modules count test_weight unless the
//     question is about tests (helpers and frameworks under test/ are
//     code people look for, and count in full, except for a bug report);
//   - a question about code weighs docs, data, configuration and build
//     files down (roleWeight); one about using the project does not.
//
// The list is re-sorted; ties keep the fuser's order.
func (e *Engine) applyPriors(hits []core.Hit, m *manifest.Manifest, an *query.Analysis) {
	tw := e.cfg.Retrieve.TestWeight
	if an.Intent == query.IntentTests {
		tw = 1
	}
	changed := false
	for i := range hits {
		kind, key, err := core.SplitDocID(hits[i].ID)
		if err != nil {
			continue
		}
		w := 1.0
		switch kind {
		case core.DocFile:
			var rec *manifest.Record
			if m != nil {
				rec, _ = m.File(key)
			}
			switch {
			case codemap.IsTestCase(key) || rec != nil && rec.Role == codemap.RoleTest && rec.Language == "":
				// A test, or a fixture of one (tests/validators/urls.txt).
				w = tw
			case an.Report && (rec != nil && rec.Role == codemap.RoleTest || rec == nil && codemap.IsTest(key)):
				// A bug report asks for the code at fault; the helpers,
				// sample projects and test apps of a test tree reproduce
				// reported bugs in the report's own words.
				w = tw
			case rec != nil && e.cfg.Retrieve.RolePriors:
				w = roleWeight(rec.Role, an.Intent)
			}
		case core.DocModule:
			if codemap.IsTest(key) {
				w = tw
			} else if e.cfg.Retrieve.RolePriors {
				w = roleWeight(codemap.DirRole(key), an.Intent)
			}
		}
		if w != 1 {
			hits[i].Score *= w
			changed = true
		}
	}
	if changed {
		sort.SliceStable(hits, func(i, j int) bool { return hits[i].Score > hits[j].Score })
	}
}

// roleReason says what a file's role made of its rank.
func roleReason(role, intent string, priors bool) string {
	if priors && roleWeight(role, intent) < 1 {
		return role + " file, weighed down: the question asks for code"
	}
	return role + " file"
}

// Notes beside files: a knowledge note is a few lines someone wrote for
// exactly this kind of question, while a project has thousands of files
// that share its words and neighbours, so in a fusion of ranks over all
// kinds a note that matches as well as the best file still loses to the
// crowd of files that match nearly as well. A note that a ranker of the
// question's own words (not the graph) scores at least noteShare of its
// best hit (and ranks within its first maxNoteRank) is lifted to the
// answer's first places: the best one second (after the best match,
// whatever its kind), the next third; at most maxLifted.
const (
	noteShare   = 0.75
	maxNoteRank = 50
	maxLifted   = 2
)

// liftNotes applies that to the fused list, in place, for a query that
// does not restrict kinds.
// direct are the lists of the rankers of the question's own words.
func liftNotes(fused []core.Hit, direct []core.RankedList) {
	good, _ := goodNotes(direct)
	slot := 1
	for i := 0; i < len(fused) && slot <= maxLifted; i++ {
		if _, ok := good[fused[i].ID]; !ok {
			continue
		}
		if i > slot {
			h := fused[i]
			copy(fused[slot+1:i+1], fused[slot:i])
			fused[slot] = h
			slot++
		} else {
			slot = i + 1
		}
	}
}
