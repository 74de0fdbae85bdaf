package pipeline

import (
	"sort"
	"sync"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/text"
)

// testWords returns the query words that make tests what the user wants,
// tokenized on first use rather than at init.
var testWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, t := range text.Tokenize("test tests testing spec specs fixture fixtures testdata benchmark benchmarks bench mock mocks") {
		m[t] = true
	}
	return m
})

// aboutTests reports whether the query asks for tests.
func aboutTests(qtokens map[string]bool) bool {
	words := testWords()
	for t := range qtokens {
		if words[t] {
			return true
		}
	}
	return false
}

// applyPriors scales fused scores by what is known of a document before
// any query: test cases, fixtures and test modules count test_weight
// unless the query is about them (helpers and frameworks under test/ are
// code people look for, and count in full). The list is re-sorted; ties keep the fuser's order.
func (e *Engine) applyPriors(hits []core.Hit, qtokens map[string]bool) {
	w := e.cfg.Retrieve.TestWeight
	if w == 1 || aboutTests(qtokens) {
		return
	}
	changed := false
	for i := range hits {
		kind, key, err := core.SplitDocID(hits[i].ID)
		if err == nil && (kind == core.DocFile && codemap.IsTestCase(key) || kind == core.DocModule && codemap.IsTest(key)) {
			hits[i].Score *= w
			changed = true
		}
	}
	if changed {
		sort.SliceStable(hits, func(i, j int) bool { return hits[i].Score > hits[j].Score })
	}
}
