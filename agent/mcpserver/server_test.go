package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/go-hclog"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/rubi-dev/rubi/core/memory"
	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/core/refs"
	"github.com/rubi-dev/rubi/core/tokens"
	"github.com/rubi-dev/rubi/internal/rubitest"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
	_ "github.com/rubi-dev/rubi/plugins/standard"
)

// isolate keeps the user's personal configuration, vault and state out
// of a test.
func isolate(t testing.TB) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("RUBI_VAULT", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
}

// writeProject writes files into a new directory and returns it.
func writeProject(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		writeFile(t, filepath.Join(root, filepath.FromSlash(p)), content)
	}
	return root
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// syncBuffer is a log destination tests read while the server writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// newServer returns a server whose logs land in the returned buffer.
func newServer(t testing.TB, opts Options) (*Server, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	if opts.Logger == nil {
		opts.Logger = hclog.New(&hclog.LoggerOptions{Output: logs, Level: hclog.Debug})
	}
	if opts.WorkDir == "" {
		opts.WorkDir = t.TempDir()
	}
	// As rubi-mcp's main does.
	opts.Engine.MaskComments = regex.MaskComments
	s := New(opts)
	t.Cleanup(s.Close)
	return s, logs
}

// connect starts an in-process client on s. It speaks the newest protocol
// unless told otherwise with client options.
func connect(t testing.TB, s *Server, opts ...client.ClientOption) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClientWithOptions(s.MCP(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = mcp.Implementation{Name: "rubi-test", Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatal(err)
	}
	return c
}

// call calls a tool; a protocol error fails the test, since no argument
// may ever cause one.
func call(t testing.TB, c *client.Client, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("%s %v: protocol error: %v", tool, args, err)
	}
	return res
}

// text is a result's text content.
func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// ok calls a tool that must succeed and returns its text.
func ok(t *testing.T, c *client.Client, tool string, args map[string]any) (string, *mcp.CallToolResult) {
	t.Helper()
	res := call(t, c, tool, args)
	if res.IsError {
		t.Fatalf("%s %v failed: %s", tool, args, text(res))
	}
	return text(res), res
}

// fails calls a tool that must fail with a message containing each of
// want.
func fails(t *testing.T, c *client.Client, tool string, args map[string]any, want ...string) string {
	t.Helper()
	res := call(t, c, tool, args)
	msg := text(res)
	if !res.IsError {
		t.Fatalf("%s %v: want an error result, got: %s", tool, args, msg)
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("%s %v: error %q does not say %q", tool, args, msg, w)
		}
	}
	return msg
}

// structured decodes a result's structured content into v.
func structured(t *testing.T, res *mcp.CallToolResult, v any) {
	t.Helper()
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("structured content %s: %v", data, err)
	}
}

func TestToolDefinitions(t *testing.T) {
	for _, o := range []Options{{}, {Multi: true}, {Xray: true}, {Multi: true, Xray: true}, {VaultOnly: true}} {
		multi := o.Multi
		s, _ := newServer(t, o)
		c := connect(t, s)
		list, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"context", "register", "read", "memory"}
		var names []string
		sent := 0
		for _, tool := range list.Tools {
			names = append(names, tool.Name)
			// The annotations as a client reads them, a missing one by
			// MCP's default (not read-only, destructive, not idempotent,
			// open world): only what differs is sent.
			a := tool.Annotations
			hint := func(p *bool, def bool) bool {
				if p == nil {
					return def
				}
				return *p
			}
			got := [4]bool{hint(a.ReadOnlyHint, false), hint(a.DestructiveHint, true), hint(a.IdempotentHint, false), hint(a.OpenWorldHint, true)}
			wantHints := map[string][4]bool{
				"context": {true, true, false, false}, "read": {true, true, false, false},
				"register": {false, true, true, false}, "memory": {false, true, false, false},
			}[tool.Name]
			if got[0] != wantHints[0] || got[3] || !got[0] && (got[1] != wantHints[1] || got[2] != wantHints[2]) {
				t.Errorf("%s: annotations %+v read as (read-only, destructive, idempotent, open world) %v, want %v", tool.Name, a, got, wantHints)
			}
			if len(tool.Description) < 30 {
				t.Errorf("%s: description %q does not say when to use it", tool.Name, tool.Description)
			}
			// xray's project argument filters the sessions, memory's its
			// chunks, in both modes.
			_, hasProject := tool.InputSchema.Properties["project"]
			if hasProject != (multi || tool.Name == "memory") {
				t.Errorf("%+v: %s has project argument = %v", o, tool.Name, hasProject)
			}
			data, _ := json.Marshal(tool)
			sent += tokens.Estimate(string(data))
		}
		slices.Sort(names)
		slices.Sort(want)
		if !slices.Equal(names, want) {
			t.Errorf("%+v: tools %v, want %v", o, names, want)
		}
		// The measured cost is what the client really receives.
		cost, err := s.FixedCost()
		if err != nil {
			t.Fatal(err)
		}
		if got := sent + tokens.Estimate(s.instructions()); cost.Total != got {
			t.Errorf("%+v: FixedCost says %d tokens, the client received %d", o, cost.Total, got)
		}
		t.Logf("%+v: fixed cost %d tokens", o, cost.Total)
		if cost.Total > CostLimit {
			t.Errorf("%+v: fixed cost %d tokens is over the limit of %d", o, cost.Total, CostLimit)
		}
	}
}

