package pipeline

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/query"
)

// rerank runs the enabled rerankers on rr's list, in the order rubi.hcl
// declares them, and keeps in a what each did: the list it leaves, the
// hits it moved, rescaled or marked weak, the units it chose under the
// files. An error of the index a reranker read through the facts (a
// generation gone, a damaged symbols file) is returned as is: the answer
// is then made again.
func (r *retrieval) rerank(ctx context.Context, a *answer.Answer, rr core.Rerank) error {
	for _, st := range r.e.cfg.Enabled(core.KindReranker) {
		s, err := r.e.stages.open(ctx, st)
		if err != nil {
			return err
		}
		rer, ok := s.(core.Reranker)
		if !ok {
			return fmt.Errorf("reranker %s is unavailable", st.Name)
		}
		var out core.Reranked
		if fr, ok := rer.(core.FactReranker); ok {
			out, err = fr.RerankFacts(ctx, rr, r.facts)
		} else {
			out, err = rer.Rerank(ctx, rr)
		}
		if err != nil {
			if manifest.IsGenerationGone(err) || errors.Is(err, manifest.ErrSymbolsDamaged) {
				return err
			}
			return fmt.Errorf("%s: %w", st.Name, err)
		}
		rr.Hits = out.Hits
		if out.Units != nil {
			a.Units = out.Units
		}
		for id, eff := range out.Effects {
			if eff.Weak {
				if a.Weak == nil {
					a.Weak = map[string]bool{}
				}
				a.Weak[id] = true
				continue
			}
			if a.Reranked == nil {
				a.Reranked = map[string][]answer.Reranked{}
			}
			a.Reranked[id] = append(a.Reranked[id], answer.Reranked{Stage: st.Name, Factor: eff.Factor, From: eff.From, Reason: eff.Reason})
		}
	}
	a.Hits = rr.Hits
	return nil
}

// queryFacts are the engine's facts of one query (core.Facts), for the
// built-in stages that rank and rerank by them. The manifest is read
// while the rankers rank: manifest waits for it.
type queryFacts struct {
	e   *Engine
	q   answer.Query
	an  *query.Analysis
	now time.Time
	// m is the code map's manifest once loaded is closed (nil for a
	// query of notes alone), mErr the error reading it.
	m       *manifest.Manifest
	mErr    error
	loaded  chan struct{}
	symbols *symbolSource
	// uses keeps the uses of the symbols the query's stages asked for.
	uses useCache
}

// load reads the manifest, then closes loaded.
func (f *queryFacts) load() {
	defer close(f.loaded)
	f.m, f.mErr = f.e.folder.current()
}

func (f *queryFacts) manifest() *manifest.Manifest {
	<-f.loaded
	return f.m
}

func (f *queryFacts) Question() string          { return f.q.Text }
func (f *queryFacts) Analysis() *query.Analysis { return f.an }
func (f *queryFacts) Now() time.Time            { return f.now }

func (f *queryFacts) File(path string) (core.FileInfo, bool) {
	m := f.manifest()
	if m == nil {
		return core.FileInfo{}, false
	}
	rec, ok := m.File(path)
	if !ok {
		return core.FileInfo{}, false
	}
	return core.FileInfo{Role: rec.Role, Language: rec.Language, Size: rec.Size}, true
}

func (f *queryFacts) EachPath(fn func(path string) bool) {
	if m := f.manifest(); m != nil {
		m.EachPath(fn)
	}
}

func (f *queryFacts) Keeps(path string) bool {
	m := f.manifest()
	if m == nil {
		return false
	}
	rec, ok := m.File(path)
	return ok && f.q.KeepsFile(rec)
}

// Symbols reads through the symbols source of the answer being made.
func (f *queryFacts) Symbols(path string) ([]core.Symbol, error) {
	m := f.manifest()
	if m == nil || f.symbols == nil {
		return nil, nil
	}
	rec, ok := m.File(path)
	if !ok {
		return nil, nil
	}
	if err := f.symbols.load(rec); err != nil {
		return nil, err
	}
	return rec.Syms, nil
}

// Read reads the head of a file of the project as it is now (readHead).
func (f *queryFacts) Read(path string, limit int64) []byte {
	return readHead(filepath.Join(f.e.cfg.Root, filepath.FromSlash(path)), limit)
}

func (f *queryFacts) Note(key string) (string, []string, bool) {
	m := f.manifest()
	if m == nil {
		return "", nil, false
	}
	return f.e.nodes.Named(key, f.q.NoteFilter(m))
}

// NoteType is a note's type, "" when it cannot be read.
func (f *queryFacts) NoteType(key string) string {
	return f.e.nodes.Type(key)
}

// Time is when a note or chunk was written, zero when it cannot be read.
func (f *queryFacts) Time(id string) time.Time {
	kind, key, err := core.SplitDocID(id)
	if err != nil {
		return time.Time{}
	}
	var at time.Time
	switch kind {
	case core.DocNode:
		at, _ = f.e.nodes.Time(key)
	case core.DocChunk:
		at, _ = f.e.chunks.Time(key)
	}
	return at
}
