package main

import (
	"testing"

	"github.com/rubi-dev/rubi/core/parsertest"
)

// TestFixtures runs lang.regex's fixture suite (core/parsertest) against
// lang.treesitter: every case the regex parser passes, this one passes.
func TestFixtures(t *testing.T) {
	parsertest.Run(t, New(), "../lang-regex/testdata/go.txtar")
}
