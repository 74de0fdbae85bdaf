package pipeline

import (
	"context"
	"errors"
	"slices"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/notes"
	"github.com/rubi-dev/rubi/core/store"
)

// answer makes the query's answer: the rerankers reorder the fused list,
// and the answer package packs it (answer.Answer.Pack), showing each
// document through the engine (shelf).
//
// Symbols are read as the answer is made, rerank.units reading those of
// the files it ranks and the packer those of the files it shows, from
// the symbols file of the generation the query's manifest names. Should
// another process re-index meanwhile and remove that generation, the
// answer is made again from the new index; should the symbols file be
// damaged (truncated, overwritten), it is made again without the symbols
// that cannot be read, and says so: the next index repairs the file.
func (r *retrieval) answer(ctx context.Context) (*answer.Result, error) {
	res, err := r.make(ctx, false)
	if manifest.IsGenerationGone(err) && r.facts.m != nil {
		r.e.folder.set(nil)
		if r.facts.m, err = r.e.folder.current(); err == nil {
			res, err = r.make(ctx, false)
		}
	}
	if err != nil && r.facts.m != nil && errors.Is(err, manifest.ErrSymbolsDamaged) {
		r.damaged = err.Error() + ": the answer lacks those symbols; `rubi index` repairs the file"
		res, err = r.make(ctx, true)
	}
	return res, err
}

// make reranks a copy of the fused list and packs the answer from it,
// over the facts' manifest; tolerant answers without the symbols a
// damaged symbols file cannot give.
func (r *retrieval) make(ctx context.Context, tolerant bool) (*answer.Result, error) {
	syms := &symbolSource{e: r.e, m: r.facts.m, tolerant: tolerant}
	defer syms.close()
	r.facts.symbols = syms
	defer func() { r.facts.symbols = nil }()
	a := &answer.Answer{Query: r.q, Manifest: r.facts.m, Lists: r.lists()}
	rr := core.Rerank{Query: r.cq, Lists: a.Lists, Hits: slices.Clone(r.fused), Keep: r.q.Admit != nil, Limit: r.q.Limit}
	rr.Query.Seeds = r.direct
	if err := r.rerank(ctx, a, rr); err != nil {
		return nil, err
	}
	return a.Pack(&shelf{e: r.e, symbols: syms, chunks: r.chunks})
}

// symbolSource reads the symbols of the files one answer ranks and
// shows, from its manifest's symbols file, opened at the first.
type symbolSource struct {
	e        *Engine
	m        *manifest.Manifest
	r        *manifest.SymbolReader
	tolerant bool
}

// load reads a file's symbols into its record, once.
func (s *symbolSource) load(rec *manifest.Record) error {
	if !rec.Loaded && s.r == nil {
		f, err := s.m.OpenSymbols(s.e.folder.dir)
		if err != nil {
			return err
		}
		s.r = manifest.NewSymbolReader(f)
	}
	if s.r == nil {
		return nil
	}
	// Records cache their symbols once read; queries may run
	// concurrently.
	s.e.symMu.Lock()
	defer s.e.symMu.Unlock()
	if err := s.r.Read(rec); err != nil && !(s.tolerant && errors.Is(err, manifest.ErrSymbolsDamaged)) {
		return err
	}
	return nil
}

func (s *symbolSource) close() {
	if s.r != nil {
		s.r.Close()
	}
}

// shelf gives an answer the documents it shows (answer.Documents), as
// this engine's index holds them.
type shelf struct {
	e       *Engine
	symbols *symbolSource
	// sourced are the sources' states, read at the first source's item.
	sourced map[string]*sourceState
	// chunks are the reads started ahead (retrieval.readAhead).
	chunks map[string]func() notes.ReadChunk
}

func (s *shelf) Symbols(rec *manifest.Record) error { return s.symbols.load(rec) }

func (s *shelf) Note(key string, f notes.Filter, how notes.Showing) (notes.Shown, bool) {
	return s.e.nodes.Show(key, f, how)
}

func (s *shelf) Chunk(key string, f notes.Filter) (notes.Shown, bool) {
	if read, ok := s.chunks[key]; ok {
		return s.e.chunks.ShowRead(read(), f)
	}
	return s.e.chunks.Show(key, f)
}

func (s *shelf) SourceItem(kind, key string) (*core.SourceDocument, bool) {
	if s.sourced == nil {
		s.sourced = s.e.sources.kinds(s.e.cfg)
	}
	st, ok := s.sourced[kind]
	if !ok {
		return nil, false // its source was taken out of the configuration
	}
	it, ok := st.entry(key)
	if !ok {
		return nil, false
	}
	return &it.SourceDocument, true
}

// readHead reads at most limit bytes of a regular file; nil when it
// cannot, or when the path is now a link, a FIFO or a device (the tree is
// the user's and may have changed since the index: a FIFO would block
// the query, a link could lead out of the project).
func readHead(name string, limit int64) []byte {
	f, err := store.OpenLeaf(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil
	}
	// Sized as the file was a moment ago, and one byte more to see it
	// end in one read: a file that grew since is read on, up to the
	// limit.
	data := make([]byte, 0, min(max(fi.Size(), 0), limit)+1)
	for int64(len(data)) < limit {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := f.Read(data[len(data):min(int64(cap(data)), limit)])
		data = data[:len(data)+n]
		if err != nil {
			break
		}
	}
	return data
}
