package codemap

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rubi-dev/rubi/core"
)

// Drawings of the map for people's documents: `rubi graph --dot` (Graphviz)
// and `--mermaid`. The modules are the nodes, labelled with their file
// counts and coloured by their main language (a test module outlined
// dashed); an edge says how many imports (solid) or references (dashed)
// go from one module to the other. With Files, the files are the nodes,
// grouped into their modules (DOT clusters, Mermaid subgraphs). A large
// project is cut to its most central nodes (DrawOptions.Limit), and the
// drawing says what it left out.
//
// Every name is the repository's, untrusted: the labels are escaped so
// that no path can end a string or start a statement of either syntax,
// and the ids are rubi's own (m1, f1, s1: the nodes in name order), so
// the output of the same index is the same bytes.

// Default limits of a drawing: past some forty boxes a module graph is a
// ball of wool, and past some eighty files a file graph is.
const (
	DefaultDrawModules = 40
	DefaultDrawFiles   = 80
)

// DrawOptions say what a drawing shows.
type DrawOptions struct {
	// Files draws the files, grouped into their modules, instead of the
	// modules.
	Files bool
	// Limit is how many nodes (modules, or files) at most, the most
	// central; 0 draws them all.
	Limit int
}

// Drawing is the map cut to what a drawing shows, in a stable order.
type Drawing struct {
	Files bool
	// Groups are the modules shown (by name), each with its shown files
	// when Files.
	Groups []DrawGroup
	Edges  []DrawEdge
	// Shown and Total count the nodes (modules, or files).
	Shown, Total int
	// Languages are the languages the colours stand for, sorted.
	Languages []string
}

// DrawGroup is a module of a drawing.
type DrawGroup struct {
	ID, Name string
	// Count is the module's number of files.
	Count    int
	Language string
	Test     bool
	Files    []DrawFile
}

// DrawFile is a file of a drawing.
type DrawFile struct {
	ID, Path, Language string
	Test               bool
}

// DrawEdge links two nodes (by id) with how many imports and references
// go from one to the other.
type DrawEdge struct {
	From, To       string
	Imports, Refs  int
	fromKey, toKey string
}

// Draw cuts the map to a drawing.
func (m *Map) Draw(opts DrawOptions) *Drawing {
	d := &Drawing{Files: opts.Files}
	groups := map[string]*DrawGroup{}
	ids := map[string]string{} // a module's or file's name → its node id
	if !opts.Files {
		mods := m.Modules // most central first
		d.Total = len(mods)
		if opts.Limit > 0 && len(mods) > opts.Limit {
			mods = mods[:opts.Limit]
		}
		for _, mod := range mods {
			groups[mod.Name] = &DrawGroup{Name: mod.Name, Count: len(mod.Files), Language: mainLanguage(mod.Files), Test: IsTest(mod.Name)}
		}
	} else {
		var files []*File
		for _, f := range m.Files {
			if !f.Hidden {
				files = append(files, f)
			}
		}
		sort.Slice(files, func(i, j int) bool { return byRank(files[i], files[j]) })
		d.Total = len(files)
		if opts.Limit > 0 && len(files) > opts.Limit {
			files = files[:opts.Limit]
		}
		for _, f := range files {
			g := groups[f.Module]
			if g == nil {
				mod, _ := m.Module(f.Module)
				g = &DrawGroup{Name: f.Module, Count: len(mod.Files), Language: mainLanguage(mod.Files), Test: IsTest(f.Module)}
				groups[f.Module] = g
			}
			g.Files = append(g.Files, DrawFile{Path: f.Path, Language: f.Language, Test: IsTest(f.Path)})
		}
	}
	names := make([]string, 0, len(groups))
	for name := range groups {
		names = append(names, name)
	}
	sort.Strings(names)
	langs := map[string]bool{}
	var paths []string
	for i, name := range names {
		g := groups[name]
		if opts.Files {
			g.ID = "s" + strconv.Itoa(i+1)
			sort.Slice(g.Files, func(a, b int) bool { return g.Files[a].Path < g.Files[b].Path })
			for _, f := range g.Files {
				paths = append(paths, f.Path)
				langs[f.Language] = true
			}
		} else {
			g.ID = "m" + strconv.Itoa(i+1)
			ids[name] = g.ID
			langs[g.Language] = true
		}
		d.Groups = append(d.Groups, *g)
	}
	if opts.Files {
		// File ids in path order over the whole drawing.
		sort.Strings(paths)
		for i, p := range paths {
			ids[p] = "f" + strconv.Itoa(i+1)
		}
		for gi := range d.Groups {
			for fi := range d.Groups[gi].Files {
				d.Groups[gi].Files[fi].ID = ids[d.Groups[gi].Files[fi].Path]
			}
		}
		d.Shown = len(paths)
	} else {
		d.Shown = len(d.Groups)
	}
	for l := range langs {
		d.Languages = append(d.Languages, l)
	}
	sort.Strings(d.Languages)
	d.Edges = m.drawEdges(ids, opts.Files)
	return d
}

