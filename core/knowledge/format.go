package knowledge

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/rubi-dev/rubi/core/codemap"
	"github.com/rubi-dev/rubi/core/text"
)

// frontmatter fixes the order of the keys in a node file: identity first,
// then edges, then bookkeeping. Lists are in flow style, as in DESIGN.md;
// the anchors, with their long hashes, one per line.
type frontmatter struct {
	ID           string            `yaml:"id"`
	Type         string            `yaml:"type"`
	Status       string            `yaml:"status"`
	Importance   string            `yaml:"importance"`
	Title        string            `yaml:"title"`
	Files        []string          `yaml:"files,flow,omitempty"`
	Symbols      []string          `yaml:"symbols,flow,omitempty"`
	Links        []Link            `yaml:"links,flow,omitempty"`
	Supersedes   []string          `yaml:"supersedes,flow,omitempty"`
	SupersededBy string            `yaml:"superseded_by,omitempty"`
	ValidUntil   *time.Time        `yaml:"valid_until,omitempty"`
	Tags         []string          `yaml:"tags,flow,omitempty"`
	Created      time.Time         `yaml:"created"`
	Updated      time.Time         `yaml:"updated"`
	Commit       string            `yaml:"commit,omitempty"`
	Anchors      map[string]string `yaml:"anchors,omitempty"`
}

// encodeNode renders n as a node file.
func encodeNode(n *Node) ([]byte, error) {
	fm := frontmatter{
		ID: n.ID, Type: n.Type, Status: n.Status, Importance: n.Importance, Title: n.Title,
		Files: n.Files, Symbols: n.Symbols, Links: n.Links, Supersedes: n.Supersedes,
		SupersededBy: n.SupersededBy, ValidUntil: n.ValidUntil, Tags: n.Tags,
		Created: n.Created.UTC(), Updated: n.Updated.UTC(), Commit: n.Commit, Anchors: n.Anchors,
	}
	if fm.ValidUntil != nil {
		v := fm.ValidUntil.UTC()
		fm.ValidUntil = &v
	}
	// Marshal, not an Encoder: it quotes the strings YAML 1.1 parsers
	// (PyYAML, older Obsidian plugins) would read as booleans or numbers.
	head, err := yaml.Marshal(&fm)
	if err != nil {
		return nil, fmt.Errorf("encode node %s: %w", n.ID, err)
	}
	var b bytes.Buffer
	b.WriteString("---\n")
	b.Write(head)
	if len(n.extra) > 0 {
		extra, err := yaml.Marshal(&yaml.Node{Kind: yaml.MappingNode, Content: n.extra})
		if err != nil {
			return nil, fmt.Errorf("encode node %s: %w", n.ID, err)
		}
		b.Write(extra)
	}
	b.WriteString("---\n# ")
	b.WriteString(n.Title)
	b.WriteString("\n")
	if body := strings.TrimSpace(n.Body); body != "" {
		b.WriteString("\n")
		b.WriteString(body)
		b.WriteString("\n")
	}
	if lines := linkLines(n); len(lines) > 0 {
		b.WriteString("\n## Links\n\n")
		for _, l := range lines {
			b.WriteString(l)
			b.WriteString("\n")
		}
	}
	return b.Bytes(), nil
}

// linkLines are the wiki-links of the generated links section.
func linkLines(n *Node) []string {
	var out []string
	for _, l := range n.Links {
		out = append(out, "- "+l.Rel+" [["+wikiTarget(l.Target)+"]]")
	}
	for _, id := range n.Supersedes {
		out = append(out, "- supersedes [["+id+"]]")
	}
	if n.SupersededBy != "" {
		out = append(out, "- superseded-by [["+n.SupersededBy+"]]")
	}
	for _, f := range n.Files {
		if _, ok := codemap.FilePage(f); !ok {
			// A path no wiki-link reaches (a part Obsidian hides, such
			// as .ci/run, or a character that splits a link) is named
			// as code: the frontmatter holds it, and Obsidian shows no
			// link that resolves nowhere.
			out = append(out, "- file "+codeSpan(f))
			continue
		}
		out = append(out, "- file [["+f+"]]")
	}
	return out
}

