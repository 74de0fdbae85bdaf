// Package jsonedit edits JSON configuration files the way a person would:
// it changes the values it is asked to and leaves every other byte alone —
// the order of keys, the indentation, the line endings and, in JSONC files,
// comments and trailing commas. New values are indented like their
// neighbours. rubi writes agents' settings files through it (Claude Code's
// settings.json and .claude.json today, other agents' JSON settings later).
//
// A Doc is parsed once, changed with Set, Append and Delete, and written
// back with Bytes. Locations are Paths: object keys (string) and array
// indexes (int), from the top-level object down.
package jsonedit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"
)

// Path locates a value: each element is an object key (string) or an
// array index (int), from the top-level object down.
type Path []any

// String renders a path the way messages name it: env.KEY, hooks.Stop[0].
func (p Path) String() string {
	var b strings.Builder
	for i, seg := range p {
		switch s := seg.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", s)
		default:
			if i > 0 {
				b.WriteByte('.')
			}
			fmt.Fprint(&b, s)
		}
	}
	return b.String()
}

// SyntaxError is a document that is not valid JSON (or JSONC), with the
// position of the mistake.
type SyntaxError struct {
	File         string
	Line, Column int
	Msg          string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// Doc is a parsed JSON document whose top level is an object.
type Doc struct {
	root hujson.Value
	// unit is one level of indentation, as the document writes it.
	unit string
	// nl is the document's line ending.
	nl string
	// compact documents hold their whole top-level object on one line;
	// values added to them stay on one line too.
	compact bool
}

// Parse reads data, named file in errors. Strict JSON is what JSON.parse
// accepts (Claude Code's files); with jsonc, comments and trailing commas
// are allowed and kept. An empty document (or one of only whitespace) is
// an empty object.
func Parse(file string, data []byte, jsonc bool) (*Doc, error) {
	d := &Doc{unit: "  ", nl: "\n"}
	if bytes.Contains(data, []byte("\r\n")) {
		d.nl = "\r\n"
	}
	if len(bytes.TrimSpace(data)) == 0 {
		d.root = hujson.Value{Value: &hujson.Object{}, AfterExtra: hujson.Extra(d.nl)}
		return d, nil
	}
	if !jsonc {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				at := int(se.Offset) - 1 // the offending byte
				if se.Offset >= int64(len(data)) {
					at = len(data) // cut short: just after the end
				}
				line, col := position(data, at)
				return nil, &SyntaxError{File: file, Line: line, Column: col, Msg: se.Error()}
			}
			return nil, &SyntaxError{File: file, Line: 1, Column: 1, Msg: err.Error()}
		}
	}
	root, err := hujson.Parse(data)
	if err != nil {
		return nil, hujsonError(file, err)
	}
	if _, ok := root.Value.(*hujson.Object); !ok {
		line, col := position(data, root.StartOffset)
		return nil, &SyntaxError{File: file, Line: line, Column: col, Msg: "the top level is not a JSON object"}
	}
	d.root = root
	d.compact = root.Value.(*hujson.Object).Members != nil && !bytes.Contains(data[root.StartOffset:root.EndOffset], []byte("\n"))
	for _, m := range root.Value.(*hujson.Object).Members {
		if lead := m.Name.BeforeExtra; hasNewline(lead) {
			if ind := lastLineIndent(lead); ind != "" {
				d.unit = ind
			}
			break
		}
	}
	return d, nil
}

// position returns the 1-based line and column of byte offset n.
func position(data []byte, n int) (line, col int) {
	n = max(0, min(n, len(data)))
	line = 1 + bytes.Count(data[:n], []byte("\n"))
	col = 1 + n - (bytes.LastIndexByte(data[:n], '\n') + 1)
	return line, col
}

var hujsonPos = regexp.MustCompile(`^hujson: line (\d+), column (\d+): (.*)$`)

// hujsonError turns hujson's "line L, column C: msg" into a SyntaxError.
func hujsonError(file string, err error) error {
	m := hujsonPos.FindStringSubmatch(err.Error())
	if m == nil {
		return &SyntaxError{File: file, Line: 1, Column: 1, Msg: err.Error()}
	}
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	return &SyntaxError{File: file, Line: line, Column: col, Msg: m[3]}
}

