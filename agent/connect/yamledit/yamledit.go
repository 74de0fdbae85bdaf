// Package yamledit edits YAML configuration files the way a person would:
// it adds, replaces or removes one entry of a collection and leaves every
// other byte alone — comments (above, beside and between keys), blank
// lines, indentation, quoting, flow or block style, line endings.
//
// No Go YAML library writes a document back as it was read: the node API
// of go.yaml.in/yaml/v3 keeps comments but drops blank lines and
// re-indents sequences; github.com/goccy/go-yaml keeps blank lines and
// indentation but rewrites the spaces before a comment on a value's line
// (`a: 1   # note` comes back as `a: 1 # note`). So no library writes
// here: an edit is a splice of whole lines into the text. goccy/go-yaml
// checks the file first, for its errors name the line and column of the
// mistake (yaml/v3's name the line where the enclosing block began, and
// its nodes let a duplicate key pass); yaml/v3's nodes, whose parser is
// libyaml's as Goose's is, say where things are and what they hold. The
// result of an edit is parsed again and compared, value by value, with
// what the edit meant to do: anything else changed (an alias, a layout
// rubi did not foresee) makes it an error and nothing is written.
//
// The collections edited are block collections that are the values of
// top-level keys (Goose's extensions:, Continue's mcpServers:); an Entry
// names one entry of such a collection.
package yamledit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	goccy "github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"
	"go.yaml.in/yaml/v3"
)

// Entry names one entry of a block collection that is the value of the
// top-level key Collection: in a mapping, the entry whose key is Key; in
// a sequence (Key empty), the first item, a mapping, whose Field is Value.
type Entry struct {
	Collection   string
	Key          string
	Field, Value string
}

// String renders an entry the way messages name it: extensions.rubi,
// mcpServers[name: rubi].
func (e Entry) String() string {
	if e.Key != "" {
		return e.Collection + "." + e.Key
	}
	return fmt.Sprintf("%s[%s: %s]", e.Collection, e.Field, e.Value)
}

// SyntaxError is a document that is not YAML rubi can edit, with the line
// (and column) of the mistake; 0 when the parser gave none.
type SyntaxError struct {
	File         string
	Line, Column int
	Msg          string
}