// drawEdges counts the imports and references between the nodes shown
// (ids): between modules, or between files.
func (m *Map) drawEdges(ids map[string]string, files bool) []DrawEdge {
	type pair struct{ from, to string }
	counts := map[pair]*DrawEdge{}
	add := func(from, to *File, ref bool) {
		a, b := from.Module, to.Module
		if files {
			a, b = from.Path, to.Path
		}
		if a == b || ids[a] == "" || ids[b] == "" {
			return
		}
		e := counts[pair{a, b}]
		if e == nil {
			e = &DrawEdge{From: ids[a], To: ids[b], fromKey: a, toKey: b}
			counts[pair{a, b}] = e
		}
		if ref {
			e.Refs++
		} else {
			e.Imports++
		}
	}
	for _, f := range m.Files {
		for _, p := range f.ImportsOut {
			if to := m.Files[p]; to != nil {
				add(f, to, false)
			}
		}
		for _, p := range f.UsedBy {
			if from := m.Files[p]; from != nil {
				add(from, f, true)
			}
		}
	}
	out := make([]DrawEdge, 0, len(counts))
	for _, e := range counts {
		out = append(out, *e)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].fromKey != out[j].fromKey {
			return out[i].fromKey < out[j].fromKey
		}
		return out[i].toKey < out[j].toKey
	})
	return out
}

// mainLanguage is the language most of the files are in ("" for none),
// the first by name on a tie.
func mainLanguage(files []*File) string {
	n := map[string]int{}
	for _, f := range files {
		if f.Language != "" {
			n[f.Language]++
		}
	}
	best := ""
	for l, c := range n {
		if c > n[best] || c == n[best] && l < best {
			best = l
		}
	}
	return best
}

// Note says what the drawing left out, "" when it shows everything.
func (d *Drawing) Note() string {
	if d.Shown == d.Total {
		return ""
	}
	what := "modules"
	if d.Files {
		what = "files"
	}
	return fmt.Sprintf("%d of %d %s shown, the most central; --limit 0 draws all of them", d.Shown, d.Total, what)
}

// palette colours the languages, in the order of Languages; a drawing of
// more languages repeats it.
var palette = []string{"#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5", "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f"}

func (d *Drawing) colour(lang string) (string, int) {
	i := sort.SearchStrings(d.Languages, lang)
	return palette[i%len(palette)], i
}

