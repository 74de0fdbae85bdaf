package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// report is a run's sessions and their summary.
type report struct {
	Date  string `json:"date"`
	Real  bool   `json:"real"`
	Short bool   `json:"short"`
	Runs  int    `json:"runs"`
	// Tasks is the task file, relative to the checkout.
	Tasks    string      `json:"tasks"`
	Agents   []agentInfo `json:"agents"`
	Arms     []string    `json:"arms"`
	Sessions []session   `json:"sessions"`
	// Rows are the medians per agent, chain, task and arm, then per
	// agent, chain and arm over the chain's tasks ("" task), then per
	// agent and arm over every chain ("" chain and task).
	Rows []row `json:"summary"`
}

type agentInfo struct {
	Name    string `json:"name"`
	Title   string `json:"title"`
	Version string `json:"version"`
	Model   string `json:"model"`
}

// row is the medians of one group of sessions, and their relative
// differences with the arm without rubi.
type row struct {
	Agent string `json:"agent"`
	Chain string `json:"chain,omitempty"`
	Task  string `json:"task,omitempty"`
	Arm   string `json:"arm"`
	// N is how many runs the medians are taken over.
	N      int      `json:"runs"`
	Median figures  `json:"median"`
	Delta  *figures `json:"delta_vs_none,omitempty"`
	// Notes is the graph's notes when the group's first session started
	// (the median over runs).
	Notes float64 `json:"notes_at_start"`
	// CostKnown is false when a call's model has no price in agent/xray.
	CostKnown bool `json:"cost_known"`
}

// figures are the measures a row reports; in Delta each is the relative
// difference (arm − none) / none, NaN (null in JSON) when none's is 0.
type figures struct {
	Calls      float64 `json:"calls"`
	ToolCalls  float64 `json:"tool_calls"`
	Input      float64 `json:"input"`
	CacheRead  float64 `json:"cache_read"`
	CacheWrite float64 `json:"cache_write"`
	Output     float64 `json:"output"`
	ReRead     float64 `json:"reread"`
	Wall       float64 `json:"wall_seconds"`
	Cost       float64 `json:"cost_usd"`
}

// MarshalJSON writes NaN as null.
func (f figures) MarshalJSON() ([]byte, error) {
	m := map[string]any{}
	for _, m1 := range measures {
		v := m1.get(f)
		if math.IsNaN(v) {
			m[m1.key] = nil
		} else {
			m[m1.key] = v
		}
	}
	return json.Marshal(m)
}

// measures are the report's lines, in order.
var measures = []struct {
	key, label string
	get        func(figures) float64
	set        func(*figures, float64)
	format     func(float64) string
}{
	{"calls", "steps (API calls)", func(f figures) float64 { return f.Calls }, func(f *figures, v float64) { f.Calls = v }, count},
	{"tool_calls", "tool calls", func(f figures) float64 { return f.ToolCalls }, func(f *figures, v float64) { f.ToolCalls = v }, count},
	{"input", "input tokens (uncached)", func(f figures) float64 { return f.Input }, func(f *figures, v float64) { f.Input = v }, count},
	{"cache_read", "cache read tokens", func(f figures) float64 { return f.CacheRead }, func(f *figures, v float64) { f.CacheRead = v }, count},
	{"cache_write", "cache write tokens", func(f figures) float64 { return f.CacheWrite }, func(f *figures, v float64) { f.CacheWrite = v }, count},
	{"output", "output tokens", func(f figures) float64 { return f.Output }, func(f *figures, v float64) { f.Output = v }, count},
	{"reread", "context re-read (tokens)", func(f figures) float64 { return f.ReRead }, func(f *figures, v float64) { f.ReRead = v }, count},
	{"wall_seconds", "wall time", func(f figures) float64 { return f.Wall }, func(f *figures, v float64) { f.Wall = v }, seconds},
	{"cost_usd", "cost (list price, USD)", func(f figures) float64 { return f.Cost }, func(f *figures, v float64) { f.Cost = v }, usd},
}

func count(v float64) string {
	if v == math.Trunc(v) {
		return groupDigits(int64(v))
	}
	return fmt.Sprintf("%.1f", v)
}

