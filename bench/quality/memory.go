package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
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
	// CLISaveSeconds is saving every conversation through the CLI, one
	// process a turn (the cli system), and CLISave each save's time.
	CLISaveSeconds float64        `json:"cli_save_seconds"`
	CLISave        latencySummary `json:"cli_save"`
	// CLISame counts the questions whose answer through the CLI is the
	// batch harness's full pipeline's, item for item.
	CLISame int `json:"cli_same_answers"`
	// CLIRegister is each `rubi register` process's time, a turn saved as
	// a note; CLINotesSame counts the questions whose notes through the
	// CLI are the batch harness's, item for item.
	CLIRegister  latencySummary `json:"cli_register"`
	CLINotesSame int            `json:"cli_notes_same_answers"`
	// LOCO is the leave-one-conversation-out cross-validation (nil with
	// one conversation).
	LOCO *locoReport `json:"loco,omitempty"`
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

// cliSystemName names the user's path in the tables: the full pipeline
// over the turns saved one `rubi memory save` process a turn, each
// question asked by one `rubi context` process.
const cliSystemName = "full pipeline, one `rubi memory save` a turn (CLI)"

// cliNotesSystemName names the same path for notes: one `rubi register`
// process a turn, one `rubi context --kinds node` a question.
const cliNotesSystemName = "full pipeline over turn notes, one `rubi register` a turn (CLI)"

// baselineName names the textbook BM25 in the tables.
const baselineName = "baseline: textbook BM25"

// indexFeatures are the index-time features of the memory the ablation
// turns off one at a time: each needs its own index, so each is a project
// of its own built with the layer (the retrieval features share one index,
// see features).
var indexFeatures = []struct{ name, config string }{
	{"session links", "index {\n  link_sessions = false\n}\n"},
	{"entity links", "index {\n  link_entities = 0\n}\n"},
	{"the turn before as context", "index {\n  session_context = false\n}\n"},
}

