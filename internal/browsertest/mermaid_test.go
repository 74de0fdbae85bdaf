package browsertest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// mermaidDir holds the npm mermaid package, pinned by its lock file and
// installed by make test (npm ci).
const mermaidDir = "testdata/mermaid"

// noNodeEnv opts out of the tests that need an npm package installed.
const noNodeEnv = "RUBI_TEST_NO_NODE"

// mermaidScript is Mermaid's browser build, at the version package.json
// pins, or the test fails saying how to install it.
func mermaidScript(t *testing.T) string {
	t.Helper()
	if os.Getenv(noNodeEnv) == "1" {
		t.Skipf("SKIPPED: %s=1: the npm mermaid package is not installed, and rubi graph --mermaid is not rendered", noNodeEnv)
	}
	var want, got struct {
		Version      string
		Dependencies map[string]string
	}
	readJSON(t, filepath.Join(mermaidDir, "package.json"), &want)
	installed := filepath.Join(mermaidDir, "node_modules", "mermaid", "package.json")
	if _, err := os.Stat(installed); err != nil {
		t.Fatalf("the npm mermaid package is not installed: run `npm ci` in internal/browsertest/%s (make test does), or set %s=1 to leave this test out", mermaidDir, noNodeEnv)
	}
	readJSON(t, installed, &got)
	if got.Version != want.Dependencies["mermaid"] {
		t.Fatalf("mermaid %s is installed in internal/browsertest/%s, package.json pins %s: run `npm ci` there (make test does)", got.Version, mermaidDir, want.Dependencies["mermaid"])
	}
	return filepath.Join(mermaidDir, "node_modules", "mermaid", "dist", "mermaid.min.js")
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// mermaidPage serves, on the loopback, a page that renders diagram with
// Mermaid, and returns its URL.
func mermaidPage(t *testing.T, script, diagram string) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, filepath.Join(mermaidDir, "render.html"))
	})
	mux.HandleFunc("GET /mermaid.min.js", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, script)
	})
	mux.HandleFunc("GET /diagram.mmd", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte(diagram))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// drawing is what a rendered diagram shows: the text of its nodes, of
// its clusters (subgraphs) and of its edges' labels, each line of a
// label on a line of its own.
type drawing struct {
	Nodes, Clusters, Edges []string
	Alert                  string
}

// read reads the drawing off the page.
func readDrawing(p *Page) drawing {
	var d drawing
	p.Eval(`(() => {
  const label = el => {
    const html = el.querySelector("foreignObject div, foreignObject span");
    if (html) return html.innerText.trim();
    const text = el.querySelector("text");
    if (!text) return "";
    const lines = Array.from(text.querySelectorAll(":scope > tspan"));
    return (lines.length ? lines.map(l => l.textContent) : [text.textContent]).join("\n").trim();
  };
  const all = sel => Array.from(document.querySelectorAll("#drawing svg " + sel), label);
  return {
    Nodes: all("g.node"),
    Clusters: all("g.cluster"),
    Edges: all("g.edgeLabel").filter(s => s !== ""),
    Alert: document.querySelector('[role="alert"]').innerText.trim(),
  };
})()`, &d)
	return d
}

// drawProject has modules named with quotes, angle brackets, a Mermaid
// keyword and letters outside ASCII, which import each other.
var drawProject = map[string]string{
	"go.mod":                     "module example.com/app\n\ngo 1.22\n",
	"main.go":                    "package main\n\nimport (\n\t\"example.com/app/store\"\n\t\"example.com/app/lib/q\\\"x\\\" <y>\"\n)\n\nfunc main() { store.Open(); q.Q() }\n",
	"store/store.go":             "package store\n\nimport \"example.com/app/lib/données\"\n\nfunc Open() { données.D() }\n",
	"lib/q\"x\" <y>/q.go":        "package q\n\nfunc Q() {}\n",
	"lib/données/d.go":           "package données\n\nfunc D() {}\n",
	"lib/données/d_test.go":      "package données\n",
	"end/click.go":               "package click\n\nfunc C() {}\n",
	"web/handlers/order.js":      "import { fetchOrders } from '../api.js';\nexport function renderOrders() { return fetchOrders(); }\n",
	"web/api.js":                 "export async function fetchOrders() { return fetch('/orders'); }\n",
	"web/handlers/order.test.js": "import { renderOrders } from './order.js';\nrenderOrders();\n",
}

// render draws diagram with Mermaid in the browser and returns what the
// drawing shows, failing the test if Mermaid refused it or the page had
// a problem.
func render(t *testing.T, b *Browser, script, diagram string) drawing {
	t.Helper()
	p := b.Page(t)
	p.Open(mermaidPage(t, script, diagram))
	d := readDrawing(p)
	if d.Alert != "" {
		t.Errorf("Mermaid did not draw it: %s\n%s", d.Alert, diagram)
	}
	if n := p.Count("#drawing svg"); n != 1 {
		t.Errorf("%d SVG drawings on the page, want 1", n)
	}
	p.NoProblems(t)
	return d
}