// codeSpan is s as markdown inline code, fenced by more backticks than
// any run of them in s.
func codeSpan(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

func wikiTarget(t string) string {
	if k, v, ok := strings.Cut(t, ":"); ok && (k == "file" || k == "symbol") {
		return v
	}
	return t
}

// fileProblem is a node file that cannot be read at all.
type fileProblem struct {
	line int
	msg  string
}

func (e *fileProblem) Error() string { return e.msg }

// lazyRegexp returns a function that compiles expr on its first call and
// returns that same Regexp ever after: compiled at init, the package's
// patterns would cost every rubi process at start.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

var yamlLineRE = lazyRegexp(`line (\d+): `)

// decodeNode parses a node file. It fails with a *fileProblem; the
// returned warnings are values it replaced with a fallback.
func decodeNode(path string, data []byte) (*Node, []Problem, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	if strings.TrimRight(lines[0], " \t") != "---" {
		return nil, nil, &fileProblem{1, "no YAML frontmatter: a node file starts with a line \"---\""}
	}
	end := -1
	for i := 1; i < len(lines); i++ {
		if l := strings.TrimRight(lines[i], " \t"); l == "---" || l == "..." {
			end = i
			break
		}
	}
	if end < 0 {
		return nil, nil, &fileProblem{1, "the frontmatter is not closed by a line \"---\""}
	}
	// The YAML text starts on the file's second line: its line L is the
	// file's line L+1.
	const offset = 1
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(strings.Join(lines[1:end], "\n")), &doc); err != nil {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		line := 0
		if m := yamlLineRE().FindStringSubmatchIndex(msg); m != nil {
			line, _ = strconv.Atoi(msg[m[2]:m[3]])
			msg = msg[:m[0]] + msg[m[1]:]
		}
		// The library numbers lines from 1 in scanner errors but from 0
		// in parser errors ("did not find expected key", "… ',' or ']'"),
		// where the line is that of the construct left open, or else of
		// the problem.
		if strings.HasPrefix(msg, "did not find expected") && !strings.Contains(msg, "alphabetic") && !strings.Contains(msg, "URI") {
			line++
		}
		if line > 0 {
			// An error at the end of the text (an unclosed '[') is shown
			// on the frontmatter's last line, not on the closing "---".
			line = min(line+offset, end)
		}
		return nil, nil, &fileProblem{line, "invalid YAML frontmatter: " + msg}
	}
	if len(doc.Content) == 0 {
		return nil, nil, &fileProblem{2, "the frontmatter is empty"}
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return nil, nil, &fileProblem{m.Line + offset, "the frontmatter must be a mapping of keys to values"}
	}
	d := decoder{path: path, offset: offset}
	n := &Node{}
	budget := maxPlain
	var title string
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if v.Kind == yaml.AliasNode && v.Alias != nil {
			v = v.Alias
		}
		switch text.Fold(k.Value) {
		case "id":
			n.ID = d.str(k, v)
		case "type", "tipo":
			n.Type = d.str(k, v)
		case "status", "estado":
			n.Status = d.str(k, v)
		case "importance", "importancia":
			n.Importance = d.str(k, v)
		case "title", "titulo":
			title = oneLine(d.str(k, v))
		case "files", "arquivos":
			n.Files = d.list(k, v)
		case "symbols", "simbolos":
			n.Symbols = d.list(k, v)
		case "links", "liga", "ligacoes":
			n.Links = d.links(k, v)
		case "supersedes", "substitui":
			n.Supersedes = d.list(k, v)
		case "superseded_by", "substituido_por", "substituida_por":
			n.SupersededBy = d.str(k, v)
		case "valid_until", "valido_ate":
			if t := d.time(k, v); !t.IsZero() {
				n.ValidUntil = &t
			}
		case "tags":
			n.Tags = d.list(k, v)
		case "created", "criado", "criado_em":
			n.Created = d.time(k, v)
		case "updated", "atualizado", "atualizado_em":
			n.Updated = d.time(k, v)
		case "commit":
			n.Commit = d.str(k, v)
		case "anchors", "ancoras":
			n.Anchors = d.anchors(k, v)
		default:
			// Kept to be written back apart from the keys rubi knows,
			// an alias could name an anchor that is not written with
			// it: what it names is copied in its place.
			pk, okK := plain(k, &budget)
			pv, okV := plain(m.Content[i+1], &budget)
			if !okK || !okV {
				return nil, nil, &fileProblem{k.Line + offset, fmt.Sprintf("the aliases of %q expand past %d values", k.Value, maxPlain)}
			}
			n.extra = append(n.extra, pk, pv)
		}
		if d.err != nil {
			return nil, nil, d.err
		}
	}

	stem := strings.TrimSuffix(filepath.Base(path), ".md")
	if n.ID == "" {
		n.ID = stem
	}
	if err := validateID(n.ID); err != nil {
		// Hand-written or older ids ("Decisão JWT") still name the node:
		// read it under the slug, which is where it will be written.
		sl := slug(n.ID)
		if validateID(sl) != nil {
			return nil, nil, &fileProblem{d.line(m, "id"), err.Error()}
		}
		d.warn(d.line(m, "id"), fmt.Sprintf("%v; read as %s", err, sl))
		n.ID = sl
	}
	if t, ok := canonicalType(n.Type); ok {
		n.Type = t
	} else {
		d.warn(d.line(m, "type", "tipo"), fmt.Sprintf("unknown type %q, read as note (types: %s)", n.Type, strings.Join(Types, ", ")))
		n.Type = TypeNote
	}
	if st, ok := canonicalStatus(n.Status); ok {
		n.Status = st
	} else {
		if n.Status != "" {
			d.warn(d.line(m, "status", "estado"), fmt.Sprintf("unknown status %q, read as active", n.Status))
		}
		n.Status = StatusActive
	}
	if im, ok := canonicalImportance(n.Importance); ok {
		n.Importance = im
	} else {
		if n.Importance != "" {
			d.warn(d.line(m, "importance", "importancia"), fmt.Sprintf("unknown importance %q, read as medium", n.Importance))
		}
		n.Importance = ImportanceMedium
	}
	for i, l := range n.Links {
		n.Links[i].Rel = relAlias(l.Rel)
	}
	// The heading is the file's bytes, not YAML's: it is made one line
	// as a frontmatter title is (a tab in it would otherwise come back a
	// space once the title is written there), and a byte that is no
	// UTF-8 would go into the frontmatter as !!binary, and the node come
	// back titled in base64.
	title, linksAt, dropped := parseBody(n, title, lines[end+1:])
	if dropped > 0 {
		d.warn(end+2+linksAt, fmt.Sprintf("the links section lists more than %d files, supersedes or links; %d are left out", MaxReadList, dropped))
	}
	title = oneLine(strings.ToValidUTF8(title, "\uFFFD"))
	if title == "" {
		title = n.ID
	}
	n.Title = title
	if n.Updated.IsZero() {
		n.Updated = n.Created
	}
	return n, d.warnings, nil
}

