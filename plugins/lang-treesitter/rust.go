package main

import (
	"strings"
	"unicode"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/rust"

	"github.com/rubi-dev/rubi/core"
)

func init() {
	register(&language{
		name:       core.LangRust,
		grammar:    newGrammar(rust.GetLanguage(), "rust"),
		exported:   rustExported,
		docStyle:   docStyle{line: "///", block: "/**"},
		attrs:      set("attribute_item"),
		adopt:      set(core.SymbolInterface),
		importTree: rustUse,
	})
}

// rustExported: pub in any form; a trait's items and a trait impl's
// functions are as public as the trait; a macro_rules! is exported by
// #[macro_export].
func rustExported(x *extraction, d *def) bool {
	if d.up != nil && (d.up.kind == core.SymbolInterface || d.up.node.ChildByFieldName("trait") != nil) {
		return true
	}
	if d.node.Type() == "macro_definition" {
		for s := d.node.PrevNamedSibling(); s != nil && s.Type() == "attribute_item"; s = s.PrevNamedSibling() {
			if strings.Contains(s.Content(x.src), "macro_export") {
				return true
			}
		}
		return false
	}
	for i := 0; i < int(d.node.NamedChildCount()); i++ {
		if d.node.NamedChild(i).Type() == "visibility_modifier" {
			return true
		}
	}
	return false
}

// rustUse flattens a use tree into one import per path, on the line of
// that path: use a::{b, c::D as E, self} is a::b, a::c::D and a. Inside an
// inline module (mod m { use super::X; }), self and super are rewritten
// relative to the file, the unit the resolver knows: self::X.
func rustUse(x *extraction, pattern int, arg *sitter.Node) {
	var mods []string
	for p := arg.Parent(); p != nil; p = p.Parent() {
		if p.Type() == "mod_item" {
			if n := p.ChildByFieldName("name"); n != nil {
				mods = append([]string{n.Content(x.src)}, mods...)
			}
		}
	}
	emit := func(n *sitter.Node, path string) {
		x.addImportSpec(pattern, n.StartByte(), int(n.StartPoint().Row)+1, rustRelative(path, mods), core.ImportStatic, nil)
	}
	var walk func(n *sitter.Node, prefix string)
	walk = func(n *sitter.Node, prefix string) {
		switch n.Type() {
		case "scoped_use_list":
			p := prefix
			if path := n.ChildByFieldName("path"); path != nil {
				p = joinPath(prefix, squeeze(path.Content(x.src)))
			}
			if list := n.ChildByFieldName("list"); list != nil {
				walk(list, p)
			}
		case "use_list":
			for i := 0; i < int(n.NamedChildCount()); i++ {
				walk(n.NamedChild(i), prefix)
			}
		case "use_as_clause":
			if path := n.ChildByFieldName("path"); path != nil {
				walk(path, prefix)
			}
		case "self":
			if prefix != "" {
				emit(n, prefix)
			} else {
				emit(n, "self")
			}
		case "line_comment", "block_comment", "attribute_item":
		default:
			emit(n, joinPath(prefix, squeeze(n.Content(x.src))))
		}
	}
	walk(arg, "")
}

func joinPath(prefix, p string) string {
	if prefix == "" {
		return p
	}
	return prefix + "::" + p
}

// squeeze drops the spaces and line breaks inside a path.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// rustRelative rewrites a path used inside the inline modules mods
// relative to the file: self::a in mod m is self::m::a, super::a in mod m
// is self::a.
func rustRelative(path string, mods []string) string {
	if len(mods) == 0 {
		return path
	}
	segs := strings.Split(path, "::")
	switch segs[0] {
	case "self":
		return strings.Join(append(append([]string{"self"}, mods...), segs[1:]...), "::")
	case "super":
		up := len(mods)
		for len(segs) > 0 && segs[0] == "super" && up > 0 {
			segs, up = segs[1:], up-1
		}
		return strings.Join(append(append([]string{"self"}, mods[:up]...), segs...), "::")
	}
	return path
}
