package transcript

import (
	"bytes"
	"time"

	"github.com/valyala/fastjson"
)

// A Codex rollout line is {"timestamp", "type", "payload"}. The reader uses
// session_meta (id, cwd, cli_version), turn_context (model),
// token_usage_record (response_id, usage, thread_token_usage), the
// token_count event (info.last_token_usage, info.total_token_usage),
// compacted, and among the response items the tool calls and their outputs
// (function_call, custom_tool_call, local_shell_call and their *_output).

// codexUsage follows OpenAI's accounting: input_tokens counts all the
// input, the cached part (and the part written to the cache, where the
// provider reports it) included; output_tokens includes reasoning.
func codexUsage(u *fastjson.Value) Usage {
	in, cached, write := u.GetInt64("input_tokens"), u.GetInt64("cached_input_tokens"), u.GetInt64("cache_write_input_tokens")
	return Usage{Input: max(0, in-cached-write), CacheRead: cached, CacheWrite5m: write, Output: u.GetInt64("output_tokens")}
}

// codexTotal is the running count Codex's cumulative usages are compared on.
func codexTotal(u *fastjson.Value) int64 {
	return u.GetInt64("input_tokens") + u.GetInt64("output_tokens")
}

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
		if err := fastjson.ValidateBytes(b); err != nil {
			return invalid(err)
		}
		return nil
	}
	v, err := r.parser.ParseBytes(b)
	if err != nil {
		return invalid(err)
	}
	p := v.Get("payload")
	if p == nil {
		return nil
	}
	var t timeStamp
	switch string(v.GetStringBytes("type")) {
	case "session_meta":
		if r.meta.SessionID == "" {
			r.meta.SessionID = str(p, "id")
		}
		if r.meta.CWD == "" {
			r.meta.CWD = str(p, "cwd")
		}
		if r.meta.Version == "" {
			r.meta.Version = str(p, "cli_version")
		}
	case "turn_context":
		if m := str(p, "model"); m != "" {
			r.model = m
		}
		if r.meta.CWD == "" {
			r.meta.CWD = str(p, "cwd")
		}
	case "compacted":
		t.once(v)
		r.emit(Record{Kind: KindCompaction, Line: n, Time: t.t})
	case "token_usage_record":
		if u := p.Get("usage"); u != nil && u.Type() == fastjson.TypeObject {
			t.once(v)
			r.codexCall(n, t.t, str(p, "response_id"), u, p.Get("thread_token_usage"))
		}
	case "event_msg":
		if string(p.GetStringBytes("type")) == "token_count" {
			if last := p.Get("info", "last_token_usage"); last != nil && last.Type() == fastjson.TypeObject {
				t.once(v)
				r.codexCall(n, t.t, "", last, p.Get("info", "total_token_usage"))
			}
		}
	case "response_item":
		call := str(p, "call_id")
		switch string(p.GetStringBytes("type")) {
		case "function_call", "custom_tool_call":
			r.tools[call] = str(p, "name")
		case "local_shell_call":
			r.tools[call] = "local_shell"
		case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
			t.once(v)
			r.emit(Record{Kind: KindToolResult, Line: n, Time: t.t, Tool: r.tools[call], Tokens: textTokens(p.Get("output"))})
		}
	}
	return nil
}

// codexCall emits one response's usage. Codex writes each response's usage
// as a record and again as a token_count event, both carrying the thread's
// cumulative usage: an unchanged cumulative means the same response.
func (r *Reader) codexCall(n int, t time.Time, id string, last, cumulative *fastjson.Value) {
	if cumulative != nil && cumulative.Type() == fastjson.TypeObject {
		c := codexTotal(cumulative)
		if c == r.cumulative {
			r.stats.Duplicates++
			return
		}
		r.cumulative = c
	}
	u := codexUsage(last)
	if err := u.check(); err != nil {
		r.problem(n, err.Error(), false)
		return
	}
	if u.IsZero() {
		return
	}
	r.emit(Record{Kind: KindCall, Line: n, Time: t, ID: id, Model: r.model, Usage: u})
}
