package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// fuzzTools are the tools a fuzzed call picks from, by its first input.
var fuzzTools = []string{"context", "register", "read", "memory"}

// toolSeeds are arguments of each tool as agents send them.
var toolSeeds = []struct {
	tool int
	args string
}{
	{0, `{"query":"where are orders stored","terms":["database","Open","dsn"],"budget":800}`},
	{0, `{"query":"Traceback (most recent call last):\n  File \"store/store.go\", line 5, in Open\nValueError"}`},
	{1, `{"nodes":[{"type":"gotcha","title":"Open never fails","body":"Open returns nil even when the database is down.","files":["store/store.go"],"symbols":["Open"],"tags":["db"],"importance":"high","links":["about:store/migrate.go"]},{"type":"decision","title":"Keep orders in cents","body":"x","personal":true}]}`},
	{1, `{"nodes":[],"summaries":[{"target":"module:store","text":"Keeps orders in a database."},{"target":"map","text":""}],"retract":["gotcha-open-never-fails"],"hard":true}`},
	{2, `{}`},
	{2, `{"module":"store"}`},
	{3, `{"target":"store/migrate.go:3-4"}`},
	{3, `{"target":"gotcha-open-never-fails"}`},
	{4, `{"action":"save","type":"debug","text":"traced the double discount to applyCoupon in web/api.js","tags":["checkout"]}`},
	{4, `{"action":"grep","text":"discount|coupon"}`},
	{4, `{"action":"list","since":"2026-01-01","type":"debug"}`},
	{4, `{"action":"handoff","text":"## Goal\nShip coupons\n\n## Next\n- tests"}`},
	{4, `{"action":"last"}`},
	{4, `{"action":"retention"}`},
}

// An agent's tool call carries any JSON arguments, or none. Whatever they
// are, each tool answers with a result (an error result is an answer):
// never a protocol error, never a panic (which the server would turn
// into an error result, and log). One server, on one small project,
// serves every input; what a call writes (notes, summaries, memory, the
// vault) is removed after it, so each input starts from the same project.
func FuzzTools(f *testing.F) {
	for _, s := range toolSeeds {
		f.Add(byte(s.tool), []byte(s.args))
	}
	isolate(f)
	root := writeProject(f, rubitest.GoProject)
	s, logs := newServer(f, Options{ProjectDir: root, RefreshEvery: time.Hour})
	c := connect(f, s)
	if res := call(f, c, "context", map[string]any{"query": "orders"}); res.IsError { // indexes the project
		f.Fatal(text(res))
	}
	written := []string{filepath.Join(root, ".rubi", "knowledge"), filepath.Join(root, ".rubi", "sessions"),
		filepath.Join(root, ".rubi", "handoffs"), filepath.Join(root, ".rubi", "summaries"), os.Getenv("RUBI_VAULT")}
	f.Fuzz(func(t *testing.T, tool byte, args []byte) {
		defer rubitest.Bound(rubitest.FuzzBound, "FuzzTools")()
		name := fuzzTools[int(tool)%len(fuzzTools)]
		if name == "register" || name == "memory" {
			defer func() {
				for _, d := range written {
					entries, _ := os.ReadDir(d)
					for _, e := range entries {
						os.RemoveAll(filepath.Join(d, e.Name()))
					}
				}
			}()
		}
		if !json.Valid(args) {
			args, _ = json.Marshal(string(args)) // arguments that are not an object
		}
		req := mcp.CallToolRequest{}
		req.Params.Name = name
		req.Params.Arguments = json.RawMessage(args)
		before := len(logs.String())
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		res, err := c.CallTool(ctx, req)
		if err != nil || res == nil {
			t.Fatalf("%s %s: protocol error %v, result %v", name, args, err, res)
		}
		if log := logs.String()[before:]; strings.Contains(log, "tool panicked") {
			t.Fatalf("%s %s panicked:\n%s", name, args, log)
		}
	})
}
