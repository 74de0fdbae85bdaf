package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/host"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/core/store"
	"github.com/rubi-dev/rubi/internal/programs"
)

// refresh brings the index up to date before a command reads it.
//
// A refresh the file system refuses (a read-only .rubi/, a full disk) is no
// reason to leave the question unanswered: with an index to answer from, it
// says so in one line on stderr and the query goes on.
func (g *globals) refresh(ctx context.Context, eng *pipeline.Engine) error {
	if _, err := g.index(ctx, eng, false); err != nil {
		if store.CannotWrite(err) && eng.HasIndex() {
			fmt.Fprintln(g.stderr, g.lang().Format(messages.StaleIndexAnswer, store.EscapeLine(err.Error())))
			return nil
		}
		return g.reportError(err)
	}
	return nil
}

// slowIndex is how long an index run goes before rubi says on stderr that
// it is indexing, when stderr is no terminal (or --json): a first run on
// a large project takes a minute, and a command that answers in
// milliseconds afterwards would otherwise look hung.
var slowIndex = time.Second

// index runs eng.Index for a command. On a terminal (stderr, without
// --json) it shows the run's progress (progressDisplay) once the run has
// taken progressTiming.delay, and ends it with a line of what was indexed;
// otherwise, once the run has taken slowIndex (0: from the start), it says
// on stderr that rubi is indexing, and when it is done. Standard output,
// --json's, never gets either.
func (g *globals) index(ctx context.Context, eng *pipeline.Engine, full bool) (*pipeline.IndexStats, error) {
	if err := g.inProject(); err != nil {
		return nil, err
	}
	opts := pipeline.IndexOptions{Full: full, HugeHeap: true}
	if g.oneShot {
		// A refresh most often finds nothing changed, and allocates too
		// little to be worth collecting: the collector waits until the
		// run finds work. A run that found none leaves it waiting (as
		// programs.QuietGC does, under its memory limit) for the rest of
		// the command, which answers and exits: putting it back would
		// start a collection of the refresh's garbage that nothing needs.
		loud := programs.QuietGCUntil()
		worked := false
		opts.Working = func() {
			worked = true
			loud()
		}
		defer func() {
			if worked {
				loud()
			}
		}()
	}
	l := g.lang()
	if !g.JSON && isTerminal(g.stderr) {
		d := newProgressDisplay(g.stderr, l, time.Now)
		g.logOut.hold(d)
		defer g.logOut.hold(nil)
		opts.Progress = d.update
		stats, err := eng.Index(ctx, opts)
		d.finish(stats, err)
		return stats, err
	}
	var mu sync.Mutex
	said, done := false, false
	where := l.Get(messages.ProgressTheProject)
	if root, err := g.projectRoot(); err == nil {
		where = root
	}
	say := func() {
		mu.Lock()
		defer mu.Unlock()
		if done {
			return // the run is over
		}
		said = true
		fmt.Fprintln(g.stderr, l.Format(messages.ProgressIndexing, where))
	}
	if slowIndex <= 0 {
		say()
	} else {
		defer time.AfterFunc(slowIndex, say).Stop()
	}
	stats, err := eng.Index(ctx, opts)
	mu.Lock() // waits for a line being written
	defer mu.Unlock()
	done = true
	if said && err == nil {
		fmt.Fprintln(g.stderr, l.Format(messages.ProgressIndexed, l.Count(stats.Files.Indexed, messages.NounFile), stats.DurationMS/1000))
	}
	return stats, err
}

// progressTiming is how long an index run goes before its progress shows
// on a terminal (a refresh that finds little to do shows nothing), and how
// often the display is redrawn meanwhile, the elapsed time with it. With
// every 0 (tests), each event of the run draws a frame, and nothing else.
var progressTiming = struct{ delay, every time.Duration }{delay: 300 * time.Millisecond, every: 100 * time.Millisecond}

