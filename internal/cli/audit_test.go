package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

func TestAudit(t *testing.T) {
	root := rubitest.Project(t, map[string]string{
		"AGENTS.md":    strings.Repeat("a", 70), // 20 tokens
		"CLAUDE.md":    "# App\n" + strings.Repeat("- Never commit secrets.\n", 3),
		".rubi/map.md": strings.Repeat("m", 350), // 100 tokens
		".mcp.json":    `{"mcpServers": {"rubi": {"command": "rubi", "args": ["mcp"]}}}`,
	})
	os.MkdirAll(filepath.Join(root, ".git"), 0o755)
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CODEX_HOME", filepath.Join(home, "codex"))
	// Codex runs rubi's hooks (which inject the map), Gemini CLI does not.
	writeFile(t, filepath.Join(home, "codex", "hooks.json"), `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "rubi hook SessionStart"}]}]}}`)
	// One Claude Code session run in the project today, starting at 42k.
	claudeDir := filepath.Join(home, "claude")
	t.Setenv("CLAUDE_CONFIG_DIR", claudeDir)
	log := fmt.Sprintf(`{"type":"assistant","isSidechain":false,"cwd":%q,"sessionId":"s","requestId":"r","timestamp":%q,"message":{"id":"m","usage":{"input_tokens":2000,"cache_creation_input_tokens":40000,"output_tokens":10}}}`+"\n",
		root, time.Now().UTC().Format(time.RFC3339))
	p := filepath.Join(claudeDir, "projects", "-app", "s.jsonl")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte(log), 0o644)

	code, out, errOut := runRubi(t, "audit", root)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"Codex: ~120 tokens in every message",
		"  rubi's MCP tools (.mcp.json)  ", // Claude Code starts rubi mcp here; Codex does not
		"  AGENTS.md     20   instructions",
		"Gemini CLI: nothing from the project or your home",
		"Nothing to move",
		"Measured: the sessions here in the last 30 days (1) started at 42k tokens (median)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runRubi(t, "audit", root, "--json", "--days", "0")
	var rep struct {
		Totals   map[string]int  `json:"tokens_per_agent"`
		Sources  []any           `json:"sources"`
		Measured json.RawMessage `json:"measured_starting_context"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatal(err, out)
	}
	if rep.Totals["codex"] != 120 || rep.Totals["claude-code"] < 500 || len(rep.Sources) != 4 || rep.Measured != nil {
		t.Errorf("json: %s", out)
	}
}
