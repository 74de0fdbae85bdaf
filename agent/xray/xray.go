// Package xray is the token X-ray: it reads the agents' session logs of the
// last days (agent/transcript) and tells where the tokens went — the cost
// shares of input, cache writes, cache reads and output, how much came from
// sessions that grew long, the context loaded before the first message,
// which tools' outputs weighed on the context, how often the prompt cache
// expired mid-session — and replays each session's real context curve
// under earlier compaction to estimate what it would have saved.
//
// Logs are read one at a time and forgotten once summarized; what stays in
// memory is a small summary per session, the ids of the API responses seen
// (to drop copies), and the calls of the few most expensive sessions.
//
// Sessions are read least recently changed first, so a resumed copy of a
// session comes after the session it copies; a set of 64-bit hashes of
// the responses seen drops replays and resumed copies across files, and
// only the calls of the --top most expensive sessions are kept, for their
// curves. Within a session, each context (the session's own, each
// subagent's) is a chain of calls; a compaction, or a context that drops
// below half of the one before, resets the chain, which bounds how long a
// tool output weighs. The simulator is a pure function of a session's own
// calls (Simulate), tested against replays worked out by hand.
//
// Every figure of Analyze is checked against sessions worked out by hand
// in the tests' comments; costs in dollars use the list prices of the
// known models. scripts/xray-html-check.sh renders the HTML page in
// headless Chromium and fails on console errors or missing sections.
package xray

import (
	"context"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/agent/transcript"
	"github.com/rubi-dev/rubi/core/store"
)

// Options tune an analysis. The zero value of a field means its default.
type Options struct {
	// Since drops calls before it (zero: none).
	Since time.Time
	// Project keeps only sessions run in this project: an absolute path
	// (the directory or anything below it) or a name matching the end of
	// the session's working directory.
	Project string
	// Ratios price tokens in input-token equivalents (DefaultRatios).
	Ratios *Ratios
	// Past is the size that makes a session "long" (150k).
	Past int64
	// Near is the size counted as reaching ~1M tokens (900k).
	Near int64
	// Thresholds are the compaction thresholds to simulate (100k, 150k,
	// 250k); Handoff the handoff size a compaction resumes with (8k).
	Thresholds []int64
	Handoff    int64
	// Top is how many of the most expensive sessions to list (10).
	Top int
	// ExpiryPause is the pause after which a rewrite of most of the
	// context counts as a cache expiry (5 minutes, the default cache
	// lifetime).
	ExpiryPause time.Duration
	// Home is replaced by ~ in project names (the user's home).
	Home string
}

func (o *Options) defaults() {
	if o.Ratios == nil {
		r := DefaultRatios()
		o.Ratios = &r
	}
	if o.Past == 0 {
		o.Past = 150_000
	}
	if o.Near == 0 {
		o.Near = 900_000
	}
	if len(o.Thresholds) == 0 {
		o.Thresholds = []int64{100_000, 150_000, 250_000}
	}
	if o.Handoff == 0 {
		o.Handoff = 8_000
	}
	if o.Top == 0 {
		o.Top = 10
	}
	if o.ExpiryPause == 0 {
		o.ExpiryPause = 5 * time.Minute
	}
	if o.Home == "" {
		o.Home, _ = os.UserHomeDir()
	}
}

// curvePoints is how many points a session's context curve keeps.
const curvePoints = 400

// Analyze reads the sessions' logs in order and reports. Unreadable files
// and lines are counted in the report's problems, never fatal; only a
// cancelled ctx stops it.
func Analyze(ctx context.Context, sessions []transcript.Session, opt Options) (*Report, error) {
	opt.defaults()
	a := &analyzer{
		ctx:     ctx,
		opt:     opt,
		seen:    map[uint64]struct{}{},
		tools:   map[string]*ToolWeight{},
		models:  map[string]*ModelUsage{},
		started: time.Now(),
	}
	a.rep.Sims = make([]ThresholdResult, len(opt.Thresholds))
	for i, t := range opt.Thresholds {
		a.rep.Sims[i].Threshold = t
	}
	for i := range sessions {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		a.session(&sessions[i])
	}
	if err := ctx.Err(); err != nil {
		return nil, err // cancelled within the last log
	}
	return a.report(), nil
}

