package xray

import "github.com/rubi-dev/rubi/agent/transcript"

// Call is one API call of a session's own context, as the simulator
// replays it.
type Call struct {
	Usage transcript.Usage
	// Reset is set when the real session compacted (or otherwise dropped
	// most of its context) just before this call.
	Reset bool
}

// SimResult is the replay of one session at one threshold.
type SimResult struct {
	// Real and Cost are the session's calls priced as they happened and as
	// replayed, in input-token equivalents; Cost includes the summary
	// calls of the switches.
	Real, Cost float64
	// Switches counts the simulated compactions (window switches).
	Switches int
	// Contexts holds the replayed context size of each call when asked.
	Contexts []int64
}

// Simulate replays a session's real context curve under "compact at the
// threshold, resume from the fixed context plus a handoff":
//
//   - The fixed context F is the first call's context: what the session
//     loads before any work (system prompt, tools, memory files, the first
//     request). c_i is call i's real context and d_i = c_i - c_{i-1} what
//     the turn added.
//   - The replayed context starts at s_0 = c_0 and follows the turns:
//     s_i = s_{i-1} + d_i, never above c_i nor below min(F, c_i). After a
//     real compaction (Reset) it is min(c_i, s_{i-1}): it does not shrink
//     again by what the real compaction dropped.
//   - When s_i exceeds the threshold and compacting would shrink it, the
//     session switches windows before call i: a summary call reads the
//     whole previous context from the cache and writes the handoff
//     (R·s_{i-1} + O·handoff), and the context restarts at
//     s_i = F + handoff + max(0, d_i).
//   - Call i keeps its real uncached input and output. Its cache writes
//     are the real ones, capped at what fits in s_i; the rest of s_i is
//     read from the cache. Right after a switch only the fixed context is
//     still cached: the call reads F and writes the rest, at the real
//     call's mix of 5-minute and 1-hour writes.
//
// With no switch the replay prices every call exactly as it happened.
func Simulate(calls []Call, threshold, handoff int64, r Ratios, keepContexts bool) SimResult {
	var res SimResult
	if keepContexts {
		res.Contexts = make([]int64, 0, len(calls))
	}
	if len(calls) == 0 {
		return res
	}
	fixed := calls[0].Usage.Context()
	var prevReal, prevSim int64
	for i, c := range calls {
		u := c.Usage
		real := u.Context()
		res.Real += r.Cost(u)
		s := real
		switched := false
		if i > 0 {
			d := real - prevReal
			if c.Reset {
				s = min(real, prevSim)
			} else {
				s = min(max(prevSim+d, min(fixed, real)), real)
			}
			if restart := fixed + handoff + max(0, d); s > threshold && restart < s {
				res.Cost += r.CacheRead*float64(prevSim) + r.Output*float64(handoff)
				res.Switches++
				s, switched = restart, true
			}
		}
		res.Cost += simCost(u, s, fixed, switched, r)
		if keepContexts {
			res.Contexts = append(res.Contexts, s)
		}
		prevReal, prevSim = real, s
	}
	return res
}

// simCost prices a call whose context is s instead of its real one.
func simCost(u transcript.Usage, s, fixed int64, switched bool, r Ratios) float64 {
	in := min(u.Input, s)
	var read, write int64
	if switched {
		read = min(fixed, s-in)
		write = s - in - read
	} else {
		write = min(u.CacheWrite(), s-in)
		read = s - in - write
	}
	// Split the writes by lifetime like the real call's (5 minutes when
	// the real call wrote nothing).
	w1h := 0.0
	if total := u.CacheWrite(); total > 0 {
		w1h = float64(write) * float64(u.CacheWrite1h) / float64(total)
	}
	w5m := float64(write) - w1h
	return float64(in)*r.Input + float64(read)*r.CacheRead + w5m*r.CacheWrite5m + w1h*r.CacheWrite1h + float64(u.Output)*r.Output
}
