package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/agent/transcript"
	"github.com/rubi-dev/rubi/agent/xray"
)

// metrics are one session's figures, read from the logs the agent wrote
// (agent/transcript), but for the wall time, which the harness measures
// around the agent's process.
type metrics struct {
	// Calls are the API calls (model responses), subagents' included:
	// the session's steps.
	Calls int `json:"calls"`
	// ToolCalls are the tool results that entered a context.
	ToolCalls int `json:"tool_calls"`
	// Tokens by kind, summed over the calls.
	Input      int64 `json:"input"`
	CacheRead  int64 `json:"cache_read"`
	CacheWrite int64 `json:"cache_write"`
	Output     int64 `json:"output"`
	// ReRead is the context re-read: in each call, the part of its
	// context that the previous call of the same thread had already sent
	// (see reRead).
	ReRead int64   `json:"reread"`
	Wall   float64 `json:"wall_seconds"`
	// Cost is the list price of the calls in US dollars (agent/xray's
	// table); CostKnown is false when a call's model is not in it.
	Cost      float64 `json:"cost_usd"`
	CostKnown bool    `json:"cost_known"`
}

// reading is what the harness learned from a session's logs besides its
// figures.
type reading struct {
	metrics
	Models   []string `json:"models"`
	Unpriced []string `json:"unpriced_models,omitempty"`
	// RubiMap reports whether rubi's map reached the session: rubi's
	// SessionStart context, which both agents log.
	RubiMap  bool     `json:"rubi_map"`
	Problems []string `json:"problems,omitempty"`
	Logs     []string `json:"logs"`
}

// rubiMapMark opens the context rubi's SessionStart hook adds
// (agent/hooks); the agents log a hook's context word for word.
const rubiMapMark = "rubi: the project map"

// thread follows one context: the main log's, a sidechain's, a
// subagent's.
type thread struct {
	prev int64 // the previous call's context; 0 before the first and after a compaction
}

// reRead is the part of a call's context that repeats the previous
// call's: what the cache served (CacheRead), and beyond it whatever of
// the previous context was sent again uncached (as input or written to
// the cache anew, after the cache expired). A call re-sends at most its
// own context, and the previous context grows only by what came after
// it, so that part is min(previous, current) when the cache served less.
func reRead(prev int64, u transcript.Usage) int64 {
	return max(u.CacheRead, min(prev, u.Context()))
}

// measure reads a session's logs (its main log and its subagents').
func measure(paths []string) (reading, error) {
	r := reading{metrics: metrics{CostKnown: true}, Logs: paths}
	models := map[string]bool{}
	unpriced := map[string]bool{}
	for _, path := range paths {
		if err := r.read(path, models, unpriced); err != nil {
			return r, err
		}
	}
	for m := range models {
		r.Models = append(r.Models, m)
	}
	for m := range unpriced {
		r.Unpriced = append(r.Unpriced, m)
	}
	slices.Sort(r.Models)
	slices.Sort(r.Unpriced)
	return r, nil
}

func (r *reading) read(path string, models, unpriced map[string]bool) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	rd := transcript.NewReader(f, path)
	threads := map[bool]*thread{false: {}, true: {}}
	for rec := range rd.Records() {
		th := threads[rec.Sidechain]
		switch rec.Kind {
		case transcript.KindCall:
			u := rec.Usage
			r.Calls++
			r.Input += u.Input
			r.CacheRead += u.CacheRead
			r.CacheWrite += u.CacheWrite()
			r.Output += u.Output
			r.ReRead += reRead(th.prev, u)
			th.prev = u.Context()
			models[rec.Model] = true
			if p, ok := xray.PriceOf(rec.Model); ok {
				r.Cost += p.USD(u)
			} else {
				r.CostKnown = false
				unpriced[rec.Model] = true
			}
		case transcript.KindToolResult:
			r.ToolCalls++
		case transcript.KindCompaction:
			th.prev = 0
		}
	}
	if err := rd.Err(); err != nil {
		return err
	}
	for _, p := range rd.Problems() {
		if !p.Truncated {
			r.Problems = append(r.Problems, p.Error())
		}
	}
	if !r.RubiMap {
		found, err := hookContext(path, rubiMapMark)
		if err != nil {
			return err
		}
		r.RubiMap = found
	}
	return nil
}

// hookContext reports whether a log carries text in a hook's context,
// as the agents log it: Claude Code as an attachment of type
// hook_additional_context, Codex as a developer message. A tool's output
// that merely quotes the text (a file of rubi's own source, say) is not
// one.
func hookContext(path, text string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), transcript.DefaultMaxLine)
	for sc.Scan() {
		if !bytes.Contains(sc.Bytes(), []byte(text)) {
			continue
		}
		var line struct {
			Type       string `json:"type"`
			Attachment struct {
				Type    string   `json:"type"`
				Content []string `json:"content"`
			} `json:"attachment"`
			Payload struct {
				Type    string `json:"type"`
				Role    string `json:"role"`
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"payload"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue
		}
		switch {
		case line.Type == "attachment" && line.Attachment.Type == "hook_additional_context":
			for _, c := range line.Attachment.Content {
				if strings.Contains(c, text) {
					return true, nil
				}
			}
		case line.Type == "response_item" && line.Payload.Type == "message" && line.Payload.Role == "developer":
			for _, c := range line.Payload.Content {
				if strings.Contains(c.Text, text) {
					return true, nil
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	return false, nil
}

// newSessions lists the sessions under the agents' directories of home
// that are not in before (their main logs' paths).
func newSessions(home string, before map[string]bool) ([]transcript.Session, error) {
	roots := transcript.Roots{Claude: existing(home + "/.claude"), Codex: existing(home + "/.codex")}
	all, err := transcript.Find(roots, time.Time{})
	if err != nil {
		return nil, err
	}
	var out []transcript.Session
	for _, s := range all {
		if !before[sessionKey(s)] {
			out = append(out, s)
		}
	}
	return out, nil
}

func sessionKey(s transcript.Session) string { return string(s.Agent) + ":" + s.ID + ":" + s.Path }

func existing(dir string) []string {
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return []string{dir}
	}
	return nil
}