type analyzer struct {
	ctx     context.Context // the logs are read through it: a log may be gigabytes
	opt     Options
	rep     Report
	seen    map[uint64]struct{}
	tools   map[string]*ToolWeight
	models  map[string]*ModelUsage
	summary []SessionSummary // every session, small
	top     []*topSession    // the most expensive, with their calls
	started time.Time
	// context is the sum of every call's context: what the tool weights
	// are shares of.
	context float64
}

type topSession struct {
	sum   *SessionSummary
	calls []Call
}

// chain is one context within a session: the session's own, or a
// subagent's.
type chain struct {
	contexts []int64
	resets   []bool
	tools    []toolOut
	reset    bool // a compaction was seen since the last call
}

type toolOut struct {
	tool   string
	tokens int
	at     int // calls of the chain before the output
}

func (c *chain) add(ctxSize int64) {
	reset := c.reset
	if n := len(c.contexts); n > 0 && ctxSize < c.contexts[n-1]/2 {
		reset = true
	}
	c.contexts = append(c.contexts, ctxSize)
	c.resets = append(c.resets, reset)
	c.reset = false
}

// sessionState gathers one session while its logs are read.
type sessionState struct {
	sum    SessionSummary
	main   []Call
	times  []time.Time
	chains map[string]*chain // "" is the session's own context
	models map[string]transcript.Usage
	side   Cost // cost of the calls outside the session's own context
}

func (a *analyzer) session(s *transcript.Session) {
	st := &sessionState{
		sum:    SessionSummary{ID: s.ID, Agent: string(s.Agent)},
		chains: map[string]*chain{"": {}},
		models: map[string]transcript.Usage{},
	}
	for _, path := range s.Files() {
		if !a.file(st, path, path != s.Path) {
			return // another project
		}
	}
	a.finish(st, s)
}

// file reads one log of a session; it returns false when the session
// belongs to a project the options leave out.
func (a *analyzer) file(st *sessionState, path string, subagent bool) bool {
	f, err := store.OpenRegular(path)
	if err != nil {
		a.rep.Problems.add(transcript.Problem{Path: path, Msg: err.Error()})
		return true
	}
	defer f.Close()
	a.rep.Files++
	// The reads fail once the call is cancelled (SIGINT, SIGTERM, the MCP
	// client gone): between records, and within a line that is gigabytes.
	rd := transcript.NewReader(transcript.ContextReader(a.ctx, f), path)
	checked := false
	for rec := range rd.Records() {
		if !subagent && rd.Meta().Agent != "" {
			// The log's own lines say which agent wrote it, whatever its name.
			st.sum.Agent = string(rd.Meta().Agent)
		}
		if !checked && rd.Meta().CWD != "" {
			checked = true
			if st.sum.Project == "" {
				st.sum.Project = rd.Meta().CWD
			}
			if !subagent && !a.matchProject(rd.Meta().CWD) {
				a.rep.Bytes += rd.Stats().Bytes
				return false
			}
		}
		a.record(st, rec, path, subagent)
	}
	if a.ctx.Err() != nil {
		return false // Analyze returns the context's error
	}
	if id := rd.Meta().SessionID; !subagent && id != "" {
		st.sum.ID = id
	}
	stats := rd.Stats()
	a.rep.Bytes += stats.Bytes
	a.rep.Lines += stats.Lines
	a.rep.Duplicates += stats.Duplicates
	for _, p := range rd.Problems() {
		a.rep.Problems.add(p)
	}
	a.rep.Problems.Count += rd.ProblemCount() - len(rd.Problems())
	if err := rd.Err(); err != nil {
		a.rep.Problems.add(transcript.Problem{Path: path, Msg: err.Error()})
	}
	if !checked {
		m := rd.Meta()
		if st.sum.Project == "" {
			st.sum.Project = m.CWD
		}
		if !subagent && a.opt.Project != "" && !a.matchProject(m.CWD) {
			return false
		}
	}
	return true
}

