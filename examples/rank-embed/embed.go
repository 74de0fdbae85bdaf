package main

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/go-hclog"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/store"
)

// Settings are the attributes the ranker accepts in its rubi.hcl block.
// (timeout, weight and enabled are rubi's own, common to every ranker.)
type Settings struct {
	// Endpoint is the base URL of an OpenAI-compatible API; the ranker
	// posts to Endpoint + "/embeddings".
	Endpoint string `hcl:"endpoint,optional"`
	// Model is the embedding model's name as the server knows it.
	Model string `hcl:"model,optional"`
	// AllowRemote lets Endpoint be another machine. Without it only a
	// loopback address is accepted and dialled.
	AllowRemote bool `hcl:"allow_remote,optional"`
	// BatchSize is how many documents one request embeds.
	BatchSize int `hcl:"batch_size,optional"`
	// RequestTimeout bounds one request ("30s").
	RequestTimeout string `hcl:"request_timeout,optional"`
	// Kinds are the document kinds embedded: file, module, node, chunk.
	Kinds []string `hcl:"kinds,optional"`
	// MaxChars is how much of a document's text is sent.
	MaxChars int `hcl:"max_chars,optional"`
	// QueryPrefix and DocumentPrefix are put before a question and a
	// document: some models are trained with them (nomic-embed-text:
	// "search_query: " and "search_document: ").
	QueryPrefix    string `hcl:"query_prefix,optional"`
	DocumentPrefix string `hcl:"document_prefix,optional"`
}

// Ranker is rank.embed.
type Ranker struct {
	settings Settings
	timeout  time.Duration
	kinds    map[string]bool
	client   *client
	stateDir string
	logger   hclog.Logger

	mu    sync.Mutex
	state *vectors
}

const (
	defaultEndpoint = "http://127.0.0.1:11434/v1"
	defaultModel    = "nomic-embed-text"
	vectorFile      = "vectors.bin"
)

// New returns the ranker with its defaults.
func New() *Ranker {
	return &Ranker{
		settings: Settings{
			Endpoint:       defaultEndpoint,
			Model:          defaultModel,
			BatchSize:      32,
			RequestTimeout: "30s",
			Kinds:          []string{core.DocFile, core.DocNode, core.DocChunk},
			MaxChars:       4000,
		},
		logger: hclog.NewNullLogger(),
	}
}

// Info describes the plugin.
func (r *Ranker) Info() core.Info {
	return core.Info{
		Name:        "rank.embed",
		Kind:        core.KindRanker,
		Version:     "1.0.0",
		Description: "Semantic search: cosine between the question's and the documents' embeddings from a local OpenAI-compatible endpoint.",
		Schema:      core.MustSchemaOf(&Settings{}),
	}
}

// Configure reads the settings; an endpoint off this machine is refused
// unless allow_remote is set.
func (r *Ranker) Configure(_ context.Context, setup core.Setup) error {
	if err := core.DecodeSettings(setup.Settings, &r.settings); err != nil {
		return err
	}
	s := &r.settings
	if strings.TrimSpace(s.Model) == "" {
		return &core.SettingError{Setting: "model", Message: "must name the embedding model (e.g. nomic-embed-text)"}
	}
	if s.BatchSize < 1 || s.BatchSize > 2048 {
		return &core.SettingError{Setting: "batch_size", Message: "must be between 1 and 2048"}
	}
	if s.MaxChars < 16 {
		return &core.SettingError{Setting: "max_chars", Message: "must be at least 16"}
	}
	d, err := time.ParseDuration(s.RequestTimeout)
	if err != nil || d <= 0 {
		return &core.SettingError{Setting: "request_timeout", Message: fmt.Sprintf("%q is not a positive duration such as \"30s\"", s.RequestTimeout)}
	}
	r.timeout = d
	if len(s.Kinds) == 0 {
		return &core.SettingError{Setting: "kinds", Message: "must name at least one kind: file, module, node, chunk"}
	}
	r.kinds = map[string]bool{}
	for _, k := range s.Kinds {
		switch k {
		case core.DocFile, core.DocModule, core.DocNode, core.DocChunk:
			r.kinds[k] = true
		default:
			return &core.SettingError{Setting: "kinds", Message: fmt.Sprintf("%q is not a kind: file, module, node, chunk", k)}
		}
	}
	c, err := newClient(s.Endpoint, s.Model, d, s.AllowRemote)
	if err != nil {
		return &core.SettingError{Setting: "endpoint", Message: err.Error()}
	}
	r.client, r.stateDir = c, setup.StateDir
	return nil
}

