package transcript

import (
	"bytes"
	"encoding/json"
	"time"
)

// codexLine is a Codex rollout line: a timestamp, a type and a payload.
type codexLine struct {
	Timestamp string       `json:"timestamp"`
	Type      string       `json:"type"`
	Payload   codexPayload `json:"payload"`
}

// codexPayload holds the fields of the payloads the reader uses:
// session_meta (id, cwd, cli_version), turn_context (model),
// token_usage_record (response_id, usage, thread_token_usage), the
// token_count event (info), and the tool calls and their outputs among
// the response items (function_call, custom_tool_call, local_shell_call
// and their *_output).
type codexPayload struct {
	Type       string `json:"type"`
	ID         string `json:"id"`
	CWD        string `json:"cwd"`
	CLIVersion string `json:"cli_version"`
	Model      string `json:"model"`

	ResponseID string      `json:"response_id"`
	Usage      *codexUsage `json:"usage"`
	Thread     *codexUsage `json:"thread_token_usage"`
	Info       *struct {
		Total *codexUsage `json:"total_token_usage"`
		Last  *codexUsage `json:"last_token_usage"`
	} `json:"info"`

	Name   string    `json:"name"`
	CallID string    `json:"call_id"`
	Output textValue `json:"output"`
}

// codexUsage follows OpenAI's accounting: input_tokens counts all the
// input, the cached part (and the part written to the cache, where the
// provider reports it) included; output_tokens includes reasoning.
type codexUsage struct {
	InputTokens     int64 `json:"input_tokens"`
	CachedInput     int64 `json:"cached_input_tokens"`
	CacheWriteInput int64 `json:"cache_write_input_tokens"`
	OutputTokens    int64 `json:"output_tokens"`
}

func (u *codexUsage) usage() Usage {
	return Usage{
		Input:        max(0, u.InputTokens-u.CachedInput-u.CacheWriteInput),
		CacheRead:    u.CachedInput,
		CacheWrite5m: u.CacheWriteInput,
		Output:       u.OutputTokens,
	}
}

// total is the running count Codex's cumulative usages are compared on.
func (u *codexUsage) total() int64 { return u.InputTokens + u.OutputTokens }

var codexMarks = [][]byte{
	[]byte(`"token_count"`), []byte(`"token_usage_record"`), []byte(`function_call`),
	[]byte(`custom_tool_call`), []byte(`local_shell_call`), []byte(`"compacted"`),
	[]byte(`"session_meta"`), []byte(`"turn_context"`),
}

func (r *Reader) codexLine(b []byte, n int) error {
	relevant := false
	for _, m := range codexMarks {
		if bytes.Contains(b, m) {
			relevant = true
			break
		}
	}
	if !relevant {
		if !json.Valid(b) {
			return errInvalid(b)
		}
		return nil
	}
	var l codexLine
	if err := json.Unmarshal(b, &l); err != nil {
		return jsonError(err)
	}
	p := &l.Payload
	t := parseTime(l.Timestamp)
	switch l.Type {
	case "session_meta":
		if r.meta.SessionID == "" {
			r.meta.SessionID = p.ID
		}
		if r.meta.CWD == "" {
			r.meta.CWD = p.CWD
		}
		if r.meta.Version == "" {
			r.meta.Version = p.CLIVersion
		}
	case "turn_context":
		if p.Model != "" {
			r.model = p.Model
		}
		if r.meta.CWD == "" {
			r.meta.CWD = p.CWD
		}
	case "compacted":
		r.emit(Record{Kind: KindCompaction, Line: n, Time: t})
	case "token_usage_record":
		if p.Usage != nil {
			r.codexCall(n, t, p.ResponseID, p.Usage, p.Thread)
		}
	case "event_msg":
		if p.Type == "token_count" && p.Info != nil && p.Info.Last != nil {
			r.codexCall(n, t, "", p.Info.Last, p.Info.Total)
		}
	case "response_item":
		switch p.Type {
		case "function_call", "custom_tool_call":
			r.tools[p.CallID] = p.Name
		case "local_shell_call":
			r.tools[p.CallID] = "local_shell"
		case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
			r.emit(Record{Kind: KindToolResult, Line: n, Time: t, Tool: r.tools[p.CallID], Tokens: p.Output.Tokens})
		}
	}
	return nil
}

// codexCall emits one response's usage. Codex writes each response's usage
// as a record and again as a token_count event, both carrying the thread's
// cumulative usage: an unchanged cumulative means the same response.
func (r *Reader) codexCall(n int, t time.Time, id string, last, cumulative *codexUsage) {
	if cumulative != nil {
		c := cumulative.total()
		if c == r.cumulative {
			r.stats.Duplicates++
			return
		}
		r.cumulative = c
	}
	u := last.usage()
	if u.IsZero() {
		return
	}
	r.emit(Record{Kind: KindCall, Line: n, Time: t, ID: id, Model: r.model, Usage: u})
}
