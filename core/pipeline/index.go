package pipeline

import (
	"context"
	"errors"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/rubi-dev/rubi/core/manifest"
)

// IndexOptions tune one index run.
type IndexOptions struct {
	// Full re-reads and re-parses every file and rebuilds every ranker.
	Full bool
	// Progress, when set, is told the phase the run is in and how far it
	// is (Progress, Phase); it is called from several goroutines, one at
	// a time, and must return quickly: a run of many files calls it once
	// a file.
	Progress func(Progress)
	// Working, when set, is called once, from the goroutine that called
	// Index, when the run first finds work beyond confirming the index as
	// it stands: files to read, or an index to build. A run that finds
	// nothing changed (the common refresh) never calls it. A program
	// that keeps its garbage collector quiet for such a run makes it
	// loud again there (internal/programs.QuietGCUntil).
	Working func()
	// HugeHeap says the process runs this index and little else before
	// it (a command, not a server): a run that reads many files then has
	// its heap backed by huge pages (store.ReserveHugeHeap).
	HugeHeap bool
	// notesOnly brings only the notes' documents up to date (RefreshNotes):
	// the code's files are the previous index's records, neither walked
	// nor read, and a run that would need the code read again (a ranker
	// to rebuild in full) fails with ErrIndexOutdated instead.
	notesOnly bool
	// readWindow, when set, is the bytes of file contents read and
	// parsed at a time in place of readWindow()'s (tests: windows of one
	// file each).
	readWindow int
	// rankersAtOnce, when set, is the most files for the rankers to
	// index side by side in place of the constant's (tests: one after
	// another on a small project).
	rankersAtOnce int
	// notesMaps, with notesOnly, writes the maps too: a curated summary
	// (.rubi/summaries/, which the notes' stamp does not cover) is woven
	// into them. A refresh after a changed notes folder leaves them be:
	// nothing the maps show comes from the notes' folders.
	notesMaps bool
}

// A run that reads hugeHeapFrom bytes or more reserves its heap in huge
// pages, hugeHeapMax at most (address space, not memory).
const (
	hugeHeapFrom = 16 << 20
	hugeHeapMax  = 2 << 30
)

// FileCounts says what the walk saw.
type FileCounts struct {
	Seen    int            `json:"seen"`
	Indexed int            `json:"indexed"`
	Skipped map[string]int `json:"skipped"`
}

// IndexStats is the outcome of an index run, as `rubi index` prints it.
type IndexStats struct {
	Root  string     `json:"root"`
	Files FileCounts `json:"files"`
	// Parsed files were read and parsed in this run; Unchanged were
	// reused from the previous index; Removed disappeared since.
	Parsed    int            `json:"parsed"`
	Unchanged int            `json:"unchanged"`
	Removed   int            `json:"removed"`
	Languages map[string]int `json:"languages"`
	Symbols   int            `json:"symbols"`
	Imports   int            `json:"imports"`
	Edges     int            `json:"import_edges"`
	// Resolution counts, per language, the imports resolved to project
	// files, those that look internal but found no file, and external
	// ones (standard library, third-party packages, system headers).
	Resolution Resolution `json:"resolution"`
	Modules    int        `json:"modules"`
	// References is how the references between definitions were found.
	References ReferenceStats `json:"references"`
	// Nodes counts the knowledge nodes in recall (active, project and
	// personal).
	Nodes int `json:"nodes"`
	// Sourced counts the documents of the sources (core.Source).
	Sourced int `json:"sourced,omitempty"`
	// Rankers says how each ranker was brought up to date: "full",
	// "incremental", "up to date" or "failed".
	Rankers    map[string]string `json:"rankers"`
	Warnings   []string          `json:"warnings,omitempty"`
	Problems   []string          `json:"problems,omitempty"`
	DurationMS float64           `json:"duration_ms"`
}

// Resolution is IndexStats.Resolution, which the manifest keeps too.
type Resolution = manifest.Resolution

// Index brings the project's index up to date. Only one rubi process
// indexes a project at a time; the others wait for the lock. A symbols
// file found damaged on the way (a line that does not decode) is repaired
// by a full run.
func (e *Engine) Index(ctx context.Context, opts IndexOptions) (*IndexStats, error) {
	stats, err := newIndexRun(e, opts).run(ctx)
	if err != nil && !opts.Full && errors.Is(err, manifest.ErrSymbolsDamaged) {
		opts.Full = true
		if stats, err = newIndexRun(e, opts).run(ctx); err == nil {
			stats.Warnings = append(stats.Warnings, "the symbols file was damaged, so every file was parsed again")
		}
	}
	return stats, err
}

// finish stamps the run's problems (the host's: plugin failures) and
// duration on its stats.
func (s *IndexStats) finish(problems []string, start time.Time) *IndexStats {
	s.Problems = problems
	s.DurationMS = float64(time.Since(start).Microseconds()) / 1000
	return s
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// stopwatch logs, at debug level, the time each phase of an operation took
// since the previous call: `rubi index --log-level debug` shows where a
// slow run spends its time.
func stopwatch(logger hclog.Logger, op string) func(phase string) {
	last := time.Now()
	return func(phase string) {
		now := time.Now()
		logger.Debug(op, "phase", phase, "ms", ms(now.Sub(last)))
		last = now
	}
}