// Bytes returns the document as it would be written.
func (d *Doc) Bytes() []byte { return d.root.Pack() }

// Has reports whether a value exists at p.
func (d *Doc) Has(p Path) bool { return d.find(p) != nil }

// Get decodes the value at p into out (as encoding/json would) and
// reports whether there was one.
func (d *Doc) Get(p Path, out any) (bool, error) {
	v := d.find(p)
	if v == nil {
		return false, nil
	}
	if err := json.Unmarshal(standard(v), out); err != nil {
		return true, fmt.Errorf("%s: %w", p, err)
	}
	return true, nil
}

// Raw returns the value at p as standard JSON, or nil.
func (d *Doc) Raw(p Path) json.RawMessage {
	if v := d.find(p); v != nil {
		return standard(v)
	}
	return nil
}

// Len is the number of members of the object, or elements of the array,
// at p; -1 when there is no object or array there.
func (d *Doc) Len(p Path) int {
	if v := d.find(p); v != nil {
		switch c := v.Value.(type) {
		case *hujson.Object:
			return len(c.Members)
		case *hujson.Array:
			return len(c.Elements)
		}
	}
	return -1
}

// IsObject reports whether the value at p is an object.
func (d *Doc) IsObject(p Path) bool {
	v := d.find(p)
	return v != nil && v.Value.Kind() == '{'
}

// IsArray reports whether the value at p is an array.
func (d *Doc) IsArray(p Path) bool {
	v := d.find(p)
	return v != nil && v.Value.Kind() == '['
}

// Keys returns the keys of the object at p, in document order.
func (d *Doc) Keys(p Path) []string {
	v := d.find(p)
	if v == nil {
		return nil
	}
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		return nil
	}
	keys := make([]string, 0, len(obj.Members))
	for _, m := range obj.Members {
		keys = append(keys, memberName(m))
	}
	return keys
}

// Equal reports whether the value at p is v, compared as JSON values (so
// formatting and key order do not matter).
func (d *Doc) Equal(p Path, v any) bool {
	cur := d.find(p)
	if cur == nil {
		return false
	}
	want, err := marshal(v)
	if err != nil {
		return false
	}
	return sameJSON(standard(cur), want)
}

// Set puts v (anything encoding/json marshals) at p, creating the objects
// on the way, and reports whether the document changed: setting a value
// equal to the current one changes nothing. A new key is added after the
// object's last member; an existing value is replaced where it is.
func (d *Doc) Set(p Path, v any) (bool, error) {
	if len(p) == 0 {
		return false, errors.New("jsonedit: cannot replace the top-level object")
	}
	raw, err := marshal(v)
	if err != nil {
		return false, err
	}
	if cur := d.find(p); cur != nil && sameJSON(standard(cur), raw) {
		return false, nil
	}
	c, err := d.container(p[:len(p)-1], true)
	if err != nil {
		return false, err
	}
	last := p[len(p)-1]
	switch {
	case c.obj != nil:
		key, ok := last.(string)
		if !ok {
			return false, fmt.Errorf("jsonedit: %s is an object, not an array", p[:len(p)-1])
		}
		if i := memberIndex(c.obj, key); i >= 0 {
			d.replace(c, i, raw)
		} else {
			d.appendItem(c, key, raw)
		}
	default:
		i, ok := last.(int)
		if !ok {
			return false, fmt.Errorf("jsonedit: %s is an array, not an object", p[:len(p)-1])
		}
		if i < 0 || i >= len(c.arr.Elements) {
			return false, fmt.Errorf("jsonedit: %s has no element %v", p[:len(p)-1], last)
		}
		d.replace(c, i, raw)
	}
	return true, nil
}

// Append adds v at the end of the array at p, creating the array (and the
// objects on the way) when there is none.
func (d *Doc) Append(p Path, v any) error {
	if d.find(p) == nil {
		_, err := d.Set(p, []any{v})
		return err
	}
	raw, err := marshal(v)
	if err != nil {
		return err
	}
	c, err := d.container(p, false)
	if err != nil {
		return err
	}
	if c.arr == nil {
		return fmt.Errorf("jsonedit: %s is not an array", p)
	}
	d.appendItem(c, "", raw)
	return nil
}

