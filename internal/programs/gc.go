package programs

import (
	"runtime/debug"
	"slices"
	"sync"
)

// QuietMemoryLimit is the heap a one-shot command lets grow before it
// collects garbage at all (QuietGC).
const QuietMemoryLimit = 256 << 20

// QuietGC tunes the garbage collector of a process that answers once and
// exits (a hook, rubi context's query): it lives for milliseconds and
// allocates little, so it does not collect unless its heap nears
// QuietMemoryLimit. The setting is the whole process's: a program's main,
// or the command it runs, calls it once it knows it will exit after the
// answer; a library never does.
func QuietGC() {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(QuietMemoryLimit)
}

// QuietGCUntil is QuietGC for a one-shot process's work that may turn
// out heavy: a refresh, which most often finds nothing changed and
// allocates little, but may rebuild the index. loud puts the collector
// back as it was, and the memory limit as the index runs under way in
// the process ask it (LimitMemory): the program calls it as soon as the
// work proves heavy (pipeline.IndexOptions.Working), and once it is done
// in any case. Calls after the first do nothing.
func QuietGCUntil() (loud func()) {
	ml := &memoryLimits
	ml.Lock()
	defer ml.Unlock()
	percent := debug.SetGCPercent(-1)
	now := debug.SetMemoryLimit(-1)
	own := now // the process's own limit, which loud puts back
	if len(ml.active) > 0 {
		// Runs under way put back the limit before them when the last
		// ends: until loud, that is the quiet one.
		own = ml.before
		ml.before = min(own, QuietMemoryLimit)
	}
	debug.SetMemoryLimit(min(now, QuietMemoryLimit))
	var once sync.Once
	return func() {
		once.Do(func() {
			ml.Lock()
			defer ml.Unlock()
			debug.SetGCPercent(percent)
			if len(ml.active) == 0 {
				debug.SetMemoryLimit(own)
				return
			}
			ml.before = own
			debug.SetMemoryLimit(min(own, slices.Min(ml.active)))
		})
	}
}
