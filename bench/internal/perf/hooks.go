package perf

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/memory"
	"github.com/rubi-dev/rubi/core/pipeline"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
	"github.com/rubi-dev/rubi/plugins/standard"
)

// Prepared is a project indexed for measuring, with its notes.
type Prepared struct {
	Root  string
	Files []string
	// Registered counts the synthetic notes registered now, in
	// RegisterTook (one batch).
	Registered   int
	RegisterTook time.Duration
	// Saved counts the synthetic conversation chunks saved now.
	Saved int
}

// Prepare indexes the project at root, registers synthetic notes until it
// has at least notes of them and saves synthetic conversation chunks
// until it has at least chunks of them (both about its own files, in the
// words of their paths), then indexes again.
func Prepare(ctx context.Context, root string, notes, chunks int) (*Prepared, error) {
	cfg, diags := config.Load(config.Options{Root: root})
	if diags.HasErrors() {
		return nil, diags
	}
	eng := pipeline.New(cfg, pipeline.Options{MaskComments: regex.MaskComments, Resolvers: standard.Resolvers()})
	defer eng.Close()
	if _, err := eng.Index(ctx, pipeline.IndexOptions{}); err != nil {
		return nil, err
	}
	g, err := eng.Graph()
	if err != nil {
		return nil, err
	}
	p := &Prepared{Root: root}
	for _, f := range g.Files {
		p.Files = append(p.Files, f.Path)
	}
	slices.Sort(p.Files)
	have, _ := eng.Project().Knowledge().Nodes()
	if notes > len(have) {
		in := Synthesize(p.Files, notes-len(have))
		start := time.Now()
		res, err := eng.Project().Knowledge().Register(ctx, in)
		p.RegisterTook, p.Registered = time.Since(start), len(in)
		if err != nil {
			return nil, err
		}
		for _, r := range res {
			if r.Action == knowledge.ActionError {
				return nil, fmt.Errorf("register: %+v", r)
			}
		}
	}
	mem, _ := eng.Project().Memory()
	saved, err := mem.List(memory.Filter{})
	if err != nil {
		return nil, err
	}
	if chunks > len(saved) {
		_, errs, err := mem.SaveAll(ctx, SynthesizeChunks(p.Files, chunks-len(saved)))
		if err = errors.Join(append(errs, err)...); err != nil {
			return nil, fmt.Errorf("save chunks: %w", err)
		}
		p.Saved = chunks - len(saved)
	}
	if p.Registered+p.Saved == 0 {
		return p, nil
	}
	_, err = eng.Index(ctx, pipeline.IndexOptions{})
	return p, err
}

// SynthesizeChunks makes n conversation chunks, turns of sessions of
// twenty, each about a file in the words of its path. The same files give
// the same chunks.
func SynthesizeChunks(files []string, n int) []memory.Input {
	r := rand.New(rand.NewPCG(3, 4))
	start := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	out := make([]memory.Input, n)
	for i := range out {
		f, words := pickFile(r, files)
		speaker := []string{"user", "assistant"}[i%2]
		out[i] = memory.Input{
			Session: fmt.Sprintf("bench-%d", i/20),
			Created: start.Add(time.Duration(i/20)*24*time.Hour + time.Duration(i%20)*time.Minute),
			Content: fmt.Sprintf("%s: looking at %s for the %s work (turn %d): the %s step runs before %s, so a change to %s needs its test run again.",
				speaker, f, strings.Join(words, " "), i, words[0], words[len(words)-1], words[r.IntN(len(words))]),
		}
	}
	return out
}

var noteTypes = []string{knowledge.TypeDecision, knowledge.TypeGotcha, knowledge.TypeBug, knowledge.TypeConcept, knowledge.TypeHowto}

// Synthesize makes n notes about files, titled with the words of their
// paths, so that prompts about those paths match them. The same files
// give the same notes.
func Synthesize(files []string, n int) []knowledge.Input {
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]knowledge.Input, n)
	for i := range out {
		f, words := pickFile(r, files)
		typ := noteTypes[i%len(noteTypes)]
		out[i] = knowledge.Input{
			Type:  typ,
			Title: fmt.Sprintf("%s %s note %d", strings.Join(words, " "), typ, i),
			Body: fmt.Sprintf("What we learned about %s while working on %s: the %s path must be checked before the %s step, or the %s test fails.",
				f, strings.Join(words, " "), words[0], words[len(words)-1], words[r.IntN(len(words))]),
			Files: []string{f},
		}
	}
	return out
}

// pickFile draws a file with words in its path, and those words.
func pickFile(r *rand.Rand, files []string) (string, []string) {
	for {
		f := files[r.IntN(len(files))]
		if words := pathWords(f); len(words) > 0 {
			return f, words
		}
	}
}

func pathWords(p string) []string {
	p = strings.TrimSuffix(p, filepath.Ext(p))
	f := strings.FieldsFunc(p, func(c rune) bool { return c == '/' || c == '_' || c == '-' || c == '.' })
	if len(f) > 4 {
		f = f[len(f)-4:]
	}
	return f
}

// PromptFor is a prompt in the words of a file that notes are about.
func PromptFor(files []string) string {
	i := len(files) / 3
	for len(pathWords(files[i])) == 0 {
		i++
	}
	return "why does the " + strings.Join(pathWords(files[i]), " ") + " step fail after my change?"
}

// Row is one measure: its name, p50 and p95.
type Row struct {
	Name     string
	P50, P95 time.Duration
}

