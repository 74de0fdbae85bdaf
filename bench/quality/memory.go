package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/memory"
	"github.com/rubi-dev/rubi/core/pipeline"
)

// memoryReport is the LoCoMo part of the report.
type memoryReport struct {
	Data          string `json:"data"`
	Conversations int    `json:"conversations"`
	Turns         int    `json:"turns"`
	// Questions are scored; NoEvidence were skipped.
	Questions  int            `json:"questions"`
	NoEvidence int            `json:"no_evidence"`
	Categories map[string]int `json:"categories"`
	// IndexSeconds is registering and indexing every conversation.
	IndexSeconds float64 `json:"index_seconds"`
	// Systems are the baseline, then rubi's variants, then the full
	// pipeline over the turns saved as conversation-memory chunks.
	Systems []memorySystem `json:"systems"`
	// Sessions is the full pipeline over one chunk per session: the
	// share of evidence turns whose session is in the top 1, 3 and 5.
	Sessions [3]float64 `json:"session_chunks_recall"`
}

// memorySystem is one system's recall.
type memorySystem struct {
	Name string `json:"name"`
	Role string `json:"role"`
	// Recall is in percent at k = 5, 10, 25, 50.
	Recall     [4]float64            `json:"recall"`
	ByCategory map[string][4]float64 `json:"by_category"`
	Latency    latencySummary        `json:"latency"`
}

// latencySummary is how long a query path takes, in milliseconds. First
// is the first query of a fresh engine (opening stages, loading state),
// the largest over the projects measured.
type latencySummary struct {
	P50   float64 `json:"p50_ms"`
	P95   float64 `json:"p95_ms"`
	First float64 `json:"first_ms,omitempty"`
}

func summarize(l latencies, first time.Duration) latencySummary {
	return latencySummary{P50: ms(l.percentile(50)), P95: ms(l.percentile(95)), First: ms(first)}
}

// recallAcc accumulates one system's recall overall and per category.
type recallAcc struct {
	all   recallSum
	byCat map[int]*recallSum
	lat   latencies
	first time.Duration
}

func (a *recallAcc) add(q question, retrieved []string) {
	a.all.add(q.Evidence, retrieved)
	if a.byCat == nil {
		a.byCat = map[int]*recallSum{}
	}
	if a.byCat[q.Category] == nil {
		a.byCat[q.Category] = &recallSum{}
	}
	a.byCat[q.Category].add(q.Evidence, retrieved)
}

func (a *recallAcc) system(name, role string) memorySystem {
	s := memorySystem{Name: name, Role: role, Recall: a.all.percent(), ByCategory: map[string][4]float64{}, Latency: summarize(a.lat, a.first)}
	for c, r := range a.byCat {
		s.ByCategory[categoryLabel(c)] = r.percent()
	}
	return s
}

func categoryLabel(c int) string {
	if n, ok := categoryNames[c]; ok {
		return fmt.Sprintf("%d %s", c, n)
	}
	return fmt.Sprintf("%d", c)
}

// baselineName names the textbook BM25 in the tables.
const baselineName = "baseline: textbook BM25"

