package ppr

import (
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/rankertest"
)

func TestContract(t *testing.T) {
	rankertest.Contract(t, rankertest.Subject{New: func(*testing.T) core.Ranker { return New() }})
}