func (e *SyntaxError) Error() string {
	switch {
	case e.Column > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Doc is a parsed YAML document of one mapping (or nothing), its text kept
// byte for byte.
type Doc struct {
	file  string
	lines []string // without their "\n"; a "\r" of CRLF stays
	final bool     // the text ended with a line break
	eol   string   // the line break of lines rubi adds
	root  *yaml.Node
}

// yamlLine finds the line yaml/v3 names in its errors.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

// Parse parses data, naming file and the line on error. The document must
// be one (a second `---` document is refused) and its top level a block
// mapping, or empty.
func Parse(file string, data []byte) (*Doc, error) {
	d := &Doc{file: file, eol: "\n"}
	text := string(data)
	if text != "" {
		d.final = strings.HasSuffix(text, "\n")
		d.lines = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		if strings.HasSuffix(d.lines[0], "\r") {
			d.eol = "\r\n"
		}
	}
	if _, err := parser.ParseBytes(data, 0); err != nil {
		var ye goccy.Error
		if errors.As(err, &ye) && ye.GetToken() != nil {
			pos := ye.GetToken().Position
			return nil, &SyntaxError{File: file, Line: pos.Line, Column: pos.Column, Msg: ye.GetMessage()}
		}
		return nil, &SyntaxError{File: file, Msg: err.Error()}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	switch err := dec.Decode(&doc); {
	case errors.Is(err, io.EOF):
		return d, nil
	case err != nil:
		return nil, syntaxError(file, err)
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return nil, &SyntaxError{File: file, Line: next.Line, Msg: "a second YAML document begins here; rubi edits a file of one document"}
	} else if !errors.Is(err, io.EOF) {
		return nil, syntaxError(file, err)
	}
	if len(doc.Content) == 0 {
		return d, nil
	}
	root := doc.Content[0]
	switch {
	case root.Kind == yaml.ScalarNode && root.Tag == "!!null":
		return d, nil
	case root.Kind != yaml.MappingNode:
		return nil, &SyntaxError{File: file, Line: root.Line, Msg: "the top level is not a mapping of settings"}
	case root.Style&yaml.FlowStyle != 0:
		return nil, &SyntaxError{File: file, Line: root.Line, Msg: "the top level is written in flow style ({...}), which rubi does not rewrite"}
	}
	d.root = root
	return d, nil
}

// syntaxError turns yaml/v3's "yaml: line N: msg" into file:N: msg.
func syntaxError(file string, err error) error {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return &SyntaxError{File: file, Line: n, Msg: msg[len(m[0]):]}
	}
	return &SyntaxError{File: file, Msg: strings.TrimPrefix(msg, "yaml: ")}
}

// Bytes is the document's text.
func (d *Doc) Bytes() []byte {
	if len(d.lines) == 0 {
		return nil
	}
	s := strings.Join(d.lines, "\n")
	if d.final {
		s += "\n"
	}
	return []byte(s)
}

// collection is where a top-level key is, and its value.
type collection struct {
	key, value *yaml.Node
	// bound is the line (0-based) before which the value's lines end:
	// the next top-level key's, or the document's end.
	bound int
}

// find returns the collection at the top-level key name; ok is false when
// there is no such key.
func (d *Doc) find(name string) (c collection, ok bool) {
	if d.root == nil {
		return c, false
	}
	for i := 0; i+1 < len(d.root.Content); i += 2 {
		if d.root.Content[i].Value != name {
			continue
		}
		c = collection{key: d.root.Content[i], value: d.root.Content[i+1], bound: d.end()}
		if i+2 < len(d.root.Content) {
			c.bound = d.root.Content[i+2].Line - 1
		}
		return c, true
	}
	return c, false
}

// end is the line (0-based) the document's content ends before: a `...`
// line, else the end of the text.
func (d *Doc) end() int {
	for i, l := range d.lines {
		if strings.TrimRight(l, " \t\r") == "..." {
			return i
		}
	}
	return len(d.lines)
}

// isEmpty reports whether a collection's value holds nothing: no value, or
// null, {}, [].
func isEmpty(n *yaml.Node) bool {
	switch n.Kind {
	case yaml.ScalarNode:
		return n.Tag == "!!null"
	case yaml.MappingNode, yaml.SequenceNode:
		return len(n.Content) == 0
	}
	return false
}

// check returns an error when the collection's value is not a block
// collection of the kind e needs, or an empty value rubi can replace.
func (d *Doc) check(e Entry, c collection) error {
	want, kind := yaml.MappingNode, "a mapping"
	if e.Key == "" {
		want, kind = yaml.SequenceNode, "a list"
	}
	v := c.value
	switch {
	case v.Kind == yaml.AliasNode:
		return &SyntaxError{File: d.file, Line: v.Line, Msg: fmt.Sprintf("%s is an alias (*%s), which rubi does not edit through", e.Collection, v.Value)}
	case isEmpty(v):
		return nil
	case v.Kind != want:
		return &SyntaxError{File: d.file, Line: v.Line, Msg: fmt.Sprintf("%s is not %s", e.Collection, kind)}
	case v.Style&yaml.FlowStyle != 0:
		return &SyntaxError{File: d.file, Line: v.Line, Msg: fmt.Sprintf("%s is written in flow style, which rubi does not rewrite; write it as a block", e.Collection)}
	}
	return nil
}

// span is an entry's lines, [start, end), 0-based.
type span struct{ start, end, indent int }

// entries returns the lines of every entry of a block collection, in
// order. An entry starts at its key (a mapping's) or dash (a sequence's)
// and ends where the next begins, less the blank lines and the comments
// no deeper than its key that come last: they are the next one's.
func (d *Doc) entries(c collection) []span {
	v := c.value
	if isEmpty(v) || v.Style&yaml.FlowStyle != 0 {
		return nil
	}
	var starts []int
	indent := v.Column - 1
	switch v.Kind {
	case yaml.MappingNode:
		for i := 0; i < len(v.Content); i += 2 {
			starts = append(starts, v.Content[i].Line-1)
		}
	case yaml.SequenceNode:
		// An item's dash is at the sequence's column, on the item's line
		// or above it.
		for _, it := range v.Content {
			l := it.Line - 1
			for l > 0 && !d.dashAt(l, indent) {
				l--
			}
			starts = append(starts, l)
		}
	}
	spans := make([]span, len(starts))
	for i, s := range starts {
		end := c.bound
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		for end > s+1 && d.trailing(end-1, indent) {
			end--
		}
		spans[i] = span{s, end, indent}
	}
	return spans
}

// dashAt reports whether line l has a sequence's dash at column col.
func (d *Doc) dashAt(l, col int) bool {
	line := d.lines[l]
	return len(line) > col && strings.TrimSpace(line[:col]) == "" && line[col] == '-' &&
		(len(line) == col+1 || line[col+1] == ' ' || line[col+1] == '\r')
}

// trailing reports whether line l, at the end of an entry at indent, is
// the next entry's: blank, or a comment no deeper than the entry's key.
func (d *Doc) trailing(l, indent int) bool {
	t := strings.TrimRight(d.lines[l], " \t\r")
	if t == "" {
		return true
	}
	s := strings.TrimLeft(t, " ")
	return strings.HasPrefix(s, "#") && len(t)-len(s) <= indent
}

// index returns the entry e in the collection: its node (the value in a
// mapping, the item in a sequence) and its position among the entries.
func index(e Entry, v *yaml.Node) (*yaml.Node, int) {
	if isEmpty(v) {
		return nil, -1
	}
	if e.Key != "" {
		for i := 0; i+1 < len(v.Content); i += 2 {
			if v.Content[i].Value == e.Key {
				return v.Content[i+1], i / 2
			}
		}
		return nil, -1
	}
	for i, it := range v.Content {
		if it.Kind != yaml.MappingNode {
			continue
		}
		for j := 0; j+1 < len(it.Content); j += 2 {
			if it.Content[j].Value == e.Field && it.Content[j+1].Value == e.Value {
				return it, i
			}
		}
	}
	return nil, -1
}

// Get decodes the entry e into v; ok is false when there is none.
func (d *Doc) Get(e Entry, v any) (ok bool, err error) {
	c, ok := d.find(e.Collection)
	if !ok || c.value.Kind != want(e) {
		return false, nil
	}
	n, _ := index(e, c.value)
	if n == nil {
		return false, nil
	}
	if err := n.Decode(v); err != nil {
		return true, &SyntaxError{File: d.file, Line: n.Line, Msg: fmt.Sprintf("%s: %v", e, strings.TrimPrefix(err.Error(), "yaml: "))}
	}
	return true, nil
}

func want(e Entry) yaml.Kind {
	if e.Key == "" {
		return yaml.SequenceNode
	}
	return yaml.MappingNode
}

// Text returns the entry's lines as they are written, "" when there is
// none: what tells an entry from another written differently.
func (d *Doc) Text(e Entry) string {
	c, ok := d.find(e.Collection)
	if !ok || c.value.Kind != want(e) {
		return ""
	}
	_, i := index(e, c.value)
	if i < 0 {
		return ""
	}
	s := d.entries(c)[i]
	return strings.Join(d.lines[s.start:s.end], "\n")
}

// Set makes text the entry e: it replaces the entry's lines when there is
// one, and is added after the collection's last entry otherwise (the
// collection, when missing, after the document's last line). text is the
// entry written at column 0 with two spaces an indentation step: "rubi:\n
// type: stdio\n" for a mapping's, "- name: rubi\n  command: rubi\n" for a
// sequence's; it is indented as the collection's entries are.
func (d *Doc) Set(e Entry, text string) error {
	val, err := entryValue(e, text)
	if err != nil {
		return err
	}
	return d.put(e, val, func(col, off, step int) []string { return reindent(e, text, col, off, step) })
}

// put writes the entry e, of value val, as render gives its lines for the
// collection's layout (layout), where Set says.
func (d *Doc) put(e Entry, val any, render func(col, off, step int) []string) error {
	nd := d.clone()
	c, ok := nd.find(e.Collection)
	if ok {
		if err := nd.check(e, c); err != nil {
			return err
		}
	}
	switch {
	case !ok:
		// A new collection, after the document's content: its key at the
		// top level's column, its entries two columns in.
		col := 0
		if nd.root != nil {
			col = nd.root.Column - 1
		}
		at := nd.end()
		for at > 0 && strings.TrimSpace(nd.lines[at-1]) == "" {
			at--
		}
		nd.splice(at, at, append([]string{strings.Repeat(" ", col) + e.Collection + ":"}, render(col+2, 2, 2)...))
	case isEmpty(c.value):
		// extensions:, extensions: {}, mcpServers: [] or ~: the key's line
		// keeps the key and its comment; the entry goes under it.
		l := c.key.Line - 1
		if c.value.Kind != yaml.ScalarNode || c.value.Value != "" {
			nd.lines[l] = keyLine(nd.lines[l], c)
		}
		nd.splice(l+1, l+1, render(c.key.Column-1+2, 2, 2))
	default:
		spans := nd.entries(c)
		lines := render(nd.layout(c))
		if _, i := index(e, c.value); i >= 0 {
			nd.splice(spans[i].start, spans[i].end, lines)
		} else {
			last := spans[len(spans)-1]
			nd.splice(last.end, last.end, lines)
		}
	}
	if err := d.verify(nd, e, &val, nil); err != nil {
		return err
	}
	*d = *nd
	return nil
}

// Restore puts back in d the entry e as from (the file before rubi
// changed it) has it, its lines as they were written there, or removes it
// when from has none; a collection left empty is then written as from has
// it, or removed when from has none. It reports whether anything changed.
func (d *Doc) Restore(e Entry, from *Doc) (bool, error) {
	if text := from.Text(e); text != "" {
		if d.Text(e) == text {
			return false, nil
		}
		var val any
		if _, err := from.Get(e, &val); err != nil {
			return false, err
		}
		fc, _ := from.find(e.Collection)
		_, i := index(e, fc.value)
		src := from.entries(fc)[i]
		render := func(col, _, _ int) []string {
			var out []string
			for _, l := range from.lines[src.start:src.end] {
				if strings.TrimSpace(l) != "" && len(l) >= src.indent {
					l = strings.Repeat(" ", col) + l[src.indent:]
				}
				out = append(out, l)
			}
			return out
		}
		return true, d.put(e, val, render)
	}
	c, ok := d.find(e.Collection)
	if !ok || c.value.Kind != want(e) {
		return false, nil
	}
	_, i := index(e, c.value)
	if i < 0 {
		return false, nil
	}
	nd := d.clone()
	s := nd.entries(c)[i]
	nd.splice(s.start, s.end, nil)
	r := &restored{from: from}
	if n := len(c.value.Content); e.Key != "" && n == 2 || e.Key == "" && n == 1 {
		// The collection is empty now: as the file before had it.
		l := c.key.Line - 1
		if fc, ok := from.find(e.Collection); !ok {
			nd.splice(l, l+1, nil)
			r.coll = "removed"
		} else if isEmpty(fc.value) {
			nd.lines[l] = from.lines[fc.key.Line-1]
			r.coll = "restored"
		}
	}
	if err := d.verify(nd, e, nil, r); err != nil {
		return false, err
	}
	*d = *nd
	return true, nil
}

// restored says what Restore did with an emptied collection.
type restored struct {
	coll string // "removed", "restored" (as from has it), or ""
	from *Doc
}

// keyLine is the key's line with its value taken off (`extensions: {} #
// mine` becomes `extensions: # mine`).
func keyLine(line string, c collection) string {
	r := []rune(line)
	cut := min(max(c.value.Column-1, 0), len(r))
	head := strings.TrimRight(string(r[:cut]), " \t")
	comment := c.value.LineComment
	if comment == "" {
		comment = c.key.LineComment
	}
	if comment != "" {
		head += " " + comment
	}
	if strings.HasSuffix(line, "\r") {
		head += "\r"
	}
	return head
}

// layout returns how the collection's entries are indented: their column
// (a mapping's keys, a sequence's dashes), for a sequence the offset from
// the dash to the item's keys, and the step of the entries' own nested
// keys; each as the first entry has it, else two.
func (d *Doc) layout(c collection) (col, off, step int) {
	v := c.value
	col, off, step = v.Column-1, 2, 2
	switch v.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(v.Content); i += 2 {
			if val := v.Content[i+1]; val.Kind == yaml.MappingNode && val.Style&yaml.FlowStyle == 0 && len(val.Content) > 0 {
				if s := val.Content[0].Column - v.Content[i].Column; s > 0 {
					step = s
				}
				break
			}
		}
	case yaml.SequenceNode:
		if it := v.Content[0]; it.Kind == yaml.MappingNode && it.Style&yaml.FlowStyle == 0 && it.Line == v.Line {
			if o := it.Column - v.Column; o > 1 {
				off = o
			}
		}
	}
	return col, off, step
}

// reindent indents text (column 0, two-space steps) for a collection's
// entries at col: a mapping's nested lines by step a level, a sequence's
// item keys off columns after the dash.
func reindent(e Entry, text string, col, off, step int) []string {
	var out []string
	for i, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		body := strings.TrimLeft(l, " ")
		level := (len(l) - len(body)) / 2
		switch {
		case body == "":
			out = append(out, "")
			continue
		case e.Key == "" && i == 0:
			body = "-" + strings.Repeat(" ", off-1) + strings.TrimLeft(strings.TrimPrefix(body, "-"), " ")
		case e.Key == "":
			body = strings.Repeat(" ", off+(level-1)*step) + body
		default:
			body = strings.Repeat(" ", level*step) + body
		}
		out = append(out, strings.Repeat(" ", col)+body)
	}
	return out
}

