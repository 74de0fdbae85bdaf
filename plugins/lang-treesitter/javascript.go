package main

import (
	"strings"

	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"

	"github.com/rubi-dev/rubi/core"
)

// JavaScript and TypeScript share most of their queries: each grammar
// runs ecmascript.scm, then javascript.scm or typescript.scm for what
// only it has.
func init() {
	js := &language{
		name:     core.LangJavaScript,
		grammar:  newGrammar(javascript.GetLanguage(), "ecmascript", "javascript"),
		exported: jsExported,
		docStyle: docStyle{line: "//", block: "/**"},
		wrappers: set("export_statement", "lexical_declaration", "variable_declaration", "ambient_declaration"),
		adopt:    set(core.SymbolClass, core.SymbolInterface),
		unique:   true,
	}
	register(js)
	ts := *js
	ts.name = core.LangTypeScript
	ts.grammar = newGrammar(typescript.GetLanguage(), "ecmascript", "typescript")
	ts.byExt = map[string]*grammar{".tsx": newGrammar(tsx.GetLanguage(), "ecmascript", "typescript")}
	register(&ts)
}

// jsExported: a top-level definition is exported by an export statement
// around it or an export clause naming it; a class member is when its
// class is, unless it is private (#name, TypeScript's private).
func jsExported(x *extraction, d *def) bool {
	if d.up != nil {
		if !d.up.exported || strings.HasPrefix(d.name, "#") {
			return false
		}
		for i := 0; i < int(d.node.NamedChildCount()); i++ {
			if c := d.node.NamedChild(i); c.Type() == "accessibility_modifier" {
				return c.Content(x.src) != "private"
			}
		}
		return true
	}
	for p := d.node.Parent(); p != nil; p = p.Parent() {
		if p.Type() == "export_statement" {
			return true
		}
		if !x.lang.wrappers[p.Type()] {
			break
		}
	}
	return x.exports[d.name]
}
