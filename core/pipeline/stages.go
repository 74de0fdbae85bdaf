package pipeline

import (
	"context"
	"fmt"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/host"
)

// stageSet is the stages rubi.hcl declares, as one engine opens them:
// each once, on first use, through the host, so that a query that finds
// the index fresh never starts a parser. What an index records of a
// stage (its fingerprint) and asks of it (which parser takes a language,
// whether a ranker's state is sound) is read here too.
type stageSet struct {
	cfg  *config.Config
	host *host.Host

	mu     sync.Mutex
	opened map[*config.Stage]core.Stage
}

func newStageSet(cfg *config.Config, h *host.Host) *stageSet {
	return &stageSet{cfg: cfg, host: h, opened: map[*config.Stage]core.Stage{}}
}

// DiagnosticsError is a configuration mistake found while opening a stage.
type DiagnosticsError struct {
	Diags hcl.Diagnostics
	Files map[string]*hcl.File
}

func (e *DiagnosticsError) Error() string { return e.Diags.Error() }

// open returns the opened stage for st, opening it on first use. A nil
// stage with no error means a failed plugin with no fallback.
func (s *stageSet) open(ctx context.Context, st *config.Stage) (core.Stage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if stage, ok := s.opened[st]; ok {
		return stage, nil
	}
	stage, diags := s.host.Open(ctx, st)
	if diags.HasErrors() {
		return nil, &DiagnosticsError{Diags: diags, Files: s.cfg.Files}
	}
	s.opened[st] = stage
	return stage, nil
}

// openAll opens every enabled stage, gathering the configuration
// mistakes of all of them.
func (s *stageSet) openAll(ctx context.Context) error {
	var diags hcl.Diagnostics
	for _, st := range s.cfg.Stages {
		if !st.Enabled {
			continue
		}
		if _, err := s.open(ctx, st); err != nil {
			if de, ok := err.(*DiagnosticsError); ok {
				diags = append(diags, de.Diags...)
				continue
			}
			return err
		}
	}
	if diags.HasErrors() {
		return &DiagnosticsError{Diags: diags, Files: s.cfg.Files}
	}
	return nil
}

// indexedRankers are the enabled rankers the index holds something of:
// all but the built-ins whose Info says Stateless (query.paths, which
// ranks from what the engine holds already). A stateless ranker is given
// no corpus, has no fingerprint in the manifest and never makes the index
// outdated: an index written before it existed stays current. A plugin
// ranker is counted whatever it says, as asking would start it on every
// run that changed nothing.
func (s *stageSet) indexedRankers() []*config.Stage {
	var out []*config.Stage
	for _, st := range s.cfg.Enabled(core.KindRanker) {
		if !stateless(st) {
			out = append(out, st)
		}
	}
	return out
}

// stateless reports whether st is a built-in whose Info says Stateless,
// which its factory tells without opening it.
func stateless(st *config.Stage) bool {
	b, ok := core.LookupBuiltin(st.Name)
	return ok && st.Plugin == "" && b.Kind == st.Kind && b.Factory().Info().Stateless
}

// fingerprint identifies how a stage runs: its configuration, and for a
// built-in its own version too.
func (s *stageSet) fingerprint(st *config.Stage) string {
	fp := s.cfg.Fingerprint(st)
	// The links relate adds are part of every ranker's corpus.
	fp += fmt.Sprintf("/links:%t,%d,%t", s.cfg.Index.LinkSessions, s.cfg.Index.LinkEntities, s.cfg.Index.SessionContext)
	if b, ok := core.LookupBuiltin(st.Name); ok && st.Plugin == "" {
		fp += "/" + b.Factory().Info().Version
	}
	return fp
}

// parserFingerprints maps each language to the fingerprint of the parser
// that handles it (a parser declared later takes over the languages it
// names); languages no parser names are absent.
func (s *stageSet) parserFingerprints() map[string]string {
	out := map[string]string{}
	for _, st := range s.cfg.Enabled(core.KindParser) {
		fp := s.fingerprint(st)
		langs := st.Languages
		if len(langs) == 0 {
			// It takes every language it advertises; only a started
			// plugin can say which, so the "*" entry stands for them.
			langs = []string{"*"}
		}
		for _, l := range langs {
			out[l] = fp
		}
	}
	return out
}

// parsers maps each language to the parser that takes it: the last
// enabled parser that names it, or that advertises it when its block
// names none (which opens it to ask). With tolerant, a parser that cannot
// be opened is passed over instead of failing the whole.
func (s *stageSet) parsers(ctx context.Context, tolerant bool) (map[string]*config.Stage, error) {
	route := map[string]*config.Stage{}
	for _, st := range s.cfg.Enabled(core.KindParser) {
		langs := st.Languages
		if len(langs) == 0 {
			stage, err := s.open(ctx, st)
			if err != nil && !tolerant {
				return nil, err
			}
			if stage != nil {
				langs = stage.Info().Languages
			}
		}
		for _, l := range langs {
			route[l] = st
		}
	}
	return route, nil
}

// parseOne parses one file's content with the parser of its language, as
// an index run routes it.
func (s *stageSet) parseOne(p string, content []byte) ([]core.Symbol, bool) {
	ctx := context.Background()
	lang := core.DetectLanguage(p)
	route, _ := s.parsers(ctx, true)
	st := route[lang]
	if st == nil {
		return nil, false
	}
	stage, err := s.open(ctx, st)
	if err != nil {
		return nil, false
	}
	parser, ok := stage.(core.Parser)
	if !ok {
		return nil, false
	}
	facts, err := parser.Parse(ctx, []core.SourceFile{{Path: p, Language: lang, Content: content}})
	if err != nil || len(facts) != 1 {
		return nil, false
	}
	return facts[0].Symbols, true
}

// verify asks a built-in ranker that keeps state whether that state is
// sound (core.Verifier). A subprocess plugin is not started for it: its
// own Index reports damage with core.ErrFullIndexNeeded.
func (s *stageSet) verify(ctx context.Context, st *config.Stage) error {
	if st.Plugin != "" {
		return nil
	}
	stage, err := s.open(ctx, st)
	if err != nil || stage == nil {
		return nil // reported when the rankers are opened to index
	}
	if v, ok := stage.(core.Verifier); ok {
		return v.Verify(ctx)
	}
	return nil
}
