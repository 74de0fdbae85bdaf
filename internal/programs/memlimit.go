package programs

import (
	"runtime/debug"
	"slices"
	"sync"
)

// memoryLimits are the caps of the index runs under way in this process
// (index.memory_limit, bytes): the runtime's soft memory limit is the
// lowest of them and of the limit the process had before the first began
// (GOMEMLIMIT, QuietGC's, a server's), which comes back when the last
// ends. A server indexing several projects at once keeps to the
// strictest.
var memoryLimits struct {
	sync.Mutex
	active []int64
	before int64
}

// LimitMemory caps the process's memory at mib MiB until release is
// called; 0 leaves it as it is. A program hands it to its engines
// (pipeline.Options.LimitMemory), which call it for each index run with
// index.memory_limit: the setting is the process's, so a library never
// makes it itself.
func LimitMemory(mib int) (release func()) {
	if mib <= 0 {
		return func() {}
	}
	n := int64(mib) << 20
	ml := &memoryLimits
	ml.Lock()
	defer ml.Unlock()
	if len(ml.active) == 0 {
		ml.before = debug.SetMemoryLimit(-1)
	}
	ml.active = append(ml.active, n)
	debug.SetMemoryLimit(min(ml.before, slices.Min(ml.active)))
	return func() {
		ml.Lock()
		defer ml.Unlock()
		ml.active = slices.Delete(ml.active, slices.Index(ml.active, n), slices.Index(ml.active, n)+1)
		limit := ml.before
		if len(ml.active) > 0 {
			limit = min(limit, slices.Min(ml.active))
		}
		debug.SetMemoryLimit(limit)
	}
}
