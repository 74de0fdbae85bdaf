package host

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/config"
)

// ErrUnavailable is returned by a stage whose plugin failed and whose kind
// has no built-in to fall back to; the pipeline goes on without it.
var ErrUnavailable = errors.New("stage unavailable")

// guard runs a subprocess stage's calls with a deadline and answer checks,
// and swaps in the built-in fallback on the first failure.
type guard struct {
	host   *Host
	st     *config.Stage
	path   string
	plugin Plugin

	mu     sync.Mutex
	stage  core.Stage // the plugin, or the fallback after a failure
	failed bool
}

// typed returns the guard as the interface of the stage's kind.
func (g *guard) typed() core.Stage {
	switch g.st.Kind {
	case core.KindSource:
		return &guardedSource{g}
	case core.KindParser:
		return &guardedParser{g}
	case core.KindRanker:
		return &guardedRanker{g}
	default:
		return &guardedFuser{g}
	}
}

// Info answers from the plugin's cached Info.
func (g *guard) Info() core.Info { return g.plugin.Remote().Info() }

// Configure is done once by the host before the guard is handed out.
func (g *guard) Configure(context.Context, core.Setup) error { return nil }

// current returns the stage to call: the plugin while it is healthy.
func (g *guard) current() (core.Stage, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stage, !g.failed
}