func groupDigits(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func seconds(v float64) string { return fmt.Sprintf("%.1f s", v) }
func usd(v float64) string     { return fmt.Sprintf("$%.4f", v) }

func figuresOf(m metrics) figures {
	return figures{Calls: float64(m.Calls), ToolCalls: float64(m.ToolCalls), Input: float64(m.Input), CacheRead: float64(m.CacheRead),
		CacheWrite: float64(m.CacheWrite), Output: float64(m.Output), ReRead: float64(m.ReRead), Wall: m.Wall, Cost: m.Cost}
}

func (f figures) plus(g figures) figures {
	for _, m := range measures {
		m.set(&f, m.get(f)+m.get(g))
	}
	return f
}

// median of xs: the middle value, or the mean of the two middle ones.
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// medianOf takes each measure's median over the runs' figures.
func medianOf(runs []figures) figures {
	var out figures
	for _, m := range measures {
		xs := make([]float64, len(runs))
		for i, r := range runs {
			xs[i] = m.get(r)
		}
		m.set(&out, median(xs))
	}
	return out
}

// delta is (arm − base) / base for each measure.
func delta(arm, base figures) figures {
	var out figures
	for _, m := range measures {
		b := m.get(base)
		if b == 0 {
			m.set(&out, math.NaN())
			continue
		}
		m.set(&out, (m.get(arm)-b)/b)
	}
	return out
}

// group is the key of a summary row.
type group struct{ agent, chain, task, arm string }

// summarize computes the rows: a row's figures for one run are the sum of
// its sessions (one session for a task's row, a chain's tasks for a
// chain's, every chain's for an agent's), and the row gives each measure's
// median over the runs.
func (r *report) summarize(arms []string) {
	r.Arms = arms
	type acc struct {
		runs      map[int]figures
		notes     map[int]int
		costKnown bool
	}
	groups := map[group]*acc{}
	var order []group
	add := func(g group, s session) {
		a := groups[g]
		if a == nil {
			a = &acc{runs: map[int]figures{}, notes: map[int]int{}, costKnown: true}
			groups[g] = a
			order = append(order, g)
		}
		a.runs[s.Run] = a.runs[s.Run].plus(figuresOf(s.metrics))
		if _, ok := a.notes[s.Run]; !ok {
			a.notes[s.Run] = s.Notes
		}
		a.costKnown = a.costKnown && s.CostKnown
	}
	for _, s := range r.Sessions {
		add(group{s.Agent, s.Chain, s.Task, s.Arm}, s)
		add(group{s.Agent, s.Chain, "", s.Arm}, s)
		add(group{s.Agent, "", "", s.Arm}, s)
	}
	r.Rows = nil
	medians := map[group]figures{}
	for _, g := range order {
		a := groups[g]
		var runs []figures
		var notes []float64
		for run := 1; run <= r.Runs; run++ {
			if f, ok := a.runs[run]; ok {
				runs = append(runs, f)
				notes = append(notes, float64(a.notes[run]))
			}
		}
		medians[g] = medianOf(runs)
		r.Rows = append(r.Rows, row{Agent: g.agent, Chain: g.chain, Task: g.task, Arm: g.arm, N: len(runs), Median: medians[g], Notes: median(notes), CostKnown: a.costKnown})
	}
	for i := range r.Rows {
		row := &r.Rows[i]
		if row.Arm == armNone {
			continue
		}
		if base, ok := medians[group{row.Agent, row.Chain, row.Task, armNone}]; ok {
			d := delta(row.Median, base)
			row.Delta = &d
		}
	}
}

// find returns the row of a group.
func (r *report) find(agent, chain, task, arm string) *row {
	for i := range r.Rows {
		x := &r.Rows[i]
		if x.Agent == agent && x.Chain == chain && x.Task == task && x.Arm == arm {
			return x
		}
	}
	return nil
}

// name is the report's file name without extension: ab-DATE, -mock for a
// run against the mock, -short for a smoke run (git ignores both).
func (r *report) name() string {
	n := "ab-" + r.Date
	if !r.Real {
		n += "-mock"
	}
	if r.Short {
		n += "-short"
	}
	return n
}

// write writes the markdown report and its JSON twin into dir, atomically,
// and returns the markdown.
func (r *report) write(dir string) (string, error) {
	md := r.markdown()
	js, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return "", err
	}
	base := filepath.Join(dir, r.name())
	if err := writeFile(base+".md", []byte(md)); err != nil {
		return "", err
	}
	if err := writeFile(base+".json", append(js, '\n')); err != nil {
		return "", err
	}
	fmt.Fprintf(os.Stderr, "wrote %s.md and %s.json\n", base, base)
	return md, nil
}