func (a *analyzer) matchProject(cwd string) bool {
	p := a.opt.Project
	if p == "" {
		return true
	}
	cwd = filepath.Clean(cwd)
	if filepath.IsAbs(p) {
		p = filepath.Clean(p)
		return cwd == p || strings.HasPrefix(cwd, p+string(filepath.Separator))
	}
	p = strings.Trim(filepath.Clean(p), string(filepath.Separator))
	return cwd == p || strings.HasSuffix(cwd, string(filepath.Separator)+p)
}

func (a *analyzer) record(st *sessionState, rec transcript.Record, path string, subagent bool) {
	key := ""
	if subagent || rec.Sidechain {
		key = path
		if rec.Sidechain && !subagent {
			key += "#sidechain"
		}
	}
	ch := st.chains[key]
	if ch == nil {
		ch = &chain{}
		st.chains[key] = ch
	}
	switch rec.Kind {
	case transcript.KindCompaction:
		ch.reset = true
		if key == "" {
			st.sum.Compactions++
		}
	case transcript.KindToolResult:
		ch.tools = append(ch.tools, toolOut{tool: rec.Tool, tokens: rec.Tokens, at: len(ch.contexts)})
	case transcript.KindCall:
		if !a.opt.Since.IsZero() && !rec.Time.IsZero() && rec.Time.Before(a.opt.Since) {
			return
		}
		if rec.ID != "" {
			h := fnv.New64a()
			h.Write([]byte(st.sum.Agent))
			h.Write([]byte{0})
			h.Write([]byte(rec.ID))
			k := h.Sum64()
			if _, dup := a.seen[k]; dup {
				a.rep.Duplicates++
				return
			}
			a.seen[k] = struct{}{}
		}
		u := rec.Usage
		cost := a.opt.Ratios.costOf(u)
		st.sum.Cost.add(cost)
		st.sum.Tokens.add(u)
		st.sum.Calls++
		st.models[rec.Model] = addUsage(st.models[rec.Model], u)
		if !rec.Time.IsZero() {
			if st.sum.Start.IsZero() || rec.Time.Before(st.sum.Start) {
				st.sum.Start = rec.Time
			}
			if rec.Time.After(st.sum.End) {
				st.sum.End = rec.Time
			}
		}
		ch.add(u.Context())
		if key == "" {
			st.main = append(st.main, Call{Usage: u, Reset: ch.resets[len(ch.resets)-1]})
			st.times = append(st.times, rec.Time)
		} else {
			st.side.add(cost)
		}
	}
}

func addUsage(a, b transcript.Usage) transcript.Usage {
	return transcript.Usage{Input: a.Input + b.Input, CacheRead: a.CacheRead + b.CacheRead,
		CacheWrite5m: a.CacheWrite5m + b.CacheWrite5m, CacheWrite1h: a.CacheWrite1h + b.CacheWrite1h, Output: a.Output + b.Output}
}

