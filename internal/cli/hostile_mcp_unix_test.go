//go:build unix

package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
		`{"name":"map","arguments":{}}`,
		`{"name":"map","arguments":{"module":"store"}}`,
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
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	answers := make(chan answer)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var a answer
			if json.Unmarshal(sc.Bytes(), &a) == nil && a.ID != nil {
				answers <- a
			}
		}
		close(answers)
	}()
	// One call at a time, as an agent makes them.
	call := func(id int, method, params string) (answer, bool) {
		fmt.Fprintf(in, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", id, method, params)
		select {
		case a, ok := <-answers:
			return a, ok && *a.ID == id
		case <-time.After(60 * time.Second):
			t.Fatalf("no answer to %s within a minute\nstderr: %s", params, stderr.String())
			return answer{}, false
		}
	}
	if _, ok := call(0, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`); !ok {
		t.Fatalf("no answer to initialize\nstderr: %s", stderr.String())
	}
	fmt.Fprintln(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	answered := map[int]json.RawMessage{}
	for i, c := range calls {
		a, ok := call(i+1, "tools/call", c)
		if !ok {
			t.Errorf("no answer to %s", c)
			continue
		}
		answered[i+1] = append(a.Result, a.Error...)
	}
	in.Close()
	done := make(chan error, 1)
	go func() {
		for range answers {
		}
		done <- cmd.Wait()
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("rubi-mcp: %v\nstderr: %s", err, stderr.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("rubi-mcp did not end after its client closed stdin\nstderr: %s", stderr.String())
	}
	for id, a := range answered {
		var res struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		json.Unmarshal(a, &res)
		for _, c := range res.Content {
			if strings.ContainsAny(c.Text, "\x1b\x07\u009b") {
				t.Errorf("the answer to %s carries a raw terminal escape: %q", calls[id-1], c.Text)
			}
			if strings.Contains(c.Text, secret) {
				t.Errorf("the answer to %s shows a secret from outside the project: %q", calls[id-1], c.Text)
			}
			for _, l := range strings.Split(c.Text, "\n") {
				if l = strings.TrimSpace(l); strings.Contains(l, "evil.example") && !strings.HasPrefix(l, ">") {
					t.Errorf("the answer to %s does not quote the repository's text: %q", calls[id-1], l)
				}
			}
			if strings.Contains(c.Text, "evil\n") {
				t.Errorf("a file name's newline starts a line of its own in the answer to %s: %q", calls[id-1], c.Text)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "ran")); err == nil {
		t.Errorf("the repository's plugin ran")
	}
	after := snapshot(t, outside)
	for p, h := range after {
		if before[p] != h {
			t.Errorf("outside the project, %s changed (%s → %s)", p, before[p], h)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			t.Errorf("outside the project, %s was removed", p)
		}
	}
}

// answer is a JSON-RPC response.
type answer struct {
	ID     *int            `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}
