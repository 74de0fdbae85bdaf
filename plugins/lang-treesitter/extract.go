package main

import (
	"bytes"
	"slices"
	"sort"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/rubi-dev/rubi/core"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

// extraction is the per-file state: the query's captures gathered, then
// turned into facts.
type extraction struct {
	lang  *language
	src   []byte
	facts *core.FileFacts
	max   int

	imports  map[uint32]*pendingImport
	defs     map[defKey]*def
	comments []span
	exports  map[string]bool
	lines    []int // byte offset of each line start, built on demand
}

type pendingImport struct {
	pattern int
	line    int
	spec    string
	kind    string
	names   []string
}

type defKey struct{ node, name uint32 }

// def is a definition the query found.
type def struct {
	pattern    int
	node       *sitter.Node
	name       string
	nameRow    int
	nameByte   uint32
	kind       string // "" for a scope
	parent     string // from @parent, else the enclosing member container
	start, end uint32
	dropped    bool
	topLevel   bool
	up         *def // the enclosing member container
	exported   bool
	local      bool // inside a file-local container (C++'s namespace { })
	lineRow    int  // the symbol's line when not its name's (a C typedef's first line)
}

type span struct {
	startRow, endRow   int
	startByte, endByte uint32
	ownLine            bool // nothing but blanks before it on its first line
}

func (x *extraction) run(c *compiled, root *sitter.Node) {
	x.imports = map[uint32]*pendingImport{}
	x.defs = map[defKey]*def{}
	x.exports = map[string]bool{}
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	qc.Exec(c.q, root)
	for {
		m, ok := qc.NextMatch()
		if !ok {
			break
		}
		m = qc.FilterPredicates(m, x.src)
		x.match(c, m)
	}
	x.finish(root)
}

func (x *extraction) match(c *compiled, m *sitter.QueryMatch) {
	var (
		defs             []*def
		names            []*sitter.Node // @name, or @declarator to dig into
		declarator       bool
		parent, line     *sitter.Node
		scope, scopeName *sitter.Node
		specs            []*sitter.Node
		kinds            []string
		importNames      []string
	)
	pattern := int(m.PatternIndex)
	for _, cp := range m.Captures {
		capture := c.names[cp.Index]
		n := cp.Node
		switch {
		case strings.HasPrefix(capture, "_"):
		case capture == "package":
			if x.facts.Package == "" {
				x.facts.Package = n.Content(x.src)
			}
		case capture == "import.name":
			importNames = append(importNames, n.Content(x.src))
		case strings.HasPrefix(capture, "import."):
			specs = append(specs, n)
			kinds = append(kinds, strings.TrimPrefix(capture, "import."))
		case strings.HasPrefix(capture, "definition."):
			defs = append(defs, &def{pattern: pattern, node: n, kind: strings.TrimPrefix(capture, "definition.")})
		case capture == "name":
			names = append(names, n)
		case capture == "declarator":
			names, declarator = append(names, n), true
		case capture == "parent":
			parent = n
		case capture == "line":
			line = n
		case capture == "scope":
			scope = n
		case capture == "scope.name":
			scopeName = n
		case capture == "export.name":
			x.exports[unquote(n.Content(x.src))] = true
		case capture == "comment":
			x.addComment(n)
		}
	}
	for i, n := range specs {
		if kinds[i] == "tree" {
			if x.lang.importTree != nil {
				x.lang.importTree(x, pattern, n)
			}
			continue
		}
		x.addImport(pattern, n, kinds[i], importNames)
	}
	for _, d := range defs {
		if d.kind == "ignore" || d.kind == "dead" || d.kind == "local" {
			// A node whose definitions are not the file's (a TypeScript
			// declare module, C's #if 0) or are file-local (C++'s
			// anonymous namespace): it has no name.
			d.name, d.nameRow, d.nameByte = "\x00", int(d.node.StartPoint().Row), d.node.StartByte()
			x.addDef(d)
		}
	}
	// A definition may name several symbols (Go's var x, y = 1, 2): one
	// definition node for all, or one per name (C's typedef a, *b).
	for i, nn := range names {
		var d def
		switch {
		case len(defs) == len(names):
			d = *defs[i]
		case len(defs) == 1:
			d = *defs[0]
		default:
			continue
		}
		nameNode := nn
		if declarator {
			var scope string
			nameNode, scope = declName(nn, x.src)
			if nameNode == nil {
				continue
			}
			if scope != "" {
				d.parent = scope
				if d.kind == core.SymbolFunction {
					d.kind = core.SymbolMethod
				}
			}
		}
		d.name = nameNode.Content(x.src)
		d.nameRow = int(nameNode.StartPoint().Row)
		d.nameByte = nameNode.StartByte()
		if line != nil {
			d.lineRow = int(line.StartPoint().Row) + 1
		}
		if parent != nil {
			d.parent = parent.Content(x.src)
		}
		x.addDef(&d)
	}
	if scope != nil && scopeName != nil {
		n := typeName(scopeName)
		x.addDef(&def{pattern: pattern, node: scope, name: n.Content(x.src), nameRow: int(n.StartPoint().Row), nameByte: n.StartByte()})
	}
}

// typeName digs a type for its name: Holder in Holder<'a, T>, &'static
// mut Unit, std::fmt::Holder.
func typeName(n *sitter.Node) *sitter.Node {
	for {
		var next *sitter.Node
		switch n.Type() {
		case "generic_type", "reference_type", "pointer_type":
			next = n.ChildByFieldName("type")
		case "scoped_type_identifier", "scoped_identifier":
			next = n.ChildByFieldName("name")
		}
		if next == nil {
			return n
		}
		n = next
	}
}

// declName digs a C or C++ declarator for the name it declares, and the
// scope that qualifies it (A in A::b, Box in Box<T>::all).
func declName(n *sitter.Node, src []byte) (name *sitter.Node, scope string) {
	for n != nil {
		switch n.Type() {
		case "identifier", "type_identifier", "field_identifier", "destructor_name", "operator_name":
			return n, scope
		case "qualified_identifier":
			if s := n.ChildByFieldName("scope"); s != nil {
				if s.Type() == "template_type" {
					s = s.ChildByFieldName("name")
				}
				t := s.Content(src)
				if k := strings.LastIndex(t, "::"); k >= 0 {
					t = t[k+2:]
				}
				scope = t
			}
			n = n.ChildByFieldName("name")
		case "template_function", "template_type":
			n = n.ChildByFieldName("name")
		default:
			d := n.ChildByFieldName("declarator")
			if d == nil && n.NamedChildCount() > 0 {
				d = n.NamedChild(0)
			}
			n = d
		}
	}
	return nil, ""
}

func (x *extraction) addImport(pattern int, n *sitter.Node, kind string, names []string) {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		t := n.NamedChild(i).Type()
		if strings.Contains(t, "substitution") || strings.Contains(t, "interpolation") {
			return // computed: import(`./x/${name}`)
		}
	}
	var spec string
	if x.lang.importSpec != nil {
		spec = x.lang.importSpec(x, n)
	} else {
		spec = unquote(n.Content(x.src))
	}
	x.addImportSpec(pattern, n.StartByte(), int(n.StartPoint().Row)+1, spec, kind, names)
}