// runMemory measures recall on LoCoMo: each conversation becomes fresh
// projects whose every turn is a conversation chunk (its text, the
// speaker, the session it belongs to and when it was said: what an agent
// saving a conversation has, and no links), indexed once; each question
// then goes through Retrieve (chunks only, 50 items, a budget that never
// cuts) for every variant, and through the baseline over the same texts.
// The index-time features are measured off in projects of their own; the
// same turns as plain notes, and as notes linked to the turn before by the
// harness (the benchmark of earlier versions), are measured beside them.
func runMemory(ctx context.Context, h *harness, cli *memoryCLI, work string, convs []conversation, vs []variant, progress func(string)) (*memoryReport, error) {
	rep := &memoryReport{Categories: map[string]int{}}
	base := &recallAcc{}
	accs := make([]*recallAcc, len(vs))
	for i := range accs {
		accs[i] = &recallAcc{}
	}
	offs := make([]*recallAcc, len(indexFeatures))
	for i := range offs {
		offs[i] = &recallAcc{}
	}
	notes, linked, cliAcc, cliNotesAcc := &recallAcc{}, &recallAcc{}, &recallAcc{}, &recallAcc{}
	loco := &locoRuns{}
	var sessionHits [3]float64
	sessionN := 0
	var indexTime time.Duration
	chunkQuery := answer.Query{Kinds: []string{core.DocChunk}, Limit: 50, Budget: 1 << 30}
	nodeQuery := answer.Query{Kinds: []string{core.DocNode}, Limit: 50, Budget: 1 << 30}
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
		qtexts := make([]string, len(qs))
		for i, q := range qs {
			qtexts[i] = q.Text
		}
		root := filepath.Join(work, "locomo-"+c.ID)
		start := time.Now()
		chunkToDia, texts, err := buildTurnChunks(ctx, h, root, c, "")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.ID, err)
		}
		indexed := time.Since(start)
		indexTime += indexed
		rep.Conversations++
		rep.Turns += len(chunkToDia)
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

		var batchRanked [][]string // the full pipeline's answers
		measure := func(acc *recallAcc, eng *pipeline.Engine, q answer.Query, key func(answer.Item) string, what string) error {
			ranked, lat, first, err := timedQueries(ctx, eng, qtexts, q, key)
			eng.Close()
			if err != nil {
				return fmt.Errorf("%s, %s: %w", c.ID, what, err)
			}
			for j, q := range qs {
				acc.add(q, ranked[j])
			}
			acc.lat = append(acc.lat, lat...)
			acc.first = max(acc.first, first)
			if batchRanked == nil {
				batchRanked = ranked
			}
			return nil
		}
		toDia := func(m map[string]string) func(answer.Item) string {
			return func(it answer.Item) string { return m[it.ID] }
		}
		for i, v := range vs {
			eng, err := h.variantEngine(root, v)
			if err != nil {
				return nil, err
			}
			if err := measure(accs[i], eng, chunkQuery, toDia(chunkToDia), v.Name()); err != nil {
				return nil, err
			}
		}
		// The user's path: one process a turn saved, one a question asked.
		cliStart := time.Now()
		cliToDia, err := cli.saveTurns(ctx, root+"-cli", c)
		if err != nil {
			return nil, fmt.Errorf("%s, saved through the CLI: %w", c.ID, err)
		}
		cliSaved := time.Since(cliStart)
		rep.CLISaveSeconds += cliSaved.Seconds()
		cliRanked, cliLat, err := cli.ask(ctx, root+"-cli", core.DocChunk, qtexts, cliToDia)
		if err != nil {
			return nil, fmt.Errorf("%s, asked through the CLI: %w", c.ID, err)
		}
		for j, q := range qs {
			cliAcc.add(q, cliRanked[j])
			if slices.Equal(cliRanked[j], batchRanked[j]) {
				rep.CLISame++
			}
		}
		cliAcc.lat = append(cliAcc.lat, cliLat...)
		progress(fmt.Sprintf("memory: %s: saved through the CLI in %.1fs, one process a turn", c.ID, cliSaved.Seconds()))
		// The index features off, each in a project of its own: part of
		// the ablation, reported only with it.
		for i, f := range indexFeatures {
			if len(vs) == 1 {
				break
			}
			layer, err := h.layer(f.config)
			if err != nil {
				return nil, err
			}
			froot := fmt.Sprintf("%s-without-%d", root, i)
			m, _, err := buildTurnChunks(ctx, h, froot, c, layer)
			if err != nil {
				return nil, fmt.Errorf("%s without %s: %w", c.ID, f.name, err)
			}
			eng, err := h.engine(froot, nil, layer)
			if err != nil {
				return nil, err
			}
			if err := measure(offs[i], eng, chunkQuery, toDia(m), "without "+f.name); err != nil {
				return nil, err
			}
		}
		// The same turns as notes: plain, then linked by the harness.
		var plainNotes map[string]string
		var plainRanked [][]string
		for _, n := range []struct {
			acc    *recallAcc
			linked bool
		}{{notes, false}, {linked, true}} {
			nroot := root + "-notes"
			if n.linked {
				nroot = root + "-linked-notes"
			}
			m, err := buildConversation(ctx, h, nroot, c, n.linked)
			if err != nil {
				return nil, fmt.Errorf("%s notes: %w", c.ID, err)
			}
			if !n.linked {
				plainNotes = m
			}
			eng, err := h.engine(nroot, nil)
			if err != nil {
				return nil, err
			}
			batchRanked = nil
			if err := measure(n.acc, eng, nodeQuery, toDia(m), "notes"); err != nil {
				return nil, err
			}
			if !n.linked {
				plainRanked = batchRanked
			}
		}
		// The same notes registered one process a turn, then every
		// question asked of chunks and notes, through the CLI and the
		// batch harness, under each setting of the cross-validation's grid.
		cliNotesRoot := root + "-cli-notes"
		cliNotes, err := cli.registerTurns(ctx, cliNotesRoot, c)
		if err != nil {
			return nil, fmt.Errorf("%s, notes registered through the CLI: %w", c.ID, err)
		}
		// The notes' CLI row: the configuration as it is, beside the batch
		// harness's notes.
		notesRanked, notesLat, err := cli.ask(ctx, cliNotesRoot, core.DocNode, qtexts, cliNotes)
		if err != nil {
			return nil, fmt.Errorf("%s, notes asked through the CLI: %w", c.ID, err)
		}
		for j, q := range qs {
			cliNotesAcc.add(q, notesRanked[j])
			if slices.Equal(notesRanked[j], plainRanked[j]) {
				rep.CLINotesSame++
			}
		}
		cliNotesAcc.lat = append(cliNotesAcc.lat, notesLat...)
		bySetting := make([]map[string][]locoAnswer, len(locoGrid))
		for si, set := range locoGrid {
			var layers []string
			if set.Config != "" {
				layer, err := h.layer(set.Config)
				if err != nil {
					return nil, err
				}
				layers = []string{layer}
			}
			answers := func(ranked [][]string) []locoAnswer {
				out := make([]locoAnswer, len(qs))
				for j, q := range qs {
					out[j].Category = q.Category
					for i, k := range recallKs {
						out[j].Recall[i] = recallAt(q.Evidence, ranked[j], k)
					}
				}
				return out
			}
			got := map[string][]locoAnswer{}
			for _, sys := range []struct {
				name, root, kind string
				toDia            map[string]string
			}{{locoChunksCLI, root + "-cli", core.DocChunk, cliToDia}, {locoNotesCLI, cliNotesRoot, core.DocNode, cliNotes}} {
				ranked, _, err := cli.ask(ctx, sys.root, sys.kind, qtexts, sys.toDia, layers...)
				if err != nil {
					return nil, fmt.Errorf("%s, %s, %s: %w", c.ID, sys.name, set.Name, err)
				}
				got[sys.name] = answers(ranked)
			}
			for _, sys := range []struct {
				name, root string
				q          answer.Query
				toDia      map[string]string
			}{{locoChunksBatch, root, chunkQuery, chunkToDia}, {locoNotesBatch, root + "-notes", nodeQuery, plainNotes}} {
				eng, err := h.engine(sys.root, nil, layers...)
				if err != nil {
					return nil, err
				}
				ranked, _, _, err := timedQueries(ctx, eng, qtexts, sys.q, toDia(sys.toDia))
				eng.Close()
				if err != nil {
					return nil, fmt.Errorf("%s, %s, %s: %w", c.ID, sys.name, set.Name, err)
				}
				got[sys.name] = answers(ranked)
			}
			bySetting[si] = got
		}
		loco.add(c.ID, bySetting)
		progress(fmt.Sprintf("memory: %s: %d settings asked of chunks and notes, through the CLI and the batch harness", c.ID, len(locoGrid)))
		// One chunk per session.
		sessRoot := root + "-session-chunks"
		chunkToSession, err := buildSessionChunks(ctx, h, sessRoot, c)
		if err != nil {
			return nil, fmt.Errorf("%s session chunks: %w", c.ID, err)
		}
		eng, err := h.engine(sessRoot, nil)
		if err != nil {
			return nil, err
		}
		ranked, _, _, err := timedQueries(ctx, eng, qtexts, chunkQuery, toDia(chunkToSession))
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
		progress(fmt.Sprintf("memory: %s: %d turns, %d questions; indexed in %.1fs, measured in %.1fs", c.ID, len(chunkToDia), len(qs), indexed.Seconds(), time.Since(start).Seconds()))
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
	rep.Systems = append(rep.Systems, cliAcc.system(cliSystemName, "full; cli"))
	rep.CLISave = summarize(cli.saves, 0)
	if len(vs) > 1 {
		for i, f := range indexFeatures {
			rep.Systems = append(rep.Systems, offs[i].system(vs[0].Name()+", without "+f.name, "without "+f.name))
		}
	}
	rep.Systems = append(rep.Systems, notes.system("full pipeline over turn notes", "notes"))
	rep.Systems = append(rep.Systems, cliNotesAcc.system(cliNotesSystemName, "notes; cli"))
	rep.Systems = append(rep.Systems, linked.system("full pipeline over turn notes linked by the harness", "linked notes"))
	rep.CLIRegister = summarize(cli.registers, 0)
	rep.LOCO = loco.crossValidateAll(locoGrid)
	return rep, nil
}

