package codemap

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
)

// hostileNames are paths a repository may hold, each a try at ending a
// label or starting a statement of DOT or Mermaid.
var hostileNames = []string{
	`app/"quoted"/a.go`,
	`app/<b>bold</b>/a.go`,
	"app/back\\slash\\N/a.go",
	"app/new\nline/a.go",
	"app/end]]|pipe#x;`tick`/a.go",
	"app/日本語/ünï.go",
	"app/bidi\u202eevil/a.go",
	"app/bad\xffutf8/a.go",
	`app/"];evil[label="x/a.go`,
	"app/-->/a.go",
}

// drawMap is a map of the hostile modules, each importing the next and
// one referencing the first; app/main.go imports them all.
func drawMap() *Map {
	var files []*File
	var edges []core.Edge
	files = append(files, &File{Path: "app/main.go", Language: "go", Module: "app"})
	for i, p := range hostileNames {
		mod := p[:strings.LastIndexByte(p, '/')]
		files = append(files, &File{Path: p, Language: "go", Module: mod, Rank: float64(len(hostileNames) - i)})
		edges = append(edges, core.Edge{From: "file:app/main.go", To: "file:" + p, Kind: core.EdgeImports, Weight: 1})
		if i > 0 {
			edges = append(edges, core.Edge{From: "file:" + hostileNames[i-1], To: "file:" + p, Kind: core.EdgeImports, Weight: 1})
		}
	}
	files = append(files, &File{Path: "web/x.ts", Language: "typescript", Module: "web"}, &File{Path: "app/main_test.go", Language: "go", Module: "app"})
	edges = append(edges, core.Edge{From: "file:web/x.ts", To: "file:" + hostileNames[0], Kind: core.EdgeReferences, Weight: 2})
	return Build(files, edges)
}

// The grammar of what Mermaid() writes, line by line: a header, comments,
// class definitions, nodes with a quoted label and a class, subgraphs and
// their ends, and edges labelled with a count. A label holds no quote,
// no angle bracket but rubi's own <br/>, no backtick, no bracket, and a #
// only as the start of an entity code.
var (
	mmLabel    = `(?:[^"<>\x60\[\]{}|;#\n]|#[0-9]+;|<br/>)*`
	mmHeader   = regexp.MustCompile(`^flowchart LR$`)
	mmComment  = regexp.MustCompile(`^  %% [^\n]*$`)
	mmClassDef = regexp.MustCompile(`^  classDef [ct][0-9]+ fill:#[0-9a-f]{6},stroke:#[0-9a-f]{6},color:#[0-9a-f]{6}(,stroke-dasharray:4 3)?$`)
	mmNode     = regexp.MustCompile(`^ {2,4}([mf][0-9]+)\["` + mmLabel + `"\]:::([ct][0-9]+)$`)
	mmSubgraph = regexp.MustCompile(`^  subgraph (s[0-9]+)\["` + mmLabel + `"\]$`)
	mmEnd      = regexp.MustCompile(`^  end$`)
	mmEdge     = regexp.MustCompile(`^  ([mf][0-9]+) (-->|-\.->)\|([0-9]+|[0-9]+ refs?)\| ([mf][0-9]+)$`)
)

// checkMermaid fails unless out is in the grammar, every edge joins
// declared nodes, every class is defined and the subgraphs are closed.
func checkMermaid(t *testing.T, out string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if !mmHeader.MatchString(lines[0]) {
		t.Fatalf("header %q", lines[0])
	}
	nodes, classes := map[string]bool{}, map[string]bool{}
	var used []string
	open := ""
	for i, l := range lines[1:] {
		switch {
		case mmComment.MatchString(l):
		case mmClassDef.MatchString(l):
			classes[strings.Fields(l)[1]] = true
		case mmNode.MatchString(l):
			m := mmNode.FindStringSubmatch(l)
			if nodes[m[1]] {
				t.Errorf("line %d: %s declared twice", i+2, m[1])
			}
			nodes[m[1]] = true
			used = append(used, m[2])
		case mmSubgraph.MatchString(l):
			if open != "" {
				t.Errorf("line %d: subgraph inside %s", i+2, open)
			}
			open = mmSubgraph.FindStringSubmatch(l)[1]
		case mmEnd.MatchString(l):
			if open == "" {
				t.Errorf("line %d: end without subgraph", i+2)
			}
			open = ""
		case mmEdge.MatchString(l):
			m := mmEdge.FindStringSubmatch(l)
			if !nodes[m[1]] || !nodes[m[4]] {
				t.Errorf("line %d: edge between undeclared nodes: %q", i+2, l)
			}
		default:
			t.Errorf("line %d is not in the grammar: %q", i+2, l)
		}
	}
	if open != "" {
		t.Errorf("subgraph %s not closed", open)
	}
	for _, c := range used {
		if !classes[c] {
			t.Errorf("class %s not defined", c)
		}
	}
}