// addImportSpec records spec at byte key: when two patterns find an
// import there, the earlier one wins; one pattern matching several times
// gathers the names.
func (x *extraction) addImportSpec(pattern int, key uint32, line int, spec, kind string, names []string) {
	if spec == "" {
		return
	}
	if old := x.imports[key]; old != nil {
		if old.pattern == pattern {
			for _, nm := range names {
				if !slices.Contains(old.names, nm) {
					old.names = append(old.names, nm)
				}
			}
		}
		if old.pattern <= pattern {
			return
		}
	}
	x.imports[key] = &pendingImport{pattern: pattern, line: line, spec: spec, kind: kind, names: names}
}

func (x *extraction) addDef(d *def) {
	d.name = strings.TrimPrefix(d.name, "r#") // Rust's raw identifiers: fn r#type()
	if d.name == "" || d.name == "_" {
		return
	}
	d.start, d.end = d.node.StartByte(), d.node.EndByte()
	key := defKey{d.start, d.nameByte}
	if old := x.defs[key]; old != nil && old.pattern <= d.pattern {
		return
	}
	x.defs[key] = d
}

func (x *extraction) addComment(n *sitter.Node) {
	s := span{startRow: int(n.StartPoint().Row), endRow: int(n.EndPoint().Row), startByte: n.StartByte(), endByte: n.EndByte()}
	a := x.lineStart(s.startRow)
	s.ownLine = len(bytes.TrimSpace(x.src[a:s.startByte])) == 0
	if n.EndPoint().Column == 0 && s.endRow > s.startRow {
		// Rust's line comments hold their line break.
		s.endRow--
		s.endByte = uint32(len(bytes.TrimRight(x.src[:s.endByte], "\r\n")))
	}
	if k := len(x.comments); k > 0 && x.comments[k-1].startByte == s.startByte {
		return
	}
	x.comments = append(x.comments, s)
}

