package transcript

import (
	"os"
	"path/filepath"
	"testing"
)

// A Gemini CLI 0.61 chat file (captured from the real CLI) gives its last
// call: the one message written twice (before and with its tool call) is
// one call, and the context is its input tokens.
func TestGeminiChatFile(t *testing.T) {
	path := filepath.Join("..", "hooks", "testdata", "gemini-cli", "transcript.jsonl")
	rec, ok, err := LastCall(path)
	if err != nil || !ok {
		t.Fatalf("LastCall: %v, %v", ok, err)
	}
	if rec.Usage.Context() != 100 || rec.Usage.Output != 5 || rec.Model != "gemini-3.1-pro-preview" {
		t.Errorf("last call: %+v", rec)
	}
	f, _ := os.Open(path)
	defer f.Close()
	rd := NewReader(f, path)
	calls := 0
	for r := range rd.Records() {
		if r.Kind == KindCall {
			calls++
		}
	}
	if calls != 2 || rd.Meta().Agent != GeminiCLI || rd.Meta().SessionID != "10c7f95c-4cd8-4572-ad9f-153bade36780" || rd.ProblemCount() != 0 {
		t.Errorf("calls %d, meta %+v, problems %v", calls, rd.Meta(), rd.Problems())
	}
}