// HookRows measures each hook as a fresh `rubi hook` process with a
// real-shaped payload, in turns with the floor (`rubi version`, returned
// first), then SessionStart alone, each run's background index waited out
// untimed.
func HookRows(rubi string, p *Prepared, runs int) ([]Row, error) {
	// rubi-hook answers `rubi-hook EVENT`; rubi answers `rubi hook EVENT`.
	prog, hookArgs := filepath.Base(rubi), []string{"hook"}
	if strings.TrimSuffix(prog, ".exe") == "rubi-hook" {
		hookArgs = nil
	}
	work, err := os.MkdirTemp("", "rubi-hooks-bench")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	transcript := filepath.Join(work, "session.jsonl")
	if err := writeTranscript(transcript, 90_000); err != nil {
		return nil, err
	}
	huge := filepath.Join(work, "huge.txt")
	if err := os.WriteFile(huge, bytes.Repeat([]byte("a line of a generated file\n"), 20_000), 0o644); err != nil {
		return nil, err
	}
	with := func(extra map[string]any) []byte {
		m := map[string]any{"session_id": "bench-session", "cwd": p.Root, "transcript_path": transcript}
		for k, v := range extra {
			m[k] = v
		}
		data, _ := json.Marshal(m)
		return data
	}
	small := filepath.Join(p.Root, p.Files[len(p.Files)/2])
	measures := []struct {
		name, event string
		payload     []byte
	}{
		{"UserPromptSubmit, a prompt that matches notes", "UserPromptSubmit", with(map[string]any{"prompt": PromptFor(p.Files)})},
		{"UserPromptSubmit, a prompt that matches nothing", "UserPromptSubmit", with(map[string]any{"prompt": "thanks, that looks good"})},
		{"PreToolUse, Read of a small file", "PreToolUse", with(map[string]any{"tool_name": "Read", "tool_input": map[string]any{"file_path": small}})},
		{"PreToolUse, Read of a 20,000-line file (denied)", "PreToolUse", with(map[string]any{"tool_name": "Read", "tool_input": map[string]any{"file_path": huge}, "session_id": "bench-guard"})},
		{"PostToolUse (meter on a 10 MB transcript)", "PostToolUse", with(map[string]any{"tool_name": "Grep", "tool_input": map[string]any{"pattern": "x"}, "tool_response": "x"})},
		{"Stop (harvest)", "Stop", with(map[string]any{"stop_hook_active": false})},
	}
	var failed error
	call := func(stdin []byte, args ...string) func() {
		return func() {
			if _, err := Exec(p.Root, stdin, rubi, args...); err != nil && failed == nil {
				failed = err
			}
		}
	}
	fns := []func(){call(nil, "version")}
	for _, m := range measures {
		fns = append(fns, call(m.payload, append(hookArgs, m.event)...))
	}
	ds := TimeTurns(runs, fns, nil)
	rows := []Row{{"floor: " + prog + " version", Pct(ds[0], 50), Pct(ds[0], 95)}}
	for i, m := range measures {
		rows = append(rows, Row{m.name, Pct(ds[i+1], 50), Pct(ds[i+1], 95)})
	}
	// A recall right after a note changed outside rubi (a git pull, an
	// editor): the hook finds the notes' folder changed and brings the
	// notes' part of the index up to date before it answers. A note is
	// rewritten, untimed, before each run; the floor is timed again in the
	// same turns.
	note, err := changingNote(p.Root)
	if err != nil {
		return nil, err
	}
	recall := with(map[string]any{"prompt": PromptFor(p.Files)})
	changed := TimeTurns(runs, []func(){call(nil, "version"), call(recall, append(hookArgs, "UserPromptSubmit")...)}, note)
	rows = append(rows, Row{"UserPromptSubmit after a note changed (its index refreshed first)", Pct(changed[1], 50), Pct(changed[1], 95)})
	rows = append(rows, Row{"floor, in the same turns as the row above", Pct(changed[0], 50), Pct(changed[0], 95)})
	start := TimeTurns(runs, []func(){call(with(map[string]any{"source": "startup"}), append(hookArgs, "SessionStart")...)}, func() { WaitIndexers(p.Root) })[0]
	rows = append(rows, Row{"SessionStart (startup, index refresh left running)", Pct(start, 50), Pct(start, 95)})
	return rows, failed
}

// changingNote returns a function that rewrites one of the project's
// notes with new words, through a new file renamed over it as editors and
// git do, so that each call leaves a changed note for the next hook.
func changingNote(root string) (func(), error) {
	dir := filepath.Join(root, ".rubi", "knowledge")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var path string
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".md") {
			path = filepath.Join(dir, e.Name())
			break
		}
	}
	if path == "" {
		return nil, fmt.Errorf("no note in %s to change", dir)
	}
	original, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	n := 0
	return func() {
		n++
		text := fmt.Sprintf("%s\nRevision %d: the retry budget was raised again.\n", original, n)
		tmp := path + ".tmp"
		if os.WriteFile(tmp, []byte(text), 0o644) == nil {
			os.Rename(tmp, path)
		}
	}, nil
}

// writeTranscript writes a 10 MB Claude Code transcript whose last call
// used context tokens.
func writeTranscript(path string, context int) error {
	line := fmt.Sprintf(`{"type":"assistant","message":{"id":"msg_1","role":"assistant","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":10,"cache_creation_input_tokens":500,"cache_read_input_tokens":%d,"output_tokens":50}},"requestId":"req_1"}`+"\n", context)
	pad := strings.Repeat(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"`+strings.Repeat("x", 2000)+`"}]}}`+"\n", 5000)
	return os.WriteFile(path, []byte(pad+line), 0o644)
}
