package main

import (
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/rankertest"
)

// rank.recency ranks files alone, by the times the corpus gives them
// (source "mtime": the contract's project is no git repository), on a
// clock stopped for the test: its scores decay with the time of the
// question, and the contract compares answers given seconds apart.
func TestContract(t *testing.T) {
	now := time.Now()
	rankertest.Contract(t, rankertest.Subject{
		New: func(*testing.T) core.Ranker {
			r := New()
			r.now = func() time.Time { return now }
			return r
		},
		Settings: `{"source": "mtime"}`,
		Kinds:    []string{core.DocFile},
	})
}