// sameSet fails the test unless got and want hold the same strings, as
// many times each.
func sameSet(t *testing.T, what string, got, want []string) {
	t.Helper()
	g, w := slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))
	if !slices.Equal(g, w) {
		t.Errorf("%s: the drawing shows\n%q\nwant\n%q", what, g, w)
	}
}

// rubi graph --mermaid, modules and files, renders in Mermaid itself
// (the npm package, in Chromium): every module and file is a node with
// its label, the modules are the file drawing's subgraphs, and the
// edges carry their counts.
func TestGraphMermaidRendersInMermaid(t *testing.T) {
	script := mermaidScript(t)
	b := Start(t)
	root := rubitest.Project(t, drawProject)
	rubi(t, "index", "--root", root)

	d := render(t, b, script, rubi(t, "graph", "--root", root, "--mermaid"))
	sameSet(t, "modules", d.Nodes, []string{".\n2 files", "store\n1 file", "lib/q\"x\" <y>\n1 file", "lib/données\n2 files", "end\n1 file", "web\n1 file", "web/handlers\n2 files"})
	if !slices.Contains(d.Edges, "1") || !slices.Contains(d.Edges, "1 ref") {
		t.Errorf("edge labels: %q", d.Edges)
	}

	d = render(t, b, script, rubi(t, "graph", "--root", root, "--mermaid", "--files"))
	sameSet(t, "files", d.Nodes, []string{"go.mod", "main.go", "store.go", "q.go", "d.go", "d_test.go", "click.go", "order.js", "api.js", "order.test.js"})
	sameSet(t, "modules", d.Clusters, []string{". (2 files)", "store (1 file)", "lib/q\"x\" <y> (1 file)", "lib/données (2 files)", "end (1 file)", "web (1 file)", "web/handlers (2 files)"})
}

// On rubi's own repository: the module drawing a README would show (the
// most central modules) renders with the modules rubi graph --json
// lists, and Mermaid accepts the drawing of all the modules (--limit 0,
// over 500 edges before they were cut to Mermaid's limit) and the file
// drawing. (Those two are parsed, not laid out: Mermaid takes minutes to
// lay out 500 edges on two busy cores.)
func TestGraphMermaidOfRubisOwnRepository(t *testing.T) {
	script := mermaidScript(t)
	b := Start(t)
	root := ownRepository(t)
	var m struct {
		Modules []struct {
			Name  string
			Files int
		}
	}
	if err := json.Unmarshal([]byte(rubi(t, "graph", "--root", root, "--json")), &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Modules) < 50 {
		t.Fatalf("rubi graph --json lists %d modules of rubi's own repository", len(m.Modules))
	}
	var modules []string
	for _, mod := range m.Modules {
		label := mod.Name + "\n" + strconv.Itoa(mod.Files) + " files"
		if mod.Files == 1 {
			label = mod.Name + "\n1 file"
		}
		modules = append(modules, label)
	}

	diagram := rubi(t, "graph", "--root", root, "--mermaid")
	note := fmt.Sprintf("  %%%% 40 of %d modules shown, the most central", len(m.Modules))
	if !strings.Contains(diagram, note) {
		t.Fatalf("the module drawing of rubi's own repository does not say %q:\n%.500s", note, diagram)
	}
	d := render(t, b, script, diagram)
	if len(d.Nodes) != 40 {
		t.Errorf("%d modules drawn, want 40", len(d.Nodes))
	}
	for _, n := range d.Nodes {
		if !slices.Contains(modules, n) {
			t.Errorf("a module drawn is not in rubi graph --json: %q", n)
		}
	}
	if len(d.Edges) < 100 {
		t.Errorf("%d edges drawn", len(d.Edges))
	}

	all := rubi(t, "graph", "--root", root, "--mermaid", "--limit", "0")
	if n := strings.Count(all, " -->|") + strings.Count(all, " -.->|"); n > 500 {
		t.Errorf("the drawing of all the modules has %d edges, over Mermaid's 500", n)
	}
	for _, diagram := range []string{all, rubi(t, "graph", "--root", root, "--mermaid", "--files")} {
		p := b.Page(t)
		p.Open(mermaidPage(t, script, diagram) + "#parse")
		if alert := p.Text(`[role="alert"]`); alert != "" {
			t.Errorf("Mermaid refuses it: %s\n%.300s", alert, diagram)
		}
		if typ := p.Attrs("#drawing", "data-type"); !slices.Equal(typ, []string{"flowchart-v2"}) {
			t.Errorf("Mermaid parsed it as %q", typ)
		}
		p.NoProblems(t)
	}
}