// docText is what is embedded for a document whose body is body (read
// through core.Corpus.Body): its title, its path when the title is not
// it, and the start of its body, at most max_chars bytes (cut on a
// character boundary).
func (r *Ranker) docText(d *core.Document, body string) string {
	var b strings.Builder
	b.WriteString(r.settings.DocumentPrefix)
	b.WriteString(d.Title)
	if d.Path != "" && d.Path != d.Title {
		b.WriteString(" (")
		b.WriteString(d.Path)
		b.WriteString(")")
	}
	if body != "" {
		b.WriteString("\n")
		b.WriteString(body)
	}
	s := b.String()
	limit := len(r.settings.DocumentPrefix) + r.settings.MaxChars
	if len(s) > limit {
		s = s[:limit]
		// Drop the bytes of a character cut in two.
		for len(s) > 0 {
			if c, size := utf8.DecodeLastRuneInString(s); c != utf8.RuneError || size != 1 {
				break
			}
			s = s[:len(s)-1]
		}
	}
	return s
}

// todo is a document to embed.
type todo struct {
	id, text string
	hash     uint64
}

// Index brings the vectors up to date with the corpus. A document whose
// text is unchanged keeps its vector; an incremental corpus is applied
// from its changed documents alone (the others carry no body). Progress
// is saved even when the endpoint fails part way, so the next run (which
// rubi makes full after a failure) embeds only what is still missing.
func (r *Ranker) Index(ctx context.Context, corpus *core.Corpus) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	prev := r.state
	if prev == nil {
		var err error
		prev, err = r.load()
		if err != nil {
			if !corpus.Full {
				return core.ErrFullIndexNeeded
			}
			if !errors.Is(err, os.ErrNotExist) {
				r.logger.Warn("rebuilding the vectors", "reason", err.Error())
			}
			prev = &vectors{}
		}
	}
	if prev.Model != "" && prev.Model != r.settings.Model {
		// Another model's vectors mean nothing to this one.
		if !corpus.Full {
			return core.ErrFullIndexNeeded
		}
		prev = &vectors{}
	}
	old := prev.byID()
	changed := make(map[string]bool, len(corpus.Changed))
	for _, id := range corpus.Changed {
		changed[id] = true
	}
	next := &vectors{Model: r.settings.Model, Dim: prev.Dim}
	var work []todo
	for i := range corpus.Documents {
		d := &corpus.Documents[i]
		if !r.kinds[d.Kind] {
			continue
		}
		next.Total++
		e, have := old[d.ID]
		if !corpus.Full && !changed[d.ID] {
			if !have {
				// Known to rubi but not here, and its body was not sent.
				return core.ErrFullIndexNeeded
			}
			next.Entries = append(next.Entries, *e)
			continue
		}
		text := r.docText(d, corpus.Body(d))
		h := textHash(text)
		if have && e.Hash == h {
			next.Entries = append(next.Entries, *e)
			continue
		}
		work = append(work, todo{id: d.ID, text: text, hash: h})
	}
	embedded, err := r.embedAll(ctx, next, work)
	same := embedded == 0 && len(next.Entries) == len(prev.Entries) && next.Total == prev.Total && next.Model == prev.Model
	if !same {
		if saveErr := r.save(next); saveErr != nil {
			return saveErr
		}
	}
	r.state = next
	if err != nil {
		return fmt.Errorf("%w (%d of %d documents have vectors; the next rubi index embeds the rest)", err, len(next.Entries), next.Total)
	}
	r.logger.Info("vectors up to date", "embedded", embedded, "with_vectors", len(next.Entries), "documents", next.Total)
	return nil
}

// embedAll embeds work in batches into next. It stops early, with an
// error, when the call's deadline would pass before another batch
// returns, so what was embedded is saved rather than lost to the kill.
func (r *Ranker) embedAll(ctx context.Context, next *vectors, work []todo) (int, error) {
	done := 0
	var slowest time.Duration
	for start := 0; start < len(work); start += r.settings.BatchSize {
		batch := work[start:min(start+r.settings.BatchSize, len(work))]
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < 2*slowest+time.Second {
			return done, fmt.Errorf("stopped before the call's timeout with %d documents left to embed: raise timeout in the rank.embed block or run rubi index again", len(work)-done)
		}
		texts := make([]string, len(batch))
		for i, t := range batch {
			texts[i] = t.text
		}
		t0 := time.Now()
		vecs, err := r.client.embed(ctx, texts)
		if err != nil {
			return done, err
		}
		slowest = max(slowest, time.Since(t0))
		if next.Dim == 0 {
			next.Dim = len(vecs[0])
		}
		if len(vecs[0]) != next.Dim {
			// The model changed under the same name: start over.
			return done, fmt.Errorf("the model answered vectors of %d dimensions where the index holds %d: run rubi index --full", len(vecs[0]), next.Dim)
		}
		for i, v := range vecs {
			scale, q := quantize(v)
			next.Entries = append(next.Entries, entry{ID: batch[i].id, Hash: batch[i].hash, Scale: scale, Vec: q})
		}
		done += len(batch)
	}
	return done, nil
}

