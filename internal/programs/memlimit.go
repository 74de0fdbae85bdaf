package programs

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"sync"
)

// QuietMemoryLimit is the heap a one-shot command lets grow before it
// collects garbage at all (QuietGC).
const QuietMemoryLimit = 256 << 20

// The pacing of an index run's collector (LimitMemory): after each
// collection the heap may grow to what it kept live and as much again,
// at least to pacedFloor and by at most pacedHeadroom. The runtime's own
// pacing (GOGC=100) lets it double whatever it holds: a small project's
// run then collects every few megabytes (on kubernetes, a hundred
// collections, a quarter of the run's CPU), and a large one's peak is
// twice its live heap (on 200,000 files, 400 MB live made an 880 MB
// peak). Measured in bench/results/perf-2026-12-07-gc-pacing.md.
const (
	pacedFloor    = 128 << 20
	pacedHeadroom = 256 << 20
	// pacedMostPercent bounds the percent a small heap is paced with:
	// until the cleanup after a collection sets the percent again, the
	// heap that collection left grows by the last one's, and a percent
	// made for 1 MiB live (thousands, on the way to pacedFloor) let a
	// kubernetes run's read and parse, at 12 MiB live, reach 228 MiB. It
	// also keeps the runtime's smallest heap goal (4 MiB times the percent
	// over 100) well within pacedFloor.
	pacedMostPercent = 400
)

// steering is how this process's programs have set the garbage collector:
// the process's own setting (what it had before any of the below began,
// or QuietGC's), the quiet spells of QuietGCUntil not yet loud, and the
// index runs under way, each with its cap (index.memory_limit, bytes; 0
// for none). Its state decides the runtime's GC percent and soft memory
// limit (apply).
var steering = struct {
	sync.Mutex
	percent int   // the process's own GC percent
	limit   int64 // and memory limit
	quiet   int
	runs    []int64
	// pace says the runs are paced (pacedFloor, pacedHeadroom): unless
	// the environment sets GOGC or GOMEMLIMIT, the user's own choice of
	// the runtime's pacing.
	pace bool
	// gogc is the paced GC percent, as the last collection left the
	// heap; armed says a cleanup waits for the next collection to set it
	// again (apply sets it when none does).
	gogc  int
	armed bool
}{pace: os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == ""}

// steered says the process's collector is set by what is under way (a
// quiet spell, a run), not by its own setting alone. Callers hold the
// lock.
func steered() bool { return steering.quiet > 0 || len(steering.runs) > 0 }

// steer notes the process's own setting before the first of what steers
// it begins. Callers hold the lock.
func steer() {
	if !steered() {
		steering.percent, steering.limit = collector()
	}
}

// apply sets the runtime's collector as steering's state says: the
// process's own setting, quiet (no collection until QuietMemoryLimit) while
// a spell is, paced while runs are and none is quiet, and never above a
// run's cap. A process whose own collector is off (QuietGC: a hook) keeps
// it off for its runs, which its memory limit paces: a hook's refresh
// reads no metric and sets no percent. Callers hold the lock.
func apply() {
	s := &steering
	percent, limit := s.percent, s.limit
	for _, c := range s.runs {
		if c > 0 {
			limit = min(limit, c)
		}
	}
	switch {
	case s.quiet > 0:
		percent, limit = -1, min(limit, QuietMemoryLimit)
	case len(s.runs) > 0 && s.pace && s.percent >= 0:
		if !s.armed {
			s.gogc = pacedPercent()
			s.armed = true
			runtime.AddCleanup(new(gcTick), paceAfterGC, 0)
		}
		percent = s.gogc
	}
	debug.SetGCPercent(percent)
	debug.SetMemoryLimit(limit)
}

// gcTick is an object made only to be collected: its cleanup runs once
// the next collection found it unreachable. It holds a pointer, so that
// it is not one of the tiny allocations a cleanup may never come for.
type gcTick struct{ _ *int }

