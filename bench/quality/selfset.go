package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/bench/internal/sets"
	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/pipeline"
)

// The self set (package sets): questions about rubi's own code as people
// and agents ask them ("how are plugins loaded"), each with the files a
// maintainer would open first to answer it.
const (
	// readmeQuestion is the README's example, whose answer the report
	// follows by name.
	readmeQuestion = "how are plugins loaded"
	readmeGold     = "core/host/host.go"
	// selfLimit is how many items a question asks for; a gold file
	// beyond it counts as not found.
	selfLimit = 50
)

// firstGold is the 1-based rank of the first gold file in ranked, 0 when
// none is there.
func firstGold(ranked, gold []string) int {
	for i, p := range ranked {
		if slices.Contains(gold, p) {
			return i + 1
		}
	}
	return 0
}

// scoreSelf scores one system's rankings (one per question, in the set's
// order): the shares with a gold file in the top 1, 3 and 5 and the MRR
// of the first gold file, and that rank per question.
func scoreSelf(qs []sets.SelfQuestion, ranked [][]string) (locSum, []int) {
	var sum locSum
	ranks := make([]int, len(qs))
	for i, q := range qs {
		var r []string
		if i < len(ranked) {
			r = ranked[i]
		}
		ranks[i] = firstGold(r, q.Gold)
		sum.add(ranks[i])
	}
	return sum, ranks
}

// selfReport is the self set's part of the report.
type selfReport struct {
	Set string `json:"set"`
	// Commit is the committed tree measured (HEAD when the run started).
	Commit       string  `json:"commit"`
	Files        int     `json:"files_indexed"`
	IndexSeconds float64 `json:"index_seconds"`
	// LeftOut are files of the tree not indexed, with the reason.
	LeftOut []string `json:"left_out,omitempty"`
	// Unindexed are gold files the index does not hold: their questions
	// cannot be answered with them.
	Unindexed []string `json:"unindexed_gold,omitempty"`
	// Systems are the baseline, then each variant with the default kinds
	// and with files only.
	Systems   []selfSystem `json:"systems"`
	Questions []selfResult `json:"questions"`
	Readme    selfReadme   `json:"readme_example"`
}

// selfSystem is one system's scores on the set.
type selfSystem struct {
	Name string `json:"name"`
	Role string `json:"role"`
	// Kinds is "default" (what a user gets: files, modules, notes and
	// chunks, scored on the file items) or "file" (files only).
	Kinds   string         `json:"kinds"`
	Scores  locScores      `json:"scores"`
	Latency latencySummary `json:"latency"`
}

// headline reports whether s is the full pipeline.
func (s selfSystem) headline() bool {
	return slices.Contains(strings.Split(s.Role, "; "), "full")
}

// selfResult is one question's outcome.
type selfResult struct {
	Question string   `json:"question"`
	Gold     []string `json:"gold"`
	// Ranks is the rank of the first gold file for each system, in
	// Systems' order (1-based; 0 = not among the files returned).
	Ranks []int `json:"ranks"`
	// Top are the first files the full pipeline returned (default kinds).
	Top []string `json:"top"`
}

// selfReadme follows the README's example file by name.
type selfReadme struct {
	Question string `json:"question"`
	File     string `json:"file"`
	// Ranks is File's rank for each system, in Systems' order (0 = not
	// returned).
	Ranks []int `json:"ranks"`
}

const (
	kindsDefault = "default"
	kindsFile    = "file"
)

