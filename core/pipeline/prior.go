package pipeline

import (
	"path"
	"sort"
	"strings"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/text"
)

// testDirs are directory names that hold tests or their fixtures.
var testDirs = map[string]bool{
	"test": true, "tests": true, "__tests__": true, "testdata": true,
	"spec": true, "specs": true, "fixtures": true, "__fixtures__": true, "__mocks__": true,
}

// isTestPath reports whether a file or module path is a test, a test
// helper or a fixture, by the conventions of the languages rubi reads.
func isTestPath(p string) bool {
	for _, dir := range strings.Split(p, "/") {
		if testDirs[dir] {
			return true
		}
	}
	base := path.Base(p)
	stem := strings.TrimSuffix(base, path.Ext(base))
	switch {
	case strings.HasSuffix(stem, "_test"), // Go, Python, Ruby, C++
		strings.HasPrefix(stem, "test_"),                                   // pytest
		strings.HasSuffix(stem, ".test"), strings.HasSuffix(stem, ".spec"), // JS/TS
		strings.HasSuffix(stem, "_spec"),                                  // RSpec
		strings.HasSuffix(stem, "Test"), strings.HasSuffix(stem, "Tests"): // JUnit, xUnit
		return true
	}
	return false
}

// testWords are the query words that make tests what the user wants.
var testWords = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range text.Tokenize("test tests testing spec specs fixture fixtures testdata benchmark benchmarks bench mock mocks") {
		m[t] = true
	}
	return m
}()

// aboutTests reports whether the query asks for tests.
func aboutTests(qtokens map[string]bool) bool {
	for t := range qtokens {
		if testWords[t] {
			return true
		}
	}
	return false
}

// applyPriors scales fused scores by what is known of a document before
// any query: tests and fixtures count test_weight unless the query is about
// them. The list is re-sorted; ties keep the fuser's order.
func (e *Engine) applyPriors(hits []core.Hit, qtokens map[string]bool) {
	w := e.cfg.Retrieve.TestWeight
	if w == 1 || aboutTests(qtokens) {
		return
	}
	changed := false
	for i := range hits {
		kind, key, err := core.SplitDocID(hits[i].ID)
		if err == nil && (kind == core.DocFile || kind == core.DocModule) && isTestPath(key) {
			hits[i].Score *= w
			changed = true
		}
	}
	if changed {
		sort.SliceStable(hits, func(i, j int) bool { return hits[i].Score > hits[j].Score })
	}
}
