package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/host"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/core/store"
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
// it is indexing: a first run on a large project takes a minute, and a
// command that answers in milliseconds afterwards would otherwise look
// hung.
var slowIndex = time.Second

// index runs eng.Index for a command: with a progress bar on stderr when
// it is a terminal and the run is large, and otherwise, once the run has
// taken slowIndex (0: from the start), a line on stderr that rubi is indexing and one when it
// is done. Standard output, --json's, never gets either.
func (g *globals) index(ctx context.Context, eng *pipeline.Engine, full bool) (*pipeline.IndexStats, error) {
	var mu sync.Mutex
	said, bar := false, false
	opts := g.indexOptions(full, func() {
		mu.Lock()
		bar = true
		mu.Unlock()
	})
	l := g.lang()
	where := l.Get(messages.ProgressTheProject)
	if root, err := g.projectRoot(); err == nil {
		where = root
	}
	done := false
	say := func() {
		mu.Lock()
		defer mu.Unlock()
		if bar || done {
			return // the progress bar says it, or the run is over
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

// indexOptions are the options of an index run from the command line:
// with a progress bar on stderr when it is a terminal and the run has
// enough files to parse to be worth one (shown is called when it
// appears). A command indexes before anything else, so a large run may
// reserve its heap in huge pages.
func (g *globals) indexOptions(full bool, shown func()) pipeline.IndexOptions {
	opts := pipeline.IndexOptions{Full: full, HugeHeap: true}
	f, ok := g.stderr.(*os.File)
	if !ok || !isatty.IsTerminal(f.Fd()) {
		return opts
	}
	var bar *progressbar.ProgressBar
	opts.Progress = func(done, total int) {
		if total < 500 {
			return
		}
		if bar == nil {
			shown()
			bar = progressbar.NewOptions(total,
				progressbar.OptionSetWriter(f),
				progressbar.OptionSetDescription(g.lang().Get(messages.ProgressParsing)),
				progressbar.OptionShowCount(),
				progressbar.OptionClearOnFinish(),
				progressbar.OptionThrottle(100e6),
			)
		}
		bar.Set(done)
		if done == total {
			bar.Finish()
		}
	}
	return opts
}

// stdinIsTerminal reports whether standard input is a terminal (nothing
// piped in).
func (g *globals) stdinIsTerminal() bool {
	f, ok := g.stdin.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
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