func TestInstructionsTeachTheWorkflow(t *testing.T) {
	s, _ := newServer(t, Options{})
	c, err := client.NewInProcessClient(s.MCP())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	res, err := c.Initialize(context.Background(), mcp.InitializeRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"map", "context", "terms", "register", "handoff"} {
		if !strings.Contains(res.Instructions, w) {
			t.Errorf("instructions do not mention %s:\n%s", w, res.Instructions)
		}
	}
}

func TestContext(t *testing.T) {
	isolate(t)
	root := writeProject(t, rubitest.GoProject)
	s, _ := newServer(t, Options{ProjectDir: root})
	c := connect(t, s)

	out, res := ok(t, c, "context", map[string]any{"query": "open the database", "terms": []string{"dsn", "connect"}, "budget": 400})
	// The answer starts with the units to open first, across its files,
	// then its items.
	if !strings.HasPrefix(out, "open first:\n   store/store.go:5 Open — ") || !strings.Contains(out, "\n1. [file] store/store.go") || !strings.Contains(out, "why: ") || !strings.Contains(out, "budget 400") {
		t.Errorf("text:\n%s", out)
	}
	// The structured content is the same compact answer as the text: a
	// file by its path, its line ranges, one reason, its text, the
	// footer; no scores, no second list of reasons.
	var got contextOutput
	structured(t, res, &got)
	if len(got.Items) == 0 || got.Items[0].Path != "store/store.go" || got.Items[0].ID != "" || got.Items[0].Why == "" ||
		!strings.HasPrefix(got.Items[0].Text, "store/store.go") || len(got.Items[0].Lines) == 0 || !strings.Contains(got.Footer, "budget 400") {
		t.Errorf("structured: %+v", got)
	}
	if len(got.OpenFirst) == 0 || !strings.HasPrefix(got.OpenFirst[0], "store/store.go:5 Open — ") || !strings.Contains(out, "   "+got.OpenFirst[0]+"\n") {
		t.Errorf("structured: open first %q, not the text's", got.OpenFirst)
	}
	for i, it := range got.Items {
		if !strings.Contains(out, it.Text[:strings.IndexByte(it.Text+"\n", '\n')]) || !strings.Contains(out, "why: "+it.Why+"\n") {
			t.Errorf("item %d of the structured content is not the text's: %+v\ntext:\n%s", i, it, out)
		}
	}
	raw, _ := json.Marshal(res.StructuredContent)
	for _, leak := range []string{`"scores"`, `"reasons"`, `"score"`, `"units"`} {
		if strings.Contains(string(raw), leak) {
			t.Errorf("the structured content without explain holds %s: %s", leak, raw)
		}
	}
	// Each copy, as a client sends it, fits the budget.
	text, _ := json.Marshal(out)
	if n, m := tokens.Estimate(string(text)), tokens.Estimate(string(raw)); n > 400 || m > 400 {
		t.Errorf("budget 400: the text costs %d tokens, the structured content %d", n, m)
	}

	// Whatever the budget, neither copy is over it, with or without
	// explain: items that would take it past are left out and counted.
	for _, budget := range []int{120, 200, 300, 600, 1500} {
		for _, explain := range []bool{false, true} {
			out, res := ok(t, c, "context", map[string]any{"query": "open the database orders store", "terms": []string{"dsn", "connect", "order"}, "budget": budget, "explain": explain})
			text, _ := json.Marshal(out)
			raw, _ := json.Marshal(res.StructuredContent)
			if n, m := tokens.Estimate(string(text)), tokens.Estimate(string(raw)); n > budget || m > budget {
				t.Errorf("budget %d, explain %v: the text costs %d tokens, the structured content %d", budget, explain, n, m)
			}
		}
	}

	// explain adds every ranker's score and every reason, in both copies.
	out, res = ok(t, c, "context", map[string]any{"query": "open the database", "terms": []string{"dsn", "connect"}, "budget": 400, "explain": true})
	var ex struct {
		Query string `json:"query"`
		Items []struct {
			ID      string             `json:"id"`
			Reasons []string           `json:"reasons"`
			Scores  map[string]float64 `json:"scores"`
		} `json:"items"`
		Budget int `json:"budget"`
	}
	structured(t, res, &ex)
	if ex.Query != "open the database" || ex.Budget != 400 || len(ex.Items) == 0 || ex.Items[0].ID != "file:store/store.go" ||
		len(ex.Items[0].Reasons) == 0 || len(ex.Items[0].Scores) == 0 || !strings.Contains(out, "score ") {
		t.Errorf("explain: structured %+v\ntext:\n%s", ex, out)
	}

	fails(t, c, "context", map[string]any{}, "query is empty", "say what you are looking for")
	fails(t, c, "context", map[string]any{"query": 42}, "argument query of context must be a string, not number")
	fails(t, c, "context", map[string]any{"query": "x", "terms": "dsn"}, "argument terms of context must be an array of strings")
	fails(t, c, "context", map[string]any{"query": "x", "budget": -5}, "positive number of tokens")
}

