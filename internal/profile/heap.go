package profile

import (
	"bytes"
	"fmt"
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"sync"
	"time"
)

// Heap is one command's heap profile at its largest: the heap as the
// garbage collection before the process's memory reached its peak left
// it, which is what that peak follows (the collector lets the heap grow
// past the live bytes before it collects again: an index run's by up to
// 256 MiB, internal/programs.LimitMemory). A profile written
// at the end would show what is left then, not what made the peak. The
// peak is the process's resident memory where the system says it (Linux),
// else the live heap the last collection found; resident memory is the
// better guide, as a large allocation the process never touches (a
// reservation of address space) is live heap but no memory. The zero
// value profiles nothing.
//
// The runtime publishes an allocation in the profile one collection
// after the one that followed it: the profile is the heap a collection or
// two before the peak, which on a heap that grows for seconds is the same
// in all but its last megabytes.
//
// Read it with `go tool pprof -sample_index=inuse_space FILE`: the
// inuse_ samples are the heap at that collection, the alloc_ ones all
// that was allocated until then.
type Heap struct {
	f    *os.File
	done chan struct{}
	wg   sync.WaitGroup
	// mu guards the rest: the watcher and Stop both look.
	mu sync.Mutex
	// top and topLive are the most memory (memoryInUse) and live heap
	// seen at a profile, best the last profile taken.
	top, topLive uint64
	best         []byte
}

const (
	// heapEvery is how often the live heap is looked at: a collection
	// happens at most every few milliseconds, and a peak lasts longer.
	heapEvery = 10 * time.Millisecond
	// heapStep is the growth over the kept profile's live heap that
	// takes a new one: each costs a walk of the sampled allocations, so
	// a heap growing from nothing to its peak takes some tens of them,
	// not one per collection.
	heapStep = 20 // a twentieth: 5%
)

// liveBytes names the runtime's count of the bytes the last garbage
// collection found live, the figure the heap profile's inuse_ samples
// describe.
const liveBytes = "/gc/heap/live:bytes"

// liveHeap is the live heap the last collection found.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: liveBytes}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// Start watches the heap for the file path; with no path, it does
// nothing. The file is created now, so that a path that cannot be
// written fails before the command runs.
func (h *Heap) Start(path string) error {
	if path == "" {
		return nil
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--memprofile: %w", err)
	}
	h.f, h.done = f, make(chan struct{})
	h.wg.Go(h.watch)
	return nil
}

// startUnwatched is Start without the watcher: the profile is taken when
// the caller looks (a test's own points in time), and at Stop.
func (h *Heap) startUnwatched(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--memprofile: %w", err)
	}
	h.f, h.done = f, make(chan struct{})
	return nil
}

// watch takes a profile each time the live heap passes the kept one's by
// a step, until Stop.
func (h *Heap) watch() {
	tick := time.NewTicker(heapEvery)
	defer tick.Stop()
	for {
		h.look()
		select {
		case <-h.done:
			return
		case <-tick.C:
		}
	}
}

// look takes a profile when the process's memory or its live heap is a
// step above the most either was at a profile taken before: the resident
// memory finds the peak, the live heap a peak in memory the process
// already held (freed by the runtime but not given back).
func (h *Heap) look() {
	h.mu.Lock()
	defer h.mu.Unlock()
	rss, live := memoryInUse(), liveHeap()
	if h.best != nil && rss <= h.top+h.top/heapStep && live <= h.topLive+h.topLive/heapStep {
		return
	}
	var buf bytes.Buffer
	if err := pprof.Lookup("heap").WriteTo(&buf, 0); err == nil {
		h.top, h.topLive, h.best = max(h.top, rss), max(h.topLive, live), buf.Bytes()
	}
}

// Stop writes the kept profile and closes the file, once: later calls,
// and calls without a profile, do nothing.
func (h *Heap) Stop() error {
	if h.f == nil {
		return nil
	}
	close(h.done)
	h.wg.Wait()
	h.look()
	_, err := h.f.Write(h.best)
	if cerr := h.f.Close(); err == nil {
		err = cerr
	}
	h.f = nil
	if err != nil {
		return fmt.Errorf("--memprofile: %w", err)
	}
	return nil
}