func TestMermaidEscapesEveryName(t *testing.T) {
	m := drawMap()
	for _, files := range []bool{false, true} {
		d := m.Draw(DrawOptions{Files: files})
		out := d.Mermaid()
		checkMermaid(t, out)
		if out != m.Draw(DrawOptions{Files: files}).Mermaid() {
			t.Error("two drawings of the same map differ")
		}
		for _, want := range []string{`#34;quoted#34;`, `#60;b#62;bold#60;/b#62;`, `日本語`, `new#10;line`, `bidi#8238;evil`, `end#93;#93;#124;pipe#35;x#59;#96;tick#96;`, `bad\xffutf8`} {
			want = strings.ReplaceAll(want, `\`, "#92;")
			if !strings.Contains(out, want) {
				t.Errorf("files=%v: no %q in\n%s", files, want, out)
			}
		}
	}
	d := m.Draw(DrawOptions{})
	if !strings.Contains(d.Mermaid(), "  m1[\"app<br/>2 files\"]:::c0\n") || !strings.Contains(d.Mermaid(), " -.->|1 ref| ") {
		t.Errorf("modules:\n%s", d.Mermaid())
	}
}

func TestDOTQuotesEveryName(t *testing.T) {
	out := drawMap().Draw(DrawOptions{Files: true}).DOT()
	// Every quoted string is closed on its line: no name ends one early
	// (an unescaped quote) or spans lines (a raw newline).
	str := regexp.MustCompile(`"(?:[^"\\\n]|\\.)*"`)
	for i, l := range strings.Split(out, "\n") {
		rest := str.ReplaceAllString(l, "S")
		if strings.ContainsAny(rest, `"\`) {
			t.Errorf("line %d has an unbalanced string: %q", i+1, l)
		}
		if strings.Contains(rest, "evil") || strings.Contains(rest, "<b>") {
			t.Errorf("line %d: a name escaped its string: %q", i+1, l)
		}
	}
	for _, want := range []string{`\"quoted\"`, `back\\\\slash\\\\N`, `new\\u{000a}line`, `bidi\\u{202e}evil`, `bad\\xffutf8`, `日本語`} {
		if !strings.Contains(out, want) {
			t.Errorf("no %s in\n%s", want, out)
		}
	}
}

func TestDrawLimitKeepsTheMostCentral(t *testing.T) {
	m := drawMap()
	d := m.Draw(DrawOptions{Limit: 3})
	if d.Shown != 3 || d.Total != len(m.Modules) {
		t.Fatalf("shown %d of %d", d.Shown, d.Total)
	}
	var names []string
	for _, g := range d.Groups {
		names = append(names, g.Name)
	}
	var central []string
	for _, mod := range m.Modules[:3] {
		central = append(central, mod.Name)
	}
	if fmt.Sprint(names) != fmt.Sprint(sortedCopy(central)) {
		t.Errorf("shown %q, the most central are %q", names, central)
	}
	want := fmt.Sprintf("3 of %d modules shown, the most central; --limit 0 draws all of them", len(m.Modules))
	if d.Note() != want || !strings.Contains(d.DOT(), `label="`+want+`"`) || !strings.Contains(d.Mermaid(), "%% "+want+"\n") {
		t.Errorf("note %q\n%s\n%s", d.Note(), d.DOT(), d.Mermaid())
	}
	if full := m.Draw(DrawOptions{}); full.Note() != "" || strings.Contains(full.DOT(), "shown") {
		t.Errorf("a full drawing says it left something out: %q", full.Note())
	}
	if f := m.Draw(DrawOptions{Files: true, Limit: 2}); f.Shown != 2 || !strings.HasPrefix(f.Note(), "2 of 13 files shown") {
		t.Errorf("files: %q", f.Note())
	}
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// Mermaid refuses a flowchart of more than 500 edges whole: a drawing
// with more keeps the heaviest 500 and says so, and one with fewer says
// nothing.
func TestMermaidKeepsToMermaidsEdgeLimit(t *testing.T) {
	var files []*File
	var edges []core.Edge
	for i := range 30 {
		files = append(files, &File{Path: fmt.Sprintf("m%02d/a.go", i), Language: "go", Module: fmt.Sprintf("m%02d", i)})
	}
	for _, a := range files {
		for _, b := range files {
			if a != b {
				edges = append(edges, core.Edge{From: "file:" + a.Path, To: "file:" + b.Path, Kind: core.EdgeImports, Weight: 1})
			}
		}
	}
	for i := range 3 { // m29 imports m00 from four files
		p := fmt.Sprintf("m29/b%d.go", i)
		files = append(files, &File{Path: p, Language: "go", Module: "m29"})
		edges = append(edges, core.Edge{From: "file:" + p, To: "file:m00/a.go", Kind: core.EdgeImports, Weight: 1})
	}
	d := Build(files, edges).Draw(DrawOptions{})
	out := d.Mermaid()
	checkMermaid(t, out)
	if n := strings.Count(out, " -->|"); n != MermaidMaxEdges {
		t.Errorf("%d edges drawn, want %d", n, MermaidMaxEdges)
	}
	want := "500 of 870 edges shown, the heaviest: Mermaid draws at most 500"
	if d.MermaidNote() != want || !strings.Contains(out, "  %% "+want+"\n") {
		t.Errorf("note %q\n%.400s", d.MermaidNote(), out)
	}
	if !strings.Contains(out, "  m30 -->|4| m1\n") {
		t.Errorf("the heaviest edge (m29 to m00, 4 imports) is not drawn")
	}
	if n := drawMap().Draw(DrawOptions{Files: true}); n.MermaidNote() != "" || strings.Contains(n.Mermaid(), "edges shown") {
		t.Errorf("a drawing under the limit says it left edges out: %q", n.MermaidNote())
	}
}