func TestContextSeesEdits(t *testing.T) {
	isolate(t)
	root := writeProject(t, rubitest.GoProject)
	s, _ := newServer(t, Options{ProjectDir: root, RefreshEvery: 100 * time.Millisecond})
	c := connect(t, s)

	out, _ := ok(t, c, "context", map[string]any{"query": "invoice pdf renderer"})
	if strings.Contains(out, "invoice.go") {
		t.Fatalf("invoice.go found before it exists:\n%s", out)
	}
	writeFile(t, filepath.Join(root, "billing", "invoice.go"), "package billing\n\n// RenderInvoicePDF draws an invoice as a PDF.\nfunc RenderInvoicePDF() {}\n")
	time.Sleep(150 * time.Millisecond)
	out, _ = ok(t, c, "context", map[string]any{"query": "invoice pdf renderer"})
	if !strings.Contains(out, "billing/invoice.go") {
		t.Errorf("a file written while the server runs is not found:\n%s", out)
	}

	// A write through the server is visible at once, debounce or not.
	s2, _ := newServer(t, Options{ProjectDir: root, RefreshEvery: time.Hour})
	c2 := connect(t, s2)
	ok(t, c2, "context", map[string]any{"query": "orders"})
	ok(t, c2, "register", map[string]any{"nodes": []map[string]any{{"type": "gotcha", "title": "Coupon applied twice", "body": "The discount ran before the total was recomputed.", "files": []string{"store/store.go"}}}})
	out, _ = ok(t, c2, "context", map[string]any{"query": "coupon discount applied twice"})
	if !strings.Contains(out, "Coupon applied twice") {
		t.Errorf("a node registered a moment ago is not found:\n%s", out)
	}
}

func TestRegister(t *testing.T) {
	isolate(t)
	root := writeProject(t, rubitest.GoProject)
	s, _ := newServer(t, Options{ProjectDir: root})
	c := connect(t, s)

	node := map[string]any{"type": "decision", "title": "Use JWT instead of session", "body": "Stateless: runs on edge runtimes.",
		"files": []string{"store/store.go", "nope.go"}, "symbols": []string{"Open"}, "links": []string{"about:store/store.go"}, "importance": "high"}
	out, res := ok(t, c, "register", map[string]any{"nodes": []any{node}})
	if !strings.HasPrefix(out, "created: decision-use-jwt-instead-of-session (.rubi/knowledge/decision-use-jwt-instead-of-session.md)") || !strings.Contains(out, "unknown file: nope.go") {
		t.Errorf("text:\n%s", out)
	}
	var got registerOutput
	structured(t, res, &got)
	if len(got.Results) != 1 || got.Results[0].Action != "created" || got.Results[0].Path != ".rubi/knowledge/decision-use-jwt-instead-of-session.md" {
		t.Errorf("structured: %+v", got)
	}
	data, err := os.ReadFile(filepath.Join(root, ".rubi", "knowledge", "decision-use-jwt-instead-of-session.md"))
	if err != nil || !strings.Contains(string(data), "importance: high") || !strings.Contains(string(data), "Stateless: runs on edge runtimes.") {
		t.Errorf("node file: %v\n%s", err, data)
	}
	out, _ = ok(t, c, "register", map[string]any{"nodes": []any{node}})
	if !strings.HasPrefix(out, "merged: decision-use-jwt-instead-of-session") {
		t.Errorf("the same node again:\n%s", out)
	}

	fails(t, c, "register", map[string]any{}, "nothing to do")
	fails(t, c, "register", map[string]any{"nodes": "a gotcha"}, "argument nodes of register must be an array of objects")
	fails(t, c, "register", map[string]any{"nodes": []any{map[string]any{"type": "gotcha", "title": "x", "links": []string{"store.go"}}}}, "nodes[0].links[0]", "rel:target")
	// One bad node among good ones: the good one is stored, the error says which.
	msg := fails(t, c, "register", map[string]any{"nodes": []any{
		map[string]any{"type": "gotcha", "title": "Migrate locks the table"},
		map[string]any{"type": "opinion", "title": "Tabs are better"},
	}}, "error: nodes[1]", "opinion", "the rest is done")
	if !strings.Contains(msg, "created: gotcha-migrate-locks-the-table") {
		t.Errorf("the good node is not reported:\n%s", msg)
	}
}

func TestMap(t *testing.T) {
	isolate(t)
	root := writeProject(t, rubitest.GoProject)
	s, _ := newServer(t, Options{ProjectDir: root})
	c := connect(t, s)

	out, res := ok(t, c, "read", map[string]any{"target": "map"})
	if !strings.Contains(out, "store") || !strings.Contains(out, "web") {
		t.Errorf("map:\n%s", out)
	}
	var got textOutput
	structured(t, res, &got)
	if got.Text != out {
		t.Errorf("structured text differs from the text")
	}
	out, _ = ok(t, c, "read", map[string]any{"target": "module:store"})
	if !strings.Contains(out, "store/store.go") || !strings.Contains(out, "Open") {
		t.Errorf("module page:\n%s", out)
	}
	fails(t, c, "read", map[string]any{"target": "module:billing"}, `no module "billing"`, "modules are")
}

