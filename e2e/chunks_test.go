//go:build unix

package e2e

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// The plugin's chunk commands, /rubi:analyze and /rubi:parallel, run in
// the real Claude Code CLI against the mock API: the main model is
// scripted to start rubi's chunk-analyst subagent, the subagent to read
// its chunk with rubi's read tool (chunk:ID).
//
// The mock tells the subagent's requests from the main thread's by what
// Claude Code sends: a subagent's system prompt is the agent file's body
// (and its billing header says cc_is_subagent=true), and it is offered
// only the tools the agent file names.

const (
	// analystPrompt opens agent/claude/agents/chunk-analyst.md's body.
	analystPrompt = "You analyse one chunk of this project's conversation memory"
	readTool      = "mcp__plugin_rubi_rubi__read"
	memoryTool    = "mcp__plugin_rubi_rubi__memory"
)

// isAnalyst reports whether the request comes from a chunk-analyst
// subagent.
func isAnalyst(r apiRequest) bool { return strings.Contains(r.System(), analystPrompt) }

// saveChunk saves content as a chunk of the project's conversation
// memory with rubi memory save and returns its id.
func saveChunk(t *testing.T, project string, env []string, summary, content string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "chunk.md")
	writeFiles(t, filepath.Dir(f), map[string]string{"chunk.md": content})
	out := runRubi(t, project, env, "memory", "save", f, "--summary", summary)
	id, ok := strings.CutPrefix(strings.TrimSpace(out), "saved: ")
	if !ok {
		t.Fatalf("rubi memory save: %q", out)
	}
	return id
}

// analystChunk is the chunk id a subagent was asked about: its prompt
// starts "Analyse chunk ID."
var analystChunk = regexp.MustCompile(`Analyse chunk (\S+?)\.`)

// analystScript is a chunk-analyst subagent: it reads the chunk its
// prompt names, then reports in one line, without the chunk's text.
func analystScript(r apiRequest) reply {
	m := analystChunk.FindStringSubmatch(r.Prompt())
	if m == nil {
		return reply{Text: "no chunk id in my prompt"}
	}
	results := r.ToolResults()
	if len(results) == 0 {
		return reply{ToolName: readTool, ToolInput: map[string]any{"target": "chunk:" + m[1]}}
	}
	if last := results[len(results)-1]; last.IsError {
		return reply{Text: "chunk " + m[1] + ": rubi could not read it: " + last.ResultText()}
	}
	return reply{Text: "analysis of chunk " + m[1] + ": read it, " + analystConclusion}
}

const analystConclusion = "facts, decisions and open questions listed (L1-L3)"

// analystRequests are the run's requests from chunk-analyst subagents,
// by the chunk they were asked about.
func analystRequests(r runResult) map[string][]apiRequest {
	by := map[string][]apiRequest{}
	for _, q := range r.requests {
		if isAnalyst(q) {
			id := ""
			if m := analystChunk.FindStringSubmatch(q.Prompt()); m != nil {
				id = m[1]
			}
			by[id] = append(by[id], q)
		}
	}
	return by
}

// mainRequests are the run's requests from the main thread.
func mainRequests(r runResult) []apiRequest {
	var main []apiRequest
	for _, q := range r.requests {
		if !isAnalyst(q) {
			main = append(main, q)
		}
	}
	return main
}

// checkAnalyst checks a subagent's requests: it was offered rubi's read
// and memory tools and nothing else, and it got the chunk's text from
// rubi (want, the chunk's marker) or, with want "", rubi's error.
func checkAnalyst(t *testing.T, id string, reqs []apiRequest, want string, others ...string) {
	t.Helper()
	if len(reqs) == 0 {
		t.Fatalf("no chunk-analyst subagent was started for chunk %s", id)
	}
	if got := reqs[0].ToolNames(); !slices.Equal(got, []string{memoryTool, readTool}) {
		t.Errorf("the chunk-analyst subagent is offered %v, want rubi's memory and read tools only", got)
	}
	last := reqs[len(reqs)-1]
	results := last.ToolResults()
	if len(results) != 1 {
		t.Fatalf("chunk %s: the subagent's last request has %d tool results, want its one read", id, len(results))
	}
	got := results[0]
	text := got.ResultText()
	if want == "" {
		if !got.IsError || !strings.Contains(text, "no such chunk") || !strings.Contains(text, id) {
			t.Errorf("reading unknown chunk %s: the subagent got (is_error=%v) %q, want rubi's error no such chunk", id, got.IsError, text)
		}
		return
	}
	if got.IsError || !strings.Contains(text, want) {
		t.Errorf("chunk %s: the subagent's read got (is_error=%v) %.400q, want the chunk's text with %q", id, got.IsError, text, want)
	}
	for _, o := range others {
		if strings.Contains(last.Text(), o) {
			t.Errorf("chunk %s: the subagent's context holds %q, another chunk's marker", id, o)
		}
	}
}