// maxPlain bounds the values plain copies for one file: an alias of an
// alias of… doubles what it names at each step.
const maxPlain = 10000

// plain returns a copy of v with its aliases replaced by copies of what
// they name and no anchors, taking one of budget per value; false when
// the budget runs out (or an alias names nothing).
func plain(v *yaml.Node, budget *int) (*yaml.Node, bool) {
	if *budget <= 0 {
		return nil, false
	}
	*budget--
	if v.Kind == yaml.AliasNode {
		if v.Alias == nil {
			return nil, false
		}
		return plain(v.Alias, budget)
	}
	c := *v
	c.Anchor, c.Alias, c.Content = "", nil, nil
	for _, it := range v.Content {
		p, ok := plain(it, budget)
		if !ok {
			return nil, false
		}
		c.Content = append(c.Content, p)
	}
	return &c, true
}

// parseBody sets n.Body from the lines after the frontmatter, leaving out
// the title heading and the generated links section, whose hand-added
// entries it reads back. It returns the title, taken from the heading when
// the frontmatter has none, and, when entries of the links section were
// left out past MaxReadList, how many and the index in lines of its heading.
func parseBody(n *Node, title string, lines []string) (string, int, int) {
	cut := 0 // lines taken off the front
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
		cut++
	}
	if len(lines) > 0 && strings.HasPrefix(lines[0], "# ") {
		h := strings.TrimSpace(lines[0][2:])
		if title == "" {
			title = h
			lines = lines[1:]
			cut++
		} else if normTitle(h) == normTitle(title) {
			lines = lines[1:]
			cut++
		}
	}
	linksAt, dropped := 0, 0
	// The links section is the last heading when every line after it is
	// a wiki-link bullet.
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l == "" {
			continue
		}
		if isLinksHeading(l) {
			var entries [][2]string
			ok := true
			for _, e := range lines[i+1:] {
				if strings.TrimSpace(e) == "" {
					continue
				}
				rel, target, isLink := linkEntry(strings.TrimSpace(e))
				if !isLink {
					ok = false
					break
				}
				entries = append(entries, [2]string{rel, target})
			}
			if ok {
				if dropped = readLinkLines(n, entries); dropped > 0 {
					linksAt = cut + i
				}
				lines = lines[:i]
			}
			break
		}
		if _, _, isLink := linkEntry(l); !isLink {
			break
		}
	}
	n.Body = strings.TrimSpace(strings.Join(lines, "\n"))
	return title, linksAt, dropped
}

