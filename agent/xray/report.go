package xray

import (
	"time"

	"github.com/rubi-dev/rubi/agent/transcript"
)

// Report is what rubi xray prints; its JSON keys are a contract (see
// docs/cli.md).
type Report struct {
	Since   time.Time `json:"since,omitzero"`
	Project string    `json:"project,omitempty"`
	Ratios  Ratios    `json:"ratios"`

	Sessions int            `json:"sessions"`
	Projects int            `json:"projects"`
	Agents   map[string]int `json:"agents"`
	Files    int            `json:"files"`
	Bytes    int64          `json:"bytes"`
	Lines    int64          `json:"lines"`
	Calls    int64          `json:"calls"`
	// Duplicates counts API responses read more than once (several lines,
	// replays in subagent logs, copies in resumed sessions) and counted
	// once.
	Duplicates int64 `json:"duplicates"`

	Tokens Tokens `json:"tokens"`
	Cost   Cost   `json:"cost"`
	Shares Shares `json:"shares"`

	// USD is the list-price cost of the calls of known models;
	// Unpriced names the models rubi has no price for.
	USD      float64      `json:"usd"`
	Unpriced []string     `json:"unpriced_models,omitempty"`
	Models   []ModelUsage `json:"models"`

	Past     SizeFinding   `json:"past"`
	Near     SizeFinding   `json:"near_1m"`
	Start    StartFinding  `json:"starting_context"`
	Expiries ExpiryFinding `json:"cache_expiries"`
	Tools    []ToolWeight  `json:"tools"`

	Top []SessionSummary `json:"top_sessions"`

	Handoff     int64             `json:"handoff"`
	Sims        []ThresholdResult `json:"simulation"`
	Recommended int64             `json:"recommended_threshold"`

	Problems Problems `json:"problems"`
	Duration float64  `json:"duration_s"`
}

// Tokens sums token usage by kind.
type Tokens struct {
	Input        int64 `json:"input"`
	CacheRead    int64 `json:"cache_read"`
	CacheWrite5m int64 `json:"cache_write_5m"`
	CacheWrite1h int64 `json:"cache_write_1h"`
	Output       int64 `json:"output"`
}

func (t *Tokens) add(v transcript.Usage) {
	t.Input += v.Input
	t.CacheRead += v.CacheRead
	t.CacheWrite5m += v.CacheWrite5m
	t.CacheWrite1h += v.CacheWrite1h
	t.Output += v.Output
}

func (t Tokens) usage() transcript.Usage {
	return transcript.Usage{Input: t.Input, CacheRead: t.CacheRead, CacheWrite5m: t.CacheWrite5m, CacheWrite1h: t.CacheWrite1h, Output: t.Output}
}

// Cost is a cost in input-token equivalents, by kind of token.
type Cost struct {
	Input      float64 `json:"input"`
	CacheWrite float64 `json:"cache_write"`
	CacheRead  float64 `json:"cache_read"`
	Output     float64 `json:"output"`
	Total      float64 `json:"total"`
}

func (r *Ratios) costOf(u transcript.Usage) Cost {
	c := Cost{
		Input:      float64(u.Input) * r.Input,
		CacheWrite: float64(u.CacheWrite5m)*r.CacheWrite5m + float64(u.CacheWrite1h)*r.CacheWrite1h,
		CacheRead:  float64(u.CacheRead) * r.CacheRead,
		Output:     float64(u.Output) * r.Output,
	}
	c.Total = c.Input + c.CacheWrite + c.CacheRead + c.Output
	return c
}

func (c *Cost) add(d Cost) {
	c.Input += d.Input
	c.CacheWrite += d.CacheWrite
	c.CacheRead += d.CacheRead
	c.Output += d.Output
	c.Total += d.Total
}

func (c Cost) shares() Shares {
	return Shares{Input: ratio(c.Input, c.Total), CacheWrite: ratio(c.CacheWrite, c.Total),
		CacheRead: ratio(c.CacheRead, c.Total), Output: ratio(c.Output, c.Total)}
}

