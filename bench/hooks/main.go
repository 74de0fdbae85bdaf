// Command hooks measures rubi's agent hooks the way agents run them: each
// as a fresh `rubi hook EVENT` process with a real-shaped payload on
// stdin, on an indexed project, beside the floor of starting rubi at all
// (`rubi version`). It prints the median and p95 of each.
//
//	go run ./bench/hooks -rubi PATH -root DIR [-nodes 2000] [-runs 30]
//
// With -nodes, the project first gets that many synthetic knowledge notes
// (about its own files, in the words of its own paths), registered in one
// batch and indexed, unless it has them already.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rubi-dev/rubi/core/config"
	"github.com/rubi-dev/rubi/core/knowledge"
	"github.com/rubi-dev/rubi/core/pipeline"
	_ "github.com/rubi-dev/rubi/plugins/standard"
)

func main() {
	rubi := flag.String("rubi", "rubi", "the rubi binary to measure")
	root := flag.String("root", ".", "the project (indexed first if it is not)")
	nodes := flag.Int("nodes", 0, "register this many synthetic notes first")
	runs := flag.Int("runs", 30, "runs of each measure")
	flag.Parse()
	abs, err := filepath.Abs(*root)
	check(err)
	ctx := context.Background()
	files := prepare(ctx, abs, *nodes)

	work, err := os.MkdirTemp("", "rubi-hooks-bench")
	check(err)
	defer os.RemoveAll(work)
	transcript := filepath.Join(work, "session.jsonl")
	writeTranscript(transcript, 90_000)
	huge := filepath.Join(work, "huge.txt")
	check(os.WriteFile(huge, bytes.Repeat([]byte("a line of a generated file\n"), 20_000), 0o644))

	base := map[string]any{"session_id": "bench-session", "cwd": abs, "transcript_path": transcript}
	with := func(extra map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range base {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	small := filepath.Join(abs, files[len(files)/2])
	measures := []struct {
		name, event string
		payload     map[string]any
	}{
		{"SessionStart (startup)", "SessionStart", with(map[string]any{"source": "startup"})},
		{"UserPromptSubmit (matches notes)", "UserPromptSubmit", with(map[string]any{"prompt": promptFor(files)})},
		{"UserPromptSubmit (matches nothing)", "UserPromptSubmit", with(map[string]any{"prompt": "thanks, that looks good"})},
		{"PreToolUse (Read, small file)", "PreToolUse", with(map[string]any{"tool_name": "Read", "tool_input": map[string]any{"file_path": small}})},
		{"PreToolUse (Read, huge file)", "PreToolUse", with(map[string]any{"tool_name": "Read", "tool_input": map[string]any{"file_path": huge}, "session_id": "bench-guard"})},
		{"PostToolUse (meter)", "PostToolUse", with(map[string]any{"tool_name": "Grep", "tool_input": map[string]any{"pattern": "x"}, "tool_response": "x"})},
		{"Stop (harvest)", "Stop", with(map[string]any{"stop_hook_active": false})},
	}

	fmt.Printf("project: %s (%d files indexed), %d runs each, %s\n\n", abs, len(files), *runs, time.Now().UTC().Format("2006-01-02"))
	fmt.Printf("| %-36s | %8s | %8s | %s |\n", "measure", "p50 ms", "p95 ms", "p50 over the start floor")
	fmt.Printf("|%s|%s|%s|%s|\n", strings.Repeat("-", 38), strings.Repeat("-", 10), strings.Repeat("-", 10), strings.Repeat("-", 26))
	// The floor and the quick hooks run in turns, so that a slow spell of
	// a shared machine falls on all of them alike. SessionStart goes last
	// and alone: each run leaves a background index behind.
	fns := []func(){func() { run(*rubi, abs, nil, "version") }}
	for _, m := range measures[1:] {
		payload, err := json.Marshal(m.payload)
		check(err)
		fns = append(fns, func() { run(*rubi, abs, payload, "hook", m.event) })
	}
	ds := timeTurns(*runs, fns, nil)
	floor := pct(ds[0], 50)
	fmt.Printf("| %-36s | %8.1f | %8.1f | %s |\n", "floor: rubi version", ms(floor), ms(pct(ds[0], 95)), "1.0x")
	for i, m := range measures[1:] {
		fmt.Printf("| %-36s | %8.1f | %8.1f | %.1fx |\n", m.name, ms(pct(ds[i+1], 50)), ms(pct(ds[i+1], 95)), float64(pct(ds[i+1], 50))/float64(floor))
	}
	payload, err := json.Marshal(measures[0].payload)
	check(err)
	start := timeTurns(*runs, []func(){func() { run(*rubi, abs, payload, "hook", measures[0].event) }}, func() { waitIndexers(abs) })[0]
	fmt.Printf("| %-36s | %8.1f | %8.1f | %.1fx |\n", measures[0].name, ms(pct(start, 50)), ms(pct(start, 95)), float64(pct(start, 50))/float64(floor))
}

// timeTurns runs each function n times, in turns, and returns each one's
// sorted durations; after, when set, runs untimed after each call. A
// first turn warms the page cache and is not counted.
func timeTurns(n int, fns []func(), after func()) [][]time.Duration {
	call := func(fn func()) time.Duration {
		t := time.Now()
		fn()
		d := time.Since(t)
		if after != nil {
			after()
		}
		return d
	}
	for _, fn := range fns {
		call(fn)
	}
	out := make([][]time.Duration, len(fns))
	for range n {
		for i, fn := range fns {
			out[i] = append(out[i], call(fn))
		}
	}
	for _, ds := range out {
		slices.Sort(ds)
	}
	return out
}

// waitIndexers waits until no rubi index of root runs (the background
// refresh a session start leaves), so that it does not slow the next
// measure. The wait is not part of the measure.
func waitIndexers(root string) {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		busy := false
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
			if err == nil && strings.Contains(string(data), root) && strings.Contains(string(data), "\x00index") {
				busy = true
				break
			}
		}
		if !busy {
			return
		}
	}
}

