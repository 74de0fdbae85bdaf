// Package transcripttest writes synthetic Claude Code session logs shaped
// like real ones, for benchmarks and demonstrations: responses written as
// several lines, tool outputs duplicated in toolUseResult, growing
// contexts, pauses that let the cache expire, compactions and subagents.
package transcripttest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Spec describes the logs to write.
type Spec struct {
	// Bytes stops writing once this much was written (0: no limit).
	Bytes int64
	// Sessions is the number of sessions (0: as many as Bytes needs).
	Sessions int
	// Calls is the mean number of API calls per session (default 120).
	Calls int
	// Seed makes the logs reproducible.
	Seed uint64
	// Start is the first session's start (default 2026-11-01 UTC); each
	// session starts an hour after the previous one.
	Start time.Time
	// Projects are the working directories sessions cycle through.
	Projects []string
}

// filler is prose-like text tool outputs are cut from.
var filler = strings.Repeat("func handle(w http.ResponseWriter, r *http.Request) { // serve the coupon endpoint\n", 4000)

// Write writes the logs under root as Claude Code does
// (root/projects/<project>/<session>.jsonl) and returns the bytes written.
func Write(root string, spec Spec) (int64, error) {
	if spec.Calls == 0 {
		spec.Calls = 120
	}
	if spec.Start.IsZero() {
		spec.Start = time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)
	}
	if len(spec.Projects) == 0 {
		spec.Projects = []string{"/home/dev/shop", "/home/dev/api", "/home/dev/infra"}
	}
	rng := rand.New(rand.NewPCG(spec.Seed, spec.Seed^0x9e3779b97f4a7c15))
	var total int64
	for i := 0; spec.Sessions == 0 || i < spec.Sessions; i++ {
		if spec.Bytes > 0 && total >= spec.Bytes {
			break
		}
		if spec.Sessions == 0 && spec.Bytes == 0 {
			return 0, fmt.Errorf("transcripttest: give Sessions or Bytes")
		}
		g := &gen{rng: rng, cwd: spec.Projects[i%len(spec.Projects)], t: spec.Start.Add(time.Duration(i) * time.Hour),
			id: fmt.Sprintf("%08x-0000-4000-8000-%012x", i, rng.Uint64()&0xffffffffffff)}
		dir := filepath.Join(root, "projects", strings.ReplaceAll(g.cwd, "/", "-"))
		n, err := g.session(dir, spec.Calls/2+rng.IntN(spec.Calls+1))
		total += n
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

type gen struct {
	rng   *rand.Rand
	cwd   string
	id    string
	t     time.Time
	w     *bufio.Writer
	n     int64
	msg   int
	last  string // uuid of the last line
	agent bool
}

func (g *gen) line(v map[string]any) {
	g.msg++
	uuid := fmt.Sprintf("%s-%06d", g.id[:8], g.msg)
	v["uuid"], v["parentUuid"], v["sessionId"], v["cwd"], v["version"] = uuid, g.last, g.id, g.cwd, "2.1.328"
	v["timestamp"] = g.t.Format("2006-01-02T15:04:05.000Z")
	if _, ok := v["isSidechain"]; !ok {
		v["isSidechain"] = g.agent
	}
	g.last = uuid
	b, _ := json.Marshal(v)
	g.w.Write(b)
	g.w.WriteByte('\n')
	g.n += int64(len(b)) + 1
}

func usage(in, read, write, out int64, oneHour bool) map[string]any {
	cc := map[string]any{"ephemeral_5m_input_tokens": write, "ephemeral_1h_input_tokens": 0}
	if oneHour {
		cc = map[string]any{"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": write}
	}
	return map[string]any{"input_tokens": in, "cache_read_input_tokens": read, "cache_creation_input_tokens": write,
		"output_tokens": out, "cache_creation": cc, "service_tier": "standard"}
}

var tools = []struct {
	name     string
	weight   int
	min, max int // output tokens
}{{"Bash", 40, 50, 6000}, {"Read", 30, 300, 9000}, {"Grep", 15, 50, 2500}, {"Edit", 15, 30, 400}}

func (g *gen) tool() (string, int) {
	x := g.rng.IntN(100)
	for _, t := range tools {
		if x < t.weight {
			return t.name, t.min + g.rng.IntN(t.max-t.min)
		}
		x -= t.weight
	}
	return "Bash", 100
}

// session writes one session of about calls calls, and sometimes a
// subagent log beside it.
func (g *gen) session(dir string, calls int) (int64, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	f, err := os.Create(filepath.Join(dir, g.id+".jsonl"))
	if err != nil {
		return 0, err
	}
	g.w = bufio.NewWriterSize(f, 1<<20)
	g.line(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": "continue the refactoring of the checkout"}})
	g.line(map[string]any{"type": "attachment", "attachment": map[string]any{"type": "skill_listing", "content": filler[:3000]}})
	fixed := int64(18000 + g.rng.IntN(40000))
	ctx := int64(0)
	oneHour := g.rng.IntN(4) == 0
	for c := 0; c < calls; c++ {
		g.t = g.t.Add(time.Duration(5+g.rng.IntN(60)) * time.Second)
		var read, write int64
		switch {
		case ctx == 0:
			write = fixed
		case g.rng.IntN(50) == 0:
			// A coffee break: the cache expires and is written again.
			g.t = g.t.Add(time.Duration(6+g.rng.IntN(50)) * time.Minute)
			write = ctx
		case ctx > 170000 && g.rng.IntN(3) == 0:
			g.line(map[string]any{"type": "system", "subtype": "compact_boundary", "content": "Conversation compacted", "compactMetadata": map[string]any{"trigger": "auto", "preTokens": ctx}})
			ctx = 0
			write = fixed + 12000
		default:
			read = ctx
			write = 0
		}
		name, size := g.tool()
		out := int64(40 + g.rng.IntN(900))
		if read > 0 {
			write = out + int64(size) + 30
		}
		req := fmt.Sprintf("req_%s_%d", g.id[:8], c)
		mid := fmt.Sprintf("msg_%s_%d", g.id[:8], c)
		toolID := fmt.Sprintf("toolu_%s_%d", g.id[:8], c)
		u := usage(3, read, write, out, oneHour)
		msg := func(content []any, u map[string]any) map[string]any {
			return map[string]any{"id": mid, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": content, "usage": u}
		}
		// One response, two lines: the thinking, then the tool call.
		g.line(map[string]any{"type": "assistant", "requestId": req, "message": msg([]any{map[string]any{"type": "thinking", "thinking": filler[:200+g.rng.IntN(800)]}}, usage(3, read, write, 1, oneHour))})
		g.line(map[string]any{"type": "assistant", "requestId": req, "message": msg([]any{map[string]any{"type": "tool_use", "id": toolID, "name": name, "input": map[string]any{"command": "go test ./..."}}}, u)})
		ctx = read + write + 3
		g.t = g.t.Add(time.Duration(1+g.rng.IntN(20)) * time.Second)
		text := cut(size)
		g.line(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": toolID, "content": text}}},
			"toolUseResult": map[string]any{"stdout": text, "stderr": "", "interrupted": false}})
		if c%15 == 14 {
			g.line(map[string]any{"type": "attachment", "attachment": map[string]any{"type": "hook_success", "content": filler[:1500]}})
		}
	}
	if err := g.w.Flush(); err != nil {
		f.Close()
		return g.n, err
	}
	if err := f.Close(); err != nil {
		return g.n, err
	}
	if g.rng.IntN(3) == 0 {
		return g.subagent(dir)
	}
	return g.n, nil
}

// subagent writes a short subagent log under <session>/subagents/.
func (g *gen) subagent(dir string) (int64, error) {
	sub := filepath.Join(dir, g.id, "subagents")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		return g.n, err
	}
	f, err := os.Create(filepath.Join(sub, fmt.Sprintf("agent-%s.jsonl", g.id[:8])))
	if err != nil {
		return g.n, err
	}
	defer f.Close()
	g.w = bufio.NewWriterSize(f, 1<<20)
	g.agent = true
	ctx := int64(9000)
	for c := range 8 {
		req, mid, toolID := fmt.Sprintf("sreq_%s_%d", g.id[:8], c), fmt.Sprintf("smsg_%s_%d", g.id[:8], c), fmt.Sprintf("stoolu_%s_%d", g.id[:8], c)
		size := 200 + g.rng.IntN(3000)
		write := int64(size + 100)
		read := ctx
		if c == 0 {
			read, write = 0, ctx
		}
		g.line(map[string]any{"type": "assistant", "requestId": req, "message": map[string]any{"id": mid, "role": "assistant", "model": "claude-haiku-4-5",
			"content": []any{map[string]any{"type": "tool_use", "id": toolID, "name": "Grep", "input": map[string]any{"pattern": "coupon"}}}, "usage": usage(3, read, write, 80, false)}})
		ctx = read + write + 3
		g.line(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": toolID, "content": cut(size)}}}})
	}
	g.agent = false
	return g.n, g.w.Flush()
}

// cut returns text of about the given number of tokens.
func cut(tokens int) string {
	n := min(tokens*7/2, len(filler))
	return filler[:n]
}
