// Package transcript reads the session logs coding agents write to disk:
// Claude Code's (~/.claude/projects/<project>/<session>.jsonl, with
// subagent logs under <session>/subagents/) and Codex's rollout files
// (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl).
//
// A log is read one line at a time with a bounded buffer, never whole, and
// turned into Records in file order: API calls with their token usage,
// tool outputs entering the context, and compactions. One API response
// that the agent wrote as several lines comes out as one call. Lines that
// are not valid JSON are reported with their file and line and skipped; a
// truncated last line (the agent may still be writing it) is expected and
// reported as such.
//
// The token X-ray (agent/xray) reads every log of the last days through
// this package; the hooks read the current context size of one session
// with LastCall.
//
// Logs run to gigabytes, so reading one costs neither memory nor parsing
// that its size would dictate. NewReader reads through a 1 MiB buffer
// (lines up to DefaultMaxLine, 32 MiB, are kept; longer ones are skipped
// and reported). Each line is first matched against a few byte markers
// ("usage", "tool_result", compact_boundary; for Codex token_count,
// function_call, …): most lines (attachments, request snapshots) are only
// validated, the rest parsed with fastjson, which reads the fields asked
// for without decoding the rest. The reader keeps per file the tool-call
// ids (to name each output) and the ids of the calls it emitted; one
// response written as several consecutive lines is merged, keeping the
// largest count of each kind. A call's usage is split into input, cache
// read, 5-minute and 1-hour cache writes, and output.
//
// LastCall reads a log from its end, from 16 KiB up through a buffer of
// that size, for the session's current context (Usage.Context); it reads
// Gemini CLI's session files too (their calls' token counts only). Find,
// FindPaths and DefaultRoots locate Claude Code's and Codex's logs and
// group subagent logs with their session.
//
// The tests read the real Claude Code and Codex logs captured in
// testdata/ (internal/rubitest lays them out as the agents keep them)
// and crafted ones: repeated lines, sidechains, nulls, 1-hour cache
// writes, a broken line, a truncated last line, legacy Codex events.
// FuzzRecords holds that any input reads to records and problems.
package transcript

import (
	"fmt"
	"time"
)

// Agent names the agent that wrote a log.
type Agent string

const (
	ClaudeCode Agent = "claude-code"
	Codex      Agent = "codex"
	// GeminiCLI's chat files (~/.gemini/tmp/<project>/chats/*.jsonl) are
	// read for their calls' token counts only (the hooks' meter).
	GeminiCLI Agent = "gemini-cli"
)

// Usage is the token usage of one API call, split the way providers bill
// it. Every field counts tokens the model read or wrote in that call.
// MaxCallTokens bounds each count of one call's usage: no model's context
// or output comes near it, so a count past it (or below zero) is a damaged
// or forged line, refused with its file and line rather than summed into
// costs.
const MaxCallTokens = 100_000_000

type Usage struct {
	// Input is the input read without the cache.
	Input int64 `json:"input"`
	// CacheRead is the input read from the prompt cache.
	CacheRead int64 `json:"cache_read"`
	// CacheWrite5m and CacheWrite1h are the input written to the prompt
	// cache with a 5-minute and a 1-hour lifetime.
	CacheWrite5m int64 `json:"cache_write_5m"`
	CacheWrite1h int64 `json:"cache_write_1h"`
	// Output is the output, reasoning included.
	Output int64 `json:"output"`
}

// CacheWrite is the input written to the cache, both lifetimes.
func (u Usage) CacheWrite() int64 { return u.CacheWrite5m + u.CacheWrite1h }

// Context is the size of the context the call sent: everything the model
// read, cached or not.
func (u Usage) Context() int64 { return u.Input + u.CacheRead + u.CacheWrite() }

// IsZero reports a usage with no tokens at all (an error placeholder).
func (u Usage) IsZero() bool { return u == Usage{} }

// merge keeps the larger value of each field: the lines of one streamed
// response may carry partial counts, never larger ones.
func (u Usage) merge(v Usage) Usage {
	return Usage{
		Input:        max(u.Input, v.Input),
		CacheRead:    max(u.CacheRead, v.CacheRead),
		CacheWrite5m: max(u.CacheWrite5m, v.CacheWrite5m),
		CacheWrite1h: max(u.CacheWrite1h, v.CacheWrite1h),
		Output:       max(u.Output, v.Output),
	}
}

// Kind is what a Record holds.
type Kind uint8

const (
	// KindCall is one API call (one model response) with its usage.
	KindCall Kind = iota + 1
	// KindToolResult is a tool's output entering the context.
	KindToolResult
	// KindCompaction marks the agent compacting the conversation: the
	// context after it starts over from a summary.
	KindCompaction
)

func (k Kind) String() string {
	switch k {
	case KindCall:
		return "call"
	case KindToolResult:
		return "tool_result"
	case KindCompaction:
		return "compaction"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Record is one event of a log.
type Record struct {
	Kind Kind
	// Line is the 1-based line of the file the record was read from (the
	// first line, for a response written as several lines).
	Line int
	// Time is the line's timestamp; zero when it has none.
	Time time.Time
	// Sidechain is set for records of a subagent (Claude Code's
	// isSidechain): they belong to another context than the session's.
	Sidechain bool

	// ID identifies the API response of a KindCall across files
	// ("<message.id>:<requestId>" for Claude Code, the response id for
	// Codex); empty when the log gives none.
	ID string
	// Model is the model that answered a KindCall, when known.
	Model string
	// Usage is a KindCall's token usage.
	Usage Usage

	// Tool names the tool whose output a KindToolResult is ("" when the
	// call that asked for it was not seen).
	Tool string
	// Tokens is the estimated size of a KindToolResult's output
	// (core/tokens; text only, images are not counted).
	Tokens int
}

// Meta is what a log says about its session, filled in as lines are read.
type Meta struct {
	Agent     Agent  `json:"agent"`
	SessionID string `json:"session_id,omitempty"`
	// CWD is the working directory the agent ran in: the project.
	CWD     string `json:"cwd,omitempty"`
	Version string `json:"version,omitempty"`
}

// Problem is a line that could not be read. It never stops the reading.
type Problem struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Msg  string `json:"message"`
	// Truncated marks an unfinished last line, normal for a log the agent
	// is still writing.
	Truncated bool `json:"truncated,omitempty"`
}

func (p Problem) Error() string { return fmt.Sprintf("%s:%d: %s", p.Path, p.Line, p.Msg) }

// check refuses a usage with a negative or absurd count.
func (u Usage) check() error {
	for _, c := range [...]struct {
		name string
		v    int64
	}{{"input", u.Input}, {"cache read", u.CacheRead}, {"cache write (5 min)", u.CacheWrite5m}, {"cache write (1 h)", u.CacheWrite1h}, {"output", u.Output}} {
		switch {
		case c.v < 0:
			return fmt.Errorf("the usage's %s tokens are negative (%d); line skipped", c.name, c.v)
		case c.v > MaxCallTokens:
			return fmt.Errorf("the usage's %s tokens are %d, more than any call holds; line skipped", c.name, c.v)
		}
	}
	return nil
}