// Delete removes the value at p (an object member or an array element)
// with the line it was on, and reports whether there was one.
func (d *Doc) Delete(p Path) bool {
	if len(p) == 0 || d.find(p) == nil {
		return false
	}
	c, err := d.container(p[:len(p)-1], false)
	if err != nil {
		return false
	}
	i := -1
	switch last := p[len(p)-1].(type) {
	case string:
		if c.obj != nil {
			i = memberIndex(c.obj, last)
		}
	case int:
		if c.arr != nil {
			i = last
		}
	}
	if i < 0 {
		return false
	}
	d.remove(c, i)
	return true
}

// find returns the value at p, or nil.
func (d *Doc) find(p Path) *hujson.Value {
	v := &d.root
	for _, seg := range p {
		if v = child(v, seg); v == nil {
			return nil
		}
	}
	return v
}

// child returns the member seg (a string) of an object or the element seg
// (an int) of an array, or nil.
func child(v *hujson.Value, seg any) *hujson.Value {
	switch c := v.Value.(type) {
	case *hujson.Object:
		if key, ok := seg.(string); ok {
			if i := memberIndex(c, key); i >= 0 {
				return &c.Members[i].Value
			}
		}
	case *hujson.Array:
		if i, ok := seg.(int); ok && i >= 0 && i < len(c.Elements) {
			return &c.Elements[i]
		}
	}
	return nil
}

// memberIndex is the index of key in obj, -1 if absent. With duplicate
// keys it is the last one, the one JSON.parse keeps.
func memberIndex(obj *hujson.Object, key string) int {
	idx := -1
	for i, m := range obj.Members {
		if memberName(m) == key {
			idx = i
		}
	}
	return idx
}

func memberName(m hujson.ObjectMember) string {
	if lit, ok := m.Name.Value.(hujson.Literal); ok {
		return lit.String()
	}
	return ""
}

// container is an object or array reached from the top, with the
// indentation of the line it starts on.
type container struct {
	obj    *hujson.Object
	arr    *hujson.Array
	indent string
}

// container walks to the object or array at p. With create, missing
// object members on the way are added as objects.
func (d *Doc) container(p Path, create bool) (container, error) {
	c := container{obj: d.root.Value.(*hujson.Object)}
	for n, seg := range p {
		var next *hujson.Value
		var lead hujson.Extra
		switch {
		case c.obj != nil:
			key, ok := seg.(string)
			if !ok {
				return c, fmt.Errorf("jsonedit: %s is an object, not an array", p[:n])
			}
			i := memberIndex(c.obj, key)
			if i < 0 {
				if !create {
					return c, fmt.Errorf("jsonedit: %s does not exist", p[:n+1])
				}
				d.appendItem(c, key, []byte("{}"))
				i = len(c.obj.Members) - 1
			}
			next, lead = &c.obj.Members[i].Value, c.obj.Members[i].Name.BeforeExtra
		default:
			i, ok := seg.(int)
			if !ok {
				return c, fmt.Errorf("jsonedit: %s is an array, not an object", p[:n])
			}
			if i < 0 || i >= len(c.arr.Elements) {
				return c, fmt.Errorf("jsonedit: %s has no element %v", p[:n], seg)
			}
			next, lead = &c.arr.Elements[i], c.arr.Elements[i].BeforeExtra
		}
		indent := c.indent
		if hasNewline(lead) {
			indent = lastLineIndent(lead)
		}
		switch v := next.Value.(type) {
		case *hujson.Object:
			c = container{obj: v, indent: indent}
		case *hujson.Array:
			c = container{arr: v, indent: indent}
		default:
			return c, fmt.Errorf("jsonedit: %s is %s, not an object", p[:n+1], kindName(next.Value.Kind()))
		}
	}
	return c, nil
}

func kindName(k hujson.Kind) string {
	switch k {
	case 'n':
		return "null"
	case 'f', 't':
		return "a boolean"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case '[':
		return "an array"
	}
	return "an object"
}

// The items of a container: members of an object or elements of an array.
// lead is the whitespace and comments before item i (after the opening
// bracket or the previous comma), tail those after its value (before its
// comma; a non-nil tail on the last item is a trailing comma), closing
// those before the closing bracket.

func (c container) len() int {
	if c.obj != nil {
		return len(c.obj.Members)
	}
	return len(c.arr.Elements)
}