// paceAfterGC sets the paced percent as the collection just done left
// the heap, and waits for the next, while runs are under way.
func paceAfterGC(int) {
	s := &steering
	s.Lock()
	defer s.Unlock()
	s.armed = false
	if len(s.runs) > 0 {
		apply()
	}
}

// collector is the runtime's GC percent (-1 for off) and soft memory
// limit as they stand. The percent is read by setting it, and put back
// at once: a fresh process's first read of runtime/metrics costs tens of
// microseconds, which a hook would pay on every refresh.
func collector() (percent int, limit int64) {
	percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}

// pacedPercent is the GC percent that lets the heap grow to the paced
// goal from what the last collection kept live. The pacing is the
// runtime's own, only with a percent that changes with the heap: a soft
// memory limit would pace it too, but the runtime then returns its free
// memory to the system as soon as it can, which on a heap backed by huge
// pages (store.ReserveHugeHeap) scatters what it uses over pages it
// faults whole (a kubernetes run peaked at 570 MiB, against 140).
func pacedPercent() int {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	live := int64(0)
	if s[0].Value.Kind() == metrics.KindUint64 {
		live = int64(s[0].Value.Uint64())
	}
	if live <= 0 {
		return pacedMostPercent
	}
	return int(min(max((pacedGoal(live)-live)*100/live, 1), pacedMostPercent))
}

// pacedGoal is the heap an index run's collector lets grow from live
// bytes: twice live, but at least pacedFloor and at most pacedHeadroom
// more than live.
func pacedGoal(live int64) int64 {
	return max(pacedFloor, live+min(live, pacedHeadroom))
}

// QuietGC tunes the garbage collector of a process that answers once and
// exits (a hook, rubi context's query): it lives for milliseconds and
// allocates little, so it does not collect unless its heap nears
// QuietMemoryLimit. The setting is the whole process's: a program's main,
// or the command it runs, calls it once it knows it will exit after the
// answer; a library never does.
func QuietGC() {
	s := &steering
	s.Lock()
	defer s.Unlock()
	if steered() {
		s.percent, s.limit = -1, QuietMemoryLimit
		apply()
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(QuietMemoryLimit)
}

// QuietGCUntil is QuietGC for a one-shot process's work that may turn
// out heavy: a refresh, which most often finds nothing changed and
// allocates little, but may rebuild the index. loud puts the collector
// back as it would be without the quiet spell (paced while an index run
// is under way, LimitMemory): the program calls it as soon as the work
// proves heavy (pipeline.IndexOptions.Working), and once it is done in
// any case. Calls after the first do nothing.
func QuietGCUntil() (loud func()) {
	s := &steering
	s.Lock()
	defer s.Unlock()
	steer()
	s.quiet++
	apply()
	return ending(func() { s.quiet-- })
}

// ending is the function that ends something that steers the collector:
// the first call takes it out of steering's state (end) and applies what
// is left, the process's own setting when nothing is; later calls do
// nothing.
func ending(end func()) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			s := &steering
			s.Lock()
			defer s.Unlock()
			end()
			if steered() {
				apply()
				return
			}
			debug.SetGCPercent(s.percent)
			debug.SetMemoryLimit(s.limit)
		})
	}
}

// LimitMemory steers the collector for an index run until release is
// called: paced (pacedGoal), and capped at mib MiB (index.memory_limit;
// 0 for no cap), which the runtime keeps to by collecting more often
// (more CPU), though a run that needs more still gets it. A program hands
// it to its engines (pipeline.Options.LimitMemory), which call it for
// each index run: the setting is the process's, so a library never makes
// it itself. Runs at once in one process (a server indexing several
// projects) keep to the strictest cap; a limit the process had before
// (GOMEMLIMIT, QuietGC's, a server's) stays when lower, and comes back
// when the last ends.
func LimitMemory(mib int) (release func()) {
	n := int64(max(mib, 0)) << 20
	s := &steering
	s.Lock()
	defer s.Unlock()
	steer()
	s.runs = append(s.runs, n)
	apply()
	return ending(func() {
		i := slices.Index(s.runs, n)
		s.runs = slices.Delete(s.runs, i, i+1)
	})
}
