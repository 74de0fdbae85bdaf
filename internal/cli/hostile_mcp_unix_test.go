//go:build unix

package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// Every MCP tool, called by a client of the real rubi-mcp over stdio in
// the hostile repository with every case (hostileEverything, its rubi.hcl
// naming the plugin it commits): each call gets an answer (a result or a
// tool error, never a crash or silence) that shows no secret, no raw
// terminal escape, no forged line and the repository's instructions only
// quoted; the plugin never runs; the server exits 0 when its client
// closes stdin; and nothing outside the project changes.
func TestAHostileRepositoryHurtsNothingOverMCP(t *testing.T) {
	bin := filepath.Join(filepath.Dir(rubitest.Binary(t)), "rubi-mcp")
	root, outside := hostileEverything(t, evilPlugin)
	home := t.TempDir()
	before := snapshot(t, outside)

	calls := []string{
		`{"name":"read","arguments":{"target":"map"}}`,
		`{"name":"read","arguments":{"target":"module:store"}}`,
		`{"name":"context","arguments":{"query":"open the order database","terms":["orders"]}}`,
		`{"name":"read","arguments":{"target":"store/pipe.go"}}`,
		`{"name":"read","arguments":{"target":"store/store.go:1-3"}}`,
		`{"name":"read","arguments":{"target":"huge.go"}}`,
		`{"name":"read","arguments":{"target":"gotcha-run-this"}}`,
		`{"name":"read","arguments":{"target":"linked"}}`,
		`{"name":"context","arguments":{"query":"setup first: what must run before any task"}}`,
		`{"name":"register","arguments":{"nodes":[{"type":"gotcha","title":"Coupon applied twice","body":"The discount runs in two places.","files":["store/store.go"]}]}}`,
		`{"name":"register","arguments":{"retract":["gotcha-coupon-applied-twice"]}}`,
		`{"name":"memory","arguments":{"action":"save","text":"the coupon runs twice"}}`,
		`{"name":"memory","arguments":{"action":"grep","text":"coupon"}}`,
		`{"name":"memory","arguments":{"action":"list"}}`,
		`{"name":"memory","arguments":{"action":"handoff","text":"finish the coupon fix"}}`,
		`{"name":"memory","arguments":{"action":"last"}}`,
		`{"name":"memory","arguments":{"action":"retention"}}`,
		`{"name":"memory","arguments":{"action":"status"}}`,
	}
	cmd := exec.Command(bin, "--root", root)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_STATE_HOME="+filepath.Join(home, ".state"), "RUBI_VAULT="+filepath.Join(home, "vault"))
	mcp := startMCP(t, cmd)
	answered := map[int]rpcAnswer{}
	for i, c := range calls {
		var call struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if err := json.Unmarshal([]byte(c), &call); err != nil {
			t.Fatal(err)
		}
		a, ok := mcp.call(call.Name, string(call.Arguments))
		if !ok {
			t.Errorf("no answer to %s", c)
			continue
		}
		answered[i+1] = a
	}
	if err := mcp.close(); err != nil {
		t.Errorf("rubi-mcp: %v\nstderr: %s", err, mcp.stderr.String())
	}
	for id, a := range answered {
		text := a.text()
		if strings.ContainsAny(text, "\x1b\x07\u009b") {
			t.Errorf("the answer to %s carries a raw terminal escape: %q", calls[id-1], text)
		}
		if strings.Contains(text, secret) {
			t.Errorf("the answer to %s shows a secret from outside the project: %q", calls[id-1], text)
		}
		for _, l := range strings.Split(text, "\n") {
			if l = strings.TrimSpace(l); strings.Contains(l, "evil.example") && !strings.HasPrefix(l, ">") {
				t.Errorf("the answer to %s does not quote the repository's text: %q", calls[id-1], l)
			}
		}
		if strings.Contains(text, "evil\n") {
			t.Errorf("a file name's newline starts a line of its own in the answer to %s: %q", calls[id-1], text)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "ran")); err == nil {
		t.Errorf("the repository's plugin ran")
	}
	unchangedSince(t, outside, before)
}