func (c container) lead(i int) *hujson.Extra {
	if c.obj != nil {
		return &c.obj.Members[i].Name.BeforeExtra
	}
	return &c.arr.Elements[i].BeforeExtra
}

func (c container) tail(i int) *hujson.Extra {
	if c.obj != nil {
		return &c.obj.Members[i].Value.AfterExtra
	}
	return &c.arr.Elements[i].AfterExtra
}

func (c container) closing() *hujson.Extra {
	if c.obj != nil {
		return &c.obj.AfterExtra
	}
	return &c.arr.AfterExtra
}

// itemIndent is the indentation of item i's line; pretty reports whether
// the item starts a line of its own.
func (c container) itemIndent(i int) (indent string, pretty bool) {
	lead := *c.lead(i)
	if hasNewline(lead) {
		return lastLineIndent(lead), true
	}
	return c.indent, false
}

// appendItem adds raw (compact JSON) after the last item, under key for
// an object, laid out like the items before it.
func (d *Doc) appendItem(c container, key string, raw []byte) {
	n := c.len()
	closing := *c.closing()
	var indent string
	var pretty bool
	var lead, colon hujson.Extra
	if n > 0 {
		indent, pretty = c.itemIndent(n - 1)
		if pretty {
			lead = d.newline(indent)
		} else if n > 1 {
			lead = whitespaceOnly(*c.lead(n - 1))
		} else if c.obj != nil {
			lead = whitespaceOnly(c.obj.Members[0].Value.BeforeExtra)
		}
		if c.obj != nil {
			colon = whitespaceOnly(c.obj.Members[n-1].Value.BeforeExtra)
		}
		// A comment on the last item's line belongs to that item: it
		// stays on its line, after the comma the new item brings.
		if head, rest := splitFirstLine(closing); hasComment(head) {
			lead = append(append(hujson.Extra{}, head...), lead...)
			if !pretty && rest != nil {
				// a line comment ends at the newline: the item goes after it
				lead = append(lead, d.newline(c.indent+d.unit)...)
			}
			*c.closing() = rest
		}
	} else {
		pretty = !d.compact
		indent = c.indent + d.unit
		if pretty {
			lead = d.newline(indent)
			if hasComment(closing) {
				lead = append(append(hujson.Extra{}, bytes.TrimRight(closing, " \t\r\n")...), lead...)
			}
			*c.closing() = d.newline(c.indent)
		}
		if (c.obj != nil && pretty) || d.compactSpaced() {
			colon = hujson.Extra(" ")
		}
	}
	value := d.render(raw, indent, pretty)
	var tail hujson.Extra
	if n > 0 && *c.tail(n - 1) != nil {
		tail = hujson.Extra{} // keep the trailing comma the list had
	}
	if c.obj != nil {
		c.obj.Members = append(c.obj.Members, hujson.ObjectMember{
			Name:  hujson.Value{BeforeExtra: lead, Value: hujson.String(key)},
			Value: hujson.Value{BeforeExtra: colon, Value: value, AfterExtra: tail},
		})
		return
	}
	c.arr.Elements = append(c.arr.Elements, hujson.Value{BeforeExtra: lead, Value: value, AfterExtra: tail})
}

// compactSpaced reports whether a one-line document puts a space after
// its colons ({"a": 1}).
func (d *Doc) compactSpaced() bool {
	obj := d.root.Value.(*hujson.Object)
	return len(obj.Members) > 0 && len(obj.Members[0].Value.BeforeExtra) > 0
}

// replace puts raw in place of item i's value, keeping what surrounds it.
func (d *Doc) replace(c container, i int, raw []byte) {
	indent, pretty := c.itemIndent(i)
	value := d.render(raw, indent, pretty)
	if c.obj != nil {
		c.obj.Members[i].Value.Value = value
		return
	}
	c.arr.Elements[i].Value = value
}

