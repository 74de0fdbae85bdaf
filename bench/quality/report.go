package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

// report is what a run writes, as markdown and as JSON.
type report struct {
	Date      string `json:"date"`
	Commit    string `json:"commit,omitempty"`
	Version   string `json:"version"`
	GoVersion string `json:"go_version"`
	CPUs      int    `json:"cpus"`
	Quick     bool   `json:"quick,omitempty"`
	// Command is the command line that made the report.
	Command  string       `json:"command"`
	Config   []string     `json:"config_layers"`
	Rankers  []rankerInfo `json:"rankers"`
	Variants []variant    `json:"variants"`
	// Skipped are ablation sets not measured, with the reason.
	Skipped []string `json:"skipped,omitempty"`
	// Missing are parts of the benchmark that could not run, and why.
	Missing []string      `json:"missing,omitempty"`
	Memory  *memoryReport `json:"memory,omitempty"`
	Code    *codeReport   `json:"code,omitempty"`
	Self    *selfReport   `json:"self,omitempty"`
	SWE     *sweReport    `json:"swebench,omitempty"`
	// Embed is the endpoint of the full + rank.embed system, when measured.
	Embed   *embedOptions `json:"embed,omitempty"`
	Seconds float64       `json:"seconds"`
}

// Published LoCoMo anchors (turn recall at 5 / 10 / 25 / 50, all ten
// conversations) and the targets, shown beside the figures.
var locomoAnchors = []struct {
	name   string
	recall []string
}{
	{"target for rubi, no harness links", []string{"≥ 66", "≥ 76", "", ""}},
	{"published: DRAGON (dense)", []string{"56.7", "66.2", "76.7", "82.7"}},
	{"published: BM25", []string{"~52", "~59", "~67", "~72"}},
}

func (r *report) markdown(w io.Writer) {
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	p("# rubi retrieval quality — %s\n\n", r.Date)
	if r.Quick {
		p("**Quick run** (a subset, for a smoke test; not comparable with full runs).\n\n")
	}
	if r.Command != "" {
		p("Command: `%s`\n\n", r.Command)
	}
	p("rubi %s", r.Version)
	if r.Commit != "" {
		p(" at `%s`", r.Commit)
	}
	p(", %s, %d CPUs, %.0f s in all. Configuration: %s.\n\n", r.GoVersion, r.CPUs, r.Seconds, strings.Join(r.Config, " ← "))
	p("Rankers configured:")
	for i, rk := range r.Rankers {
		sep := ","
		if i == 0 {
			sep = ""
		}
		p("%s `%s` (weight %g", sep, rk.Name, rk.Weight)
		if rk.Seeded {
			p(", seeded")
		}
		if rk.Plugin != "" {
			p(", plugin %s", rk.Plugin)
		}
		p(")")
	}
	p(". Every ablation row is the same index queried with only the rankers it names enabled.\n")
	if r.Embed != nil {
		p("The system *full + rank.embed* adds the semantic ranker of `examples/rank-embed` (weight 1) to the full pipeline, its vectors made by model `%s` at `%s` (query prefix %q, document prefix %q) when the index is built.\n", r.Embed.Model, r.Embed.Endpoint, r.Embed.QueryPrefix, r.Embed.DocumentPrefix)
	}
	for _, s := range r.Skipped {
		p("Not measured: %s.\n", s)
	}
	for _, s := range r.Missing {
		p("\n**Skipped:** %s\n", s)
	}
	p("\n")
	if r.Memory != nil {
		r.memoryMarkdown(w)
	}
	if r.Code != nil {
		r.codeMarkdown(w)
	}
	if r.Self != nil {
		r.selfMarkdown(w)
	}
	if r.SWE != nil {
		r.SWE.markdown(w)
	}
	p("## Method\n\n")
	p("- **Baseline**: a textbook Okapi BM25 written in the benchmark (k1 = 1.2, b = 0.75, lowercase runs of letters and digits, no stemming, no stopwords, no fields), independent of rubi's rankers.\n")
	p("- **Memory**: each LoCoMo conversation is a fresh project; every turn is a conversation chunk saved in one batch as an agent saving the conversation would save it: content = `Speaker: text` and the shared photo's caption, summary = its start, session = the conversation and session number, created = the session's date plus a minute a turn; no dia_id in the text and no links: what links turns is what the index finds itself (index.link_sessions, index.link_entities). Questions go through `Engine.Retrieve` with kinds = chunk, limit 50 and an unlimited budget; the baseline indexes the same summary and content. The index features are measured off in projects of their own (`without session links`, `without entity links`). The same turns as plain notes (title = speaker and start, body = the chunk's content, created as the chunk) are the `notes` row; the `linked notes` row is the benchmark of earlier versions: notes whose body adds the speaker, the session's date and number and the dia_id, all created at the session's date, each with a `follows` link to the turn before it, a link no user writes. Recall = |evidence ∩ top k| / |evidence|, averaged over questions with evidence; malformed evidence entries are cleaned the same way for every system (`D8:6; D9:17` is two turns, `D:11:26` is D11:26).\n")
	p("- **Code**: each module is fetched through the Go module proxy, copied to a writable directory and indexed with the full configuration. A query is the doc comment of an exported top-level function or type of a non-test, non-generated Go file the index holds (outside vendor, testdata, third_party and example directories), with the name masked, indented lines and `Deprecated:` paragraphs dropped, cut to %d words and at least %d words long; texts that occur twice are dropped; one query per file; sampled with a fixed seed. The gold answer is the defining file. The sampled doc comments are then blanked in the copy (lines kept) and the index brought up to date: a file still holding its comment would be found by matching the query verbatim (a textbook BM25 finds it first about 95 %% of the time), so the file must be found by its code, its names and its neighbours. Queries go through `Engine.Retrieve` with kinds = file, limit 50; MRR counts the gold file within the first 50. The baseline indexes each indexed file's path and full text.\n", maxDocWords, minDocWords)
	p("- **Latency**: in-process `Engine.Retrieve` per query, p50 and p95 over warm queries; *first* is the first query of a fresh engine (opening the stages and loading their state), the largest over the projects.\n")
}

