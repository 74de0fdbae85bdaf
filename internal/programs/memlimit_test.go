package programs

import (
	"runtime/debug"
	"testing"
)

// Runs at once in one process (a server's projects) keep to the
// strictest cap while it runs, then to the other's; a limit the process
// had (GOMEMLIMIT) lower than a cap stays.
func TestMemoryLimitsNest(t *testing.T) {
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
