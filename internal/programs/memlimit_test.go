package programs

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// unpaced runs a test's index runs unpaced, as with GOGC set.
func unpaced(t *testing.T) {
	steering.Lock()
	pace := steering.pace
	steering.pace = false
	steering.Unlock()
	t.Cleanup(func() {
		steering.Lock()
		defer steering.Unlock()
		steering.pace = pace
	})
}

// Runs at once in one process (a server's projects) keep to the
// strictest cap while it runs, then to the other's; a limit the process
// had (GOMEMLIMIT) lower than a cap stays.
func TestMemoryLimitsNest(t *testing.T) {
	unpaced(t)
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	debug.SetMemoryLimit(1 << 40)
	a := LimitMemory(500)
	b := LimitMemory(200)
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
	c := LimitMemory(500)
	if got := debug.SetMemoryLimit(-1); got != 100<<20 {
		t.Errorf("a lower GOMEMLIMIT: %d, want it kept, %d", got, 100<<20)
	}
	c()
	LimitMemory(0)() // no cap: nothing changes
	if got := debug.SetMemoryLimit(-1); got != 100<<20 {
		t.Errorf("after: %d, want %d", got, 100<<20)
	}
}

// A quiet collector keeps to the caps of the runs under way, and loud
// puts back the collector and the limits as they would be without it,
// whether it comes during a run or after.
func TestQuietGCUntil(t *testing.T) {
	unpaced(t)
	before := debug.SetMemoryLimit(-1)
	percent := debug.SetGCPercent(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before); debug.SetGCPercent(percent) })
	limit := func() int64 { return debug.SetMemoryLimit(-1) }
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(1 << 40)

	// Loud during a run.
	loud := QuietGCUntil()
	if got := debug.SetGCPercent(-1); got != -1 || limit() != QuietMemoryLimit {
		t.Errorf("quiet: GC percent %d, limit %d; want -1, %d", got, limit(), QuietMemoryLimit)
	}
	release := LimitMemory(100)
	if limit() != 100<<20 {
		t.Errorf("quiet, a run capped at 100 MiB: limit %d", limit())
	}
	loud()
	if got := debug.SetGCPercent(100); got != 100 || limit() != 100<<20 {
		t.Errorf("loud during the run: GC percent %d, limit %d; want 100, %d", got, limit(), 100<<20)
	}
	release()
	if limit() != 1<<40 {
		t.Errorf("the run over: limit %d, want the process's %d", limit(), int64(1<<40))
	}
	loud() // again: nothing
	if got := debug.SetGCPercent(100); got != 100 || limit() != 1<<40 {
		t.Errorf("loud again: GC percent %d, limit %d", got, limit())
	}

	// Loud after a run that never proved heavy.
	loud = QuietGCUntil()
	release = LimitMemory(500)
	if limit() != QuietMemoryLimit {
		t.Errorf("quiet, a run capped at 500 MiB: limit %d, want the quiet one, %d", limit(), QuietMemoryLimit)
	}
	release()
	if limit() != QuietMemoryLimit {
		t.Errorf("quiet, the run over: limit %d, want %d", limit(), QuietMemoryLimit)
	}
	loud()
	if got := debug.SetGCPercent(100); got != 100 || limit() != 1<<40 {
		t.Errorf("loud after the run: GC percent %d, limit %d; want 100, %d", got, limit(), int64(1<<40))
	}
}

// An index run's heap grows to twice what the last collection left live,
// at least to pacedFloor and by at most pacedHeadroom.
func TestPacedGoal(t *testing.T) {
	for _, c := range []struct{ live, want int64 }{
		{0, pacedFloor},
		{40 << 20, pacedFloor},
		{100 << 20, 200 << 20},
		{pacedHeadroom, 2 * pacedHeadroom},
		{400 << 20, 400<<20 + pacedHeadroom},
		{4 << 30, 4<<30 + pacedHeadroom},
	} {
		if got := pacedGoal(c.live); got != c.want {
			t.Errorf("live %d MiB: goal %d MiB, want %d", c.live>>20, got>>20, c.want>>20)
		}
	}
}

// While a run is under way (and GOGC is not set) the collector is paced:
// a GC percent that each collection sets again from the heap it left
// (pacedGoal), under the run's cap when it has one; the process's own
// setting comes back when the run ends. A process that turned its
// collector off, and one with GOGC set, keep their own.
func TestPacedRun(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	percent := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetMemoryLimit(before); debug.SetGCPercent(percent) })
	debug.SetMemoryLimit(1 << 40)
	steering.Lock()
	steering.pace = true
	steering.Unlock()
	limit := func() int64 { return debug.SetMemoryLimit(-1) }
	pct := func() int {
		p, _ := collector()
		return p
	}

	runtime.GC()
	release := LimitMemory(0)
	// The test's heap is a few MiB: it grows by as much as
	// pacedMostPercent allows on the way to pacedFloor.
	if p := pct(); p != pacedMostPercent || limit() != 1<<40 {
		t.Errorf("a small heap paced: GC percent %d, limit %d; want %d, %d", p, limit(), pacedMostPercent, int64(1<<40))
	}
	// Keep 300 MiB live (never touched, so never resident): once a
	// collection has seen it, the heap may grow by pacedHeadroom, 85%.
	held := make([]byte, 300<<20)
	grown := false
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		runtime.GC()
		if p := pct(); p >= 80 && p <= 85 {
			grown = true
			break
		}
	}
	if !grown {
		t.Errorf("300 MiB live: GC percent %d, want 80 to 85 (%d MiB more)", pct(), pacedHeadroom>>20)
	}
	capped := LimitMemory(200)
	if limit() != 200<<20 || pct() > 85 {
		t.Errorf("a second run capped at 200 MiB: limit %d MiB, GC percent %d", limit()>>20, pct())
	}
	capped()
	runtime.KeepAlive(held)
	release()
	if pct() != 100 || limit() != 1<<40 {
		t.Errorf("the runs over: GC percent %d, limit %d; want 100, %d", pct(), limit(), int64(1<<40))
	}

	// A process whose own collector is off (QuietGC: a hook) keeps it
	// off for a run, its memory limit pacing it.
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(QuietMemoryLimit)
	release = LimitMemory(0)
	if pct() != -1 || limit() != QuietMemoryLimit {
		t.Errorf("a quiet process's run: GC percent %d, limit %d; want -1, %d", pct(), limit(), QuietMemoryLimit)
	}
	release()
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(1 << 40)

	unpaced(t)
	release = LimitMemory(0)
	if pct() != 100 || limit() != 1<<40 {
		t.Errorf("GOGC set: GC percent %d, limit %d; want the process's 100, %d", pct(), limit(), int64(1<<40))
	}
	release()
}
