package main

import (
	"strings"

	"github.com/smacker/go-tree-sitter/c"
	"github.com/smacker/go-tree-sitter/cpp"

	"github.com/rubi-dev/rubi/core"
)

func init() {
	l := language{
		name:        core.LangC,
		grammar:     newGrammar(c.GetLanguage(), "c"),
		exported:    cExported,
		docStyle:    docStyle{line: "//", block: "/*"},
		wrappers:    set("type_definition", "template_declaration"),
		adopt:       set(core.SymbolClass, core.SymbolType),
		transparent: set(core.SymbolModule),
	}
	register(&l)
	cc := l
	cc.name = core.LangCPP
	cc.grammar = newGrammar(cpp.GetLanguage(), "c", "cpp")
	register(&cc)
}

// cExported: not static, not in an anonymous namespace; a class member
// when public (a class's members are private until said otherwise, a
// struct's public) and its class is exported.
func cExported(x *extraction, d *def) bool {
	if d.local {
		return false
	}
	for i := 0; i < int(d.node.NamedChildCount()); i++ {
		if c := d.node.NamedChild(i); c.Type() == "storage_class_specifier" && c.Content(x.src) == "static" {
			return false
		}
	}
	if d.up == nil {
		return true
	}
	if !d.up.exported {
		return false
	}
	n := d.node
	if p := n.Parent(); p != nil && p.Type() == "template_declaration" {
		n = p
	}
	for s := n.PrevNamedSibling(); s != nil; s = s.PrevNamedSibling() {
		if s.Type() == "access_specifier" {
			return strings.HasPrefix(s.Content(x.src), "public")
		}
	}
	return d.up.kind != core.SymbolClass
}
