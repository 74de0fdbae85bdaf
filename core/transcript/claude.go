package transcript

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/rubi-dev/rubi/core/tokens"
)

// claudeLine is the part of a Claude Code log line the reader uses. Lines
// hold one message each: a user prompt or tool results ("user"), one
// content block of a model response ("assistant", with the response's
// usage), a system note (a "compact_boundary" marks a compaction), and
// bookkeeping rubi does not need.
type claudeLine struct {
	Type        string         `json:"type"`
	Subtype     string         `json:"subtype"`
	IsSidechain bool           `json:"isSidechain"`
	Timestamp   string         `json:"timestamp"`
	SessionID   string         `json:"sessionId"`
	CWD         string         `json:"cwd"`
	Version     string         `json:"version"`
	RequestID   string         `json:"requestId"`
	Message     *claudeMessage `json:"message"`
}

type claudeMessage struct {
	ID      string        `json:"id"`
	Role    string        `json:"role"`
	Model   string        `json:"model"`
	Content claudeContent `json:"content"`
	Usage   *claudeUsage  `json:"usage"`
}

// claudeUsage is the API's usage object. Any field may be null or absent;
// cache_creation splits the cache writes by lifetime.
type claudeUsage struct {
	InputTokens              int64 `json:"input_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheCreation            *struct {
		Ephemeral5m int64 `json:"ephemeral_5m_input_tokens"`
		Ephemeral1h int64 `json:"ephemeral_1h_input_tokens"`
	} `json:"cache_creation"`
}

func (u *claudeUsage) usage() Usage {
	out := Usage{Input: u.InputTokens, CacheRead: u.CacheReadInputTokens, Output: u.OutputTokens}
	write := u.CacheCreationInputTokens
	if c := u.CacheCreation; c != nil && c.Ephemeral5m+c.Ephemeral1h > 0 {
		out.CacheWrite1h = c.Ephemeral1h
		// Whatever the breakdown leaves out was written for 5 minutes,
		// the API's default.
		out.CacheWrite5m = max(c.Ephemeral5m, write-c.Ephemeral1h)
	} else {
		out.CacheWrite5m = write
	}
	return out
}

// claudeContent is a message's content: a string (a prompt) or blocks.
type claudeContent []claudeBlock

func (c *claudeContent) UnmarshalJSON(b []byte) error {
	if len(b) == 0 || b[0] != '[' {
		*c = nil
		return nil
	}
	var blocks []claudeBlock
	if err := json.Unmarshal(b, &blocks); err != nil {
		return err
	}
	*c = blocks
	return nil
}

type claudeBlock struct {
	Type      string    `json:"type"`
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	ToolUseID string    `json:"tool_use_id"`
	Content   textValue `json:"content"`
}

// textValue measures the text of a tool's output, however it is shaped: a
// string, a list of blocks with "text", or an object with "content",
// "text" or "output". Images and other binary blocks count nothing.
type textValue struct{ Tokens int }

func (t *textValue) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil
	}
	switch b[0] {
	case '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		t.Tokens = tokens.Estimate(s)
	case '[':
		var parts []textValue
		if err := json.Unmarshal(b, &parts); err != nil {
			return err
		}
		t.Tokens = 0
		for _, p := range parts {
			t.Tokens += p.Tokens
		}
	case '{':
		var o struct {
			Text    *textValue `json:"text"`
			Content *textValue `json:"content"`
			Output  *textValue `json:"output"`
		}
		if err := json.Unmarshal(b, &o); err != nil {
			return err
		}
		t.Tokens = 0
		for _, p := range []*textValue{o.Text, o.Content, o.Output} {
			if p != nil {
				t.Tokens += p.Tokens
			}
		}
	}
	return nil
}

var (
	markUsage      = []byte(`"usage"`)
	markToolResult = []byte(`"tool_result"`)
	markCompact    = []byte(`compact_boundary`)
)

func (r *Reader) claudeLine(b []byte, n int) error {
	// Most lines (attachments, request snapshots, bookkeeping) matter only
	// for the session's project; skip them unread once it is known.
	relevant := bytes.Contains(b, markUsage) || bytes.Contains(b, markToolResult) || bytes.Contains(b, markCompact)
	if !relevant && r.meta.CWD != "" {
		if !json.Valid(b) {
			return errInvalid(b)
		}
		return nil
	}
	var l claudeLine
	if err := json.Unmarshal(b, &l); err != nil {
		return jsonError(err)
	}
	if r.meta.SessionID == "" {
		r.meta.SessionID = l.SessionID
	}
	if r.meta.CWD == "" {
		r.meta.CWD = l.CWD
	}
	if r.meta.Version == "" {
		r.meta.Version = l.Version
	}
	switch {
	case l.Type == "system" && l.Subtype == "compact_boundary":
		r.emit(Record{Kind: KindCompaction, Line: n, Time: parseTime(l.Timestamp), Sidechain: l.IsSidechain})
	case l.Type == "assistant" && l.Message != nil:
		m := l.Message
		for _, blk := range m.Content {
			if blk.Type == "tool_use" && blk.ID != "" {
				r.tools[blk.ID] = blk.Name
			}
		}
		if m.Usage == nil {
			return nil
		}
		u := m.Usage.usage()
		if u.IsZero() {
			return nil // an error placeholder ("<synthetic>"), not a call
		}
		id := m.ID
		if id != "" && l.RequestID != "" {
			id += ":" + l.RequestID
		}
		r.call(Record{Kind: KindCall, Line: n, Time: parseTime(l.Timestamp), Sidechain: l.IsSidechain, ID: id, Model: m.Model, Usage: u})
	case l.Type == "user" && l.Message != nil:
		t := parseTime(l.Timestamp)
		for _, blk := range l.Message.Content {
			if blk.Type != "tool_result" {
				continue
			}
			r.emit(Record{Kind: KindToolResult, Line: n, Time: t, Sidechain: l.IsSidechain, Tool: r.tools[blk.ToolUseID], Tokens: blk.Content.Tokens})
		}
	}
	return nil
}

// errInvalid explains why b is not JSON.
func errInvalid(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return jsonError(err)
	}
	return nil
}

// jsonError words a decoding error for a person reading file:line.
func jsonError(err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return &lineError{"not valid JSON: " + se.Error()}
	case errors.As(err, &te):
		return &lineError{"unexpected value: " + te.Error()}
	}
	return &lineError{err.Error()}
}

type lineError struct{ msg string }

func (e *lineError) Error() string { return e.msg }