// runSelf measures the self set: the committed tree of the repository at
// root is copied into work and indexed once with the full configuration;
// every question goes through Retrieve (50 items, a budget that never
// cuts) for every variant, with the default kinds and with files only,
// and through the baseline over each indexed file's path and text.
func runSelf(ctx context.Context, h *harness, work, root string, vs []variant, progress func(string)) (*selfReport, error) {
	qs, err := sets.ReadSelfSet(root)
	if err != nil {
		return nil, err
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("%s holds no question", sets.SelfSetFile)
	}
	dir := filepath.Join(work, "self")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	rep := &selfReport{Set: sets.SelfSetFile}
	if rep.Commit, rep.LeftOut, err = sets.ExportTree(ctx, root, "HEAD", dir, qs); err != nil {
		return nil, err
	}
	progress(fmt.Sprintf("self: the tree at %s copied, indexing", rep.Commit))

	eng, err := h.engine(dir, nil)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	_, err = eng.Index(ctx, pipeline.IndexOptions{})
	rep.IndexSeconds = time.Since(start).Seconds()
	if err != nil {
		eng.Close()
		return nil, fmt.Errorf("self: index: %w", err)
	}
	g, err := eng.Graph()
	eng.Close()
	if err != nil {
		return nil, err
	}
	var files []string
	indexed := map[string]bool{}
	for _, f := range g.Files {
		files = append(files, f.Path)
		indexed[f.Path] = true
	}
	rep.Files = len(files)
	for _, q := range qs {
		for _, p := range q.Gold {
			if !indexed[p] && !slices.Contains(rep.Unindexed, p) {
				rep.Unindexed = append(rep.Unindexed, p)
			}
		}
	}
	progress(fmt.Sprintf("self: %d files indexed in %.1fs, %d questions", rep.Files, rep.IndexSeconds, len(qs)))
	if len(rep.Unindexed) > 0 {
		progress(fmt.Sprintf("self: gold files not in the index: %s", strings.Join(rep.Unindexed, ", ")))
	}

	texts := make([]string, len(qs))
	for i, q := range qs {
		texts[i] = q.Text
	}
	var rankings [][][]string // per system, per question
	add := func(s selfSystem, sum locSum, ranked [][]string) {
		s.Scores = sum.scores()
		rep.Systems = append(rep.Systems, s)
		rankings = append(rankings, ranked)
	}

	// The baseline.
	bl := newBaseline()
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			return nil, err
		}
		bl.add(f, f+"\n"+string(data))
	}
	var ranked [][]string
	var lat latencies
	for _, t := range texts {
		start := time.Now()
		ranked = append(ranked, bl.search(t, selfLimit))
		lat = append(lat, time.Since(start))
	}
	sum, _ := scoreSelf(qs, ranked)
	add(selfSystem{Name: baselineName, Role: "reference", Kinds: kindsFile, Latency: summarize(lat, 0)}, sum, ranked)

	// rubi, each variant, with the default kinds and with files only.
	key := func(it answer.Item) string {
		if it.Kind == core.DocFile {
			return it.Path
		}
		return ""
	}
	for _, v := range vs {
		eng, err := h.variantEngine(dir, v)
		if err != nil {
			return nil, err
		}
		for _, kinds := range []string{kindsDefault, kindsFile} {
			q := answer.Query{Limit: selfLimit, Budget: 1 << 30}
			if kinds == kindsFile {
				q.Kinds = []string{core.DocFile}
			}
			ranked, lat, first, err := timedQueries(ctx, eng, texts, q, key)
			if err != nil {
				eng.Close()
				return nil, fmt.Errorf("self, %s: %w", v.Name(), err)
			}
			sum, _ := scoreSelf(qs, ranked)
			add(selfSystem{Name: v.Name(), Role: v.Role(), Kinds: kinds, Latency: summarize(lat, first)}, sum, ranked)
		}
		eng.Close()
		progress(fmt.Sprintf("self: %s measured", v.Name()))
	}

	// Per question, and the README's example by name.
	full := rep.fullIndex(kindsDefault)
	rep.Readme = selfReadme{Question: readmeQuestion, File: readmeGold}
	for i, q := range qs {
		r := selfResult{Question: q.Text, Gold: q.Gold}
		for s := range rep.Systems {
			r.Ranks = append(r.Ranks, firstGold(rankings[s][i], q.Gold))
		}
		if full >= 0 {
			top := rankings[full][i]
			r.Top = slices.Clone(top[:min(3, len(top))])
		}
		rep.Questions = append(rep.Questions, r)
		if q.Text == readmeQuestion {
			for s := range rep.Systems {
				rep.Readme.Ranks = append(rep.Readme.Ranks, rankOf(rankings[s][i], readmeGold))
			}
		}
	}
	if rep.Readme.Ranks == nil {
		return nil, errors.New("the self set lost the README's example, " + readmeQuestion)
	}
	return rep, nil
}