// progressDisplay shows an index run's progress on a terminal: one line,
// drawn again in place, with the run's step (pipeline.Phase) of all, what
// the step counts (the files found, the files indexed of those to index,
// the rankers through), the share done where there is a whole, and the
// time since the run began. No estimate of the time left: the steps after
// the parsing (references, rankers) take longer than their files would
// say, so any would be a guess. The run's events only record where it is;
// a ticker draws, every progressTiming.every, so the run pays nothing for
// it but a lock, and the time goes on in a long step that reports nothing.
type progressDisplay struct {
	w     io.Writer
	l     messages.Lang
	style style
	now   func() time.Time
	start time.Time

	mu sync.Mutex
	p  pipeline.Progress
	// files is the files to index as the reading and parsing last
	// counted them (-1 before): the later steps show it.
	files int
	// drawn says a frame was shown, onLine that one is on the line now;
	// over that the run ended.
	drawn, onLine, over bool
	// stop ends the ticker, which closes ended (nil: no ticker).
	stop, ended chan struct{}
}

// newProgressDisplay starts a display of a run beginning now on w.
func newProgressDisplay(w io.Writer, l messages.Lang, now func() time.Time) *progressDisplay {
	d := &progressDisplay{w: w, l: l, style: styleFor(w), now: now, start: now(), files: -1}
	if progressTiming.every > 0 {
		d.stop, d.ended = make(chan struct{}), make(chan struct{})
		go d.tick(progressTiming.every)
	}
	return d
}

// update records where the run is (IndexOptions.Progress).
func (d *progressDisplay) update(p pipeline.Progress) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.p = p
	if p.Phase == pipeline.PhaseRead || p.Phase == pipeline.PhaseParse {
		d.files = p.Total
	}
	if d.stop == nil {
		d.draw()
	}
}

func (d *progressDisplay) tick(every time.Duration) {
	defer close(d.ended)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-d.stop:
			return
		case <-t.C:
			d.mu.Lock()
			d.draw()
			d.mu.Unlock()
		}
	}
}

// draw writes the frame of now over the last, once the run has taken
// progressTiming.delay; d.mu is held.
func (d *progressDisplay) draw() {
	elapsed := d.now().Sub(d.start)
	if d.over || d.p.Phase == 0 || elapsed < progressTiming.delay {
		return
	}
	fmt.Fprint(d.w, "\r"+progressFrame(d.l, d.style, d.p, d.files, elapsed, columns(d.w))+"\x1b[K")
	d.drawn, d.onLine = true, true
}

// write writes p (a log line) on its own line: the frame goes, and the
// next draws it again below.
func (d *progressDisplay) write(w io.Writer, p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.onLine {
		fmt.Fprint(d.w, "\r\x1b[K")
		d.onLine = false
	}
	n, err := w.Write(p)
	if d.stop == nil {
		d.draw()
	}
	return n, err
}