// logRun logs what the run's requests were and the tool results they
// carried, when the test failed.
func logRun(t *testing.T, r runResult) {
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		t.Logf("claude printed %q", r.out)
		for i, q := range r.requests {
			t.Logf("request %d (analyst %v) offers %v; prompt %.200q", i, isAnalyst(q), q.ToolNames(), q.Prompt())
			for _, c := range q.ToolResults() {
				t.Logf("  tool result (is_error=%v): %.300q", c.IsError, c.ResultText())
			}
		}
	})
}

// checkMainClean fails if a main-thread request holds one of markers:
// the chunks' text must stay in the subagents.
func checkMainClean(t *testing.T, r runResult, markers ...string) {
	t.Helper()
	main := mainRequests(r)
	if len(main) == 0 {
		t.Fatal("no request from the main thread")
	}
	for i, q := range main {
		for _, m := range markers {
			if strings.Contains(q.Text(), m) {
				t.Errorf("main-thread request %d holds the chunk's text (%q):\n%s", i, m, excerpt(q.Text(), m, 400))
			}
		}
	}
}

// agentResults are the tool results of the Agent calls in req: what the
// subagents handed back.
func agentResults(req apiRequest) []string {
	calls := map[string]bool{}
	for _, m := range req.Messages {
		for _, c := range m.Content {
			if c.Type == "tool_use" && c.Name == "Agent" {
				calls[c.ID] = true
			}
		}
	}
	var out []string
	for _, c := range req.ToolResults() {
		if calls[c.ToolUseID] {
			out = append(out, c.ResultText())
		}
	}
	return out
}

// TestClaudeCodeAnalyzeChunk: /rubi:analyze ID starts the chunk-analyst
// subagent, which reads the chunk through rubi; the main thread receives
// the subagent's conclusion and never the chunk's text. An unknown id
// reaches the subagent as rubi's error.
func TestClaudeCodeAnalyzeChunk(t *testing.T) {
	claude := claudeCLI(t)
	env := rubiEnv(t)
	project := shopProject(t, env)
	const marker = "QUOKKA-93417"
	id := saveChunk(t, project, env, "payment retries",
		"Payment retries: we decided on exponential backoff, five tries at most.\nThe staging gateway answers "+marker+" on a timeout.\nOpen question: should refunds retry too?\n")
	const unknown = "20200101-000000-deadbeef"
	args := regexp.MustCompile(`<command-args>([^\s<]+)`)
	api := newMockAPI(t, func(r apiRequest) reply {
		if isAnalyst(r) {
			return analystScript(r)
		}
		m := args.FindStringSubmatch(r.Prompt())
		if m == nil || !strings.Contains(r.Prompt(), "/rubi:analyze") {
			return reply{Text: "Noted."}
		}
		if len(r.ToolResults()) == 0 {
			return reply{ToolName: "Agent", ToolInput: map[string]any{"description": "Analyse a memory chunk",
				"prompt": "Analyse chunk " + m[1] + ". Question: what was decided about retries?", "subagent_type": "rubi:chunk-analyst", "run_in_background": false}}
		}
		return reply{Text: "Reported the analysis."}
	})
	s := newClaudeSession(t, claude, api, project, env, "--plugin-dir", repoRoot)

	r := s.run(t, "/rubi:analyze "+id+" what was decided about retries?")
	logRun(t, r)
	if got := mainRequests(r); len(got) == 0 || !strings.Contains(got[0].Text(), "Analyse a chunk of rubi's conversation memory without reading it here: "+id+" what was decided") {
		t.Fatalf("/rubi:analyze did not reach the model as its prompt with the arguments")
	}
	analysts := analystRequests(r)
	checkAnalyst(t, id, analysts[id], marker)
	checkMainClean(t, r, marker)
	main := mainRequests(r)
	if got := agentResults(main[len(main)-1]); len(got) != 1 || !strings.Contains(got[0], "analysis of chunk "+id+": read it, "+analystConclusion) {
		t.Errorf("the main thread did not get the subagent's conclusion as the Agent call's result: %q", got)
	}
	if !strings.Contains(r.out, "Reported the analysis.") {
		t.Errorf("the session did not finish: claude printed %q", r.out)
	}

	t.Run("unknown chunk", func(t *testing.T) {
		r := s.run(t, "/rubi:analyze "+unknown)
		logRun(t, r)
		checkAnalyst(t, unknown, analystRequests(r)[unknown], "")
		main := mainRequests(r)
		if got := agentResults(main[len(main)-1]); len(got) != 1 || !strings.Contains(got[0], "no such chunk") {
			t.Errorf("the main thread did not get rubi's error through the subagent: %q", got)
		}
	})

	if other := api.Other(); len(other) > 0 {
		t.Errorf("Claude Code tried to reach beyond the mock API: %v", other)
	}
}