// Rank embeds the question (one request) and returns the documents whose
// vectors are nearest by cosine. It compares against every vector: about
// dim × documents multiply-adds (768 × 10,000 takes a few milliseconds).
func (r *Ranker) Rank(ctx context.Context, q core.Query) ([]core.Hit, error) {
	r.mu.Lock()
	st := r.state
	var err error
	if st == nil {
		st, err = r.load()
		if err == nil {
			r.state = st
		}
	}
	r.mu.Unlock()
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, errors.New("no vectors yet: run rubi index with the embeddings endpoint running")
		}
		return nil, err
	}
	accepted := false
	for k := range r.kinds {
		accepted = accepted || q.AcceptsKind(k)
	}
	if !accepted || len(st.Entries) == 0 {
		return nil, nil
	}
	text := strings.TrimSpace(q.Text + " " + strings.Join(q.Terms, " "))
	vecs, err := r.client.embed(ctx, []string{r.settings.QueryPrefix + text})
	if err != nil {
		return nil, err
	}
	if len(vecs[0]) != st.Dim {
		return nil, fmt.Errorf("the model answered a query vector of %d dimensions where the index holds %d: run rubi index --full", len(vecs[0]), st.Dim)
	}
	qv := unit(vecs[0])
	if qv == nil {
		return nil, nil
	}
	hits := st.nearest(qv, q)
	coverage := ""
	if len(st.Entries) < st.Total {
		coverage = fmt.Sprintf("; %d of %d documents embedded", len(st.Entries), st.Total)
	}
	for i := range hits {
		hits[i].Reason = fmt.Sprintf("close in meaning (cosine %.2f%s)", hits[i].Score, coverage)
	}
	return hits, nil
}

// nearest scores every vector of a kind q accepts against the unit
// query vector qv and returns the best q.Limit, best first.
func (v *vectors) nearest(qv []float32, q core.Query) []core.Hit {
	limit := q.Limit
	if limit <= 0 {
		limit = len(v.Entries)
	}
	// The best limit so far, in a min-heap on (score, then id
	// descending): the root is the first to give way.
	worse := func(a, b core.Hit) bool {
		if a.Score != b.Score {
			return a.Score < b.Score
		}
		return a.ID > b.ID
	}
	top := &hitHeap{less: worse}
	for i := range v.Entries {
		e := &v.Entries[i]
		kind, _, _ := strings.Cut(e.ID, ":")
		if !q.AcceptsKind(kind) {
			continue
		}
		h := core.Hit{ID: e.ID, Score: cosine(qv, e)}
		switch {
		case len(top.hits) < limit:
			heap.Push(top, h)
		case worse(top.hits[0], h):
			top.hits[0] = h
			heap.Fix(top, 0)
		}
	}
	hits := top.hits
	sort.Slice(hits, func(i, j int) bool { return worse(hits[j], hits[i]) })
	return hits
}

// hitHeap is a container/heap of hits ordered by less.
type hitHeap struct {
	hits []core.Hit
	less func(a, b core.Hit) bool
}

func (h *hitHeap) Len() int           { return len(h.hits) }
func (h *hitHeap) Less(i, j int) bool { return h.less(h.hits[i], h.hits[j]) }
func (h *hitHeap) Swap(i, j int)      { h.hits[i], h.hits[j] = h.hits[j], h.hits[i] }
func (h *hitHeap) Push(x any)         { h.hits = append(h.hits, x.(core.Hit)) }
func (h *hitHeap) Pop() any {
	last := h.hits[len(h.hits)-1]
	h.hits = h.hits[:len(h.hits)-1]
	return last
}

// load reads the vector file. A damaged file is removed, so that rubi's
// next index, finding the state directory empty, rebuilds it in full.
func (r *Ranker) load() (*vectors, error) {
	path := filepath.Join(r.stateDir, vectorFile)
	before, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	v, err := decode(data)
	if err != nil {
		// Remove it only if no index replaced it meanwhile.
		if after, serr := os.Stat(path); serr == nil && after.ModTime().Equal(before.ModTime()) && after.Size() == before.Size() {
			os.Remove(path)
		}
		return nil, fmt.Errorf("%s: %w; removed, the next rubi index rebuilds it", path, err)
	}
	return v, nil
}

// save writes the vector file atomically, entries sorted by id.
func (r *Ranker) save(v *vectors) error {
	slices.SortFunc(v.Entries, func(a, b entry) int { return strings.Compare(a.ID, b.ID) })
	data, err := v.encode()
	if err != nil {
		return err
	}
	return store.WriteFile(filepath.Join(r.stateDir, vectorFile), data, 0o644)
}

var _ core.Ranker = (*Ranker)(nil)