// finish ends the display: the frame goes, and a run that showed one and
// ended well says what it indexed, in how long (the error of one that
// failed is the command's to print).
func (d *progressDisplay) finish(stats *pipeline.IndexStats, err error) {
	if d.stop != nil {
		close(d.stop)
		<-d.ended
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.over = true
	if d.onLine {
		fmt.Fprint(d.w, "\r\x1b[K")
	}
	if d.drawn && err == nil {
		fmt.Fprintln(d.w, d.l.Format(messages.ProgressIndexed, d.l.Quantity(stats.Files.Indexed, messages.NounFile), stats.DurationMS/1000))
	}
}

// phaseLabels are the steps' names, by pipeline.Phase.
var phaseLabels = [...]messages.Key{
	pipeline.PhaseWalk:       messages.ProgressWalking,
	pipeline.PhaseRead:       messages.ProgressReading,
	pipeline.PhaseParse:      messages.ProgressParsing,
	pipeline.PhaseNotes:      messages.ProgressNotes,
	pipeline.PhaseImports:    messages.ProgressImports,
	pipeline.PhaseReferences: messages.ProgressReferences,
	pipeline.PhaseRank:       messages.ProgressRanking,
	pipeline.PhaseRankers:    messages.ProgressRankers,
	pipeline.PhaseWrite:      messages.ProgressWriting,
}

// progressBar is how many columns the bar of a step with a whole takes.
const progressBar = 20

// progressFrame is the line that shows p, elapsed into the run, within
// width columns (0: any): the step and its name (with the rankers through
// of all), then what it counts (the files found; a bar, the files indexed
// of those to index and the share; in the steps after them, the files,
// when known: files >= 0), then the time. A narrow terminal loses the bar
// first.
func progressFrame(l messages.Lang, st style, p pipeline.Progress, files int, elapsed time.Duration, width int) string {
	head := l.Format(messages.ProgressStep, int(p.Phase), pipeline.Phases, l.Get(phaseLabels[p.Phase]))
	var count, bar string
	switch p.Phase {
	case pipeline.PhaseWalk:
		count = l.Quantity(p.Done, messages.NounFile)
	case pipeline.PhaseRead, pipeline.PhaseParse:
		if p.Total > 0 {
			share := p.Done * 100 / p.Total
			count = l.Format(messages.ProgressFiles, l.Number(p.Done), l.Number(p.Total)) + fmt.Sprintf(" %d%%", share)
			full := p.Done * progressBar / p.Total
			bar = st.ok(strings.Repeat("█", full)) + strings.Repeat("░", progressBar-full)
		}
	default:
		if p.Phase == pipeline.PhaseRankers && p.Total > 0 {
			head += fmt.Sprintf(" %d/%d", p.Done, p.Total)
		}
		if files >= 0 {
			count = l.Quantity(files, messages.NounFile)
		}
	}
	tail := l.Format(messages.ProgressSeconds, elapsed.Seconds())
	if count != "" {
		tail = count + " · " + tail
	}
	line := head + " · " + tail
	if bar != "" {
		withBar := head + "  " + bar + "  " + tail
		if width <= 0 || messages.Columns(head)+4+progressBar+messages.Columns(tail) < width {
			return withBar
		}
	}
	if width > 0 && messages.Columns(line) >= width {
		line = cutColumns(line, width-1)
	}
	return line
}

// cutColumns cuts s to n columns of a terminal at most.
func cutColumns(s string, n int) string {
	c := 0
	for i, r := range s {
		c += messages.Columns(string(r))
		if c > n {
			return s[:i]
		}
	}
	return s
}

// logOutput is the stream of the command's log lines (stderr), which a
// progress display on the same terminal holds while it shows: a line is
// written below the frame, not into it.
type logOutput struct {
	w  io.Writer
	mu sync.Mutex
	d  *progressDisplay
}

// hold has d hold the stream (nil: let it go).
func (o *logOutput) hold(d *progressDisplay) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.d = d
}

func (o *logOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	d := o.d
	o.mu.Unlock()
	if d != nil {
		return d.write(o.w, p)
	}
	return o.w.Write(p)
}

// stdinIsTerminal reports whether standard input is a terminal (nothing
// piped in): programs.IsTerminal, which a test answers with a
// programs.Terminal.
func (g *globals) stdinIsTerminal() bool { return programs.IsTerminal(g.stdin) }

// needInput is programs.NeedInput for a command that reads what it works
// on from standard input: at a terminal it says what the command reads
// (what) and how else to give it (how, with an example), and ends it with
// status 2 instead of waiting.
func (g *globals) needInput(cmd *cobra.Command, what, how string) error {
	return programs.NeedInput(g.stdin, g.stderr, "rubi: "+strings.TrimPrefix(cmd.CommandPath(), "rubi "), what, how)
}

// indexWritten brings the index up to date with what a command has just
// written (notes, chunks, a curated summary) before it returns, so the
// next hook or query sees it: the notes' documents alone, incrementally
// (pipeline.Engine.IndexNotes). The write stands whatever happens here: a
// failure is a warning. A project whose rubi.hcl names a ranker plugin
// this program cannot start is left to the next recall, which hands over
// to rubi-full and finds the notes changed.
func (g *globals) indexWritten(ctx context.Context, eng *pipeline.Engine) {
	if g.launcher == nil && host.StartsPlugins(eng.Config(), core.KindRanker) {
		return
	}
	_, err := eng.IndexNotes(ctx)
	switch {
	case errors.Is(err, pipeline.ErrIndexOutdated):
		fmt.Fprintln(g.stderr, g.lang().Get(messages.ProgressSavedOutdated))
	case err != nil:
		fmt.Fprintln(g.stderr, g.lang().Format(messages.ProgressSavedNotIndexed, err))
	}
}