// read takes a symbol as rubi read does, after a note and a path: the
// decoy, a same-named method on another type, is neither printed for
// Type.method nor left out of the candidates of the bare name.
func TestReadSymbol(t *testing.T) {
	isolate(t)
	root := writeProject(t, rubitest.Decoys)
	s, _ := newServer(t, Options{ProjectDir: root})
	c := connect(t, s)

	out, res := ok(t, c, "read", map[string]any{"target": "Cart.Total"})
	if out != rubitest.CartTotal {
		t.Errorf("Cart.Total:\n%s\nwant:\n%s", out, rubitest.CartTotal)
	}
	var got textOutput
	structured(t, res, &got)
	if got.Target != "Cart.Total" || got.Text != out {
		t.Errorf("structured: %+v", got)
	}
	want := "2 definitions of post, best first; read one as path::post or Type.post:\n" +
		"  billing/journal.py:4 method Journal.post\n" +
		"  billing/ledger.py:4 method Ledger.post\n"
	if out, _ = ok(t, c, "read", map[string]any{"target": "post"}); out != want {
		t.Errorf("post:\n%s\nwant:\n%s", out, want)
	}
	if out, _ = ok(t, c, "read", map[string]any{"target": "billing/ledger.py::post"}); out != "billing/ledger.py:4-6 method Ledger.post\n4\t    def post(self, amount):\n5\t        self.balance += amount\n6\t        return self.balance\n" {
		t.Errorf("billing/ledger.py::post:\n%s", out)
	}
	// Paths still read as paths.
	if out, _ = ok(t, c, "read", map[string]any{"target": "shop/invoice.go:7"}); !strings.HasPrefix(out, "7\tfunc (i Invoice) Total() int {\n") {
		t.Errorf("shop/invoice.go:7:\n%s", out)
	}
	fails(t, c, "read", map[string]any{"target": "Ledger.Total"}, `"Ledger.Total"`, "none of the 2 symbols named Total is in Ledger")
	fails(t, c, "read", map[string]any{"target": "Refund"}, "the index knows no symbol Refund")
}

// read takes refs:SYMBOL: the symbol's definition and its references,
// as rubi refs lists them, not its decoy's.
func TestReadRefs(t *testing.T) {
	isolate(t)
	root := writeProject(t, rubitest.Callers)
	s, _ := newServer(t, Options{ProjectDir: root, Engine: pipeline.Options{Resolvers: []refs.Resolver{rubitest.GoCalls{}}}})
	c := connect(t, s)
	want := "shop/cart.go:7: func (c *Cart) Total() int {\n\n" +
		"shop/checkout.go:5: total := c.Total()\n" +
		"shop/checkout.go:10: if c.Total() > 100 {\n\n" +
		"shop/bill.go:5: return i.Total() + c.Total()\n"
	out, res := ok(t, c, "read", map[string]any{"target": "refs:Cart.Total"})
	if out != want {
		t.Errorf("refs:Cart.Total:\n%s\nwant:\n%s", out, want)
	}
	var got textOutput
	structured(t, res, &got)
	if got.Target != "refs:Cart.Total" || got.Text != out {
		t.Errorf("structured: %+v", got)
	}
	if out, _ := ok(t, c, "read", map[string]any{"target": "refs:Total"}); !strings.HasPrefix(out, "2 definitions of Total, best first") {
		t.Errorf("refs:Total:\n%s", out)
	}
	fails(t, c, "read", map[string]any{"target": "refs:Totl"}, "no symbol named Totl; did you mean Total?")

	// A server whose program finds no references says so.
	bare, _ := newServer(t, Options{ProjectDir: root})
	fails(t, connect(t, bare), "read", map[string]any{"target": "refs:Cart.Total"}, "this index keeps no references")
}