// call runs fn against the plugin under the stage's timeout. On failure it
// reports the plugin once, stops it, switches to the fallback and runs fn
// again there. A cancelled parent context is not the plugin's fault.
func (g *guard) call(ctx context.Context, op string, fn func(ctx context.Context, s core.Stage) error) error {
	s, healthy := g.current()
	if !healthy {
		if s == nil {
			return fmt.Errorf("%s: %w", g.st.Name, ErrUnavailable)
		}
		return fn(ctx, s)
	}
	start := time.Now()
	callCtx, cancel := context.WithTimeout(ctx, g.st.Timeout)
	err := fn(callCtx, s)
	timedOut := callCtx.Err() == context.DeadlineExceeded
	cancel()
	if err == nil || errors.Is(err, core.ErrFullIndexNeeded) {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	reason, deadline := g.plugin.Explain(err)
	// The plugin's server may give up at the deadline a moment before the
	// local timer fires, so its word and the elapsed time decide too.
	timedOut = timedOut || deadline || time.Since(start) >= g.st.Timeout
	g.fail(ctx, op, g.describe(err, reason, timedOut))
	s, _ = g.current()
	if s == nil {
		return fmt.Errorf("%s: %w", g.st.Name, ErrUnavailable)
	}
	return fn(ctx, s)
}

// describe chooses the words of the log line for a failed call: a
// timeout, an answer the guard rejected, or the plugin's own reason.
func (g *guard) describe(err error, reason string, timedOut bool) error {
	var garbage *garbageError
	switch {
	case timedOut:
		return fmt.Errorf("did not answer within %s (timeout)", g.st.Timeout)
	case errors.As(err, &garbage):
		return err
	}
	return errors.New(reason)
}

// fail stops the plugin and installs the fallback, once.
func (g *guard) fail(ctx context.Context, op string, reason error) {
	g.mu.Lock()
	if g.failed {
		g.mu.Unlock()
		return
	}
	g.failed = true
	g.stage = nil
	g.mu.Unlock()

	g.plugin.Kill()
	err := &PluginError{Stage: g.st.Name, Path: g.path, Op: "during " + op, Err: reason}
	g.host.problem("%s; %s", err, g.host.fallbackNote(g.st))
	fb, diags := g.host.openFallback(ctx, g.st)
	if diags.HasErrors() {
		g.host.problem("fallback for %s: %s", g.st.Name, diags.Error())
		return
	}
	if fb != nil {
		// A fallback ranker has not seen the corpus in this process: after
		// a failed Index the retry indexes it; after a failed Rank it ranks
		// from its own persisted state.
		g.mu.Lock()
		g.stage = fb
		g.mu.Unlock()
	}
}

// garbageError is an answer that decoded but makes no sense.
type garbageError struct{ msg string }

func (e *garbageError) Error() string { return "answered garbage: " + e.msg }

func garbagef(format string, args ...any) error {
	return &garbageError{msg: fmt.Sprintf(format, args...)}
}

type guardedSource struct{ *guard }

func (g *guardedSource) Scan(ctx context.Context) ([]core.SourceItem, error) {
	var out []core.SourceItem
	err := g.call(ctx, "Scan", func(ctx context.Context, s core.Stage) error {
		items, err := s.(core.Source).Scan(ctx)
		if err != nil {
			return err
		}
		if err := core.CheckSourceItems(items); err != nil {
			return garbagef("%v", err)
		}
		out = items
		return nil
	})
	return out, err
}

func (g *guardedSource) Read(ctx context.Context, keys []string) ([]core.SourceDocument, error) {
	var out []core.SourceDocument
	err := g.call(ctx, "Read", func(ctx context.Context, s core.Stage) error {
		docs, err := s.(core.Source).Read(ctx, keys)
		if err != nil {
			return err
		}
		if err := core.CheckSourceDocuments(keys, docs); err != nil {
			return garbagef("%v", err)
		}
		out = docs
		return nil
	})
	return out, err
}

type guardedParser struct{ *guard }

func (p *guardedParser) Parse(ctx context.Context, files []core.SourceFile) ([]core.FileFacts, error) {
	var out []core.FileFacts
	err := p.call(ctx, "Parse", func(ctx context.Context, s core.Stage) error {
		facts, err := s.(core.Parser).Parse(ctx, files)
		if err != nil {
			return err
		}
		if err := checkFacts(files, facts); err != nil {
			return err
		}
		out = facts
		return nil
	})
	return out, err
}

func checkFacts(files []core.SourceFile, facts []core.FileFacts) error {
	if len(facts) != len(files) {
		return garbagef("%d facts for %d files", len(facts), len(files))
	}
	for i := range facts {
		if facts[i].Path == "" {
			facts[i].Path = files[i].Path
		}
		if facts[i].Path != files[i].Path {
			return garbagef("facts %d are for %q, not %q", i, facts[i].Path, files[i].Path)
		}
		if facts[i].Language == "" {
			facts[i].Language = files[i].Language
		}
	}
	return nil
}

type guardedRanker struct{ *guard }

func (r *guardedRanker) Index(ctx context.Context, corpus *core.Corpus) error {
	return r.call(ctx, "Index", func(ctx context.Context, s core.Stage) error {
		return s.(core.Ranker).Index(ctx, corpus)
	})
}

func (r *guardedRanker) Rank(ctx context.Context, q core.Query) ([]core.Hit, error) {
	var out []core.Hit
	err := r.call(ctx, "Rank", func(ctx context.Context, s core.Stage) error {
		hits, err := s.(core.Ranker).Rank(ctx, q)
		if err != nil {
			return err
		}
		if err := checkHits(hits, nil); err != nil {
			return err
		}
		if q.Limit > 0 && len(hits) > q.Limit {
			hits = hits[:q.Limit]
		}
		out = hits
		return nil
	})
	return out, err
}

type guardedFuser struct{ *guard }

func (f *guardedFuser) Fuse(ctx context.Context, lists []core.RankedList) ([]core.Hit, error) {
	known := map[string]bool{}
	for _, l := range lists {
		for _, h := range l.Hits {
			known[h.ID] = true
		}
	}
	var out []core.Hit
	err := f.call(ctx, "Fuse", func(ctx context.Context, s core.Stage) error {
		hits, err := s.(core.Fuser).Fuse(ctx, lists)
		if err != nil {
			return err
		}
		if err := checkHits(hits, known); err != nil {
			return err
		}
		out = hits
		return nil
	})
	return out, err
}

// checkHits rejects answers no ranker or fuser could mean: malformed or
// repeated ids, scores that are not numbers, and (for fusers) ids that were
// in no input list.
func checkHits(hits []core.Hit, known map[string]bool) error {
	seen := make(map[string]bool, len(hits))
	for i, h := range hits {
		if _, _, err := core.SplitDocID(h.ID); err != nil {
			return garbagef("hit %d: %v", i, err)
		}
		if seen[h.ID] {
			return garbagef("hit %d repeats %q", i, h.ID)
		}
		seen[h.ID] = true
		if math.IsNaN(h.Score) || math.IsInf(h.Score, 0) {
			return garbagef("hit %d (%s) has score %v", i, h.ID, h.Score)
		}
		if known != nil && !known[h.ID] {
			return garbagef("hit %d (%s) is in none of the lists given", i, h.ID)
		}
	}
	return nil
}

var (
	_ core.Parser = (*guardedParser)(nil)
	_ core.Ranker = (*guardedRanker)(nil)
	_ core.Fuser  = (*guardedFuser)(nil)
)