// finish summarizes a session once all its logs are read.
func (a *analyzer) finish(st *sessionState, s *transcript.Session) {
	sum := &st.sum
	if sum.Calls == 0 {
		return
	}
	r := a.opt.Ratios
	sum.SideCalls = sum.Calls - len(st.main)
	if len(st.main) > 0 {
		sum.StartContext = st.main[0].Usage.Context()
		for _, c := range st.main {
			sum.Peak = max(sum.Peak, c.Usage.Context())
		}
	}
	// Cache expiries: after a pause, the call rewrote most of what the
	// previous call had in its context.
	for i := 1; i < len(st.main); i++ {
		c, prev := st.main[i], st.main[i-1].Usage.Context()
		t0, t1 := st.times[i-1], st.times[i]
		if c.Reset || t0.IsZero() || t1.IsZero() || t1.Sub(t0) < a.opt.ExpiryPause {
			continue
		}
		if w := c.Usage.CacheWrite(); w > 0 && 2*w >= prev {
			sum.Expiries++
			sum.ExpiryCost += float64(c.Usage.CacheWrite5m)*(r.CacheWrite5m-r.CacheRead) + float64(c.Usage.CacheWrite1h)*(r.CacheWrite1h-r.CacheRead)
		}
	}
	// Tool weights: an output weighs its tokens on every later call of its
	// context until the context is reset.
	for _, ch := range st.chains {
		n := len(ch.contexts)
		next := make([]int, n+1) // next[i]: first reset at or after i
		next[n] = n
		for i := n - 1; i >= 0; i-- {
			next[i] = next[i+1]
			if ch.resets[i] {
				next[i] = i
			}
		}
		for _, c := range ch.contexts {
			a.context += float64(c)
		}
		for _, t := range ch.tools {
			if t.at > n {
				continue
			}
			carried := next[t.at] - t.at
			name := t.tool
			if name == "" {
				name = "(unknown)"
			}
			w := a.tools[name]
			if w == nil {
				w = &ToolWeight{Tool: name}
				a.tools[name] = w
			}
			w.Outputs++
			w.Tokens += int64(t.tokens)
			w.Weight += float64(t.tokens) * float64(carried)
		}
	}
	// Simulations: the session's own context replayed, the rest as it was.
	sideCost := st.side.Total
	sum.Sims = make([]SessionSim, len(a.opt.Thresholds))
	for i, t := range a.opt.Thresholds {
		res := Simulate(st.main, t, a.opt.Handoff, *r, false)
		sim := res.Cost + sideCost
		sum.Sims[i] = SessionSim{Threshold: t, Switches: res.Switches, Cost: sim}
		tr := &a.rep.Sims[i]
		tr.Real += sum.Cost.Total
		tr.Cost += sim
		tr.Switches += res.Switches
		if res.Switches > 0 {
			tr.Sessions++
		}
	}
	for model, u := range st.models {
		m := a.models[model]
		if m == nil {
			m = &ModelUsage{Model: model}
			a.models[model] = m
		}
		m.Tokens.add(u)
		m.Sessions++
		if p, ok := PriceOf(model); ok {
			usd := p.USD(u)
			m.USD += usd
			sum.USD += usd
		} else {
			sum.Unpriced = true
		}
	}
	sum.Project = a.projectName(sum.Project, s)
	a.summary = append(a.summary, *sum)
	a.keepTop(sum, st.main)
}

// projectName shortens a working directory for display.
func (a *analyzer) projectName(cwd string, s *transcript.Session) string {
	if cwd == "" {
		// Claude Code names the project directory after the path.
		if s.Path != "" && s.Agent == transcript.ClaudeCode {
			return filepath.Base(filepath.Dir(s.Path))
		}
		return "(unknown)"
	}
	if a.opt.Home != "" && (cwd == a.opt.Home || strings.HasPrefix(cwd, a.opt.Home+string(filepath.Separator))) {
		return "~" + strings.TrimPrefix(cwd, a.opt.Home)
	}
	return cwd
}

// keepTop keeps the calls of the most expensive sessions for their curves.
func (a *analyzer) keepTop(sum *SessionSummary, calls []Call) {
	if len(a.top) < a.opt.Top {
		a.top = append(a.top, &topSession{sum: sum, calls: calls})
		return
	}
	least := 0
	for i, t := range a.top {
		if t.sum.Cost.Total < a.top[least].sum.Cost.Total {
			least = i
		}
	}
	if sum.Cost.Total > a.top[least].sum.Cost.Total {
		a.top[least] = &topSession{sum: sum, calls: calls}
	}
}

