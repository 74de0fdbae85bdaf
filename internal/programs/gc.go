package programs

import "runtime/debug"

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
