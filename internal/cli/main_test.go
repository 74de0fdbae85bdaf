package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// run is rubi's program, as cmd/rubi's main runs it: with no Launcher.
var run = command(nil, nil)

// runRubi runs one command line in-process and returns its exit status and
// output, as a user would see them.
func runRubi(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runRubiIn(t, "", args...)
}

// runRubiIn is runRubi with stdin as standard input.
func runRubiIn(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestIndexJSON(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	code, out, errOut := runRubi(t, "index", "--root", root, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var stats struct {
		Root  string `json:"root"`
		Files struct {
			Seen    int            `json:"seen"`
			Indexed int            `json:"indexed"`
			Skipped map[string]int `json:"skipped"`
		} `json:"files"`
		Edges      int               `json:"import_edges"`
		Rankers    map[string]string `json:"rankers"`
		DurationMS float64           `json:"duration_ms"`
	}
	if err := json.Unmarshal([]byte(out), &stats); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if stats.Root != root || stats.Files.Indexed != 6 || stats.Edges != 3 || stats.Rankers["rank.bm25"] != "full" {
		t.Errorf("stats = %+v", stats)
	}
}

// --memprofile writes the index run's heap profile, pprof's gzipped
// format, and the command's output is as without it.
func TestIndexMemProfile(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	path := filepath.Join(t.TempDir(), "mem.pprof")
	code, out, errOut := runRubi(t, "--memprofile", path, "index", "--root", root, "--json")
	if code != 0 || !strings.Contains(out, `"indexed": 6`) {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		t.Errorf("%s is not a gzipped profile: % x", path, data[:min(len(data), 8)])
	}
	code, _, errOut = runRubi(t, "--memprofile", filepath.Join(t.TempDir(), "no", "mem.pprof"), "index", "--root", root)
	if code != 1 || !strings.Contains(errOut, "--memprofile") {
		t.Errorf("a profile that cannot be written: exit %d, %s", code, errOut)
	}
}

func TestIndexText(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	code, out, _ := runRubi(t, "index", "--root", root)
	if code != 0 || !strings.HasPrefix(out, "indexed 6 files in "+root) || !strings.Contains(out, "languages: go 3, javascript 2, other 1") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// The --json output of context is an external contract: other tools read
// these exact keys.
func TestContextJSONContract(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	code, out, errOut := runRubi(t, "context", "open the database", "--root", root, "--terms", "dsn,connect", "--budget", "400", "--limit", "3", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res["query"] != "open the database" {
		t.Errorf("query = %v", res["query"])
	}
	if _, ok := res["tokens"].(float64); !ok {
		t.Errorf("tokens missing: %v", res)
	}
	items, _ := res["items"].([]any)
	if len(items) == 0 || len(items) > 3 {
		t.Fatalf("items = %v", items)
	}
	first := items[0].(map[string]any)
	for _, key := range []string{"id", "kind", "path", "title", "score", "reasons", "scores"} {
		if _, ok := first[key]; !ok {
			t.Errorf("item has no %q: %v", key, first)
		}
	}
	if first["id"] != "file:store/store.go" || first["kind"] != "file" || first["path"] != "store/store.go" {
		t.Errorf("first item = %v", first)
	}
	if scores := first["scores"].(map[string]any); scores["rank.bm25"] == nil {
		t.Errorf("scores = %v", scores)
	}
	// The units to open first, across files: each with its path, line
	// and name, and the parts of its score by the setting that weighs them.
	of, _ := res["open_first"].([]any)
	if len(of) == 0 {
		t.Fatalf("no open_first: %s", out)
	}
	u := of[0].(map[string]any)
	if u["path"] != "store/store.go" || u["name"] != "Open" || u["line"] != 5.0 || u["parts"].(map[string]any)["file_weight"] == nil {
		t.Errorf("open_first[0] = %v", u)
	}
}

func TestContextText(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	code, out, _ := runRubi(t, "context", "render", "orders", "--root", root, "--kinds", "file", "--explain")
	if code != 0 || !strings.HasPrefix(out, "open first:\n   web/handlers/order.js:2 renderOrders — matches ") || !strings.Contains(out, "(score ") ||
		!strings.Contains(out, "\n1. [file] web/handlers/order.js") || !strings.Contains(out, "score ") || !strings.Contains(out, "tokens (budget 1500") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, _, errOut := runRubi(t, "context", "x", "--root", root, "--kinds", "symbols")
	if code != 1 || !strings.Contains(errOut, `unknown kind "symbols"`) {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

func TestConfigCheck(t *testing.T) {
	root := rubitest.Project(t, map[string]string{"rubi.hcl": "budgets {\n  context = 900\n}\nranker \"rank.bm25\" {\n  k1 = 1.5\n}\n"})
	code, out, errOut := runRubi(t, "config", "check", "--root", root)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"configuration OK", "budgets: context 900, recall 700", "ranker   rank.bm25", `"k1":1.5`, "fuser    fuse.rrf", "reranker rerank.floor"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

// A broken rubi.hcl gets FILE:LINE diagnostics and exit status 1, for the
// skeleton (unknown attribute, wrong type, missing label) and for a
// stage's own settings checked against its schema.
func TestConfigCheckErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"index {\n  max_size = 1\n}\n", `rubi.hcl:2:3: error: Unsupported argument`},
		{"budgets {\n  context = \"big\"\n}\n", `rubi.hcl:2:13: error: Invalid budgets.context`},
		{"ranker {\n}\n", `rubi.hcl:1:8: error: Missing name for ranker`},
		{"ranker \"rank.bm25\" {\n  kl = 1\n}\n", "rubi.hcl:2:3: error: Unsupported argument\n  An argument named \"kl\" is not expected in ranker \"rank.bm25\". Did you mean \"k1\"?"},
		{"ranker \"rank.bm25\" {\n  b = 3\n}\n", `rubi.hcl:2:7: error: Invalid b for ranker "rank.bm25"`},
		{"ranker \"rank.bm25\" {\n  k1 = \"fast\"\n}\n", `rubi.hcl:2:8: error: Incorrect attribute value type`},
	}
	for _, c := range cases {
		root := rubitest.Project(t, map[string]string{"rubi.hcl": c.src})
		t.Chdir(root)
		code, _, errOut := runRubi(t, "config", "check")
		if code != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("config:\n%s\nexit %d, stderr:\n%s\nwant %q", c.src, code, errOut, c.want)
		}
	}
}

// A mistake is said once, where the user wrote it, with the rule it
// breaks: no error blames the built-in defaults (a budget that is no
// whole number once gave four, two of them at lines of the defaults), a
// setting out of its block names the block, and an unknown stage names
// the one meant and the others readably.
func TestConfigCheckBlamesWhatTheUserWrote(t *testing.T) {
	cases := []struct{ src, want string }{
		{"budgets {\n  context = 1500.5\n}\n", `rubi.hcl:2:13: error: Invalid budgets.context
  context in the "budgets" block is a whole number of tokens between 100 (room for one item) and 1048576; 1500.5 is not a whole number.
  2 |   context = 1500.5
`},
		{"budgets {\n  recall = 50\n}\n", `rubi.hcl:2:12: error: Invalid budgets.recall
  recall in the "budgets" block is a whole number of tokens between 100 (room for one item) and 1048576; 50 is below 100: no item of an answer fits in fewer tokens.
  2 |   recall = 50
`},
		{"recall = 50\n", `rubi.hcl:1:1: error: recall belongs in the "budgets" block
  recall is a setting of the "budgets" block, not of the file's top level: write budgets { recall = 50 }. It is a whole number of tokens between 100 (room for one item) and 1048576.
  1 | recall = 50
`},
		{"ranker \"rank.bm52\" {}\n", `rubi.hcl:1:1: error: Unknown built-in ranker
  rubi has no built-in ranker called "rank.bm52". Did you mean "rank.bm25"? The built-in rankers are notes.files, query.callers, query.paths, query.time, rank.bm25, rank.names, rank.neighbours and rank.ppr. To run a plugin, add plugin = "path/to/binary" to the block.
  1 | ranker "rank.bm52" {}
`},
	}
	for _, c := range cases {
		root := rubitest.Project(t, map[string]string{"rubi.hcl": c.src})
		t.Chdir(root)
		code, out, errOut := runRubi(t, "config", "check")
		if code != 1 || out != "" || errOut != c.want {
			t.Errorf("config:\n%s\nexit %d, stdout %q, stderr:\n%s\nwant:\n%s", c.src, code, out, errOut, c.want)
		}
	}
}

func TestPluginsAndVersion(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	code, out, _ := runRubi(t, "plugins", "--root", root, "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var rows []struct {
		Kind, Name, Version string
		Builtin             bool
		InPipeline          bool `json:"in_pipeline"`
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, r := range rows {
		if r.Builtin && r.InPipeline && r.Version != "" {
			found[r.Kind+" "+r.Name] = true
		}
	}
	for _, want := range []string{"parser lang.regex", "ranker rank.bm25", "ranker rank.ppr", "fuser fuse.rrf"} {
		if !found[want] {
			t.Errorf("plugins should list %s as a built-in in the pipeline: %s", want, out)
		}
	}
	code, out, _ = runRubi(t, "version")
	if code != 0 || !strings.HasPrefix(out, "rubi ") || !strings.Contains(out, "plugin protocol v1") {
		t.Errorf("version: %d %q", code, out)
	}
}

func TestUsageErrors(t *testing.T) {
	if code, _, errOut := runRubi(t, "frobnicate"); code != 1 || !strings.Contains(errOut, `unknown command "frobnicate"`) {
		t.Errorf("exit %d: %s", code, errOut)
	}
	// A missing or extra argument says what the command takes, with an
	// example, not cobra's "requires at least 1 arg(s)".
	if code, _, errOut := runRubi(t, "context"); code != 1 || !strings.Contains(errOut, "rubi context is missing its argument; usage: rubi context QUERY...") || !strings.Contains(errOut, `for example: rubi context "how are plugins loaded"`) {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if code, _, errOut := runRubi(t, "read", "a", "b"); code != 1 || !strings.Contains(errOut, `rubi read takes at most 1, got 2: "a b"`) {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if code, _, errOut := runRubi(t, "connect"); code != 1 || !strings.Contains(errOut, "rubi connect needs an agent: claude-code, codex, gemini") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if code, _, errOut := runRubi(t, "index", "--root", "/no/such/dir"); code != 1 || !strings.Contains(errOut, "not a directory") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if code, _, errOut := runRubi(t, "version", "--log-level", "loud"); code != 1 || !strings.Contains(errOut, "--log-level") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// The example per-repo tuning is a valid layer over the defaults.
func TestExampleTuningConfig(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	tuning, _ := filepath.Abs("../../examples/tuning/rubi.hcl")
	code, out, errOut := runRubi(t, "config", "check", "--root", root, "--config", tuning)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"budgets: context 2500", `"k1":0.9`, "languages go, javascript, typescript", "weight 0.7"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

func TestMapCommand(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	code, out, errOut := runRubi(t, "map", "--root", root)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"# Map of app", "6 files in 4 modules", "`store` (2)", "used by"} {
		if !strings.Contains(out, want) {
			t.Errorf("level-0 map lacks %q:\n%s", want, out)
		}
	}
	code, out, errOut = runRubi(t, "map", "store", "--root", root, "--no-refresh")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"# Module store", "`store/store.go` — Package store keeps orders in a database.", "exports: Open", "imported by: main.go"} {
		if !strings.Contains(out, want) {
			t.Errorf("module page lacks %q:\n%s", want, out)
		}
	}
	code, _, errOut = runRubi(t, "map", "nowhere", "--root", root, "--no-refresh")
	if code != 1 || !strings.Contains(errOut, `no module "nowhere"; modules are:`) {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// The map of a Python project names its packages (a src layout's
// subpackages), and its vendored folder is not a module of it.
func TestMapOfAPythonProject(t *testing.T) {
	root := rubitest.Project(t, map[string]string{
		"pyproject.toml":                       "[project]\nname = \"shop\"\n",
		"src/shop/__init__.py":                 "",
		"src/shop/cli.py":                      "from shop.orders import place\nfrom shop.payments import charge\n\ndef main():\n    charge(place())\n",
		"src/shop/orders/__init__.py":          "from .place import place\n",
		"src/shop/orders/place.py":             "import shop._vendor.six\n\ndef place():\n    return 1\n",
		"src/shop/payments/__init__.py":        "from .charge import charge\n",
		"src/shop/payments/charge.py":          "def charge(order):\n    return order\n",
		"src/shop/_vendor/__init__.py":         "",
		"src/shop/_vendor/six.py":              "def b(s):\n    return s\n",
		"src/shop/_vendor/urllib3/__init__.py": "",
		"src/shop/_vendor/urllib3/pool.py":     "class Pool:\n    pass\n",
	})
	code, out, errOut := runRubi(t, "map", "--root", root)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"`src/shop/orders` (2)", "`src/shop/payments` (2)", "`src/shop` (2)"} {
		if !strings.Contains(out, want) {
			t.Errorf("the map lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "_vendor") {
		t.Errorf("the vendored folder is on the map:\n%s", out)
	}
	code, _, errOut = runRubi(t, "map", "src/shop/_vendor", "--root", root, "--no-refresh")
	if code != 1 || !strings.Contains(errOut, `no module "src/shop/_vendor"; modules are: .,`) {
		t.Errorf("rubi map of the vendored folder: exit %d: %s", code, errOut)
	}
}

// The --json output of graph is an external contract.
func TestGraphJSONContract(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	code, out, errOut := runRubi(t, "graph", "--root", root, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var g struct {
		Files []struct {
			Path     string  `json:"path"`
			Lang     string  `json:"lang"`
			Module   string  `json:"module"`
			PageRank float64 `json:"pagerank"`
			Symbols  []struct {
				Name string `json:"name"`
				Kind string `json:"kind"`
				Line int    `json:"line"`
			} `json:"symbols"`
		} `json:"files"`
		Edges []struct {
			From, To, Kind string
		} `json:"edges"`
		Modules    []map[string]any `json:"modules"`
		Unresolved map[string]int   `json:"unresolved"`
	}
	if err := json.Unmarshal([]byte(out), &g); err != nil {
		t.Fatal(err)
	}
	var store *struct {
		Path     string  `json:"path"`
		Lang     string  `json:"lang"`
		Module   string  `json:"module"`
		PageRank float64 `json:"pagerank"`
		Symbols  []struct {
			Name string `json:"name"`
			Kind string `json:"kind"`
			Line int    `json:"line"`
		} `json:"symbols"`
	}
	for i := range g.Files {
		if g.Files[i].Path == "store/store.go" {
			store = &g.Files[i]
		}
	}
	if store == nil || store.Lang != "go" || store.Module != "store" || store.PageRank <= 0 || len(store.Symbols) != 1 || store.Symbols[0].Name != "Open" || store.Symbols[0].Line != 5 {
		t.Fatalf("store.go = %+v", store)
	}
	found := false
	for _, e := range g.Edges {
		if e.From == "main.go" && e.To == "store/store.go" && e.Kind == "imports" {
			found = true
		}
	}
	if !found || len(g.Modules) != 4 || g.Unresolved == nil {
		t.Errorf("edges %+v, modules %d, unresolved %v", g.Edges, len(g.Modules), g.Unresolved)
	}
}

// register's JSON on stdin and its --json results are an external
// contract; the nodes then show up in nodes, read, context and forget.
func TestKnowledgeCommands(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	t.Setenv("RUBI_VAULT", t.TempDir())
	batch := `[
	  {"type": "decision", "title": "Orders live in Postgres", "body": "The client already runs Postgres.", "files": ["store/store.go"], "importance": "high"},
	  {"id": "gotcha-migrate-order", "type": "gotcha", "title": "Run Migrate before Open", "body": "Open fails on an old schema.", "symbols": ["Migrate"], "links": [{"rel": "about", "target": "Orders live in Postgres"}]},
	  {"type": "note", "title": "Bad", "files": ["../../etc/passwd"], "id": "../escape"}
	]`
	code, out, errOut := runRubiIn(t, batch, "register", "--root", root, "--json")
	if code != 1 {
		t.Errorf("a batch with an invalid node exits 1, got %d: %s", code, errOut)
	}
	var results []struct {
		Action, ID, Path, Error string
		Notes                   []string
	}
	if err := json.Unmarshal([]byte(out), &results); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(results) != 3 || results[0].Action != "created" || results[0].ID != "decision-orders-live-in-postgres" ||
		results[1].Action != "created" || results[1].ID != "gotcha-migrate-order" || results[2].Action != "error" {
		t.Fatalf("results = %+v", results)
	}
	if _, err := os.Stat(filepath.Join(root, ".rubi", "knowledge", "decision-orders-live-in-postgres.md")); err != nil {
		t.Errorf("node file: %v", err)
	}

	// Flags register one node; the same title merges.
	code, out, _ = runRubi(t, "register", "--root", root, "--type", "decision", "--title", "orders live in postgres", "--body", "Backups are nightly.")
	if code != 0 || !strings.HasPrefix(out, "merged: decision-orders-live-in-postgres") {
		t.Errorf("merge: %d %q", code, out)
	}

	code, out, _ = runRubi(t, "nodes", "--root", root)
	if code != 0 || !strings.Contains(out, "decision-orders-live-in-postgres") || !strings.Contains(out, "gotcha-migrate-order") {
		t.Errorf("nodes: %d\n%s", code, out)
	}
	code, out, _ = runRubi(t, "read", "Run Migrate before Open", "--root", root)
	if code != 0 || !strings.Contains(out, "Open fails on an old schema.") || !strings.Contains(out, "[[decision-orders-live-in-postgres]]") {
		t.Errorf("read node: %d\n%s", code, out)
	}
	code, out, _ = runRubi(t, "read", "store/store.go:4-5", "--root", root)
	if code != 0 || !strings.Contains(out, "Open connects to the order database.") {
		t.Errorf("read region: %d\n%s", code, out)
	}

	// The question shares the note's telling words: "which database keeps
	// orders" does not (the note says Postgres, and the question's rarest
	// words are not in it), and rerank.floor's floor leaves it out.
	code, out, _ = runRubi(t, "context", "where do orders live", "--root", root, "--json")
	if code != 0 || !strings.Contains(out, `"id": "node:decision-orders-live-in-postgres"`) {
		t.Errorf("context should recall the decision:\n%s", out)
	}

	code, _, _ = runRubi(t, "forget", "decision-orders-live-in-postgres", "--root", root)
	if code != 0 {
		t.Fatalf("forget: %d", code)
	}
	code, out, _ = runRubi(t, "context", "where do orders live", "--root", root, "--json")
	if code != 0 || strings.Contains(out, `"id": "node:decision-orders-live-in-postgres"`) {
		t.Errorf("a retracted node must leave recall:\n%s", out)
	}
}

func TestHandoffAndSummaryCommands(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	code, out, errOut := runRubi(t, "handoff", "save", "--root", root, "--goal", "Add order export", "--done", "CSV writer", "--next", "Wire the endpoint", "--file", "store/store.go")
	if code != 0 || !strings.HasPrefix(out, "saved: ") {
		t.Fatalf("save: %d %q %s", code, out, errOut)
	}
	code, out, _ = runRubi(t, "handoff", "last", "--root", root)
	if code != 0 || !strings.Contains(out, "Add order export") || !strings.Contains(out, "Wire the endpoint") {
		t.Errorf("last: %d\n%s", code, out)
	}
	code, _, errOut = runRubiIn(t, "Keeps the shop's orders and its schema.\n", "summary", "module:store", "-", "--root", root)
	if code != 0 {
		t.Fatalf("summary: %d %s", code, errOut)
	}
	code, out, _ = runRubi(t, "map", "store", "--root", root)
	if code != 0 || !strings.Contains(out, "Keeps the shop's orders and its schema.") {
		t.Errorf("the module page should carry the curated summary:\n%s", out)
	}
	code, _, _ = runRubi(t, "index", "--root", root, "--full")
	if _, out, _ = runRubi(t, "map", "store", "--root", root, "--no-refresh"); code != 0 || !strings.Contains(out, "Keeps the shop's orders") {
		t.Errorf("the summary must survive a full re-index:\n%s", out)
	}
}

func TestContextRejectsABadTimeBound(t *testing.T) {
	root := rubitest.Project(t, rubitest.GoProject)
	if code, _, errOut := runRubi(t, "context", "orders", "--root", root, "--since", "soon"); code != 1 || !strings.Contains(errOut, "--since") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	code, out, _ := runRubi(t, "context", "orders", "--root", root, "--path", "web/", "--json")
	if code != 0 || strings.Contains(out, "store/") || !strings.Contains(out, "web/handlers/order.js") {
		t.Errorf("--path web/: exit %d\n%s", code, out)
	}
}
