package neighbours

import (
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/rankertest"
)

func TestContract(t *testing.T) {
	rankertest.Contract(t, rankertest.Subject{
		New:      func(*testing.T) core.Ranker { return New() },
		Settings: `{"previous": 1, "next": 0.5, "kinds": ["node", "chunk"], "questions": "all"}`,
		Kinds:    []string{core.DocNode, core.DocChunk},
	})
}