// remove deletes item i with its line: the whitespace and comments before
// it, and a comment on the same line after it. A comment on the line of the
// item before stays with that item.
func (d *Doc) remove(c container, i int) {
	n := c.len()
	lead, tail := *c.lead(i), *c.tail(i)
	var keep hujson.Extra // the previous item's own line comment
	if head, _ := splitFirstLine(lead); i > 0 && hasComment(head) {
		keep = head
	}
	switch {
	case n == 1:
		_, rest := splitFirstLine(*c.closing())
		if hasComment(rest) {
			*c.closing() = rest
		} else {
			*c.closing() = nil
		}
	case i == n-1:
		// The item before becomes the last: it keeps a trailing comma
		// only if the list had one.
		prev := c.tail(i - 1)
		closing := *c.closing()
		if head, rest := splitFirstLine(closing); hasComment(head) {
			closing = rest
		}
		if tail == nil && *prev != nil {
			closing = append(append(hujson.Extra{}, *prev...), closing...)
			*prev = nil
		} else if tail != nil && *prev == nil {
			*prev = hujson.Extra{}
		}
		*c.closing() = append(append(hujson.Extra{}, keep...), closing...)
	default:
		next := *c.lead(i + 1)
		if head, rest := splitFirstLine(next); hasComment(head) {
			next = rest
		}
		if !hasNewline(next) && !hasComment(next) && !hasComment(lead) {
			next = lead // on one line, the next item takes this one's place
		}
		*c.lead(i + 1) = append(append(hujson.Extra{}, keep...), next...)
	}
	if c.obj != nil {
		c.obj.Members = append(c.obj.Members[:i:i], c.obj.Members[i+1:]...)
		return
	}
	c.arr.Elements = append(c.arr.Elements[:i:i], c.arr.Elements[i+1:]...)
}

// render lays raw out for a value whose line is indented by indent: over
// several lines in the document's style, or on one.
func (d *Doc) render(raw []byte, indent string, pretty bool) hujson.ValueTrimmed {
	var b bytes.Buffer
	if pretty {
		if err := json.Indent(&b, raw, indent, d.unit); err != nil {
			panic(err) // raw came from marshal: always valid
		}
	} else {
		b.Write(raw)
	}
	out := b.Bytes()
	if d.nl != "\n" {
		out = bytes.ReplaceAll(out, []byte("\n"), []byte(d.nl))
	}
	v, err := hujson.Parse(out)
	if err != nil {
		panic(err)
	}
	return v.Value
}

func (d *Doc) newline(indent string) hujson.Extra {
	return hujson.Extra(d.nl + indent)
}

// marshal encodes v as compact JSON, without escaping <, > and &.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("jsonedit: %w", err)
	}
	var c bytes.Buffer
	if err := json.Compact(&c, b.Bytes()); err != nil {
		return nil, fmt.Errorf("jsonedit: %w", err)
	}
	return c.Bytes(), nil
}

// standard returns v without comments, whitespace or trailing commas.
func standard(v *hujson.Value) []byte {
	c := hujson.Value{Value: v.Value}.Clone()
	c.Minimize()
	return c.Pack()
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(a, b []byte) bool {
	var x, y any
	da := json.NewDecoder(bytes.NewReader(a))
	da.UseNumber()
	db := json.NewDecoder(bytes.NewReader(b))
	db.UseNumber()
	if da.Decode(&x) != nil || db.Decode(&y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

func hasNewline(b []byte) bool { return bytes.IndexByte(b, '\n') >= 0 }

// hasComment reports whether extra holds anything besides whitespace.
func hasComment(b []byte) bool { return len(bytes.TrimLeft(b, " \t\r\n")) > 0 }

// lastLineIndent is the whitespace after the last newline of lead.
func lastLineIndent(lead []byte) string {
	line := lead[bytes.LastIndexByte(lead, '\n')+1:]
	return string(line[:len(line)-len(bytes.TrimLeft(line, " \t"))])
}

// splitFirstLine splits extra before its first newline (a "\r\n" counts
// as the newline); rest starts with the newline. Without one, head is all.
func splitFirstLine(b hujson.Extra) (head, rest hujson.Extra) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return b, nil
	}
	if i > 0 && b[i-1] == '\r' {
		i--
	}
	return b[:i:i], append(hujson.Extra{}, b[i:]...)
}

// whitespaceOnly returns b when it holds only whitespace, else a space.
func whitespaceOnly(b hujson.Extra) hujson.Extra {
	if hasComment(b) {
		return hujson.Extra(" ")
	}
	return append(hujson.Extra(nil), b...)
}
