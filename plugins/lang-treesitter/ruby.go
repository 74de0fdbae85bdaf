package main

import (
	"github.com/smacker/go-tree-sitter/ruby"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/rubi-dev/rubi/core"
)

func init() {
	register(&language{
		name:     core.LangRuby,
		grammar:  newGrammar(ruby.GetLanguage(), "ruby"),
		exported: rubyExported,
		docStyle: docStyle{line: "#"},
		adopt:    set(core.SymbolClass, core.SymbolModule),
	})
}

// rubyExported reads Ruby's visibility: a bare private/protected/public
// sets it for the methods that follow in the same body; private def m and
// private :m hide m; private_constant :C hides C; def self.m is public
// unless it sits in a class << self block's private section.
func rubyExported(x *extraction, d *def) bool {
	body := d.node.Parent()
	if body == nil {
		return true
	}
	// private def helper; end
	if body.Type() == "argument_list" {
		if call := body.Parent(); call != nil && call.Type() == "call" {
			if m := call.ChildByFieldName("method"); m != nil && isHiding(m.Content(x.src)) {
				return false
			}
		}
	}
	hider := "private"
	if d.kind == core.SymbolConst {
		hider = "private_constant"
	}
	// private :later_hidden, private_constant :SECRET, anywhere in the body.
	for i := 0; i < int(body.NamedChildCount()); i++ {
		c := body.NamedChild(i)
		if c.Type() != "call" {
			continue
		}
		if m := c.ChildByFieldName("method"); m == nil || m.Content(x.src) != hider {
			continue
		}
		if args := c.ChildByFieldName("arguments"); args != nil {
			for k := 0; k < int(args.NamedChildCount()); k++ {
				if a := args.NamedChild(k); a.Type() == "simple_symbol" && a.Content(x.src) == ":"+d.name {
					return false
				}
			}
		}
	}
	if d.kind != core.SymbolMethod && d.kind != core.SymbolFunction {
		return true
	}
	if d.node.Type() == "singleton_method" && !inSingletonClass(body) {
		return true
	}
	for s := d.node.PrevNamedSibling(); s != nil; s = s.PrevNamedSibling() {
		if s.Type() == "identifier" {
			switch s.Content(x.src) {
			case "private", "protected":
				return false
			case "public":
				return true
			}
		}
	}
	return true
}

func isHiding(m string) bool { return m == "private" || m == "protected" }

func inSingletonClass(n *sitter.Node) bool {
	for ; n != nil; n = n.Parent() {
		switch n.Type() {
		case "singleton_class":
			return true
		case "class", "module":
			return false
		}
	}
	return false
}
