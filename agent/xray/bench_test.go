package xray

import (
	"context"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/agent/transcript"
	"github.com/rubi-dev/rubi/agent/transcript/transcripttest"
)

// BenchmarkAnalyze reads 200 MB of generated Claude Code logs (written once
// to a temporary directory) and reports the throughput (MB/s) and the peak
// heap in use while reading, sampled every 5 ms through runtime/metrics
// (which does not stop the world): memory must stay flat however many logs
// there are.
func BenchmarkAnalyze(b *testing.B) {
	dir := b.TempDir()
	size, err := transcripttest.Write(dir, transcripttest.Spec{Bytes: 200 << 20, Calls: 200, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	sessions, err := transcript.Find(transcript.Roots{Claude: []string{dir}}, time.Time{})
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				metrics.Read(sample)
				if v := sample[0].Value.Uint64(); v > peak.Load() {
					peak.Store(v)
				}
			}
		}
	})
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		rep, err := Analyze(context.Background(), sessions, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if rep.Bytes != size {
			b.Fatalf("read %d bytes of %d", rep.Bytes, size)
		}
	}
	b.StopTimer()
	close(stop)
	wg.Wait()
	b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(size)/(1<<20), "log-MB")
}