func (r *report) memoryMarkdown(w io.Writer) {
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	m := r.Memory
	p("## Memory: LoCoMo dev\n\n")
	p("%d conversations, %d turns, %d questions with evidence (%d without, skipped); registering and indexing took %.1f s in all.\n\n", m.Conversations, m.Turns, m.Questions, m.NoEvidence, m.IndexSeconds)
	p("Turn recall (%%) at k:\n\n")
	p("| system | role | @5 | @10 | @25 | @50 | p50 ms | p95 ms | first ms |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range m.Systems {
		p("| %s | %s | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %s |\n", s.Name, s.Role, s.Recall[0], s.Recall[1], s.Recall[2], s.Recall[3], s.Latency.P50, s.Latency.P95, firstCell(s.Latency.First))
	}
	for _, a := range locomoAnchors {
		p("| %s | | %s | | | | |\n", a.name, strings.Join(a.recall, " | "))
	}
	p("\nThe CLI row is the user's path: each turn saved by one `rubi memory save --created TIME --session S` process into an indexed project (each save brings the notes' index up to date), each question asked by one `rubi context --kinds chunk --limit 50` process. Saving took %.1f s in all (p50 %.0f ms, p95 %.0f ms a turn); %d of %d answers are the batch harness's full pipeline's, item for item.\n", m.CLISaveSeconds, m.CLISave.P50, m.CLISave.P95, m.CLISame, m.Questions)
	p("The notes' CLI row is the same path for notes: each turn registered by one `rubi register --json` process (the plain note, with its date), each question asked by one `rubi context --kinds node --limit 50` process; registering took p50 %.0f ms, p95 %.0f ms a turn; %d of %d answers are the batch harness's notes', item for item.\n", m.CLIRegister.P50, m.CLIRegister.P95, m.CLINotesSame, m.Questions)
	p("\nPer category, recall at 5 / 10 / 25 / 50:\n\n")
	cats := make([]string, 0, len(m.Categories))
	for c := range m.Categories {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	p("| system |")
	for _, c := range cats {
		p(" %s (%d) |", c, m.Categories[c])
	}
	p("\n|---|%s\n", strings.Repeat("---|", len(cats)))
	for _, s := range m.Systems {
		if !memoryHeadline(s) {
			continue
		}
		p("| %s |", s.Name)
		for _, c := range cats {
			v := s.ByCategory[c]
			p(" %.1f / %.1f / %.1f / %.1f |", v[0], v[1], v[2], v[3])
		}
		p("\n")
	}
	p("\nWith one chunk per session instead (its turns, a line each), the session of an evidence turn is in the top 1 / 3 / 5 sessions for %.1f / %.1f / %.1f %% of evidence turns.\n", m.Sessions[0], m.Sessions[1], m.Sessions[2])
	if m.LOCO != nil {
		m.LOCO.markdown(w)
	}
	p("\n")
}

// memoryHeadline says which systems the per-category table shows: the
// baseline, the full pipeline and the notes linked by the harness.
func memoryHeadline(s memorySystem) bool {
	roles := strings.Split(s.Role, "; ")
	return s.Name == baselineName || slices.Contains(roles, "full") || slices.Contains(roles, "notes") || slices.Contains(roles, "linked notes")
}

func (r *report) codeMarkdown(w io.Writer) {
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	c := r.Code
	p("## Code localization\n\n")
	p("| module | files indexed | Go files | candidates | queries | index s | re-index s |\n|---|---:|---:|---:|---:|---:|---:|\n")
	total := 0
	for _, m := range c.Modules {
		p("| %s | %d | %d | %d | %d | %.1f | %.1f |\n", m.Module, m.Files, m.GoFiles, m.Candidates, m.Queries, m.IndexSeconds, m.ReindexSeconds)
		total += m.Queries
	}
	p("\nAll modules together (%d queries, seed %d); Acc@k in %%:\n\n", total, c.Seed)
	codeTable(w, c.Pooled)
	for _, m := range c.Modules {
		p("\n%s (%d queries):\n\n", m.Module, m.Queries)
		codeTable(w, m.Systems)
	}
	p("\n")
}

func codeTable(w io.Writer, systems []codeSystem) {
	fmt.Fprintf(w, "| system | role | Acc@1 | Acc@3 | Acc@5 | MRR | p50 ms | p95 ms | first ms |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range systems {
		fmt.Fprintf(w, "| %s | %s | %.1f | %.1f | %.1f | %.3f | %.2f | %.2f | %s |\n", s.Name, s.Role, s.Scores.Acc1, s.Scores.Acc3, s.Scores.Acc5, s.Scores.MRR, s.Latency.P50, s.Latency.P95, firstCell(s.Latency.First))
	}
}

func firstCell(v float64) string {
	if v == 0 {
		return ""
	}
	return fmt.Sprintf("%.0f", v)
}
