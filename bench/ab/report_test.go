package main

import (
	"math"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/agent/transcript"
)

// Context re-read: what the cache served, and when it served less than
// the previous call's context, that context sent again.
func TestReRead(t *testing.T) {
	for _, tc := range []struct {
		name string
		prev int64
		u    transcript.Usage
		want int64
	}{
		{"first call: nothing before it", 0, transcript.Usage{Input: 3, CacheWrite5m: 12000}, 0},
		{"a warm cache serves the previous context", 12003, transcript.Usage{Input: 4, CacheRead: 12003, CacheWrite5m: 700}, 12003},
		// The previous call's 3 uncached tokens are sent again beyond
		// the 12,000 the cache served.
		{"the cache serves part of it", 12003, transcript.Usage{Input: 5, CacheRead: 12000, CacheWrite5m: 900}, 12003},
		// The cache expired: all 12,707 come again as a cache write.
		{"an expired cache", 12707, transcript.Usage{Input: 2, CacheWrite5m: 13007}, 12707},
		// No cache at all (Codex against the mock): the input repeats it.
		{"no cache", 900, transcript.Usage{Input: 1000}, 900},
		// After a compaction the context is smaller than before.
		{"a smaller context", 50000, transcript.Usage{Input: 10, CacheWrite5m: 8000}, 8010},
		// A cache hit of another session's prompt counts too.
		{"cached from elsewhere", 0, transcript.Usage{Input: 3, CacheRead: 9000}, 9000},
	} {
		if got := reRead(tc.prev, tc.u); got != tc.want {
			t.Errorf("%s: re-read %d, want %d", tc.name, got, tc.want)
		}
	}
}

// Medians over runs, sums over a chain's tasks, and the relative
// difference with no rubi, worked out by hand.
func TestSummary(t *testing.T) {
	s := func(task, arm string, run, calls int, reread int64, cost float64) session {
		return session{Agent: "claude", Chain: "c", Task: task, Arm: arm, Run: run,
			reading: reading{metrics: metrics{Calls: calls, ReRead: reread, Cost: cost, CostKnown: true, Wall: 1}}}
	}
	r := &report{Runs: 3, Agents: []agentInfo{{Name: "claude", Title: "Claude Code", Version: "2.1.328", Model: "claude-sonnet-4-5"}}, Sessions: []session{
		// none: task a's calls 10, 14, 12 → median 12; task b 4, 4, 8 → 4
		s("a", armNone, 1, 10, 1000, 0.10), s("b", armNone, 1, 4, 100, 0.01),
		s("a", armNone, 2, 14, 3000, 0.30), s("b", armNone, 2, 4, 100, 0.01),
		s("a", armNone, 3, 12, 2000, 0.20), s("b", armNone, 3, 8, 500, 0.05),
		// map: task a's calls 9, 6, 6 → 6; b 4, 5, 3 → 4
		s("a", armMap, 1, 9, 900, 0.09), s("b", armMap, 1, 4, 100, 0.01),
		s("a", armMap, 2, 6, 600, 0.06), s("b", armMap, 2, 5, 200, 0.02),
		s("a", armMap, 3, 6, 500, 0.06), s("b", armMap, 3, 3, 100, 0.01),
	}}
	r.summarize([]string{armNone, armMap})
	check := func(task, arm string, calls, reread float64, dCalls float64) {
		t.Helper()
		x := r.find("claude", "c", task, arm)
		if x == nil {
			t.Fatalf("no row for task %q arm %s", task, arm)
		}
		if x.N != 3 || x.Median.Calls != calls || x.Median.ReRead != reread {
			t.Errorf("task %q arm %s: %d runs, calls %v, re-read %v; want 3, %v, %v", task, arm, x.N, x.Median.Calls, x.Median.ReRead, calls, reread)
		}
		if arm == armNone {
			if x.Delta != nil {
				t.Errorf("task %q: no rubi has a difference with itself", task)
			}
			return
		}
		if x.Delta == nil || math.Abs(x.Delta.Calls-dCalls) > 1e-12 {
			t.Errorf("task %q arm %s: calls difference %+v, want %v", task, arm, x.Delta, dCalls)
		}
	}
	check("a", armNone, 12, 2000, 0)
	check("a", armMap, 6, 600, (6.0-12)/12) // −50%
	check("b", armNone, 4, 100, 0)
	check("b", armMap, 4, 100, 0)
	// The chain's runs: none 14, 18, 20 calls → 18; re-read 1100, 3100,
	// 2500 → 2500. map 13, 11, 9 → 11; re-read 1000, 800, 600 → 800.
	check("", armNone, 18, 2500, 0)
	check("", armMap, 11, 800, (11.0-18)/18)
	x := r.find("claude", "", "", armMap)
	if x == nil || x.Median.Calls != 11 || math.Abs(x.Delta.ReRead-(800.0-2500)/2500) > 1e-12 {
		t.Errorf("the agent's row: %+v", x)
	}

	md := r.markdown()
	for _, want := range []string{
		"### Chain c, task a",
		"| steps (API calls) | 12 | 6 (−50.0%) |",
		"| context re-read (tokens) | 2,000 | 600 (−70.0%) |",
		"| cost (list price, USD) | $0.2000 | $0.0600 (−70.0%) |",
		"| steps (API calls) | 18 | 11 (−38.9%) |",
		"**Mock run**",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q:\n%s", want, md)
		}
	}
}

// An even number of runs takes the mean of the middle two; a difference
// with a zero base is n/a, not infinite.
func TestMedianAndPercent(t *testing.T) {
	if got := median([]float64{4, 1, 3, 2}); got != 2.5 {
		t.Errorf("median %v, want 2.5", got)
	}
	if got := percent(delta(figures{CacheRead: 5}, figures{}).CacheRead); got != "n/a" {
		t.Errorf("difference with 0: %q", got)
	}
	for d, want := range map[float64]string{0.125: "+12.5%", -0.37: "−37.0%", 0: "0.0%"} {
		if got := percent(d); got != want {
			t.Errorf("percent(%v) = %q, want %q", d, got, want)
		}
	}
}
