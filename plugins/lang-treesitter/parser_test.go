package main

import (
	"testing"

	"github.com/rubi-dev/rubi/core/parsertest"
)

// fixtures are the archives of lang.regex's fixture suite in the
// languages lang.treesitter handles.
var fixtures = []string{"go", "python", "javascript", "java", "c", "ruby", "rust"}

// TestFixtures runs lang.regex's fixture suite (core/parsertest) against
// lang.treesitter: every case the regex parser passes, this one passes.
func TestFixtures(t *testing.T) {
	for _, f := range fixtures {
		parsertest.Run(t, New(), "../lang-regex/testdata/"+f+".txtar")
	}
}
