package subprocess

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/rankertest"
	bm25 "github.com/rubi-dev/rubi/plugins/rank-bm25"
)

// rank.bm25 served as a subprocess plugin (this test binary in the mode
// "rank.bm25") passes the ranker contract through the client: the
// corpus streamed in chunks, core.ErrFullIndexNeeded, a cancelled call
// and concurrent queries all cross the process boundary. Each ranker
// the contract makes is a process of its own, as each rubi process
// starts its plugins.
func TestSubprocessRankerContract(t *testing.T) {
	script := pluginScript(t, "rank.bm25")
	rankertest.Contract(t, rankertest.Subject{New: func(t *testing.T) core.Ranker {
		t.Helper()
		p, err := Launcher{}.Launch(context.Background(), core.KindRanker, script, 10*time.Second, hclog.NewNullLogger())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Stop)
		if _, err := p.Load(context.Background()); err != nil {
			t.Fatal(err)
		}
		return p.Remote().(core.Ranker)
	}})
}

// servedRanker is the stage a plugin of mode serves when the mode names
// a built-in ranker.
func servedRanker(mode string) (core.Ranker, bool) {
	if mode == bm25.Name {
		return bm25.New(), true
	}
	return nil, false
}