var wikiLineRE = lazyRegexp(`^[-*] +([^\s\[]+) +\[\[([^\]]+)\]\]$`)

// linkEntry reads a line of a links section: a wiki-link ("- about
// [[target]]", "- file [[path|alias]]") or a file named as code ("- file
// `.ci/run`"), as linkLines writes a path no wiki-link reaches.
func linkEntry(l string) (rel, target string, ok bool) {
	if m := wikiLineRE().FindStringSubmatch(l); m != nil {
		target, _, _ = strings.Cut(m[2], "|")
		return m[1], strings.TrimSpace(target), true
	}
	rest, ok := strings.CutPrefix(strings.TrimLeft(l[min(1, len(l)):], " "), "file ")
	if !ok || (l[0] != '-' && l[0] != '*') {
		return "", "", false
	}
	rest = strings.TrimLeft(rest, " ")
	fence := rest[:len(rest)-len(strings.TrimLeft(rest, "`"))]
	inner, ok := strings.CutSuffix(strings.TrimPrefix(rest, fence), fence)
	if fence == "" || !ok || strings.HasSuffix(inner, "`") || inner == "" {
		return "", "", false
	}
	// A fence holds no run of backticks as long as itself (codeSpan), and
	// pads with a space a path that starts or ends with one.
	if strings.Contains(inner, fence) {
		return "", "", false
	}
	if strings.HasPrefix(inner, " ") && strings.HasSuffix(inner, " ") && strings.TrimSpace(inner) != "" {
		inner = inner[1 : len(inner)-1]
	}
	return "file", inner, true
}

func isLinksHeading(l string) bool {
	l = strings.TrimSpace(strings.Trim(strings.TrimLeft(l, "#"), " *:_"))
	f := text.Fold(l)
	return f == "links" || f == "ligacoes"
}

// relAlias maps the Node.js version's relation names to rubi's.
func relAlias(rel string) string {
	switch text.Fold(rel) {
	case "sobre":
		return "about"
	case "relacionado", "relacionada", "relaciona":
		return "related"
	case "substitui":
		return "supersedes"
	case "arquivo":
		return "file"
	}
	return rel
}