// fullIndex is the position in Systems of the full pipeline with kinds,
// -1 when there is none.
func (r *selfReport) fullIndex(kinds string) int {
	for i, s := range r.Systems {
		if s.Kinds == kinds && s.headline() {
			return i
		}
	}
	return -1
}

// rankCell renders a rank, "–" for not found.
func rankCell(rank int) string {
	if rank <= 0 {
		return "–"
	}
	return fmt.Sprint(rank)
}

func (r *report) selfMarkdown(w io.Writer) {
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	s := r.Self
	p("## Self: questions about rubi's own code\n\n")
	p("%d questions from `%s`, as a maintainer or an agent asks them, each with the files a maintainer would open first to answer it (written by reading the code, reviewed like a golden file). ", len(s.Questions), s.Set)
	p("The tree is the committed one at `%s` (`git archive HEAD`), %d files indexed in %.1f s", s.Commit, s.Files, s.IndexSeconds)
	if len(s.LeftOut) > 0 {
		p("; left out: %s", strings.Join(s.LeftOut, "; "))
	}
	p(".\n\n")
	for _, u := range s.Unindexed {
		p("**Gold file not indexed:** `%s` (its questions cannot find it).\n\n", u)
	}
	p("A question is right at k when a gold file is among the first k files; MRR is of the first gold file within the first %d items. Kinds *default* is what a user gets (files, modules, notes and chunks), scored on its file items; *file* asks for files only.\n\n", selfLimit)
	p("| system | role | kinds | Acc@1 | Acc@3 | Acc@5 | MRR | p50 ms | p95 ms | first ms |\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, x := range s.Systems {
		p("| %s | %s | %s | %.1f | %.1f | %.1f | %.3f | %.2f | %.2f | %s |\n", x.Name, x.Role, x.Kinds, x.Scores.Acc1, x.Scores.Acc3, x.Scores.Acc5, x.Scores.MRR, x.Latency.P50, x.Latency.P95, firstCell(x.Latency.First))
	}
	full, fullFiles, base := s.fullIndex(kindsDefault), s.fullIndex(kindsFile), 0
	cell := func(ranks []int, i int) string {
		if i < 0 || i >= len(ranks) {
			return ""
		}
		return rankCell(ranks[i])
	}
	p("\nThe README's example, %q: `%s` comes at %s with the full pipeline (default kinds), %s with files only, %s in the baseline.\n\n",
		s.Readme.Question, s.Readme.File, cell(s.Readme.Ranks, full), cell(s.Readme.Ranks, fullFiles), cell(s.Readme.Ranks, base))
	p("Per question, the rank of the first gold file (– = not among the files returned):\n\n")
	p("| # | question | gold | full | full, files | baseline | full's first files |\n|---:|---|---|---:|---:|---:|---|\n")
	for i, q := range s.Questions {
		gold := "`" + strings.Join(q.Gold, "`, `") + "`"
		top := ""
		if len(q.Top) > 0 {
			top = "`" + strings.Join(q.Top, "`, `") + "`"
		}
		p("| %d | %s | %s | %s | %s | %s | %s |\n", i+1, strings.ReplaceAll(q.Question, "|", `\|`), gold, cell(q.Ranks, full), cell(q.Ranks, fullFiles), cell(q.Ranks, base), top)
	}
	p("\n")
}
