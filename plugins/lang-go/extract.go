package golang

import (
	"bytes"
	"go/ast"
	"go/token"
	"sort"
	"strings"

	"github.com/rubi-dev/rubi/core"
	gorefs "github.com/rubi-dev/rubi/core/refs/golang"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

// extraction is the state of one Extract call.
type extraction struct {
	fset     *token.FileSet
	tf       *token.File
	src      []byte
	comments []*ast.CommentGroup
	max      int
	facts    *core.FileFacts
	// flat lists every comment of the file in source order, made on the
	// first signature that needs it.
	flat []*ast.Comment
}

func (x *extraction) full() bool { return len(x.facts.Symbols) >= x.max }

// line is the line of pos in the file as it is, whatever a //line
// directive says (generated code points at its source with them), or 0
// when pos is not in the file.
func (x *extraction) line(pos token.Pos) int {
	if !pos.IsValid() || x.tf == nil || int(pos) < x.tf.Base() || int(pos) > x.tf.Base()+x.tf.Size() {
		return 0
	}
	return x.tf.PositionFor(pos, false).Line
}

// add appends a symbol declared from line from to line to, with the
// signature of its first line, unless the file is full or the name is
// blank (a _ declares nothing anyone can name).
func (x *extraction) add(s core.Symbol, from, to int, doc *ast.CommentGroup) {
	if x.full() || s.Name == "" || s.Name == "_" || from < 1 {
		return
	}
	s.Line, s.EndLine = from, max(to, from)
	s.Exported = token.IsExported(s.Name)
	s.Signature = x.signature(from)
	s.Doc = docLine(doc)
	x.facts.Symbols = append(x.facts.Symbols, s)
}

func (x *extraction) funcDecl(d *ast.FuncDecl) {
	if d.Name == nil {
		return
	}
	s := core.Symbol{Name: d.Name.Name, Kind: core.SymbolFunction}
	if d.Recv != nil {
		s.Kind = core.SymbolMethod
		if len(d.Recv.List) > 0 {
			s.Parent = gorefs.ReceiverName(d.Recv.List[0].Type)
		}
	}
	x.add(s, x.line(d.Pos()), x.line(d.End()), d.Doc)
}

// genDecl reads a type, const or var declaration, one spec or a group of
// them. A lone spec spans its declaration's keyword and takes its doc; a
// spec in a group spans its own lines and takes the doc above it.
func (x *extraction) genDecl(d *ast.GenDecl) {
	if d.Tok == token.IMPORT {
		return
	}
	grouped := d.Lparen.IsValid()
	for _, spec := range d.Specs {
		if x.full() {
			return
		}
		from, to, doc := x.line(d.Pos()), x.line(d.End()), d.Doc
		if grouped {
			from, to = x.line(spec.Pos()), x.line(spec.End())
		}
		switch spec := spec.(type) {
		case *ast.TypeSpec:
			if grouped {
				doc = spec.Doc
			}
			x.typeSpec(spec, from, to, doc)
		case *ast.ValueSpec:
			if grouped {
				doc = spec.Doc
			}
			kind := core.SymbolVar
			if d.Tok == token.CONST {
				kind = core.SymbolConst
			}
			for _, n := range spec.Names {
				x.add(core.Symbol{Name: n.Name, Kind: kind}, from, to, doc)
			}
		}
	}
}

// typeSpec adds a type, and an interface's methods after it with the
// interface as their parent (what a type's method sets are checked
// against, and where a call through the interface lands).
func (x *extraction) typeSpec(spec *ast.TypeSpec, from, to int, doc *ast.CommentGroup) {
	if spec.Name == nil {
		return
	}
	iface, _ := ast.Unparen(spec.Type).(*ast.InterfaceType)
	kind := core.SymbolType
	if iface != nil {
		kind = core.SymbolInterface
	}
	x.add(core.Symbol{Name: spec.Name.Name, Kind: kind}, from, to, doc)
	if iface == nil || iface.Methods == nil {
		return
	}
	for _, m := range iface.Methods.List {
		if _, ok := m.Type.(*ast.FuncType); !ok {
			continue // an embedded interface or a type set, not a method
		}
		for _, n := range m.Names {
			x.add(core.Symbol{Name: n.Name, Kind: core.SymbolMethod, Parent: spec.Name.Name}, x.line(m.Pos()), x.line(m.End()), m.Doc)
		}
	}
}

// signature is the source of line n trimmed, without the comments that
// end it, as lang.regex gives it.
func (x *extraction) signature(n int) string {
	if x.tf == nil || n < 1 || n > x.tf.LineCount() {
		return ""
	}
	start := x.tf.Offset(x.tf.LineStart(n))
	end := len(x.src)
	if n < x.tf.LineCount() {
		end = x.tf.Offset(x.tf.LineStart(n+1)) - 1
	}
	if start > end || end > len(x.src) {
		return ""
	}
	if x.flat == nil && len(x.comments) > 0 {
		for _, g := range x.comments {
			x.flat = append(x.flat, g.List...)
		}
	}
	// The comments that start on the line, last first: each one followed
	// by nothing but blanks to the end of the line is cut off.
	k := sort.Search(len(x.flat), func(i int) bool { return x.tf.Offset(x.flat[i].Pos()) >= end })
	for k--; k >= 0; k-- {
		c := x.flat[k]
		cs := x.tf.Offset(c.Pos())
		if cs < start {
			break
		}
		ce := min(x.tf.Offset(c.End()), end)
		if len(bytes.TrimRight(x.src[ce:end], " \t\r")) > 0 {
			break
		}
		end = cs
	}
	return regex.Clip(bytes.TrimRight(x.src[start:end], " \t\r"))
}

// docLine is the first line of prose of a doc comment, as lang.regex
// reads it: of the block comment that ends the group, or of the line
// comments that end it, past tool directives (//go:generate, //nolint:x)
// and, in a block, past @tags.
func docLine(g *ast.CommentGroup) string {
	if g == nil || len(g.List) == 0 {
		return ""
	}
	last := g.List[len(g.List)-1].Text
	if strings.HasPrefix(last, "/*") {
		if strings.HasPrefix(last, "/**/") {
			return ""
		}
		body := strings.TrimSuffix(strings.TrimLeft(last[2:], "*!"), "*/")
		for _, l := range strings.Split(body, "\n") {
			t := strings.TrimSpace(l)
			t = strings.TrimSpace(strings.TrimSuffix(t, "*/"))
			t = strings.TrimSpace(strings.TrimPrefix(t, "*"))
			if t == "" || t[0] == '@' {
				continue
			}
			return regex.Clip([]byte(t))
		}
		return ""
	}
	top := len(g.List) - 1
	for top > 0 && strings.HasPrefix(g.List[top-1].Text, "//") {
		top--
	}
	for _, c := range g.List[top:] {
		t := []byte(strings.TrimPrefix(c.Text, "//"))
		if regex.Directive(t) {
			continue
		}
		if t = bytes.TrimSpace(t); len(t) > 0 {
			return regex.Clip(t)
		}
	}
	return ""
}