// unquote strips a string literal's delimiters: "x", 'x', `x`, <x>, and
// Python's prefixes and triple quotes.
func unquote(s string) string {
	s = strings.TrimSpace(s)
	if k := strings.IndexAny(s, "\"'`"); k > 0 && k <= 2 && strings.Trim(s[:k], "rRuUbBfF") == "" {
		s = s[k:] // a string prefix: r"x", b'x'
	}
	for _, q := range []string{`"""`, `'''`, `"`, `'`, "`"} {
		if len(s) >= 2*len(q) && strings.HasPrefix(s, q) && strings.HasSuffix(s, q) {
			return s[len(q) : len(s)-len(q)]
		}
	}
	if len(s) >= 2 && s[0] == '<' && s[len(s)-1] == '>' {
		return s[1 : len(s)-1]
	}
	return s
}

// finish nests the definitions, decides who is exported, finds docs and
// signatures, and stores the facts in source order.
func (x *extraction) finish(root *sitter.Node) {
	sort.Slice(x.comments, func(a, b int) bool { return x.comments[a].startByte < x.comments[b].startByte })

	var hidden [][2]uint32
	for _, d := range x.defs {
		if d.kind == "dead" {
			hidden = append(hidden, [2]uint32{d.start, d.end})
		}
	}
	imps := make([]*pendingImport, 0, len(x.imports))
outer:
	for at, im := range x.imports {
		for _, h := range hidden {
			if h[0] <= at && at < h[1] {
				continue outer // in dead code: #if 0
			}
		}
		imps = append(imps, im)
	}
	sort.Slice(imps, func(a, b int) bool {
		return imps[a].line < imps[b].line || imps[a].line == imps[b].line && imps[a].pattern < imps[b].pattern
	})
	for _, im := range imps {
		x.facts.Imports = append(x.facts.Imports, core.Import{Spec: im.spec, Line: im.line, Kind: im.kind, Names: im.names})
	}
	// Imports on one line keep their order in the source.
	sort.SliceStable(x.facts.Imports, func(a, b int) bool { return x.facts.Imports[a].Line < x.facts.Imports[b].Line })

	defs := make([]*def, 0, len(x.defs))
	for _, d := range x.defs {
		defs = append(defs, d)
	}
	sort.Slice(defs, func(a, b int) bool {
		da, db := defs[a], defs[b]
		if da.start != db.start {
			return da.start < db.start
		}
		if da.end != db.end {
			return da.end > db.end
		}
		return da.nameByte < db.nameByte
	})
	var stack []*def
	for _, d := range defs {
		// Pop what does not enclose d; two names of one node are siblings.
		for len(stack) > 0 && !encloses(stack[len(stack)-1], d) {
			stack = stack[:len(stack)-1]
		}
		// Transparent containers (a C++ namespace) leave their definitions
		// top-level.
		k := len(stack) - 1
		for k >= 0 && (x.lang.transparent[stack[k].kind] || stack[k].kind == "local") {
			if stack[k].kind == "local" || stack[k].local {
				d.local = true
			}
			k--
		}
		if k < 0 {
			d.topLevel = true
		} else {
			up := stack[k]
			d.local = d.local || up.local
			switch {
			case up.dropped:
				d.dropped = true
			case up.kind == "" || x.lang.adopt[up.kind]:
				if d.parent == "" {
					d.parent = up.name
				}
				d.up = up
				if d.kind == core.SymbolFunction {
					d.kind = core.SymbolMethod
				}
			default:
				d.dropped = true // local to a function
			}
		}
		stack = append(stack, d)
	}
	seen := map[[3]string]bool{}
	for _, d := range defs {
		// Containers come before their members, so a member can ask
		// whether its container is exported.
		d.exported = x.lang.exported == nil || x.lang.exported(x, d)
		if d.dropped || d.kind == "" || d.kind == "ignore" || d.kind == "dead" || d.kind == "local" {
			d.dropped = true
			continue
		}
		if x.lang.unique {
			// One kind: TypeScript's const X and type X are both reported.
			k := [3]string{d.parent, d.name, d.kind}
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		if len(x.facts.Symbols) >= x.max {
			break
		}
		s := core.Symbol{
			Name:      d.name,
			Kind:      d.kind,
			Line:      d.nameRow + 1,
			EndLine:   max(endRow(d.node), d.nameRow) + 1,
			Exported:  d.exported,
			Signature: x.signature(d.nameRow, d.nameByte),
			Parent:    d.parent,
		}
		if d.lineRow != 0 {
			s.Line = d.lineRow
			s.EndLine = max(s.EndLine, s.Line)
		}
		if x.lang.doc != nil {
			s.Doc = x.lang.doc(x, d)
		} else {
			s.Doc = x.docAbove(x.docRow(d.node), x.lang.docStyle)
		}
		x.facts.Symbols = append(x.facts.Symbols, s)
	}
	sort.SliceStable(x.facts.Symbols, func(a, b int) bool { return x.facts.Symbols[a].Line < x.facts.Symbols[b].Line })
	if x.lang.fileDoc != nil {
		x.facts.Doc = x.lang.fileDoc(x, root)
	} else {
		x.facts.Doc = x.topComment(root)
	}
}

// endRow is the last row of n's code: comments that trail a Python block
// belong to the tree but not to the definition.
func endRow(n *sitter.Node) int {
	for {
		c := int(n.ChildCount())
		if c == 0 {
			return int(n.EndPoint().Row)
		}
		i := c - 1
		for i >= 0 && isComment(n.Child(i)) {
			i--
		}
		if i < 0 {
			return int(n.EndPoint().Row)
		}
		if i == c-1 && !n.Child(i).IsNamed() {
			return int(n.EndPoint().Row) // a closing token
		}
		n = n.Child(i)
	}
}

func isComment(n *sitter.Node) bool { return strings.Contains(n.Type(), "comment") }

func encloses(up, d *def) bool {
	return up.start <= d.start && d.end <= up.end && (up.start != d.start || up.end != d.end)
}

// lineStart is the byte offset of row's first byte.
func (x *extraction) lineStart(row int) int {
	if x.lines == nil {
		x.lines = append(x.lines, 0)
		for i, c := range x.src {
			if c == '\n' {
				x.lines = append(x.lines, i+1)
			}
		}
	}
	if row >= len(x.lines) {
		return len(x.src)
	}
	return x.lines[row]
}

func (x *extraction) line(row int) []byte {
	a, b := x.lineStart(row), x.lineStart(row+1)
	return bytes.TrimRight(x.src[a:b], "\r\n")
}

// signature is the source line of a definition's name, trimmed, without a
// comment that follows the name.
func (x *extraction) signature(row int, after uint32) string {
	a := x.lineStart(row)
	t := x.line(row)
	k := sort.Search(len(x.comments), func(i int) bool { return x.comments[i].startByte > after })
	if k < len(x.comments) && x.comments[k].startRow == row {
		t = t[:int(x.comments[k].startByte)-a]
	}
	return regex.Clip(t)
}

// docRow is the row a definition's doc comment must end right above: its
// start, or its wrapper's, above any attributes.
func (x *extraction) docRow(n *sitter.Node) int {
	for p := n.Parent(); p != nil && x.lang.wrappers[p.Type()]; p = p.Parent() {
		n = p
	}
	row := int(n.StartPoint().Row)
	for s := n.PrevNamedSibling(); s != nil && x.lang.attrs[s.Type()] && int(s.EndPoint().Row) >= row-1; s = s.PrevNamedSibling() {
		row = int(s.StartPoint().Row)
	}
	return row
}

// docStyle says which comments above a definition document it.
type docStyle struct {
	line  string // line-comment prefix: "//", "///", "#"
	block string // accepted block-comment opener: "/*", "/**" or ""
}

// docAbove is the first line of prose of the comment block that ends on
// the line right above row, or "".
func (x *extraction) docAbove(row int, st docStyle) string {
	k := sort.Search(len(x.comments), func(i int) bool { return x.comments[i].endRow >= row-1 })
	if k == len(x.comments) || x.comments[k].endRow != row-1 || !x.comments[k].ownLine {
		return ""
	}
	// Only comments before the definition count: the one found must end
	// before the row starts.
	if x.comments[k].endByte > uint32(x.lineStart(row)) {
		return ""
	}
	top := k
	if st.line != "" && x.isLine(k, st) {
		for top > 0 && x.comments[top-1].ownLine && x.comments[top-1].endRow == x.comments[top].startRow-1 && x.isLine(top-1, st) {
			top--
		}
		for i := top; i <= k; i++ {
			t := bytes.TrimSpace(x.src[x.comments[i].startByte:x.comments[i].endByte])
			t = bytes.TrimPrefix(t, []byte(st.line))
			if regex.Directive(t) {
				continue
			}
			t = bytes.TrimLeft(t, "/") // /// under a // style
			if t = bytes.TrimSpace(t); len(t) > 0 {
				return regex.Clip(t)
			}
		}
		return ""
	}
	c := x.comments[k]
	text := x.src[c.startByte:c.endByte]
	if st.block == "" || !bytes.HasPrefix(text, []byte(st.block)) || bytes.HasPrefix(text, []byte("/**/")) || !bytes.HasSuffix(text, []byte("*/")) {
		return ""
	}
	return blockText(text)
}

func (x *extraction) isLine(k int, st docStyle) bool {
	return bytes.HasPrefix(x.src[x.comments[k].startByte:], []byte(st.line))
}

// blockText is the first line of prose of a block comment, JSDoc tags
// left out.
func blockText(text []byte) string {
	text = bytes.TrimSuffix(text[2:], []byte("*/"))
	for i, t := range bytes.Split(text, []byte("\n")) {
		t = bytes.TrimSpace(t)
		if i == 0 {
			t = bytes.TrimLeft(t, "*!")
		}
		t = bytes.TrimSpace(bytes.TrimPrefix(t, []byte("*")))
		if len(t) == 0 || t[0] == '@' {
			continue
		}
		return regex.Clip(t)
	}
	return ""
}

var licenseWords = [][]byte{[]byte("copyright"), []byte("license"), []byte("spdx-"), []byte("all rights reserved")}

// topComment is the first line of prose of the first comment block at the
// top of the file that is not a license header or a pragma.
func (x *extraction) topComment(root *sitter.Node) string {
	first := len(x.src)
	for i := 0; i < int(root.NamedChildCount()); i++ {
		if c := root.NamedChild(i); !strings.Contains(c.Type(), "comment") {
			first = int(c.StartByte())
			break
		}
	}
	for i := 0; i < len(x.comments) && int(x.comments[i].startByte) < first; {
		j := i
		for j+1 < len(x.comments) && x.comments[j+1].startRow <= x.comments[j].endRow+1 && int(x.comments[j+1].startByte) < first {
			j++
		}
		block := x.src[x.comments[i].startByte:x.comments[j].endByte]
		if !pragma(block) && !license(block) {
			if bytes.HasPrefix(block, []byte("/*")) {
				return blockText(x.src[x.comments[i].startByte:x.comments[i].endByte])
			}
			for _, t := range bytes.Split(block, []byte("\n")) {
				t = bytes.TrimLeft(bytes.TrimSpace(t), "/#!")
				if t = bytes.TrimSpace(t); len(t) > 0 {
					return regex.Clip(t)
				}
			}
		}
		i = j + 1
	}
	return ""
}

func license(block []byte) bool {
	low := bytes.ToLower(block)
	for _, w := range licenseWords {
		if bytes.Contains(low, w) {
			return true
		}
	}
	return false
}

// pragma reports a comment meant for a tool, not a reader: a shebang, an
// encoding or frozen-string declaration, a linter directive.
func pragma(block []byte) bool {
	t := bytes.TrimSpace(block)
	if bytes.HasPrefix(t, []byte("#!")) {
		return true
	}
	for _, w := range []string{"coding:", "coding=", "frozen_string_literal", "-*-", "eslint", "@ts-", "prettier-ignore", "jshint", "global "} {
		if bytes.Contains(t, []byte(w)) && bytes.Count(t, []byte("\n")) == 0 {
			return true
		}
	}
	return false
}