// turnChunk is a turn as an agent saving the conversation would save it:
// the line as said (the speaker, the text, the photo shared), summarized
// by its start, in its session, at the time it was said (the session's
// date, a minute a turn). No dia_id, no link.
func turnChunk(c conversation, s session, k int, t turn) memory.Input {
	text := t.Speaker + ": " + t.Text
	if t.Caption != "" {
		text += "\n[" + t.Speaker + " shared " + t.Caption + "]"
	}
	return memory.Input{
		Type: memory.TypeSession, Summary: turnTitle(t), Content: text,
		Session: fmt.Sprintf("%s-session-%d", c.ID, s.N),
		Created: s.Time.Add(time.Duration(k) * time.Minute),
	}
}

// buildTurnChunks saves c's turns as conversation chunks, one a turn, in
// the project at root and indexes it with the extra rubi.hcl layer (none
// when ""). It returns each chunk's document id with its dia_id, and each
// dia_id with the text the chunk holds (summary and content), for the
// baseline.
func buildTurnChunks(ctx context.Context, h *harness, root string, c conversation, layer string) (map[string]string, [][2]string, error) {
	var in []memory.Input
	var dias []string
	var texts [][2]string
	for _, s := range c.Sessions {
		for k, t := range s.Turns {
			ch := turnChunk(c, s, k, t)
			in = append(in, ch)
			dias = append(dias, t.DiaID)
			texts = append(texts, [2]string{t.DiaID, ch.Summary + "\n" + ch.Content})
		}
	}
	var layers []string
	if layer != "" {
		layers = append(layers, layer)
	}
	toDia, err := saveChunks(ctx, h, root, in, dias, layers...)
	return toDia, texts, err
}