// TestClaudeCodeParallelChunks: /rubi:parallel QUESTION searches the
// memory with rubi's memory tool (grep), starts one chunk-analyst per
// matching chunk in one message, and they run at the same time, each
// reading its own chunk; the main thread gets their answers, not the
// chunks.
func TestClaudeCodeParallelChunks(t *testing.T) {
	claude := claudeCLI(t)
	env := rubiEnv(t)
	project := shopProject(t, env)
	markers := map[string]string{}
	a := saveChunk(t, project, env, "retries decided", "Payment retries use exponential backoff, five tries at most.\nGateway code WOMBAT-5521 means try later.\n")
	markers[a] = "WOMBAT-5521"
	b := saveChunk(t, project, env, "retries first plan", "The first plan for payment retries was a fixed two-second delay.\nGateway code NUMBAT-7730 was seen in staging.\n")
	markers[b] = "NUMBAT-7730"
	c := saveChunk(t, project, env, "a haiku", "Autumn leaves falling on a quiet pond.\nPoem code DINGO-1184 for the newsletter.\n")
	markers[c] = "DINGO-1184"
	const pattern = "(?i)payment|retr(y|ies)"

	// The analysts' first requests wait for each other: they all arrive
	// only if Claude Code runs them at the same time.
	var mu sync.Mutex
	started := map[string]bool{}
	all := make(chan struct{})
	parallel := true
	api := newMockAPI(t, func(r apiRequest) reply {
		if isAnalyst(r) {
			if len(r.ToolResults()) == 0 {
				mu.Lock()
				if m := analystChunk.FindStringSubmatch(r.Prompt()); m != nil && !started[m[1]] {
					started[m[1]] = true
					if len(started) == 2 {
						close(all)
					}
				}
				mu.Unlock()
				select {
				case <-all:
				case <-time.After(20 * time.Second):
					mu.Lock()
					parallel = false
					mu.Unlock()
				}
			}
			return analystScript(r)
		}
		if !strings.Contains(r.Prompt(), "/rubi:parallel") {
			return reply{Text: "Noted."}
		}
		results := r.ToolResults()
		switch len(results) {
		case 0:
			return reply{ToolName: memoryTool, ToolInput: map[string]any{"action": "grep", "text": pattern}}
		case 1:
			var calls []toolCall
			seen := map[string]bool{}
			// Claude Code hands the model the tool's structured content.
			var found struct {
				Matches []struct {
					ID string `json:"id"`
				} `json:"matches"`
			}
			json.Unmarshal([]byte(results[0].ResultText()), &found)
			for _, m := range found.Matches {
				if !seen[m.ID] {
					seen[m.ID] = true
					calls = append(calls, toolCall{Name: "Agent", Input: map[string]any{"description": "Analyse a memory chunk",
						"prompt":        "Analyse chunk " + m.ID + ". Question: how do payment retries work? Answer from this chunk only.",
						"subagent_type": "rubi:chunk-analyst", "run_in_background": false}})
				}
			}
			if len(calls) == 0 {
				return reply{Text: "The search found nothing: " + results[0].ResultText()}
			}
			return reply{Calls: calls}
		}
		return reply{Text: "Merged the partial answers."}
	})
	s := newClaudeSession(t, claude, api, project, env, "--plugin-dir", repoRoot)
	r := s.run(t, "/rubi:parallel how do payment retries work?")
	logRun(t, r)

	main := mainRequests(r)
	if len(main) == 0 || !strings.Contains(main[0].Text(), "Answer from rubi's conversation memory, one subagent per chunk: how do payment retries work?") {
		t.Fatalf("/rubi:parallel did not reach the model as its prompt with the arguments")
	}
	if len(main) < 2 {
		t.Fatalf("the main thread made %d requests; claude printed %q", len(main), r.out)
	}
	if res := main[1].ToolResults(); len(res) != 1 || res[0].IsError || !strings.Contains(res[0].ResultText(), a) || !strings.Contains(res[0].ResultText(), b) {
		t.Fatalf("rubi's memory grep did not find chunks %s and %s: %+v", a, b, res)
	}
	analysts := analystRequests(r)
	if len(analysts) != 2 || analysts[c] != nil {
		t.Errorf("want a subagent for each of the 2 chunks the search found, got them for %v", slices.Collect(mapKeys(analysts)))
	}
	for _, id := range []string{a, b} {
		var others []string
		for o, m := range markers {
			if o != id {
				others = append(others, m)
			}
		}
		checkAnalyst(t, id, analysts[id], markers[id], others...)
	}
	mu.Lock()
	if !parallel {
		t.Errorf("the subagents did not run at the same time: one waited 20 s for the other's first request")
	}
	mu.Unlock()
	checkMainClean(t, r, markers[a], markers[b], markers[c])
	got := agentResults(main[len(main)-1])
	if len(got) != 2 || !strings.Contains(strings.Join(got, "\n"), "analysis of chunk "+a) || !strings.Contains(strings.Join(got, "\n"), "analysis of chunk "+b) {
		t.Errorf("the merge did not get both subagents' answers: %q", got)
	}
	if !strings.Contains(r.out, "Merged the partial answers.") {
		t.Errorf("the session did not finish: claude printed %q", r.out)
	}
	if other := api.Other(); len(other) > 0 {
		t.Errorf("Claude Code tried to reach beyond the mock API: %v", other)
	}
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
