package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/bench/internal/perf"
	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/pipeline"
)

// codeReport is the code localization part of the report.
type codeReport struct {
	Seed    uint64       `json:"seed"`
	Modules []codeModule `json:"modules"`
	// Pooled are the scores over every module's queries together.
	Pooled []codeSystem `json:"pooled"`
}

// codeModule is one module's set and scores.
type codeModule struct {
	Module       string  `json:"module"`
	Files        int     `json:"files"`
	GoFiles      int     `json:"go_files"`
	Candidates   int     `json:"candidates"`
	Queries      int     `json:"queries"`
	IndexSeconds float64 `json:"index_seconds"`
	// ReindexSeconds is bringing the index up to date after taking the
	// queries' doc comments out.
	ReindexSeconds float64 `json:"reindex_seconds"`
	// Systems are the baseline, then rubi's variants.
	Systems []codeSystem `json:"systems"`
}

// codeSystem is one system's localization scores.
type codeSystem struct {
	Name    string         `json:"name"`
	Role    string         `json:"role"`
	Scores  locScores      `json:"scores"`
	Latency latencySummary `json:"latency"`
}

// runCode measures file localization on each module: the module is
// fetched through the Go module proxy, copied to a writable directory and
// indexed once with the full configuration; queries are sampled from the
// doc comments of the Go files rubi indexed; each query goes through
// Retrieve (files only, 50 items, a budget that never cuts) for every
// variant, and through the baseline over each indexed file's path and
// text.
func runCode(ctx context.Context, h *harness, work string, modules []string, perModule int, seed uint64, vs []variant, progress func(string)) (*codeReport, error) {
	rep := &codeReport{Seed: seed}
	pooled := make([]locSum, len(vs)+1)
	pooledLat := make([]latencies, len(vs)+1)
	pooledFirst := make([]time.Duration, len(vs)+1)
	for _, mod := range modules {
		src, err := downloadModule(ctx, work, mod)
		if err != nil {
			return nil, err
		}
		root := filepath.Join(work, "code-"+strings.NewReplacer("/", "_", "@", "_").Replace(mod))
		if err := perf.CopyTree(src, root); err != nil {
			return nil, fmt.Errorf("copy %s: %w", mod, err)
		}
		progress(fmt.Sprintf("code: %s: fetched, indexing", mod))
		m, queries, files, err := indexModule(ctx, h, root, mod, perModule, seed)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", mod, err)
		}
		progress(fmt.Sprintf("code: %s: %d files indexed in %.1fs, %d queries of %d candidates", mod, m.Files, m.IndexSeconds, m.Queries, m.Candidates))

		texts := make([]string, len(queries))
		for i, q := range queries {
			texts[i] = q.Text
		}
		// The baseline.
		bl := newBaseline()
		for _, f := range files {
			data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
			if err != nil {
				return nil, err
			}
			bl.add(f, f+"\n"+string(data))
		}
		var sum locSum
		var lat latencies
		for _, q := range queries {
			start := time.Now()
			got := bl.search(q.Text, 50)
			lat = append(lat, time.Since(start))
			sum.add(rankOf(got, q.File))
		}
		m.Systems = append(m.Systems, codeSystem{Name: baselineName, Role: "reference", Scores: sum.scores(), Latency: summarize(lat, 0)})
		pooled[0] = mergeLoc(pooled[0], sum)
		pooledLat[0] = append(pooledLat[0], lat...)

		// rubi, each variant.
		key := func(it answer.Item) string { return it.Path }
		for i, v := range vs {
			eng, err := h.variantEngine(root, v)
			if err != nil {
				return nil, err
			}
			ranked, lat, first, err := timedQueries(ctx, eng, texts, answer.Query{Kinds: []string{core.DocFile}, Limit: 50, Budget: 1 << 30}, key)
			eng.Close()
			if err != nil {
				return nil, fmt.Errorf("%s, %s: %w", mod, v.Name(), err)
			}
			var sum locSum
			for j, q := range queries {
				sum.add(rankOf(ranked[j], q.File))
			}
			m.Systems = append(m.Systems, codeSystem{Name: v.Name(), Role: v.Role(), Scores: sum.scores(), Latency: summarize(lat, first)})
			pooled[i+1] = mergeLoc(pooled[i+1], sum)
			pooledLat[i+1] = append(pooledLat[i+1], lat...)
			pooledFirst[i+1] = max(pooledFirst[i+1], first)
		}
		rep.Modules = append(rep.Modules, m)
		progress(fmt.Sprintf("code: %s: measured", mod))
		// The copy and its index are large; the next module needs the room.
		if err := os.RemoveAll(root); err != nil {
			return nil, err
		}
	}
	rep.Pooled = append(rep.Pooled, codeSystem{Name: baselineName, Role: "reference", Scores: pooled[0].scores(), Latency: summarize(pooledLat[0], 0)})
	for i, v := range vs {
		rep.Pooled = append(rep.Pooled, codeSystem{Name: v.Name(), Role: v.Role(), Scores: pooled[i+1].scores(), Latency: summarize(pooledLat[i+1], pooledFirst[i+1])})
	}
	return rep, nil
}

func mergeLoc(a, b locSum) locSum {
	return locSum{N: a.N + b.N, Top1: a.Top1 + b.Top1, Top3: a.Top3 + b.Top3, Top5: a.Top5 + b.Top5, RR: a.RR + b.RR}
}

// indexModule indexes the module copy at root with the full
// configuration and samples its queries from the Go files the index
// holds. It returns the module's figures so far, the queries, and every
// indexed file (slash paths relative to root).
func indexModule(ctx context.Context, h *harness, root, mod string, n int, seed uint64) (codeModule, []codeQuery, []string, error) {
	m := codeModule{Module: mod}
	eng, err := h.engine(root, nil)
	if err != nil {
		return m, nil, nil, err
	}
	defer eng.Close()
	start := time.Now()
	if _, err := eng.Index(ctx, pipeline.IndexOptions{}); err != nil {
		return m, nil, nil, fmt.Errorf("index: %w", err)
	}
	m.IndexSeconds = time.Since(start).Seconds()
	g, err := eng.Graph()
	if err != nil {
		return m, nil, nil, err
	}
	var files []string
	var cands []codeQuery
	for _, f := range g.Files {
		files = append(files, f.Path)
		if f.Lang != "go" {
			continue
		}
		m.GoFiles++
		if excludedFromQueries(f.Path) {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.Path)))
		if err != nil {
			return m, nil, nil, err
		}
		for _, c := range goCandidates(f.Path, src) {
			c.Module = mod
			cands = append(cands, c)
		}
	}
	m.Files = len(files)
	m.Candidates = len(cands)
	queries := sampleQueries(cands, n, seed)
	m.Queries = len(queries)
	// The query is the doc comment, so a file that still held it would
	// be found by matching the text verbatim: take it out of the copy and
	// bring the index up to date, so the file must be found by its code.
	for _, q := range queries {
		p := filepath.Join(root, filepath.FromSlash(q.File))
		src, err := os.ReadFile(p)
		if err != nil {
			return m, nil, nil, err
		}
		if err := os.WriteFile(p, blankRange(src, q.DocStart, q.DocEnd), 0o644); err != nil {
			return m, nil, nil, err
		}
	}
	start = time.Now()
	if _, err := eng.Index(ctx, pipeline.IndexOptions{}); err != nil {
		return m, nil, nil, fmt.Errorf("re-index: %w", err)
	}
	m.ReindexSeconds = time.Since(start).Seconds()
	return m, queries, files, nil
}