func TestRead(t *testing.T) {
	isolate(t)
	root := writeProject(t, rubitest.GoProject)
	writeFile(t, filepath.Join(filepath.Dir(root), "secret.txt"), "password\n")
	s, _ := newServer(t, Options{ProjectDir: root})
	c := connect(t, s)
	ok(t, c, "register", map[string]any{"nodes": []any{map[string]any{"type": "gotcha", "title": "Open never fails", "body": "It returns nil even for a bad DSN.", "files": []string{"store/store.go"}}}})

	out, res := ok(t, c, "read", map[string]any{"target": "Open never fails"})
	if !strings.Contains(out, "id: gotcha-open-never-fails") || !strings.Contains(out, "It returns nil even for a bad DSN.") || strings.Contains(out, "⚠") {
		t.Errorf("node:\n%s", out)
	}
	// The structured content is the text again, under the node's id.
	var node textOutput
	structured(t, res, &node)
	if node.Target != "gotcha-open-never-fails" || node.Text != out {
		t.Errorf("structured: %+v", node)
	}
	// The file it is about changes: the node is flagged stale.
	writeFile(t, filepath.Join(root, "store", "store.go"), "package store\n\n// Open connects, and now checks the DSN.\nfunc Open(dsn string) error { return check(dsn) }\n")
	s.mu.Lock()
	for _, p := range s.projects {
		p.wrote() // do not wait for the debounce
	}
	s.mu.Unlock()
	if out, _ = ok(t, c, "read", map[string]any{"target": "gotcha-open-never-fails"}); !strings.HasPrefix(out, "⚠ ") {
		t.Errorf("stale node not flagged:\n%s", out)
	}

	out, _ = ok(t, c, "read", map[string]any{"target": "store/migrate.go:3-4"})
	if out != "3\t// Migrate upgrades the database schema.\n4\tfunc Migrate() error { return nil }\n" {
		t.Errorf("region:\n%q", out)
	}
	fails(t, c, "read", map[string]any{"target": "../secret.txt"}, "inside the project")
	fails(t, c, "read", map[string]any{"target": "/etc/passwd"}, "inside the project")
	fails(t, c, "read", map[string]any{"target": "decision-nothing-like-this"}, "neither a stored node nor a readable file region", "path:START-END")
	fails(t, c, "read", map[string]any{}, "target is empty")

	// A chunk of the conversation memory, whole or some lines.
	saved, err := memory.Open(root).Save(context.Background(), memory.Input{Content: "one\ntwo\nthree"})
	if err != nil {
		t.Fatal(err)
	}
	if out, _ = ok(t, c, "read", map[string]any{"target": "chunk:" + saved.ID + ":2-3"}); out != "two\nthree\n(lines 2-3 of 3)\n" {
		t.Errorf("chunk lines:\n%q", out)
	}
	if out, _ = ok(t, c, "read", map[string]any{"target": "chunk:" + saved.ID}); out != "one\ntwo\nthree\n(lines 1-3 of 3)\n" {
		t.Errorf("chunk:\n%q", out)
	}
	fails(t, c, "read", map[string]any{"target": "chunk:" + saved.ID + ":3-1"}, "chunk:ID:START-END")
	fails(t, c, "read", map[string]any{"target": "chunk:../../etc"}, "chunk id")

	// A node grown to megabytes by hand (or by a cloned repository) is
	// read in part, and the answer says so.
	path := filepath.Join(root, ".rubi", "knowledge", "gotcha-open-never-fails.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(data)+strings.Repeat("é filler line of a huge note\n", 200_000))
	out, res = ok(t, c, "read", map[string]any{"target": "gotcha-open-never-fails"})
	// Edited by hand, it is the repository's: quoted, within the same cap.
	if len(out) > maxNodeRead+1024 || !regexp.MustCompile(`the first 6\d{4} are shown`).MatchString(out) || !strings.Contains(out, "\n> é filler line") || !strings.Contains(out, "Open .rubi/knowledge/gotcha-open-never-fails.md for the rest") || !utf8.ValidString(out) {
		t.Errorf("a huge node: %d bytes back, ending %q", len(out), out[max(0, len(out)-200):])
	}
	if sc, _ := json.Marshal(res.StructuredContent); len(sc) > 2*maxNodeRead+4096 {
		t.Errorf("a huge node: %d bytes of structured content", len(sc))
	}
}

func TestRegisterSummaries(t *testing.T) {
	isolate(t)
	root := writeProject(t, rubitest.GoProject)
	s, _ := newServer(t, Options{ProjectDir: root, RefreshEvery: time.Hour})
	c := connect(t, s)
	ok(t, c, "read", map[string]any{"target": "map"})

	sum := func(target string, text any) map[string]any {
		m := map[string]any{"target": target}
		if text != nil {
			m["text"] = text
		}
		return map[string]any{"summaries": []any{m}}
	}
	out, _ := ok(t, c, "register", sum("map", "An order service: store keeps orders, web shows them."))
	if out != "summary of map saved; the maps show it from now on\n" {
		t.Errorf("text: %q", out)
	}
	if out, _ = ok(t, c, "read", map[string]any{"target": "map"}); !strings.Contains(out, "An order service: store keeps orders, web shows them.") {
		t.Errorf("the map does not show the summary:\n%s", out)
	}
	// The schema offers a summary as a node of type summary.
	out, _ = ok(t, c, "register", map[string]any{"nodes": []any{map[string]any{"type": "summary", "title": "module:store", "body": "Keeps the orders, by summary node."}}})
	if !strings.Contains(out, "summary of module:store saved") {
		t.Errorf("a summary node:\n%s", out)
	}
	if out, _ = ok(t, c, "read", map[string]any{"target": "module:store"}); !strings.Contains(out, "Keeps the orders, by summary node.") {
		t.Errorf("the module's page lacks the summary registered as a node:\n%s", out)
	}
	out, res := ok(t, c, "register", sum("map", ""))
	var got registerOutput
	structured(t, res, &got)
	if len(got.Summaries) != 1 || !got.Summaries[0].Removed || out != "summary of map removed\n" {
		t.Errorf("remove: %q %+v", out, got)
	}
	fails(t, c, "register", sum("readme", "x"), "summaries[0]", `use "map" or "module:<name>"`)
	fails(t, c, "register", sum("map", nil), "summaries[0]", "text is missing")
	// With a node in the same call: both are done.
	out, _ = ok(t, c, "register", map[string]any{"nodes": []any{map[string]any{"type": "concept", "title": "Orders"}},
		"summaries": []any{map[string]any{"target": "module:store", "text": "Keeps orders."}}})
	if !strings.Contains(out, "created: concept-orders") || !strings.Contains(out, "summary of module:store saved") {
		t.Errorf("node and summary:\n%s", out)
	}
}

func TestHandoff(t *testing.T) {
	isolate(t)
	root := writeProject(t, rubitest.GoProject)
	s, _ := newServer(t, Options{ProjectDir: root})
	c := connect(t, s)

	out, res := ok(t, c, "memory", map[string]any{"action": "last"})
	var got handoffOutput
	structured(t, res, &got)
	if got.Handoff != nil || !strings.Contains(out, "no handoff has been saved") {
		t.Errorf("no handoff yet: %q %+v", out, got)
	}
	text := "## Goal\nAdd coupon types\n\n## Done\n- percent coupons\n\n## Next\n- Wire the endpoint\n\n## Files\n- store/store.go\n"
	out, res = ok(t, c, "memory", map[string]any{"action": "handoff", "text": text})
	structured(t, res, &got)
	if !strings.HasPrefix(out, "saved: .rubi/handoffs/") || got.Handoff == nil || got.Handoff.Goal != "Add coupon types" || got.Chunk == "" {
		t.Errorf("save: %q %+v", out, got)
	}
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(got.Handoff.Path))); err != nil {
		t.Error(err)
	}
	// The handoff is a chunk of the conversation memory too.
	if out, _ := ok(t, c, "memory", map[string]any{"action": "grep", "text": "Wire the endpoint", "tags": []string{"handoff"}}); !strings.Contains(out, got.Chunk+":") {
		t.Errorf("grep does not find the handoff's chunk %s:\n%s", got.Chunk, out)
	}
	out, res = ok(t, c, "memory", map[string]any{"action": "last"})
	structured(t, res, &got)
	if !strings.Contains(out, "Add coupon types") || !strings.Contains(out, "Wire the endpoint") || got.Handoff == nil || !slices.Equal(got.Handoff.Next, []string{"Wire the endpoint"}) {
		t.Errorf("last: %q %+v", out, got.Handoff)
	}
	// Free text without sections is kept as the notes.
	ok(t, c, "memory", map[string]any{"action": "handoff", "text": "Halfway through the coupon work; the endpoint is next."})
	if _, res = ok(t, c, "memory", map[string]any{"action": "last"}); true {
		structured(t, res, &got)
		if got.Handoff == nil || got.Handoff.Notes != "Halfway through the coupon work; the endpoint is next." {
			t.Errorf("free text: %+v", got.Handoff)
		}
	}
	// Prose under a list section, and sections rubi does not know, come
	// back whole (issue 21's example).
	text = "## Goal\n\nAdd a second coupon type\n\n## Next\n\nWire the endpoint zebra-42\n\n## Notes\nsomething else"
	ok(t, c, "memory", map[string]any{"action": "handoff", "text": text})
	out, res = ok(t, c, "memory", map[string]any{"action": "last"})
	structured(t, res, &got)
	if !strings.Contains(out, text) || got.Handoff == nil || got.Handoff.Text != text || !slices.Equal(got.Handoff.Next, []string{"Wire the endpoint zebra-42"}) {
		t.Errorf("last after a handoff with prose under Next: %q %+v", out, got.Handoff)
	}
	fails(t, c, "memory", map[string]any{"action": "handoff"}, "the handoff is empty")
	fails(t, c, "memory", map[string]any{"action": "load"}, `action "load"`, "handoff", "last")
	fails(t, c, "memory", map[string]any{"action": "handoff", "text": []string{"ship it"}}, "argument text of memory must be a string")
}

