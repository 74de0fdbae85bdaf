package pipeline

import (
	"context"
	"runtime/debug"
	"sync"
	"testing"
)

// index.memory_limit caps the process's memory while an index run lasts,
// at every step of it, and the process has its own limit back after.
func TestIndexMemoryLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	e := engine(t, shop(t))
	e.cfg.Index.MemoryLimit = 300
	var (
		mu     sync.Mutex
		limits = map[Phase]int64{}
	)
	if _, err := e.Index(context.Background(), IndexOptions{Full: true, Progress: func(p Progress) {
		mu.Lock()
		defer mu.Unlock()
		limits[p.Phase] = debug.SetMemoryLimit(-1)
	}}); err != nil {
		t.Fatal(err)
	}
	for _, ph := range []Phase{PhaseWalk, PhaseParse, PhaseReferences, PhaseRankers, PhaseWrite} {
		if got := limits[ph]; got != 300<<20 {
			t.Errorf("phase %d: memory limit %d, want %d", ph, got, 300<<20)
		}
	}
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("after the run: memory limit %d, want the process's %d", got, before)
	}
}

// Runs at once in one process (a server's projects) keep to the
// strictest cap while it runs, then to the other's; a limit the process
// had (GOMEMLIMIT) lower than a cap stays.
func TestMemoryLimitsNest(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	debug.SetMemoryLimit(1 << 40)
	a := limitMemory(500)
	b := limitMemory(200)
	if got := debug.SetMemoryLimit(-1); got != 200<<20 {
		t.Errorf("two runs: %d, want the strictest, %d", got, 200<<20)
	}
	b()
	if got := debug.SetMemoryLimit(-1); got != 500<<20 {
		t.Errorf("one left: %d, want %d", got, 500<<20)
	}
	a()
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("none left: %d, want the process's %d", got, int64(1<<40))
	}
	debug.SetMemoryLimit(100 << 20)
	c := limitMemory(500)
	if got := debug.SetMemoryLimit(-1); got != 100<<20 {
		t.Errorf("a lower GOMEMLIMIT: %d, want it kept, %d", got, 100<<20)
	}
	c()
	limitMemory(0)() // no cap: nothing changes
	if got := debug.SetMemoryLimit(-1); got != 100<<20 {
		t.Errorf("after: %d, want %d", got, 100<<20)
	}
}
