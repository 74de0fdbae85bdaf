package pipeline

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/rubi-dev/rubi/core/refs"
	"github.com/rubi-dev/rubi/core/refs/golang"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

// index.memory_limit is asked of the program (Options.LimitMemory) for the
// whole of an index run, every step of it, and given back at its end; a
// run without the setting asks for no cap (0): the program still steers
// its collector for the run.
func TestIndexMemoryLimit(t *testing.T) {
	var (
		mu     sync.Mutex
		asked  []int
		active int
	)
	limit := func(mib int) func() {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, mib)
		active++
		return func() {
			mu.Lock()
			defer mu.Unlock()
			active--
		}
	}
	e := engineWith(t, shop(t), Options{MaskComments: regex.MaskComments, LimitMemory: limit})
	e.cfg.Index.MemoryLimit = 300
	capped := map[Phase]bool{}
	if _, err := e.Index(context.Background(), IndexOptions{Full: true, Progress: func(p Progress) {
		mu.Lock()
		defer mu.Unlock()
		capped[p.Phase] = active == 1
	}}); err != nil {
		t.Fatal(err)
	}
	for _, ph := range []Phase{PhaseWalk, PhaseParse, PhaseReferences, PhaseRankers, PhaseWrite} {
		if !capped[ph] {
			t.Errorf("phase %d ran without the cap (seen: %v)", ph, capped)
		}
	}
	if len(asked) != 1 || asked[0] != 300 || active != 0 {
		t.Errorf("asked %v, %d still held after the run; want [300], 0", asked, active)
	}
	e.cfg.Index.MemoryLimit = 0
	if _, err := e.Index(context.Background(), IndexOptions{Full: true}); err != nil {
		t.Fatal(err)
	}
	if len(asked) != 2 || asked[1] != 0 || active != 0 {
		t.Errorf("a run without memory_limit asked %v, %d still held; want [300 0], 0", asked, active)
	}
}

// A process that answers once (rubi index, a hook) keeps to
// earlyMemoryCap while its rankers index beside the references, and lets
// it go when they are done; a server, whose heap is not the run's alone,
// takes no cap for them.
func TestEarlyRankersMemoryCap(t *testing.T) {
	for _, oneShot := range []bool{true, false} {
		var (
			mu    sync.Mutex
			asked []int
			held  = map[int]int{}
		)
		limit := func(mib int) func() {
			mu.Lock()
			defer mu.Unlock()
			asked = append(asked, mib)
			held[mib]++
			return func() {
				mu.Lock()
				defer mu.Unlock()
				held[mib]--
			}
		}
		e := engineWith(t, shop(t), Options{MaskComments: regex.MaskComments, LimitMemory: limit, OneShot: oneShot,
			Resolvers: []refs.Resolver{golang.New(golang.Options{})}})
		capped := map[Phase]bool{}
		if _, err := e.Index(context.Background(), IndexOptions{Full: true, Progress: func(p Progress) {
			mu.Lock()
			defer mu.Unlock()
			capped[p.Phase] = capped[p.Phase] || held[earlyMemoryCap] > 0
		}}); err != nil {
			t.Fatal(err)
		}
		want := []int{0}
		if oneShot {
			want = []int{0, earlyMemoryCap}
		}
		if !slices.Equal(asked, want) || held[0] != 0 || held[earlyMemoryCap] != 0 {
			t.Errorf("one-shot %v: asked %v, still held %v; want %v, none", oneShot, asked, held, want)
		}
		// Phases are seen as they start: the cap, taken as the references'
		// step starts, holds through the ranking, not the write.
		if oneShot && (!capped[PhaseRank] || capped[PhaseWrite]) {
			t.Errorf("the cap held at the start of %v: want the ranking's, not the write's", capped)
		}
	}
}