func TestRetract(t *testing.T) {
	isolate(t)
	root := writeProject(t, rubitest.GoProject)
	s, _ := newServer(t, Options{ProjectDir: root, RefreshEvery: time.Hour})
	c := connect(t, s)
	ok(t, c, "register", map[string]any{"nodes": []any{
		map[string]any{"type": "bug", "title": "Orders vanish on retry", "body": "The retry dropped the order id."},
		map[string]any{"type": "note", "title": "Orders are paged by fifty"},
	}})
	if out, _ := ok(t, c, "context", map[string]any{"query": "orders vanish retry"}); !strings.Contains(out, "Orders vanish on retry") {
		t.Fatalf("the node is not found before forget:\n%s", out)
	}

	out, res := ok(t, c, "register", map[string]any{"retract": []string{"Orders vanish on retry"}})
	var got registerOutput
	structured(t, res, &got)
	if out != "retracted: bug-orders-vanish-on-retry\n" || len(got.Retracted) != 1 || got.Retracted[0].Action != "retracted" {
		t.Errorf("forget: %q %+v", out, got)
	}
	if out, _ = ok(t, c, "context", map[string]any{"query": "orders vanish retry"}); strings.Contains(out, "Orders vanish on retry") {
		t.Errorf("a retracted node is still found:\n%s", out)
	}
	path := filepath.Join(root, ".rubi", "knowledge", "note-orders-are-paged-by-fifty.md")
	if out, _ = ok(t, c, "register", map[string]any{"retract": []string{"note-orders-are-paged-by-fifty"}, "hard": true}); out != "deleted: note-orders-are-paged-by-fifty\n" {
		t.Errorf("hard: %q", out)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("hard forget left %s: %v", path, err)
	}
	fails(t, c, "register", map[string]any{"retract": []string{"bug-no-such-thing"}}, `no stored node is called "bug-no-such-thing"`)
	fails(t, c, "register", map[string]any{"retract": []string{"x"}, "hard": "yes"}, "argument hard of register must be true or false")
}