// readLinkLines adds the links section's entries that the frontmatter
// does not already hold: someone added them by hand. It returns how many
// new entries it left out past MaxReadList.
func readLinkLines(n *Node, entries [][2]string) int {
	dropped := 0
	// Sets of what the node holds, so that reading the section is linear
	// in its length: a section of 100,000 lines checked each against
	// the list it grows took seconds.
	files := setOf(n.Files)
	supersedes := setOf(n.Supersedes)
	links := make(map[[2]string]bool, len(n.Links))
	for _, l := range n.Links {
		links[[2]string{l.Rel, wikiTarget(l.Target)}] = true
	}
	for _, e := range entries {
		rel, target := relAlias(e[0]), e[1]
		if _, err := cleanRef("target", target); err != nil {
			continue
		}
		switch rel {
		case "file":
			if files[target] {
				continue
			}
			if len(n.Files) == MaxReadList {
				dropped++
				continue
			}
			files[target] = true
			n.Files = append(n.Files, target)
		case "supersedes":
			if supersedes[target] {
				continue
			}
			if len(n.Supersedes) == MaxReadList {
				dropped++
				continue
			}
			supersedes[target] = true
			n.Supersedes = append(n.Supersedes, target)
		case "superseded-by", "superseded_by", "substituido-por":
		default:
			r, err := cleanRel(rel)
			if err != nil {
				continue
			}
			key := [2]string{r, target}
			if links[key] {
				continue
			}
			if len(n.Links) == MaxReadList {
				dropped++
				continue
			}
			links[key] = true
			n.Links = append(n.Links, Link{Rel: r, Target: target})
		}
	}
	return dropped
}

func setOf(list []string) map[string]bool {
	set := make(map[string]bool, len(list))
	for _, s := range list {
		set[s] = true
	}
	return set
}

// decoder reads frontmatter values, remembering the first error.
type decoder struct {
	path     string
	offset   int
	err      error
	warnings []Problem
}

func (d *decoder) fail(v *yaml.Node, format string, args ...any) {
	if d.err == nil {
		d.err = &fileProblem{v.Line + d.offset, fmt.Sprintf(format, args...)}
	}
}

func (d *decoder) warn(line int, msg string) {
	d.warnings = append(d.warnings, Problem{Path: d.path, Line: line, Message: msg})
}

// line is the file line of the first of keys in the mapping m.
func (d *decoder) line(m *yaml.Node, keys ...string) int {
	for i := 0; i+1 < len(m.Content); i += 2 {
		for _, k := range keys {
			if text.Fold(m.Content[i].Value) == k {
				return m.Content[i].Line + d.offset
			}
		}
	}
	return m.Line + d.offset
}

func isNull(v *yaml.Node) bool {
	return v.Kind == yaml.ScalarNode && v.Tag == "!!null"
}

func (d *decoder) str(k, v *yaml.Node) string {
	if isNull(v) {
		return ""
	}
	if v.Kind != yaml.ScalarNode {
		d.fail(v, "%s must be a single value", k.Value)
		return ""
	}
	return strings.TrimSpace(v.Value)
}

// list reads a list of strings; a single value is a list of one (the
// Node.js version wrote single files that way).
func (d *decoder) list(k, v *yaml.Node) []string {
	if isNull(v) {
		return nil
	}
	switch v.Kind {
	case yaml.ScalarNode:
		if s := strings.TrimSpace(v.Value); s != "" {
			return []string{s}
		}
		return nil
	case yaml.SequenceNode:
		var out []string
		seen := make(map[string]bool, min(len(v.Content), MaxReadList))
		for _, it := range v.Content {
			if it.Kind != yaml.ScalarNode {
				d.fail(it, "%s must be a list of values", k.Value)
				return nil
			}
			s := strings.TrimSpace(it.Value)
			if s == "" || isNull(it) || seen[s] {
				continue
			}
			if len(out) == MaxReadList {
				d.capped(k, it)
				break
			}
			seen[s] = true
			out = append(out, s)
		}
		return out
	}
	d.fail(v, "%s must be a list of values", k.Value)
	return nil
}