// Shares are fractions (0–1) of the total cost.
type Shares struct {
	Input      float64 `json:"input"`
	CacheWrite float64 `json:"cache_write"`
	CacheRead  float64 `json:"cache_read"`
	Output     float64 `json:"output"`
}

// ModelUsage is the usage of one model.
type ModelUsage struct {
	Model    string  `json:"model"`
	Sessions int     `json:"sessions"`
	Tokens   Tokens  `json:"tokens"`
	USD      float64 `json:"usd"`
	Priced   bool    `json:"priced"`
}

// SizeFinding counts the sessions whose context grew to Tokens and their
// share of the cost.
type SizeFinding struct {
	Tokens   int64   `json:"tokens"`
	Sessions int     `json:"sessions"`
	Cost     float64 `json:"cost"`
	Share    float64 `json:"cost_share"`
}

// StartFinding is the context loaded before the first message: the first
// call's context, median over sessions.
type StartFinding struct {
	Median   int64 `json:"median"`
	Sessions int   `json:"sessions"`
}

// ExpiryFinding counts the cache expiries mid-session and what rewriting
// the cache cost beyond reading it.
type ExpiryFinding struct {
	Count    int     `json:"count"`
	Sessions int     `json:"sessions"`
	Cost     float64 `json:"extra_cost"`
	Share    float64 `json:"cost_share"`
}

// ToolWeight is how much one tool's outputs weighed on the context: Weight
// is the sum over its outputs of tokens × the calls that carried them,
// Share that over the sum of every call's context.
type ToolWeight struct {
	Tool    string  `json:"tool"`
	Outputs int     `json:"outputs"`
	Tokens  int64   `json:"tokens"`
	Weight  float64 `json:"weight"`
	Share   float64 `json:"share"`
}

// SessionSummary describes one session.
type SessionSummary struct {
	ID      string    `json:"id"`
	Agent   string    `json:"agent"`
	Project string    `json:"project"`
	Start   time.Time `json:"start,omitzero"`
	End     time.Time `json:"end,omitzero"`
	// Calls counts every API call; SideCalls those of subagents.
	Calls        int          `json:"calls"`
	SideCalls    int          `json:"subagent_calls"`
	StartContext int64        `json:"starting_context"`
	Peak         int64        `json:"peak_context"`
	Compactions  int          `json:"compactions"`
	Expiries     int          `json:"cache_expiries"`
	ExpiryCost   float64      `json:"cache_expiry_cost"`
	Tokens       Tokens       `json:"tokens"`
	Cost         Cost         `json:"cost"`
	Share        float64      `json:"cost_share"`
	USD          float64      `json:"usd"`
	Unpriced     bool         `json:"unpriced,omitempty"`
	Sims         []SessionSim `json:"simulation"`
	// Curve is the session's own context, call by call ([call, tokens],
	// at most 400 points, each the largest of the calls it stands for);
	// SimCurve the same replayed at the recommended threshold.
	Curve    [][2]int64 `json:"curve,omitempty"`
	SimCurve [][2]int64 `json:"simulated_curve,omitempty"`
}

// SessionSim is one session replayed at one threshold.
type SessionSim struct {
	Threshold int64   `json:"threshold"`
	Switches  int     `json:"switches"`
	Cost      float64 `json:"cost"`
}

// ThresholdResult is every session replayed at one threshold.
type ThresholdResult struct {
	Threshold int64   `json:"threshold"`
	Switches  int     `json:"switches"`
	Sessions  int     `json:"sessions_switched"`
	Real      float64 `json:"real_cost"`
	Cost      float64 `json:"simulated_cost"`
	Saving    float64 `json:"saving"`
}

// Problems are the files and lines that could not be read.
type Problems struct {
	Count     int                  `json:"count"`
	Truncated int                  `json:"truncated_last_lines"`
	First     []transcript.Problem `json:"first,omitempty"`
}

func (p *Problems) add(pr transcript.Problem) {
	if pr.Truncated {
		p.Truncated++
		return
	}
	p.Count++
	if len(p.First) < 10 {
		p.First = append(p.First, pr)
	}
}
