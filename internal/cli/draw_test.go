package cli

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/internal/rubitest"
)

// noGraphvizEnv opts out of the tests that render with Graphviz, on a
// machine without it (as RUBI_TEST_NO_NODE does for Node.js).
const noGraphvizEnv = "RUBI_TEST_NO_GRAPHVIZ"

// graphviz returns Graphviz's dot, or fails the test saying how to
// install it.
func graphviz(t *testing.T) string {
	t.Helper()
	if os.Getenv(noGraphvizEnv) == "1" {
		t.Skipf("%s=1: the drawings are not rendered with Graphviz", noGraphvizEnv)
	}
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Fatalf("Graphviz is not installed: run make test, or `apt-get install graphviz`, or set %s=1 to leave this test out", noGraphvizEnv)
	}
	return dot
}

// drawProject has modules named with quotes, angle brackets and
// letters outside ASCII, which import each other.
var drawProject = map[string]string{
	"go.mod":                       "module example.com/app\n\ngo 1.22\n",
	"main.go":                      "package main\n\nimport (\n\t\"example.com/app/store\"\n\t\"example.com/app/lib/q\\\"x\\\" <y>\"\n)\n\nfunc main() { store.Open(); q.Q() }\n",
	"store/store.go":               "package store\n\nimport \"example.com/app/lib/données\"\n\nfunc Open() { données.D() }\n",
	"lib/q\"x\" <y>/q.go":          "package q\n\nfunc Q() {}\n",
	"lib/données/d.go":             "package données\n\nfunc D() {}\n",
	"web/handlers/order.js":        "import { fetchOrders } from '../api.js';\nexport function renderOrders() { return fetchOrders(); }\n",
	"web/api.js":                   "export async function fetchOrders() { return fetch('/orders'); }\n",
	"web/handlers/order.test.js":   "import { renderOrders } from './order.js';\nrenderOrders();\n",
	"lib/données/d_test.go":        "package données\n",
	"docs/notes/<script>alert.txt": "not code\n",
}

// svgText is every text an SVG shows, in order.
func svgText(t *testing.T, svg []byte) []string {
	t.Helper()
	var out []string
	d := xml.NewDecoder(bytes.NewReader(svg))
	d.Strict = true
	inText := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("the SVG does not parse: %v\n%s", err, svg)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			inText = tok.Name.Local == "text"
		case xml.EndElement:
			inText = false
		case xml.CharData:
			if inText {
				out = append(out, string(tok))
			}
		}
	}
}

// rubi graph --dot renders through Graphviz, and the picture names every
// module, its files, and the imports between them.
func TestGraphDOTRendersWithGraphviz(t *testing.T) {
	dot := graphviz(t)
	root := rubitest.Project(t, drawProject)
	for _, args := range [][]string{{"--dot"}, {"--dot", "--files"}} {
		code, out, errOut := runRubi(t, append([]string{"graph", "--root", root}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		if _, out2, _ := runRubi(t, append([]string{"graph", "--root", root}, args...)...); out2 != out {
			t.Errorf("%v: two runs differ:\n%s\n%s", args, out, out2)
		}
		cmd := exec.Command(dot, "-Tsvg")
		cmd.Stdin = strings.NewReader(out)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		svg, err := cmd.Output()
		if err != nil || stderr.Len() > 0 {
			t.Fatalf("%v: dot -Tsvg: %v %s\n%s", args, err, stderr.String(), out)
		}
		texts := strings.Join(svgText(t, svg), "\n")
		want := []string{".", "store", `lib/q"x" <y>`, "lib/données", "web/handlers", "web"}
		if args[len(args)-1] == "--files" {
			want = []string{"main.go", "store.go", "q.go", "d.go", "order.js", "api.js", "order.test.js", `lib/q"x" <y> (1 file)`, "lib/données (2 files)"}
		} else {
			want = append(want, "1 file", "2 files")
		}
		for _, w := range want {
			if !strings.Contains("\n"+texts+"\n", "\n"+w+"\n") {
				t.Errorf("%v: the picture does not show %q; it shows:\n%s", args, w, texts)
			}
		}
	}
}

func TestGraphMermaid(t *testing.T) {
	root := rubitest.Project(t, drawProject)
	code, out, errOut := runRubi(t, "graph", "--root", root, "--mermaid")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"flowchart LR\n", `["lib/q#34;x#34; #60;y#62;<br/>1 file"]`, `["lib/données<br/>2 files"]`, " -->|1| "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(errOut, "shown") {
		t.Errorf("a whole drawing says it left something out: %s", errOut)
	}
	// A cut drawing says so, on stderr and in the drawing.
	code, out, errOut = runRubi(t, "graph", "--root", root, "--mermaid", "--files", "--limit", "2")
	note := "2 of 10 files shown, the most central; --limit 0 draws all of them"
	if code != 0 || !strings.Contains(errOut, "rubi: "+note) || !strings.Contains(out, "%% "+note+"\n") || strings.Count(out, "]:::") != 2 {
		t.Errorf("exit %d: %s\n%s", code, errOut, out)
	}
}

func TestGraphDrawFlagErrors(t *testing.T) {
	root := rubitest.Project(t, drawProject)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--dot", "--mermaid"}, "rubi: --dot and --mermaid do not go together"},
		{[]string{"--dot", "--json"}, "rubi: --json does not go with --dot or --mermaid"},
		{[]string{"--files"}, "rubi: --files draws files: add --dot or --mermaid"},
		{[]string{"--limit", "3"}, "rubi: --limit cuts a drawing: add --dot or --mermaid"},
		{[]string{"--dot", "--limit", "-2"}, "rubi: --limit -2: give a number of nodes, or 0 for all of them"},
	} {
		code, out, errOut := runRubi(t, append([]string{"graph", "--root", root}, tt.args...)...)
		if code != 1 || out != "" || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", tt.args, code, out, errOut, tt.want)
		}
	}
}

// A Mermaid drawing of more than 500 edges, which Mermaid would refuse
// whole, keeps the heaviest 500 and says so on stderr and in the drawing.
func TestGraphMermaidKeepsToMermaidsEdgeLimit(t *testing.T) {
	files := map[string]string{"go.mod": "module example.com/app\n\ngo 1.22\n"}
	for i := range 25 {
		var b strings.Builder
		fmt.Fprintf(&b, "package p%d\n\nimport (\n", i)
		for j := range 25 {
			if j != i {
				fmt.Fprintf(&b, "\t_ \"example.com/app/p%d\"\n", j)
			}
		}
		b.WriteString(")\n")
		files[fmt.Sprintf("p%d/p.go", i)] = b.String()
	}
	root := rubitest.Project(t, files)
	code, out, errOut := runRubi(t, "graph", "--root", root, "--mermaid", "--limit", "0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	note := "500 of 600 edges shown, the heaviest: Mermaid draws at most 500"
	if !strings.Contains(errOut, "rubi: "+note+"\n") || !strings.Contains(out, "  %% "+note+"\n") {
		t.Errorf("no %q on stderr or in the drawing:\n%s\n%.300s", note, errOut, out)
	}
	if n := strings.Count(out, " -->|") + strings.Count(out, " -.->|"); n != 500 {
		t.Errorf("%d edges drawn", n)
	}
}