// DOT renders the drawing in Graphviz's language.
func (d *Drawing) DOT() string {
	var b strings.Builder
	b.WriteString("digraph rubi {\n")
	// newrank: Graphviz's older ranking fails on edges between clusters
	// ("trouble in init_rank").
	b.WriteString("  graph [rankdir=LR, newrank=true, fontname=\"Helvetica\", fontsize=10")
	if note := d.Note(); note != "" {
		fmt.Fprintf(&b, ", labelloc=b, label=%s", dotQuote(note))
	}
	b.WriteString("];\n")
	b.WriteString("  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];\n")
	b.WriteString("  edge [fontname=\"Helvetica\", fontsize=9];\n")
	legend := make([]string, len(d.Languages))
	for i, l := range d.Languages {
		c, _ := d.colour(l)
		legend[i] = fmt.Sprintf("%s %s", dotLang(l), c)
	}
	fmt.Fprintf(&b, "  // colours by language: %s; dashed boxes are tests, dashed edges references\n", strings.Join(legend, ", "))
	for _, g := range d.Groups {
		if !d.Files {
			c, _ := d.colour(g.Language)
			style := "rounded,filled"
			if g.Test {
				style += ",dashed"
			}
			fmt.Fprintf(&b, "  %s [label=%s, fillcolor=%s, style=%s, fontsize=%d];\n", g.ID, dotQuote(g.Name, count(g.Count, "file")), dotQuote(c), dotQuote(style), fontSize(g.Count))
			continue
		}
		fmt.Fprintf(&b, "  subgraph cluster_%s {\n    label=%s;\n    style=%s;\n", g.ID, dotQuote(g.Name+" ("+count(g.Count, "file")+")"), dotQuote("rounded"))
		for _, f := range g.Files {
			c, _ := d.colour(f.Language)
			style := "rounded,filled"
			if f.Test {
				style += ",dashed"
			}
			fmt.Fprintf(&b, "    %s [label=%s, tooltip=%s, fillcolor=%s, style=%s];\n", f.ID, dotQuote(baseName(f.Path)), dotQuote(f.Path), dotQuote(c), dotQuote(style))
		}
		b.WriteString("  }\n")
	}
	for _, e := range d.Edges {
		if e.Imports > 0 {
			fmt.Fprintf(&b, "  %s -> %s [label=\"%d\", penwidth=%s];\n", e.From, e.To, e.Imports, penWidth(e.Imports))
		}
		if e.Refs > 0 {
			fmt.Fprintf(&b, "  %s -> %s [label=\"%s\", style=dashed, penwidth=%s];\n", e.From, e.To, count(e.Refs, "ref"), penWidth(e.Refs))
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// Mermaid renders the drawing as a Mermaid flowchart.
func (d *Drawing) Mermaid() string {
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	for _, note := range []string{d.Note(), d.MermaidNote()} {
		if note != "" {
			fmt.Fprintf(&b, "  %%%% %s\n", note)
		}
	}
	b.WriteString("  %% colours by language; dashed boxes are tests, dotted edges references\n")
	for _, l := range d.Languages {
		c, i := d.colour(l)
		fmt.Fprintf(&b, "  classDef c%d fill:%s,stroke:#555555,color:#000000\n", i, c)
		fmt.Fprintf(&b, "  classDef t%d fill:%s,stroke:#555555,color:#000000,stroke-dasharray:4 3\n", i, c)
	}
	class := func(lang string, test bool) string {
		_, i := d.colour(lang)
		if test {
			return "t" + strconv.Itoa(i)
		}
		return "c" + strconv.Itoa(i)
	}
	for _, g := range d.Groups {
		if !d.Files {
			fmt.Fprintf(&b, "  %s[\"%s<br/>%s\"]:::%s\n", g.ID, mermaidText(g.Name), count(g.Count, "file"), class(g.Language, g.Test))
			continue
		}
		fmt.Fprintf(&b, "  subgraph %s[\"%s (%s)\"]\n", g.ID, mermaidText(g.Name), count(g.Count, "file"))
		for _, f := range g.Files {
			fmt.Fprintf(&b, "    %s[\"%s\"]:::%s\n", f.ID, mermaidText(baseName(f.Path)), class(f.Language, f.Test))
		}
		b.WriteString("  end\n")
	}
	lines, _ := d.mermaidEdges()
	for _, l := range lines {
		b.WriteString(l)
	}
	return b.String()
}

// MermaidMaxEdges is the most edges Mermaid draws in one flowchart: past
// it, Mermaid refuses the whole diagram ("Edge limit exceeded"). The
// limit is its maxEdges setting, which a diagram cannot raise, so a
// README on a forge renders with it.
const MermaidMaxEdges = 500

// mermaidEdges are the drawing's edges as Mermaid lines, in the drawing's
// order (imports and references between the same two nodes are two
// edges), cut to the MermaidMaxEdges heaviest (most imports or
// references; the first on a tie), and how many there are in all.
func (d *Drawing) mermaidEdges() (lines []string, total int) {
	type edge struct {
		line   string
		weight int
	}
	var all []edge
	for _, e := range d.Edges {
		if e.Imports > 0 {
			all = append(all, edge{fmt.Sprintf("  %s -->|%d| %s\n", e.From, e.Imports, e.To), e.Imports})
		}
		if e.Refs > 0 {
			all = append(all, edge{fmt.Sprintf("  %s -.->|%s| %s\n", e.From, count(e.Refs, "ref"), e.To), e.Refs})
		}
	}
	keep := make([]int, len(all))
	for i := range keep {
		keep[i] = i
	}
	if len(all) > MermaidMaxEdges {
		sort.SliceStable(keep, func(a, b int) bool { return all[keep[a]].weight > all[keep[b]].weight })
		keep = keep[:MermaidMaxEdges]
		sort.Ints(keep)
	}
	for _, i := range keep {
		lines = append(lines, all[i].line)
	}
	return lines, len(all)
}

// MermaidNote says which edges the Mermaid drawing left out, "" when it
// draws them all.
func (d *Drawing) MermaidNote() string {
	lines, total := d.mermaidEdges()
	if len(lines) == total {
		return ""
	}
	return fmt.Sprintf("%d of %d edges shown, the heaviest: Mermaid draws at most %d", len(lines), total, MermaidMaxEdges)
}

// fontSize grows a module's label with its number of files: 10 points
// for one, 22 at most.
func fontSize(files int) int {
	return min(22, 10+int(2*math.Log2(float64(max(files, 1)))))
}

// penWidth thickens an edge with its count: 1 for one, 6 at most.
func penWidth(n int) string {
	return strconv.FormatFloat(min(6, 1+math.Log2(float64(max(n, 1)))/2), 'f', 1, 64)
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

func dotLang(l string) string {
	if l == "" {
		return "other"
	}
	return l
}

// dotQuote makes s a DOT string: quoted, its quotes and backslashes
// escaped (so none of Graphviz's \N, \G, \l… escapes can appear), a name
// that is not UTF-8 written \xHH (core.EscapePath), control and format
// characters (a line break, a direction override) written \u{HHHH}.
// Several lines are joined by Graphviz's \n.
func dotQuote(lines ...string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i, line := range lines {
		if i > 0 {
			b.WriteString(`\n`)
		}
		for _, r := range core.EscapePath(line) {
			switch {
			case r == '"' || r == '\\':
				b.WriteByte('\\')
				b.WriteRune(r)
			case unsafeRune(r):
				fmt.Fprintf(&b, `\\u{%04x}`, r)
			default:
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// mermaidText escapes a name for a quoted Mermaid label: letters, digits
// and a few punctuation marks stay, every other character is written as
// Mermaid's entity code (#35; for #), so that no name can close the
// quotes, start markdown (a backtick), HTML (< >) or a new statement.
func mermaidText(s string) string {
	var b strings.Builder
	for _, r := range core.EscapePath(s) {
		switch {
		case unsafeRune(r):
			fmt.Fprintf(&b, "#%d;", r)
		case unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(" ._-/+,@=~()", r):
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, "#%d;", r)
		}
	}
	return b.String()
}

// unsafeRune reports a rune no label shows as it is: a control or format
// character, a line or paragraph separator, or not a character at all.
func unsafeRune(r rune) bool {
	return r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}