// prepare indexes the project and registers the synthetic notes; it
// returns the indexed files.
func prepare(ctx context.Context, root string, nodes int) []string {
	cfg, diags := config.Load(config.Options{Root: root})
	if diags.HasErrors() {
		check(diags)
	}
	eng := pipeline.New(cfg, nil)
	defer eng.Close()
	_, err := eng.Index(ctx, pipeline.IndexOptions{})
	check(err)
	g, err := eng.Graph()
	check(err)
	var files []string
	for _, f := range g.Files {
		files = append(files, f.Path)
	}
	slices.Sort(files)
	have, _ := eng.Knowledge().Nodes()
	if nodes > len(have) {
		in := synthesize(files, nodes-len(have))
		res, err := eng.Knowledge().Register(ctx, in)
		check(err)
		for _, r := range res {
			if r.Action == knowledge.ActionError {
				check(fmt.Errorf("register: %+v", r))
			}
		}
		_, err = eng.Index(ctx, pipeline.IndexOptions{})
		check(err)
	}
	return files
}

var types = []string{knowledge.TypeDecision, knowledge.TypeGotcha, knowledge.TypeBug, knowledge.TypeConcept, knowledge.TypeHowto}

// synthesize makes n notes about the project's files, titled with the
// words of their paths, so that prompts about those paths match them.
func synthesize(files []string, n int) []knowledge.Input {
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]knowledge.Input, n)
	for i := range out {
		f := files[r.IntN(len(files))]
		words := pathWords(f)
		for len(words) == 0 {
			f = files[r.IntN(len(files))]
			words = pathWords(f)
		}
		out[i] = knowledge.Input{
			Type:  types[i%len(types)],
			Title: fmt.Sprintf("%s %s note %d", strings.Join(words, " "), types[i%len(types)], i),
			Body: fmt.Sprintf("What we learned about %s while working on %s: the %s path must be checked before the %s step, or the %s test fails.",
				f, strings.Join(words, " "), words[0], words[len(words)-1], words[r.IntN(len(words))]),
			Files: []string{f},
		}
	}
	return out
}

func pathWords(p string) []string {
	p = strings.TrimSuffix(p, filepath.Ext(p))
	f := strings.FieldsFunc(p, func(c rune) bool { return c == '/' || c == '_' || c == '-' || c == '.' })
	if len(f) > 4 {
		f = f[len(f)-4:]
	}
	return f
}

// promptFor is a prompt in the words of a file that notes are about.
func promptFor(files []string) string {
	i := len(files) / 3
	for len(pathWords(files[i])) == 0 {
		i++
	}
	w := pathWords(files[i])
	return "why does the " + strings.Join(w, " ") + " step fail after my change?"
}

func writeTranscript(path string, context int) {
	line := fmt.Sprintf(`{"type":"assistant","message":{"id":"msg_1","role":"assistant","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":10,"cache_creation_input_tokens":500,"cache_read_input_tokens":%d,"output_tokens":50}},"requestId":"req_1"}`+"\n", context)
	pad := strings.Repeat(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"`+strings.Repeat("x", 2000)+`"}]}}`+"\n", 5000)
	check(os.WriteFile(path, []byte(pad+line), 0o644))
}

func run(rubi, dir string, stdin []byte, args ...string) {
	cmd := exec.Command(rubi, args...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout = &out
	check(cmd.Run())
}

func pct(ds []time.Duration, p int) time.Duration { return ds[min(len(ds)-1, len(ds)*p/100)] }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "hooks bench:", err)
		os.Exit(1)
	}
}
