package main

import (
	"strings"
	"unicode"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/java"

	"github.com/rubi-dev/rubi/core"
)

func init() {
	register(&language{
		name:       core.LangJava,
		grammar:    newGrammar(java.GetLanguage(), "java"),
		exported:   javaExported,
		docStyle:   docStyle{block: "/**"},
		adopt:      set(core.SymbolClass, core.SymbolInterface),
		importSpec: javaImportSpec,
	})
}

// javaExported: public, or a member of an interface that is not private;
// a member only when its container is exported too.
func javaExported(x *extraction, d *def) bool {
	if d.up != nil && !d.up.exported {
		return false
	}
	public, private := false, false
	for i := 0; i < int(d.node.NamedChildCount()); i++ {
		if c := d.node.NamedChild(i); c.Type() == "modifiers" {
			for k := 0; k < int(c.ChildCount()); k++ {
				switch c.Child(k).Type() {
				case "public":
					public = true
				case "private":
					private = true
				}
			}
		}
	}
	return public || d.up != nil && d.up.kind == core.SymbolInterface && !private
}

// javaImportSpec is the imported name of an import declaration, spaces
// and line breaks taken out: import static a.b\n  .C.*; is a.b.C.*.
func javaImportSpec(x *extraction, n *sitter.Node) string {
	var b strings.Builder
	for i := 0; i < int(n.ChildCount()); i++ {
		c := n.Child(i)
		switch c.Type() {
		case "import", "static", ";", "comment", "line_comment", "block_comment":
			continue
		}
		for _, r := range c.Content(x.src) {
			if !unicode.IsSpace(r) {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}