// links reads [{rel, target}], also as {rel, alvo} and as a single map.
func (d *decoder) links(k, v *yaml.Node) []Link {
	if isNull(v) {
		return nil
	}
	items := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		items = v.Content
	}
	var out []Link
	seen := make(map[Link]bool, min(len(items), MaxReadList))
	for _, it := range items {
		var l Link
		switch it.Kind {
		case yaml.ScalarNode:
			// A bare target: "concept-x".
			l = Link{Rel: "related", Target: strings.TrimSpace(it.Value)}
		case yaml.MappingNode:
			for j := 0; j+1 < len(it.Content); j += 2 {
				kk, vv := it.Content[j], it.Content[j+1]
				if vv.Kind != yaml.ScalarNode {
					d.fail(vv, "%s: %s must be a single value", k.Value, kk.Value)
					return nil
				}
				switch text.Fold(kk.Value) {
				case "rel", "relacao", "tipo", "type":
					l.Rel = strings.TrimSpace(vv.Value)
				case "target", "alvo", "para", "to":
					l.Target = strings.TrimSpace(vv.Value)
				}
			}
		default:
			d.fail(it, "%s must be a list of {rel, target}", k.Value)
			return nil
		}
		if l.Target == "" {
			d.fail(it, "%s: a link has no target", k.Value)
			return nil
		}
		if l.Rel == "" {
			l.Rel = "related"
		}
		if seen[l] {
			continue
		}
		if len(out) == MaxReadList {
			d.capped(k, it)
			break
		}
		seen[l] = true
		out = append(out, l)
	}
	return out
}

var timeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05", "2006-01-02"}

func (d *decoder) time(k, v *yaml.Node) time.Time {
	if isNull(v) {
		return time.Time{}
	}
	if v.Kind == yaml.ScalarNode {
		s := strings.TrimSpace(v.Value)
		for _, layout := range timeLayouts {
			if t, err := time.Parse(layout, s); err == nil {
				return t.UTC()
			}
		}
		var t time.Time
		if err := v.Decode(&t); err == nil {
			return t.UTC()
		}
	}
	d.fail(v, "%s must be a date and time like 2026-10-17T15:30:00Z", k.Value)
	return time.Time{}
}

func (d *decoder) anchors(k, v *yaml.Node) map[string]string {
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.MappingNode {
		d.fail(v, "%s must map files and symbols to hashes", k.Value)
		return nil
	}
	out := make(map[string]string, min(len(v.Content)/2, MaxReadList))
	for j := 0; j+1 < len(v.Content); j += 2 {
		kk, vv := v.Content[j], v.Content[j+1]
		if kk.Kind != yaml.ScalarNode || vv.Kind != yaml.ScalarNode {
			d.fail(vv, "%s must map files and symbols to hashes", k.Value)
			return nil
		}
		if _, ok := out[kk.Value]; !ok && len(out) == MaxReadList {
			d.capped(k, kk)
			break
		}
		out[kk.Value] = vv.Value
	}
	return out
}

// capped warns that the list of k holds more than MaxReadList values, from
// the first one left out (at) on.
func (d *decoder) capped(k, at *yaml.Node) {
	d.warn(at.Line+d.offset, fmt.Sprintf("%s lists more than %d values; the rest are left out", k.Value, MaxReadList))
}

// errProblem extracts the line and message of a decode failure.
func errProblem(path string, err error) Problem {
	var fp *fileProblem
	if errors.As(err, &fp) {
		return Problem{Path: path, Line: fp.line, Message: fp.msg}
	}
	return Problem{Path: path, Message: err.Error()}
}