func TestProjects(t *testing.T) {
	isolate(t)
	a := writeProject(t, rubitest.GoProject)
	b := writeProject(t, map[string]string{"billing/invoice.go": "package billing\n\n// RenderInvoicePDF draws an invoice.\nfunc RenderInvoicePDF() {}\n"})
	s, _ := newServer(t, Options{ProjectDir: a, Multi: true, Allow: []string{b}})
	c := connect(t, s)

	out, _ := ok(t, c, "context", map[string]any{"query": "invoice pdf", "project": b})
	if !strings.Contains(out, "billing/invoice.go") {
		t.Errorf("project b:\n%s", out)
	}
	out, _ = ok(t, c, "context", map[string]any{"query": "order database"})
	if !strings.Contains(out, "store/store.go") {
		t.Errorf("default project a:\n%s", out)
	}
	// map's overview lists the open projects first, the default one
	// marked; a module's page does not.
	out, _ = ok(t, c, "read", map[string]any{"target": "map"})
	head, _, _ := strings.Cut(out, "\n\n")
	if !strings.HasPrefix(head, "open projects") || !strings.Contains(head, "\n* "+filepath.Base(a)+"  "+a) || !strings.Contains(head, "\n  "+filepath.Base(b)+"  "+b) {
		t.Errorf("map does not list the open projects:\n%s", out)
	}
	if out, _ = ok(t, c, "read", map[string]any{"target": "module:store"}); strings.Contains(out, "open projects") {
		t.Errorf("a module's page lists the projects:\n%s", out)
	}
	// By name, once open.
	if out, _ = ok(t, c, "read", map[string]any{"target": "map", "project": filepath.Base(b)}); !strings.Contains(out, "billing") {
		t.Errorf("by name:\n%s", out)
	}
	fails(t, c, "read", map[string]any{"target": "map", "project": "nowhere"}, `no open project is called "nowhere"`, filepath.Base(a))
	fails(t, c, "read", map[string]any{"target": "map", "project": filepath.Join(b, "missing")}, "not a directory")
}

// rootsClient answers roots/list with one directory and counts the
// questions.
type rootsClient struct {
	dir   string
	asked atomic.Int32
}

func (r *rootsClient) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	r.asked.Add(1)
	return &mcp.ListRootsResult{Roots: []mcp.Root{
		{URI: "https://example.com/not-a-directory"},
		{URI: "file://" + filepath.ToSlash(r.dir), Name: "workspace"},
	}}, nil
}

// The client's roots name the project, in the stateless protocol (an
// input-required result the client answers) and in older ones (roots/list
// sent to the client), and the answer is remembered per session.
func TestClientRoots(t *testing.T) {
	isolate(t)
	for _, legacy := range []bool{false, true} {
		wd := writeProject(t, rubitest.GoProject)
		project := writeProject(t, map[string]string{".git/HEAD": "ref: refs/heads/main\n", "src/app/main.go": "package main\n"})
		s, _ := newServer(t, Options{WorkDir: wd})
		roots := &rootsClient{dir: filepath.Join(project, "src")}
		opts := []client.ClientOption{client.WithRootsHandler(roots)}
		if legacy {
			opts = append(opts, client.WithProtocolVersion(mcp.ProtocolVersion20251125))
		}
		c := connect(t, s, opts...)
		if got := c.ProtocolVersion(); mcp.IsModernProtocol(got) == legacy {
			t.Fatalf("legacy=%v: negotiated %s", legacy, got)
		}
		for i := range 2 {
			out, _ := ok(t, c, "register", map[string]any{"nodes": []any{map[string]any{"type": "note", "title": "Roots pick the project " + string(rune('A'+i))}}})
			if !strings.Contains(out, "created: ") {
				t.Errorf("legacy=%v: %s", legacy, out)
			}
		}
		// The project is the repository around the root, not the working directory.
		if nodes, _ := filepath.Glob(filepath.Join(project, ".rubi", "knowledge", "*.md")); len(nodes) != 2 {
			t.Errorf("legacy=%v: nodes in the roots' project: %v", legacy, nodes)
		}
		if n := roots.asked.Load(); n != 1 {
			t.Errorf("legacy=%v: the roots were asked for %d times, want once per session", legacy, n)
		}
		// The client opens another folder and says so: the next call asks again.
		other := writeProject(t, map[string]string{"rubi.hcl": ""})
		roots.dir = other
		if err := c.RootListChanges(context.Background()); err != nil {
			t.Fatal(err)
		}
		ok(t, c, "register", map[string]any{"nodes": []any{map[string]any{"type": "note", "title": "Roots changed"}}})
		if _, err := os.Stat(filepath.Join(other, ".rubi", "knowledge", "note-roots-changed.md")); err != nil || roots.asked.Load() != 2 {
			t.Errorf("legacy=%v: after the roots changed (asked %d times): %v", legacy, roots.asked.Load(), err)
		}
		if _, err := os.Stat(filepath.Join(wd, ".rubi")); !os.IsNotExist(err) {
			t.Errorf("legacy=%v: the working directory's project was used", legacy)
		}
	}
}