func (a *analyzer) report() *Report {
	rep := &a.rep
	o := a.opt
	// Empty lists, not null, for the tools that read --json.
	rep.Tools, rep.Models, rep.Top = []ToolWeight{}, []ModelUsage{}, []SessionSummary{}
	rep.Since = o.Since
	rep.Project = o.Project
	rep.Ratios = *o.Ratios
	rep.Handoff = o.Handoff
	rep.Agents = map[string]int{}
	projects := map[string]bool{}
	var starts []int64
	rep.Past.Tokens, rep.Near.Tokens = o.Past, o.Near
	for i := range a.summary {
		s := &a.summary[i]
		rep.Sessions++
		rep.Agents[s.Agent]++
		projects[s.Project] = true
		rep.Calls += int64(s.Calls)
		rep.Tokens.add(s.Tokens.usage())
		rep.Cost.add(s.Cost)
		if s.StartContext > 0 {
			starts = append(starts, s.StartContext)
		}
		if s.Peak > o.Past {
			rep.Past.Sessions++
			rep.Past.Cost += s.Cost.Total
		}
		if s.Peak >= o.Near {
			rep.Near.Sessions++
			rep.Near.Cost += s.Cost.Total
		}
		if s.Expiries > 0 {
			rep.Expiries.Sessions++
			rep.Expiries.Count += s.Expiries
			rep.Expiries.Cost += s.ExpiryCost
		}
	}
	rep.Projects = len(projects)
	total := rep.Cost.Total
	rep.Shares = rep.Cost.shares()
	rep.Past.Share = ratio(rep.Past.Cost, total)
	rep.Near.Share = ratio(rep.Near.Cost, total)
	rep.Expiries.Share = ratio(rep.Expiries.Cost, total)
	if len(starts) > 0 {
		slices.Sort(starts)
		n := len(starts)
		if n%2 == 1 {
			rep.Start.Median = starts[n/2]
		} else {
			rep.Start.Median = (starts[n/2-1] + starts[n/2]) / 2
		}
		rep.Start.Sessions = n
	}
	for _, w := range a.tools {
		w.Share = ratio(w.Weight, a.context)
		rep.Tools = append(rep.Tools, *w)
	}
	sort.Slice(rep.Tools, func(i, j int) bool {
		if rep.Tools[i].Weight != rep.Tools[j].Weight {
			return rep.Tools[i].Weight > rep.Tools[j].Weight
		}
		return rep.Tools[i].Tool < rep.Tools[j].Tool
	})
	for _, m := range a.models {
		if _, ok := PriceOf(m.Model); ok {
			rep.USD += m.USD
			m.Priced = true
		} else {
			rep.Unpriced = append(rep.Unpriced, m.Model)
		}
		rep.Models = append(rep.Models, *m)
	}
	sort.Slice(rep.Models, func(i, j int) bool { return rep.Models[i].Model < rep.Models[j].Model })
	sort.Strings(rep.Unpriced)
	best := -1
	for i := range rep.Sims {
		t := &rep.Sims[i]
		t.Saving = ratio(t.Real-t.Cost, t.Real)
		if t.Saving > 0 && (best < 0 || t.Saving > rep.Sims[best].Saving ||
			(t.Saving == rep.Sims[best].Saving && t.Threshold > rep.Sims[best].Threshold)) {
			best = i
		}
	}
	if best >= 0 {
		rep.Recommended = rep.Sims[best].Threshold
	}
	// The most expensive sessions, with their curves.
	sort.Slice(a.top, func(i, j int) bool { return a.top[i].sum.Cost.Total > a.top[j].sum.Cost.Total })
	for _, t := range a.top {
		s := *t.sum
		s.Share = ratio(s.Cost.Total, total)
		s.Curve = downsample(contextsOf(t.calls), curvePoints)
		if rep.Recommended > 0 {
			res := Simulate(t.calls, rep.Recommended, o.Handoff, *o.Ratios, true)
			s.SimCurve = downsample(res.Contexts, curvePoints)
		}
		rep.Top = append(rep.Top, s)
	}
	rep.Duration = time.Since(a.started).Seconds()
	return rep
}

func contextsOf(calls []Call) []int64 {
	out := make([]int64, len(calls))
	for i, c := range calls {
		out[i] = c.Usage.Context()
	}
	return out
}

// downsample keeps at most n points of a curve, each the largest of the
// calls it stands for, so peaks survive. Each point is [call, context].
func downsample(v []int64, n int) [][2]int64 {
	if len(v) == 0 {
		return nil
	}
	step := (len(v) + n - 1) / n
	out := make([][2]int64, 0, min(len(v), n))
	for i := 0; i < len(v); i += step {
		end := min(i+step, len(v))
		out = append(out, [2]int64{int64(i), slices.Max(v[i:end])})
	}
	return out
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
