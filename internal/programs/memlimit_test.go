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
