package main

import (
	"unicode"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/golang"

	"github.com/rubi-dev/rubi/core"
)

func init() {
	register(&language{
		name:     core.LangGo,
		grammar:  newGrammar(golang.GetLanguage(), "go"),
		exported: func(_ *extraction, d *def) bool { return upperFirst(d.name) },
		docStyle: docStyle{line: "//", block: "/*"},
		adopt:    set(),
		// The package comment is the one right above the package clause.
		fileDoc: func(x *extraction, root *sitter.Node) string {
			for i := 0; i < int(root.NamedChildCount()); i++ {
				if c := root.NamedChild(i); c.Type() == "package_clause" {
					return x.docAbove(int(c.StartPoint().Row), docStyle{line: "//", block: "/*"})
				}
			}
			return ""
		},
	})
}

func upperFirst(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}
