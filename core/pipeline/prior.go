package pipeline

import (
	"sort"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/query"
)

// applyPriors scales fused scores by what is known of a document before
// any query, weighed by what the question asks for (query.Analysis):
//   - test cases, fixtures and test modules count test_weight unless the
//     question is about tests (helpers and frameworks under test/ are
//     code people look for, and count in full);
//   - a question about code weighs docs, data, configuration and build
//     files down (roleWeight); one about using the project does not.
//
// The list is re-sorted; ties keep the fuser's order.
func (e *Engine) applyPriors(hits []core.Hit, m *manifest, an *query.Analysis) {
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
			var rec *fileRecord
			if m != nil {
				rec, _ = m.file(key)
			}
			switch {
			case codemap.IsTestCase(key) || rec != nil && rec.Role == codemap.RoleTest && rec.Language == "":
				// A test, or a fixture of one (tests/validators/urls.txt).
				w = tw
			case rec != nil:
				w = roleWeight(rec.Role, an.Intent)
			}
		case core.DocModule:
			if codemap.IsTest(key) {
				w = tw
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
func roleReason(role, intent string) string {
	if roleWeight(role, intent) < 1 {
		return role + " file, weighed down: the question asks for code"
	}
	return role + " file"
}
