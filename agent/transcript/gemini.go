package transcript

import (
	"bytes"

	"github.com/valyala/fastjson"
)

// Gemini CLI 0.61 writes a session as JSON lines: a header
// ({"sessionId", "projectHash", ...}), messages ({"id", "type": "user" |
// "gemini", ...}) and updates ({"$set": ...}). A model message carries
// the call's token counts, "tokens": {"input", "output", "cached",
// "thoughts", "tool", "total"}, where input includes cached; one message
// can be written twice (again with its tool calls), under the same id.

var markTokens = []byte(`"tokens"`)

func (r *Reader) geminiLine(b []byte, n int) error {
	if !bytes.Contains(b, markTokens) && r.meta.SessionID != "" {
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
	t := v.Get("tokens")
	if str(v, "type") != "gemini" || t == nil || t.Type() != fastjson.TypeObject {
		return nil
	}
	input, cached := t.GetInt64("input"), t.GetInt64("cached")
	u := Usage{Input: max(0, input-cached), CacheRead: cached, Output: t.GetInt64("output") + t.GetInt64("thoughts")}
	if err := u.check(); err != nil {
		return err
	}
	if u.IsZero() {
		return nil
	}
	r.call(Record{Kind: KindCall, Line: n, Time: parseTime(v.GetStringBytes("timestamp")), ID: str(v, "id"), Model: str(v, "model"), Usage: u})
	return nil
}