// entryValue decodes an entry's text (column 0) into its value.
func entryValue(e Entry, text string) (any, error) {
	var v any
	if err := yaml.Unmarshal([]byte(text), &v); err != nil {
		return nil, fmt.Errorf("rubi's entry %s: %w", e, err)
	}
	if e.Key != "" {
		m, _ := v.(map[string]any)
		if len(m) != 1 || m[e.Key] == nil {
			return nil, fmt.Errorf("rubi's entry %s is not one key %q", e, e.Key)
		}
		return m[e.Key], nil
	}
	l, _ := v.([]any)
	if len(l) != 1 {
		return nil, fmt.Errorf("rubi's entry %s is not one item", e)
	}
	return l[0], nil
}

func (d *Doc) clone() *Doc {
	nd := *d
	nd.lines = append([]string(nil), d.lines...)
	return &nd
}

// splice replaces lines [from, to) with lines, line breaks as the file's.
func (d *Doc) splice(from, to int, lines []string) {
	if d.eol == "\r\n" {
		for i, l := range lines {
			if !strings.HasSuffix(l, "\r") {
				lines[i] = l + "\r"
			}
		}
	}
	if from == len(d.lines) && len(lines) > 0 {
		d.final = true // a line added at the end ends with a break
	}
	d.lines = append(d.lines[:from:from], append(lines, d.lines[to:]...)...)
	if len(d.lines) == 0 {
		d.final = false
	}
}

