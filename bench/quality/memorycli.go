package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/bench/internal/sets"
	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/memory"
)

// The user's path: a conversation saved the way an agent or a person
// saves it, one `rubi memory save` process a turn into a project that is
// already indexed (each save brings the notes' part of the index up to
// date, as it does for a user), then each question asked by one `rubi
// context` process. Beside the batch harness (buildTurnChunks, one
// SaveAll and one index run), it measures whether saving one turn at a
// time gets the same index.

// memoryCLI runs the rubi binary built from the checkout.
type memoryCLI struct {
	bin   string
	extra []string // the harness's -config layers
	env   []string
	// saves and registers are how long each save and each register
	// process took.
	saves, registers latencies
}

// newMemoryCLI builds rubi from the checkout at root into work.
func newMemoryCLI(ctx context.Context, h *harness, root, work string) (*memoryCLI, error) {
	bin := filepath.Join(work, "bin-memory")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin+string(filepath.Separator), "./cmd/rubi")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build ./cmd/rubi: %v\n%s", err, out)
	}
	env, err := cliEnv(work)
	if err != nil {
		return nil, err
	}
	return &memoryCLI{bin: filepath.Join(bin, "rubi"), extra: h.extra, env: env}, nil
}

// run runs rubi in dir with args and stdin, and returns its output.
func (m *memoryCLI) run(ctx context.Context, dir, stdin string, args ...string) ([]byte, error) {
	return m.runWith(ctx, dir, stdin, nil, args...)
}

// runWith is run with extra rubi.hcl layers after the harness's.
func (m *memoryCLI) runWith(ctx context.Context, dir, stdin string, layers []string, args ...string) ([]byte, error) {
	full := append([]string{args[0], "--root", dir}, m.configArgs(layers)...)
	full = append(full, args[1:]...)
	cmd := exec.CommandContext(ctx, m.bin, full...)
	cmd.Dir, cmd.Env = dir, m.env
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("rubi %s: %w%s", strings.Join(args[:min(2, len(args))], " "), err, sets.StderrOf(err))
	}
	return out, nil
}

func (m *memoryCLI) configArgs(layers []string) []string {
	var out []string
	for _, e := range append(slices.Clone(m.extra), layers...) {
		out = append(out, "--config", e)
	}
	return out
}

// saveTurns indexes the empty project at root, then saves c's turns one
// process a turn, each as the batch harness saves it (turnChunk) and
// with its date (--created). It returns each chunk's document id with
// its dia_id.
func (m *memoryCLI) saveTurns(ctx context.Context, root string, c conversation) (map[string]string, error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	if _, err := m.run(ctx, root, "", "index"); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, s := range c.Sessions {
		for k, t := range s.Turns {
			ch := turnChunk(c, s, k, t)
			args := []string{"memory", "save", "--json", "--type", ch.Type, "--summary", ch.Summary, "--session", ch.Session}
			if !ch.Created.IsZero() {
				args = append(args, "--created", ch.Created.Format(time.RFC3339))
			}
			start := time.Now()
			b, err := m.run(ctx, root, ch.Content, append(args, "-")...)
			m.saves = append(m.saves, time.Since(start))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", t.DiaID, err)
			}
			var saved memory.Saved
			if err := json.Unmarshal(b, &saved); err != nil {
				return nil, fmt.Errorf("%s: reading its JSON: %w", t.DiaID, err)
			}
			if saved.Duplicate {
				return nil, fmt.Errorf("%s: stored twice", t.DiaID)
			}
			out[core.DocID(core.DocChunk, saved.ID)] = t.DiaID
		}
	}
	return out, nil
}

// registerTurns indexes the empty project at root, then registers c's
// turns as notes one `rubi register --json` process a turn, each the
// plain note the batch harness registers (turnNotes), with its date. It
// returns each note's document id with its dia_id.
func (m *memoryCLI) registerTurns(ctx context.Context, root string, c conversation) (map[string]string, error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	if _, err := m.run(ctx, root, "", "index"); err != nil {
		return nil, err
	}
	in, dias := turnNotes(c, false)
	out := map[string]string{}
	for i, n := range in {
		b, err := json.Marshal([]knowledge.Input{n})
		if err != nil {
			return nil, err
		}
		start := time.Now()
		res, err := m.run(ctx, root, string(b), "register", "--json")
		m.registers = append(m.registers, time.Since(start))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dias[i], err)
		}
		var results []knowledge.Result
		if err := json.Unmarshal(res, &results); err != nil {
			return nil, fmt.Errorf("%s: reading its JSON: %w", dias[i], err)
		}
		if len(results) != 1 || results[0].Action != knowledge.ActionCreated {
			return nil, fmt.Errorf("%s: registered as %+v", dias[i], results)
		}
		out[core.DocID(core.DocNode, results[0].ID)] = dias[i]
	}
	return out, nil
}

// ask asks each question through `rubi context` (items of kind only, 50
// items, a budget that never cuts), one process a question, with the
// extra rubi.hcl layers, and returns the dia_ids of each answer's items
// in order, with each call's time.
func (m *memoryCLI) ask(ctx context.Context, root, kind string, questions []string, toDia map[string]string, layers ...string) ([][]string, latencies, error) {
	ranked := make([][]string, len(questions))
	var lat latencies
	for i, q := range questions {
		start := time.Now()
		b, err := m.runWith(ctx, root, "", layers, "context", "--json", "--kinds", kind, "--limit", "50", "--budget", strconv.Itoa(1<<30), "--", q)
		lat = append(lat, time.Since(start))
		if err != nil {
			return nil, nil, err
		}
		var res answer.Result
		if err := json.Unmarshal(b, &res); err != nil {
			return nil, nil, fmt.Errorf("rubi context %q: reading its JSON: %w", q, err)
		}
		for _, it := range res.Items {
			if d := toDia[it.ID]; d != "" {
				ranked[i] = append(ranked[i], d)
			}
		}
	}
	return ranked, lat, nil
}
