package transcript

import (
	"bytes"
	"strings"

	"github.com/valyala/fastjson"

	"github.com/rubi-dev/rubi/core/tokens"
)

// A Claude Code log holds one message per line: a user prompt or tool
// results ("user"), one content block of a model response ("assistant",
// with the response's usage), a system note (a "compact_boundary" marks a
// compaction), and bookkeeping rubi does not need. Lines are parsed with
// fastjson, which reads only the fields asked for and tolerates null or
// absent ones (they read as zero).

// claudeUsage reads the API's usage object; cache_creation, when present,
// splits the cache writes by lifetime.
func claudeUsage(u *fastjson.Value) Usage {
	out := Usage{Input: u.GetInt64("input_tokens"), CacheRead: u.GetInt64("cache_read_input_tokens"), Output: u.GetInt64("output_tokens")}
	write := u.GetInt64("cache_creation_input_tokens")
	e5, e1 := u.GetInt64("cache_creation", "ephemeral_5m_input_tokens"), u.GetInt64("cache_creation", "ephemeral_1h_input_tokens")
	if e5+e1 > 0 {
		out.CacheWrite1h = e1
		// Whatever the breakdown leaves out was written for 5 minutes,
		// the API's default.
		out.CacheWrite5m = max(e5, write-e1)
	} else {
		out.CacheWrite5m = write
	}
	return out
}

// textTokens measures the text of a tool's output, however it is shaped: a
// string, a list of blocks with "text", or an object with "content",
// "text" or "output". Images and other binary blocks count nothing.
func textTokens(v *fastjson.Value) int {
	if v == nil {
		return 0
	}
	switch v.Type() {
	case fastjson.TypeString:
		b, _ := v.StringBytes()
		return tokens.Estimate(string(b))
	case fastjson.TypeArray:
		n := 0
		for _, e := range v.GetArray() {
			n += textTokens(e)
		}
		return n
	case fastjson.TypeObject:
		return textTokens(v.Get("text")) + textTokens(v.Get("content")) + textTokens(v.Get("output"))
	}
	return 0
}

// str returns a string field, copied out of the parser's buffer.
func str(v *fastjson.Value, keys ...string) string { return string(v.GetStringBytes(keys...)) }

var (
	markUsage      = []byte(`"usage"`)
	markToolResult = []byte(`"tool_result"`)
	markCompact    = []byte(`compact_boundary`)
)

func (r *Reader) claudeLine(b []byte, n int) error {
	// Most lines (attachments, request snapshots, bookkeeping) matter only
	// for the session's project; once it is known they are only checked.
	relevant := bytes.Contains(b, markUsage) || bytes.Contains(b, markToolResult) || bytes.Contains(b, markCompact)
	if !relevant && r.meta.CWD != "" {
		if err := fastjson.ValidateBytes(b); err != nil {
			return invalid(err)
		}
		return nil
	}
	v, err := r.parser.ParseBytes(b)
	if err != nil {
		return invalid(err)
	}
	if r.meta.SessionID == "" {
		r.meta.SessionID = str(v, "sessionId")
	}
	if r.meta.CWD == "" {
		r.meta.CWD = str(v, "cwd")
	}
	if r.meta.Version == "" {
		r.meta.Version = str(v, "version")
	}
	typ := string(v.GetStringBytes("type"))
	side := v.GetBool("isSidechain")
	switch {
	case typ == "system" && string(v.GetStringBytes("subtype")) == "compact_boundary":
		r.emit(Record{Kind: KindCompaction, Line: n, Time: parseTime(v.GetStringBytes("timestamp")), Sidechain: side})
	case typ == "assistant":
		m := v.Get("message")
		if m == nil {
			return nil
		}
		for _, blk := range m.GetArray("content") {
			if string(blk.GetStringBytes("type")) == "tool_use" {
				if id := blk.GetStringBytes("id"); len(id) > 0 {
					r.tools[string(id)] = str(blk, "name")
				}
			}
		}
		uv := m.Get("usage")
		if uv == nil || uv.Type() != fastjson.TypeObject {
			return nil
		}
		u := claudeUsage(uv)
		if err := u.check(); err != nil {
			return err
		}
		if u.IsZero() {
			return nil // an error placeholder ("<synthetic>"), not a call
		}
		id := str(m, "id")
		if req := v.GetStringBytes("requestId"); id != "" && len(req) > 0 {
			id += ":" + string(req)
		}
		r.call(Record{Kind: KindCall, Line: n, Time: parseTime(v.GetStringBytes("timestamp")), Sidechain: side, ID: id, Model: str(m, "model"), Usage: u})
	case typ == "user":
		var t timeStamp
		for _, blk := range v.GetArray("message", "content") {
			if string(blk.GetStringBytes("type")) != "tool_result" {
				continue
			}
			t.once(v)
			r.emit(Record{Kind: KindToolResult, Line: n, Time: t.t, Sidechain: side, Tool: r.tools[string(blk.GetStringBytes("tool_use_id"))], Tokens: textTokens(blk.Get("content"))})
		}
	}
	return nil
}

// invalid words a parse error for a person reading file:line.
func invalid(err error) error {
	return &lineError{"not valid JSON: " + strings.TrimPrefix(err.Error(), "cannot parse JSON: ")}
}

type lineError struct{ msg string }

func (e *lineError) Error() string { return e.msg }