// markdown renders the report.
func (r *report) markdown() string {
	var b strings.Builder
	b.WriteString("# A/B: agent sessions with and without rubi\n\n")
	fmt.Fprintf(&b, "%s · task file `%s` · %d run(s) per arm; each figure is the median over the runs", r.Date, r.Tasks, r.Runs)
	if r.Short {
		b.WriteString(" · smoke run (-short)")
	}
	b.WriteString(".\n\n")
	if r.Real {
		b.WriteString("**Real run**: the agents talked to the real model APIs.\n\n")
	} else {
		b.WriteString("**Mock run**: the model was a loopback mock playing each task's script with the usage the script names. " +
			"The figures check the harness's plumbing and accounting, not what rubi is worth: they say nothing about a real model.\n\n")
	}
	b.WriteString("Arms: **no rubi** (the agent alone), **map + recall** (rubi installed as a user installs it: hooks and MCP server, an empty graph), " +
		"**mature graph** (the same, with the project's graph of notes from the start). Each task is a new session in the same copy of the repository, " +
		"after the chain's earlier tasks. In brackets, the relative difference with no rubi. Context re-read: in each API call, the part of its context " +
		"the previous call had already sent (what the cache served, else what was sent again).\n")
	for _, a := range r.Agents {
		fmt.Fprintf(&b, "\n## %s %s, model %s\n", a.Title, a.Version, a.Model)
		r.table(&b, "All chains: each run's tasks summed", a.Name, "", "")
		for _, c := range r.chainsOf(a.Name) {
			r.table(&b, fmt.Sprintf("Chain %s: its tasks summed", c), a.Name, c, "")
			for _, t := range r.tasksOf(a.Name, c) {
				r.table(&b, fmt.Sprintf("Chain %s, task %s", c, t), a.Name, c, t)
			}
		}
	}
	return b.String()
}

func (r *report) chainsOf(agent string) []string {
	var out []string
	for _, s := range r.Sessions {
		if s.Agent == agent && !slices.Contains(out, s.Chain) {
			out = append(out, s.Chain)
		}
	}
	return out
}

func (r *report) tasksOf(agent, chain string) []string {
	var out []string
	for _, s := range r.Sessions {
		if s.Agent == agent && s.Chain == chain && !slices.Contains(out, s.Task) {
			out = append(out, s.Task)
		}
	}
	return out
}

// table writes one group's table: a line per measure, a column per arm.
func (r *report) table(b *strings.Builder, title, agent, chain, task string) {
	var rows []*row
	for _, arm := range r.Arms {
		if x := r.find(agent, chain, task, arm); x != nil {
			rows = append(rows, x)
		}
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(b, "\n### %s\n\n|  |", title)
	for _, x := range rows {
		fmt.Fprintf(b, " %s |", armTitle(x.Arm))
	}
	b.WriteString("\n|---|")
	for range rows {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	for _, m := range measures {
		fmt.Fprintf(b, "| %s |", m.label)
		for _, x := range rows {
			v := m.get(x.Median)
			cell := m.format(v)
			if m.key == "cost_usd" && !x.CostKnown {
				cell = "unknown (model not priced)"
			} else if x.Delta != nil {
				cell += " (" + percent(m.get(*x.Delta)) + ")"
			}
			fmt.Fprintf(b, " %s |", cell)
		}
		b.WriteString("\n")
	}
	b.WriteString("| notes in the graph at the start |")
	for _, x := range rows {
		fmt.Fprintf(b, " %s |", count(x.Notes))
	}
	b.WriteString("\n")
}

// percent writes a relative difference: +12.5%, −37.0%, 0.0%, or n/a.
func percent(d float64) string {
	switch {
	case math.IsNaN(d):
		return "n/a"
	case d > 0:
		return fmt.Sprintf("+%.1f%%", d*100)
	case d < 0:
		return fmt.Sprintf("−%.1f%%", -d*100)
	}
	return "0.0%"
}