// buildSessionChunks saves c's sessions as one chunk each at root (its
// turns, a line each) and indexes it. It returns each chunk's document id
// with its session ("S3", as the evidence names the session of D3:12).
func buildSessionChunks(ctx context.Context, h *harness, root string, c conversation) (map[string]string, error) {
	var sessions []memory.Input
	var names []string
	for _, s := range c.Sessions {
		var lines []string
		for _, t := range s.Turns {
			lines = append(lines, t.Speaker+": "+t.Text)
		}
		if len(lines) > 0 {
			name, _, _ := strings.Cut(strings.TrimPrefix(s.Turns[0].DiaID, "D"), ":")
			sessions = append(sessions, memory.Input{Summary: fmt.Sprintf("Session %d", s.N), Content: strings.Join(lines, "\n"), Created: s.Time})
			names = append(names, "S"+name)
		}
	}
	return saveChunks(ctx, h, root, sessions, names)
}

// saveChunks saves in as chunks of the project at root, indexes it with
// the extra layers and returns each chunk's document id with its key.
func saveChunks(ctx context.Context, h *harness, root string, in []memory.Input, keys []string, layers ...string) (map[string]string, error) {
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
	eng, err := h.engine(root, nil, layers...)
	if err != nil {
		return nil, err
	}
	defer eng.Close()
	_, err = eng.Index(ctx, pipeline.IndexOptions{})
	return out, err
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

// turnNotes are c's turns as notes, with their dia_ids. A plain note
// holds what was said (title the speaker and its start, body the line
// and the photo shared), created when it was said (the session's date, a
// minute a turn). Linked, it is the note of earlier versions of this
// benchmark: the body adds the speaker, the session's date and number and
// the dia_id, every note is created at the session's date, and each links
// to the turn before it (`follows`), a link no user writes.
func turnNotes(c conversation, linked bool) ([]knowledge.Input, []string) {
	var in []knowledge.Input
	var dias []string
	titles := map[string]bool{}
	for _, s := range c.Sessions {
		prev := ""
		for k, t := range s.Turns {
			title := turnTitle(t)
			// Notes of the same type and title merge; two turns that say
			// the same thing ("Thanks!") stay two notes.
			if titles[titleKey(title)] {
				title += " (" + t.DiaID + ")"
			}
			titles[titleKey(title)] = true
			input := knowledge.Input{ID: turnID(t.DiaID), Type: knowledge.TypeNote, Title: title}
			created := s.Time
			if linked {
				input.Body = turnBody(t, s)
				if prev != "" {
					input.Links = []knowledge.Link{{Rel: "follows", Target: prev}}
				}
			} else {
				input.Body = turnChunk(c, s, k, t).Content
				created = created.Add(time.Duration(k) * time.Minute)
			}
			prev = input.ID
			if !s.Time.IsZero() {
				input.Created = &created
			}
			in = append(in, input)
			dias = append(dias, t.DiaID)
		}
	}
	return in, dias
}

// buildConversation registers every turn of c as a note (turnNotes) in
// the project at root, in one batch, and indexes it. It returns the map
// from each note's document id to its turn's dia_id.
func buildConversation(ctx context.Context, h *harness, root string, c conversation, linked bool) (map[string]string, error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	eng, err := h.engine(root, nil)
	if err != nil {
		return nil, err
	}
	defer eng.Close()
	in, dias := turnNotes(c, linked)
	results, err := eng.Project().Knowledge().Register(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("register: %w", err)
	}
	docToDia := map[string]string{}
	for i, r := range results {
		if r.Action != knowledge.ActionCreated {
			return nil, fmt.Errorf("register %s: %s %s %s", dias[i], r.Action, r.Error, strings.Join(r.Notes, "; "))
		}
		docToDia[core.DocID(core.DocNode, r.ID)] = dias[i]
	}
	stats, err := eng.Index(ctx, pipeline.IndexOptions{})
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	if stats.Nodes != len(in) {
		return nil, fmt.Errorf("index holds %d notes, %d were registered", stats.Nodes, len(in))
	}
	return docToDia, nil
}

// titleKey approximates how the knowledge graph compares titles: letters
// and digits, lowercase, everything else one space.
func titleKey(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}