// runMemory measures recall on LoCoMo: each conversation becomes a fresh
// project whose every turn is a knowledge note, indexed once; each
// question then goes through Retrieve (nodes only, 50 items, a budget
// that never cuts) for every variant, and through the baseline over the
// same note texts.
func runMemory(ctx context.Context, h *harness, work string, convs []conversation, vs []variant, progress func(string)) (*memoryReport, error) {
	rep := &memoryReport{Categories: map[string]int{}}
	base := &recallAcc{}
	accs := make([]*recallAcc, len(vs))
	for i := range accs {
		accs[i] = &recallAcc{}
	}
	chunks := &recallAcc{}
	var sessionHits [3]float64
	sessionN := 0
	var indexTime time.Duration
	for _, c := range convs {
		var qs []question
		for _, q := range c.Questions {
			if len(q.Evidence) == 0 || strings.TrimSpace(q.Text) == "" {
				rep.NoEvidence++
				continue
			}
			qs = append(qs, q)
			rep.Categories[categoryLabel(q.Category)]++
		}
		root := filepath.Join(work, "locomo-"+c.ID)
		if err := os.MkdirAll(root, 0o755); err != nil {
			return nil, err
		}
		start := time.Now()
		docToDia, texts, err := buildConversation(ctx, h, root, c)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.ID, err)
		}
		indexed := time.Since(start)
		indexTime += indexed
		rep.Conversations++
		rep.Turns += len(docToDia)
		rep.Questions += len(qs)

		bl := newBaseline()
		for _, t := range texts {
			bl.add(t[0], t[1])
		}
		for _, q := range qs {
			start := time.Now()
			got := bl.search(q.Text, 50)
			base.lat = append(base.lat, time.Since(start))
			base.add(q, got)
		}

		qtexts := make([]string, len(qs))
		for i, q := range qs {
			qtexts[i] = q.Text
		}
		key := func(it pipeline.Item) string { return docToDia[it.ID] }
		for i, v := range vs {
			eng, err := h.variantEngine(root, v)
			if err != nil {
				return nil, err
			}
			ranked, lat, first, err := timedQueries(ctx, eng, qtexts, pipeline.Query{Kinds: []string{core.DocNode}, Limit: 50, Budget: 1 << 30}, key)
			eng.Close()
			if err != nil {
				return nil, fmt.Errorf("%s, %s: %w", c.ID, v.Name(), err)
			}
			for j, q := range qs {
				accs[i].add(q, ranked[j])
			}
			accs[i].lat = append(accs[i].lat, lat...)
			accs[i].first = max(accs[i].first, first)
		}
		// The same turns as conversation-memory chunks, one per turn, then
		// one per session.
		turnRoot, sessRoot := root+"-turn-chunks", root+"-session-chunks"
		chunkToDia, chunkToSession, err := buildChunks(ctx, h, turnRoot, sessRoot, c)
		if err != nil {
			return nil, fmt.Errorf("%s chunks: %w", c.ID, err)
		}
		chunkQuery := pipeline.Query{Kinds: []string{core.DocChunk}, Limit: 50, Budget: 1 << 30}
		eng, err := h.engine(turnRoot, nil)
		if err != nil {
			return nil, err
		}
		ranked, lat, first, err := timedQueries(ctx, eng, qtexts, chunkQuery, func(it pipeline.Item) string { return chunkToDia[it.ID] })
		eng.Close()
		if err != nil {
			return nil, fmt.Errorf("%s, turn chunks: %w", c.ID, err)
		}
		for j, q := range qs {
			chunks.add(q, ranked[j])
		}
		chunks.lat, chunks.first = append(chunks.lat, lat...), max(chunks.first, first)
		eng, err = h.engine(sessRoot, nil)
		if err != nil {
			return nil, err
		}
		ranked, _, _, err = timedQueries(ctx, eng, qtexts, chunkQuery, func(it pipeline.Item) string { return chunkToSession[it.ID] })
		eng.Close()
		if err != nil {
			return nil, fmt.Errorf("%s, session chunks: %w", c.ID, err)
		}
		for j, q := range qs {
			for k, top := range []int{1, 3, 5} {
				sessionHits[k] += sessionRecall(q.Evidence, ranked[j], top)
			}
			sessionN++
		}
		progress(fmt.Sprintf("memory: %s: %d turns, %d questions; indexed in %.1fs, measured in %.1fs", c.ID, len(docToDia), len(qs), indexed.Seconds(), time.Since(start).Seconds()))
	}
	for k := range sessionHits {
		if sessionN > 0 {
			rep.Sessions[k] = 100 * sessionHits[k] / float64(sessionN)
		}
	}
	rep.IndexSeconds = indexTime.Seconds()
	rep.Systems = append(rep.Systems, base.system(baselineName, "reference"))
	for i, v := range vs {
		rep.Systems = append(rep.Systems, accs[i].system(v.Name(), v.Role()))
	}
	rep.Systems = append(rep.Systems, chunks.system("full pipeline over turn chunks", "chunks"))
	return rep, nil
}

