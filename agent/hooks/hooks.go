// Package hooks answers the hooks coding agents run around a session: the
// JSON an agent (Claude Code, Codex CLI, which uses the same format, or
// Gemini CLI, which sends the same fields under its own event names:
// GeminiEvents) writes on a hook command's stdin comes in, and the JSON it
// reads back goes out. Each event has one job:
//
//   - SessionStart: refresh the index (in a detached process when it takes
//     long) and inject the level-0 map and the critical notes; after a
//     compaction or /clear, the last handoff first.
//   - UserPromptSubmit: recall — the notes and conversation chunks that
//     really match the prompt, ranked as `rubi context --kinds node,chunk`
//     ranks them, within the recall budget, or nothing at all (the
//     threshold is documented on recall and in docs/hooks.md).
//   - PostToolUse: the meter — the real context size from the transcript,
//     and once per crossing of the warning share of the window, a request
//     to register facts and save a handoff. It also counts the turn's reads
//     and searches for the harvest.
//   - Stop: the harvest — after heavy exploration with nothing registered,
//     block the stop once and ask for 1–5 durable facts.
//   - PreCompact: an objective record of the conversation about to be
//     compacted (requests, files changed, commands) in .rubi/sessions/.
//   - PreToolUse: the read guard — a full read of a huge file is denied
//     once per file and session, pointing to Grep or offset/limit.
//   - SessionEnd: the session's state is removed.
//
// A hook never breaks the agent: any other event, an empty or malformed
// payload, a project rubi does not know, or an internal error ends with
// exit status 0 and nothing on stdout; errors go to a size-capped log,
// .rubi/hooks.log. Stdin is always drained, so the agent never blocks
// writing to it.
//
// What the hooks inject is written in the project's language (the
// language setting, else the agent's locale: core/messages). Recall's
// threshold is applied while the items are packed (answer.Query.Admit),
// so an item that fails it takes none of the budget. The meter reads the
// transcript's tail, from 16 KiB up, through a buffer of that size
// (agent/transcript.LastCall): it runs after every tool call. The memory
// nudge decides from a written path's text alone whether it is the
// agent's own memory file; per-session state is kept under a lock, since
// an agent runs hooks concurrently.
//
// The program running the hooks decides what the package does not:
// ProcessEnv takes its engine options (rubi-hook and `rubi hook` answer
// once and exit, so pipeline.Options.OneShot, and tune their garbage
// collector themselves, programs.QuietGC). A program that cannot start
// plugins hands a recall whose rubi.hcl names a ranker or fuser plugin to
// rubi-full with the payload (Env.HandOver); the session start's
// background index (`rubi-hook index DIR`) execs `rubi-full index` alike.
//
// Tests feed the handlers the real Claude Code, Codex and Gemini CLI
// payloads of testdata/ against a copy of the pipeline's shop fixture.
// The recall set (testdata/recall: a project, 14 notes and 47 prompts,
// each group commented; TestRecallSet) states the recall figures through
// the UserPromptSubmit handler, and its dev twin (testdata/recall-dev)
// alone chooses rerank.floor's floor (TestMatchFloorIsCrossValidated).
// Others cover the meter crossing once per crossing (a 1 GiB transcript
// within 64 MiB of allocation), the harvest blocking once, the guard
// denying once per file and session, records of real and crafted
// transcripts, malformed and empty stdin, and folders that are not
// projects. Fuzz targets: FuzzReadInput and FuzzRun.
package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// The events rubi handles, named as Claude Code and Codex name them.
const (
	SessionStart     = "SessionStart"
	UserPromptSubmit = "UserPromptSubmit"
	PostToolUse      = "PostToolUse"
	Stop             = "Stop"
	PreCompact       = "PreCompact"
	PreToolUse       = "PreToolUse"
	SessionEnd       = "SessionEnd"
)

// Events lists the handled events, in the order a session meets them.
var Events = []string{SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop, PreCompact, SessionEnd}

// GeminiEvents maps Gemini CLI's hook events onto the handlers of rubi's
// events (checked against Gemini CLI 0.61.0, whose payloads are Claude
// Code's snake_case fields under these names). SessionStart and SessionEnd
// have the same names in both.
var GeminiEvents = map[string]string{
	"BeforeAgent": UserPromptSubmit, // the prompt, before the model plans
	"BeforeTool":  PreToolUse,
	"AfterTool":   PostToolUse,
	"AfterAgent":  Stop, // once per turn, with stop_hook_active
	"PreCompress": PreCompact,
}

// maxPayload is the most of stdin a hook reads; the rest is drained. A
// PostToolUse payload carries the tool's output, which can be large, and
// none of what rubi needs from it is past the first megabytes.
const maxPayload = 32 << 20

