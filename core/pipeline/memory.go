package pipeline

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/memory"
)

// Memory returns the project's conversation memory with rubi.hcl's limits,
// and the retention policy rubi.hcl asks for.
func (e *Engine) Memory() (*memory.Store, memory.Policy) {
	return memory.Configured(e.cfg.Root, e.cfg.Memory)
}

// HandoffTag tags the chunk that keeps a handoff in the conversation
// memory.
const HandoffTag = "handoff"

// SaveHandoff writes a handoff to .rubi/handoffs/ and keeps its text in
// the conversation memory too, as a session chunk tagged handoff, so grep,
// list and context find it among the rest. It returns the handoff's file
// and the chunk (a duplicate when the same handoff was saved before).
func (e *Engine) SaveHandoff(ctx context.Context, h knowledge.Handoff) (string, *memory.Saved, error) {
	if h.Created.IsZero() {
		h.Created = time.Now()
	}
	h.Created = h.Created.UTC().Truncate(time.Second)
	if err := h.Settle(); err != nil { // the goal names the chunk
		return "", nil, err
	}
	path, err := e.Knowledge().SaveHandoff(h)
	if err != nil {
		return "", nil, err
	}
	summary := "Handoff"
	if g := strings.TrimSpace(h.Goal); g != "" {
		summary += ": " + strings.Join(strings.Fields(g), " ")
		if r := []rune(summary); len(r) > 120 {
			summary = string(r[:119]) + "…"
		}
	}
	s, _ := e.Memory()
	chunk, err := s.Save(ctx, memory.Input{Type: memory.TypeSession, Summary: summary, Tags: []string{HandoffTag}, Content: h.Markdown(), Created: h.Created})
	if err != nil {
		return path, nil, fmt.Errorf("the handoff is saved in %s, but not in the conversation memory: %w", path, err)
	}
	return path, chunk, nil
}