// buildChunks saves c's turns as conversation-memory chunks in two
// projects: one chunk per turn at turnRoot (text as the note's, plus its
// dia_id), one per session at sessRoot (its turns, a line each); both are
// indexed. It returns each turn chunk's document id with its dia_id, and
// each session chunk's with its session number.
func buildChunks(ctx context.Context, h *harness, turnRoot, sessRoot string, c conversation) (map[string]string, map[string]string, error) {
	var turns, sessions []memory.Input
	var dias, sessNames []string
	for _, s := range c.Sessions {
		var lines []string
		for _, t := range s.Turns {
			text := turnTitle(t) + "\n" + turnBody(t, s)
			turns = append(turns, memory.Input{Content: text + "\n(" + t.DiaID + ")", Created: s.Time})
			dias = append(dias, t.DiaID)
			lines = append(lines, t.DiaID+" "+t.Speaker+": "+t.Text)
		}
		if len(lines) > 0 {
			// Named as the evidence names its turns' session: D3:12 → S3.
			name, _, _ := strings.Cut(strings.TrimPrefix(s.Turns[0].DiaID, "D"), ":")
			sessions = append(sessions, memory.Input{Summary: fmt.Sprintf("Session %d", s.N), Content: strings.Join(lines, "\n"), Created: s.Time})
			sessNames = append(sessNames, "S"+name)
		}
	}
	save := func(root string, in []memory.Input, keys []string) (map[string]string, error) {
		if err := os.MkdirAll(root, 0o755); err != nil {
			return nil, err
		}
		saved, errs, err := memory.Open(root).SaveAll(ctx, in)
		if err != nil {
			return nil, err
		}
		out := map[string]string{}
		for i, sv := range saved {
			if errs[i] != nil {
				return nil, fmt.Errorf("%s: %w", keys[i], errs[i])
			}
			if sv.Duplicate {
				return nil, fmt.Errorf("%s: stored twice", keys[i])
			}
			out[core.DocID(core.DocChunk, sv.ID)] = keys[i]
		}
		eng, err := h.engine(root, nil)
		if err != nil {
			return nil, err
		}
		defer eng.Close()
		_, err = eng.Index(ctx, pipeline.IndexOptions{})
		return out, err
	}
	toDia, err := save(turnRoot, turns, dias)
	if err != nil {
		return nil, nil, err
	}
	toSession, err := save(sessRoot, sessions, sessNames)
	return toDia, toSession, err
}

// sessionRecall is the share of evidence turns whose session ("S3" for
// D3:12) is among the first top sessions retrieved.
func sessionRecall(evidence, retrieved []string, top int) float64 {
	if len(evidence) == 0 {
		return 0
	}
	got := map[string]bool{}
	for _, s := range retrieved[:min(top, len(retrieved))] {
		got[s] = true
	}
	hit := 0
	for _, e := range evidence {
		if sess, _, ok := strings.Cut(strings.TrimPrefix(e, "D"), ":"); ok && got["S"+sess] {
			hit++
		}
	}
	return float64(hit) / float64(len(evidence))
}

// buildConversation registers every turn of c as a note in the project at
// root, in one batch, and indexes it. It returns the map from each note's
// document id to its turn's dia_id, and each turn's dia_id with the text
// the note holds (title and body), for the baseline.
func buildConversation(ctx context.Context, h *harness, root string, c conversation) (map[string]string, [][2]string, error) {
	eng, err := h.engine(root, nil)
	if err != nil {
		return nil, nil, err
	}
	defer eng.Close()
	var in []knowledge.Input
	var dias []string
	var texts [][2]string
	titles := map[string]bool{}
	for _, s := range c.Sessions {
		prev := ""
		for _, t := range s.Turns {
			title := turnTitle(t)
			// Notes of the same type and title merge; two turns that say
			// the same thing ("Thanks!") stay two notes.
			if titles[titleKey(title)] {
				title += " (" + t.DiaID + ")"
			}
			titles[titleKey(title)] = true
			input := knowledge.Input{ID: turnID(t.DiaID), Type: knowledge.TypeNote, Title: title, Body: turnBody(t, s)}
			if prev != "" {
				// A turn answers the one before it: the conversation is a
				// chain the graph can follow from a matching turn to its
				// neighbours.
				input.Links = []knowledge.Link{{Rel: "follows", Target: prev}}
			}
			prev = input.ID
			if !s.Time.IsZero() {
				created := s.Time
				input.Created = &created
			}
			in = append(in, input)
			dias = append(dias, t.DiaID)
			texts = append(texts, [2]string{t.DiaID, input.Title + "\n" + input.Body})
		}
	}
	results, err := eng.Knowledge().Register(ctx, in)
	if err != nil {
		return nil, nil, fmt.Errorf("register: %w", err)
	}
	docToDia := map[string]string{}
	for i, r := range results {
		if r.Action != knowledge.ActionCreated {
			return nil, nil, fmt.Errorf("register %s: %s %s %s", dias[i], r.Action, r.Error, strings.Join(r.Notes, "; "))
		}
		docToDia[core.DocID(core.DocNode, r.ID)] = dias[i]
	}
	stats, err := eng.Index(ctx, pipeline.IndexOptions{})
	if err != nil {
		return nil, nil, fmt.Errorf("index: %w", err)
	}
	if stats.Nodes != len(in) {
		return nil, nil, fmt.Errorf("index holds %d notes, %d were registered", stats.Nodes, len(in))
	}
	return docToDia, texts, nil
}

// titleKey approximates how the knowledge graph compares titles: letters
// and digits, lowercase, everything else one space.
func titleKey(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}