// verify parses nd, the edited text, and checks it holds what d holds with
// only e changed: set to *val, or removed (val nil) with the collection as
// r says. The edit is refused otherwise, nothing written.
func (d *Doc) verify(nd *Doc, e Entry, val *any, r *restored) error {
	fail := func(why string) error {
		return fmt.Errorf("%s: rubi could not change %s without changing more of the file (%s); nothing was written: change it by hand", d.file, e, why)
	}
	parsed, err := Parse(nd.file, nd.Bytes())
	if err != nil {
		return fail(err.Error())
	}
	*nd = *parsed
	before, err := d.decode()
	if err != nil {
		return err
	}
	after, err := nd.decode()
	if err != nil {
		return fail(err.Error())
	}
	want := make(map[string]any, len(before))
	for k, v := range before {
		want[k] = v
	}
	coll := want[e.Collection]
	switch {
	case e.Key != "":
		m, _ := coll.(map[string]any)
		next := make(map[string]any, len(m)+1)
		for k, v := range m {
			next[k] = v
		}
		if val != nil {
			next[e.Key] = *val
		} else {
			delete(next, e.Key)
		}
		coll = next
	default:
		l, _ := coll.([]any)
		next := append([]any(nil), l...)
		i := itemIndex(next, e)
		switch {
		case val != nil && i >= 0:
			next[i] = *val
		case val != nil:
			next = append(next, *val)
		case i >= 0:
			next = append(next[:i], next[i+1:]...)
		}
		coll = next
	}
	want[e.Collection] = coll
	if r != nil {
		switch r.coll {
		case "removed":
			delete(want, e.Collection)
		case "restored":
			fromv, err := r.from.decode()
			if err != nil {
				return err
			}
			want[e.Collection] = fromv[e.Collection]
		}
	}
	if !sameDoc(want, after) {
		return fail("the result does not read back as intended")
	}
	return nil
}

// itemIndex is the index of e's item in a decoded sequence, or -1.
func itemIndex(l []any, e Entry) int {
	for i, it := range l {
		if m, ok := it.(map[string]any); ok && fmt.Sprint(m[e.Field]) == e.Value {
			return i
		}
	}
	return -1
}

// decode returns the document's top level as values.
func (d *Doc) decode() (map[string]any, error) {
	out := map[string]any{}
	if d.root == nil {
		return out, nil
	}
	if err := d.root.Decode(&out); err != nil {
		return nil, &SyntaxError{File: d.file, Line: d.root.Line, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	return out, nil
}

// sameDoc compares two top levels, an empty collection (null, {}, [])
// being one value.
func sameDoc(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || !(reflect.DeepEqual(v, w) || emptyValue(v) && emptyValue(w)) {
			return false
		}
	}
	return true
}

func emptyValue(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case map[string]any:
		return len(x) == 0
	case []any:
		return len(x) == 0
	}
	return false
}