// Input is the payload an agent sends. Claude Code and Codex use the same
// snake_case fields; each event fills the ones it has.
type Input struct {
	// payload is the JSON as read, for a hand-over (Env.HandOver).
	payload []byte

	Event          string `json:"hook_event_name"`
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	CWD            string `json:"cwd"`
	// Source is SessionStart's: startup, resume, clear or compact.
	Source string `json:"source"`
	// Prompt is UserPromptSubmit's.
	Prompt string `json:"prompt"`
	// ToolName, ToolInput and ToolResponse are PreToolUse's and
	// PostToolUse's.
	ToolName     string          `json:"tool_name"`
	ToolInput    json.RawMessage `json:"tool_input"`
	ToolResponse json.RawMessage `json:"tool_response"`
	// StopHookActive is Stop's: the agent is already continuing because a
	// Stop hook blocked it.
	StopHookActive bool `json:"stop_hook_active"`
	// Trigger is PreCompact's: manual or auto.
	Trigger string `json:"trigger"`
}

// Output is what a hook answers. The zero Output prints nothing.
type Output struct {
	// Context is text for the model (hookSpecificOutput.additionalContext).
	Context string
	// Deny, for PreToolUse, refuses the tool call with this reason.
	Deny string
	// Block, for Stop, keeps the agent going with this reason as its next
	// instruction.
	Block string
	// Notice is for the user, not the model: the agents show a hook's
	// top-level systemMessage to the user and do not put it in the
	// model's context (Claude Code, Gemini CLI; Codex reads the same
	// format). rubi says there what an untrusted project left out.
	Notice string
}

// IsZero reports an Output that says nothing.
func (o Output) IsZero() bool { return o == Output{} }

// Encode writes o in the agent's format for event (the agent's own name
// for it); nothing for a zero Output. Gemini CLI reads additionalContext
// and a Stop's block as Claude Code does, but refuses a tool with a
// top-level decision.
func (o Output) Encode(w io.Writer, event string) error {
	if o.IsZero() {
		return nil
	}
	var doc map[string]any
	switch {
	case o.Block != "":
		doc = map[string]any{"decision": "block", "reason": o.Block}
	case o.Deny != "" && event == "BeforeTool":
		doc = map[string]any{"decision": "deny", "reason": o.Deny}
	case o.Deny != "":
		doc = map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName":            event,
			"permissionDecision":       "deny",
			"permissionDecisionReason": o.Deny,
		}}
	case o.Context != "":
		doc = map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName":     event,
			"additionalContext": o.Context,
		}}
	default:
		doc = map[string]any{}
	}
	if o.Notice != "" {
		doc["systemMessage"] = o.Notice
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// ReadInput reads and drains stdin and decodes the payload. An empty
// payload is an error (there is nothing to act on); so is JSON that is not
// an object.
func ReadInput(r io.Reader) (*Input, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxPayload))
	if _, derr := io.Copy(io.Discard, r); err == nil {
		err = derr
	}
	if err != nil {
		return nil, fmt.Errorf("read the payload: %w", err)
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, errors.New("empty payload on stdin")
	}
	var in Input
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, fmt.Errorf("payload on stdin: %w", err)
	}
	in.payload = data
	return &in, nil
}

// EventName returns the event a hook answers: the payload's
// hook_event_name when present, else the one the command named.
func EventName(arg string, in *Input) string {
	if in != nil && in.Event != "" {
		return in.Event
	}
	return arg
}

// Handler returns the rubi event whose handler answers an agent's event:
// the event itself, or Gemini CLI's alias of it.
func Handler(event string) string {
	if h, ok := GeminiEvents[event]; ok {
		return h
	}
	return event
}

// ProjectDir returns the directory whose project a hook serves: the
// agent's CLAUDE_PROJECT_DIR when set, else the payload's cwd, else the
// working directory.
func ProjectDir(in *Input, getenv func(string) string) (string, error) {
	for _, d := range []string{getenv("CLAUDE_PROJECT_DIR"), in.CWD} {
		if d != "" {
			return filepath.Abs(d)
		}
	}
	return os.Getwd()
}

// toolFields are the tool inputs the hooks read.
type toolFields struct {
	FilePath     string          `json:"file_path"`
	NotebookPath string          `json:"notebook_path"`
	Path         string          `json:"path"`
	Command      json.RawMessage `json:"command"`
	Offset       json.RawMessage `json:"offset"`
	Limit        json.RawMessage `json:"limit"`
	// StartLine and EndLine are Gemini CLI's read_file range.
	StartLine json.RawMessage `json:"start_line"`
	EndLine   json.RawMessage `json:"end_line"`
	// Action is rubi's memory tool's mode.
	Action string `json:"action"`
}

// tool decodes the payload's tool_input; a missing or odd one reads as
// empty.
func (in *Input) tool() toolFields {
	var t toolFields
	if len(in.ToolInput) > 0 {
		_ = json.Unmarshal(in.ToolInput, &t)
	}
	return t
}

// command returns a shell tool's command line: a string (Claude Code's
// Bash) or an argv array (some Codex versions), joined with spaces.
func (t toolFields) command() string {
	if len(t.Command) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(t.Command, &s) == nil {
		return s
	}
	var argv []string
	if json.Unmarshal(t.Command, &argv) == nil {
		return strings.Join(argv, " ")
	}
	return ""
}

// set reports whether a numeric tool argument was given (not null).
func set(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s != "" && s != "null"
}