// Without roots or a project directory, the project around the working
// directory is used.
func TestWorkDirFallback(t *testing.T) {
	isolate(t)
	root := writeProject(t, rubitest.GoProject)
	writeFile(t, filepath.Join(root, "rubi.hcl"), "")
	s, _ := newServer(t, Options{WorkDir: filepath.Join(root, "store")})
	c := connect(t, s)
	if out, _ := ok(t, c, "context", map[string]any{"query": "render orders"}); !strings.Contains(out, "web/handlers/order.js") {
		t.Errorf("the project around the working directory was not used:\n%s", out)
	}
}

func TestConfigErrorsAreToolErrors(t *testing.T) {
	isolate(t)
	root := writeProject(t, rubitest.GoProject)
	writeFile(t, filepath.Join(root, "rubi.hcl"), "budgets {\n  contxt = 900\n}\n")
	s, _ := newServer(t, Options{ProjectDir: root})
	c := connect(t, s)
	fails(t, c, "context", map[string]any{"query": "orders"}, "rubi.hcl:2:3", "contxt", "fix them and call again")
	// Fixed while the server runs: the next call works.
	writeFile(t, filepath.Join(root, "rubi.hcl"), "budgets {\n  context = 900\n}\n")
	if out, _ := ok(t, c, "context", map[string]any{"query": "orders"}); !strings.Contains(out, "budget 900") {
		t.Errorf("the fixed configuration is not used:\n%s", out)
	}
	// Changed again: the engine is reopened with it.
	writeFile(t, filepath.Join(root, "rubi.hcl"), "budgets {\n  context = 700\n}\n")
	if out, _ := ok(t, c, "context", map[string]any{"query": "orders"}); !strings.Contains(out, "budget 700") {
		t.Errorf("the changed configuration is not used:\n%s", out)
	}
}

func TestPanicIsRecovered(t *testing.T) {
	isolate(t)
	s, logs := newServer(t, Options{ProjectDir: writeProject(t, rubitest.GoProject)})
	s.MCP().AddTool(mcp.NewTool("explode"), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		parts := strings.Split(req.Params.Name, "/")
		return mcp.NewToolResultText(parts[3]), nil
	})
	c := connect(t, s)
	fails(t, c, "explode", nil, "rubi failed inside explode", "still running")
	if !strings.Contains(logs.String(), "tool panicked") || !strings.Contains(logs.String(), "index out of range") {
		t.Errorf("the panic is not logged:\n%s", logs)
	}
	ok(t, c, "read", map[string]any{"target": "map"})
}

func TestClosedServerRefusesCalls(t *testing.T) {
	isolate(t)
	s, _ := newServer(t, Options{ProjectDir: writeProject(t, rubitest.GoProject)})
	c := connect(t, s)
	ok(t, c, "read", map[string]any{"target": "map"})
	s.Close()
	fails(t, c, "read", map[string]any{"target": "map"}, "shutting down")
}

// Arguments past their limits are refused with a tool error naming the
// argument and the limit, before any work.
func TestArgumentLimits(t *testing.T) {
	isolate(t)
	root := writeProject(t, rubitest.GoProject)
	s, _ := newServer(t, Options{ProjectDir: root})
	c := connect(t, s)
	many := make([]string, maxTerms+1)
	for i := range many {
		many[i] = "t"
	}
	fails(t, c, "context", map[string]any{"query": strings.Repeat("order ", maxQueryBytes/6+1)}, "query is", "the limit is 262144")
	fails(t, c, "context", map[string]any{"query": "order", "terms": many}, "terms is 65 items")
	fails(t, c, "context", map[string]any{"query": "order", "budget": 1 << 30}, "budget is")
	fails(t, c, "read", map[string]any{"target": strings.Repeat("a", maxWordBytes+1)}, "target")
	fails(t, c, "memory", map[string]any{"action": "grep", "text": "x", "tags": many}, "tags is 65 items")
	fails(t, c, "register", map[string]any{"retract": make([]string, maxBatch+1)}, "retract is 501 items")
	// Within the limits, it answers.
	if out, _ := ok(t, c, "context", map[string]any{"query": "order database", "terms": many[:maxTerms]}); !strings.Contains(out, "store/store.go") {
		t.Errorf("within the limits:\n%s", out)
	}
}
