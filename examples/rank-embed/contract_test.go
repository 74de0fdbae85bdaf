package main

import (
	"fmt"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/rankertest"
)

// rank.embed, its vectors from the loopback fake of an embeddings
// endpoint (embedtest), which embeds a text by the words it holds.
func TestContract(t *testing.T) {
	f := newFake(t)
	rankertest.Contract(t, rankertest.Subject{
		New:      func(*testing.T) core.Ranker { return New() },
		Settings: fmt.Sprintf(`{"endpoint": %q, "model": %q}`, f.URL, f.Model),
		Kinds:    []string{core.DocFile, core.DocNode, core.DocChunk},
	})
}
