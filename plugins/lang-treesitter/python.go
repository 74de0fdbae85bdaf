package main

import (
	"bytes"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"

	"github.com/rubi-dev/rubi/core"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

func init() {
	register(&language{
		name:    core.LangPython,
		grammar: newGrammar(python.GetLanguage(), "python"),
		// A leading underscore hides a name; when the module lists
		// __all__, a top-level name is public only if listed.
		exported: func(x *extraction, d *def) bool {
			if strings.HasPrefix(d.name, "_") {
				return false
			}
			if d.topLevel && len(x.exports) > 0 {
				return x.exports[d.name]
			}
			return true
		},
		doc: func(x *extraction, d *def) string {
			return x.pyDocstring(d.node.ChildByFieldName("body"))
		},
		adopt: set(core.SymbolClass),
		fileDoc: func(x *extraction, root *sitter.Node) string {
			return x.pyDocstring(root)
		},
	})
}

// pyDocstring is the first line of the docstring that opens a block or a
// module, or "".
func (x *extraction) pyDocstring(body *sitter.Node) string {
	if body == nil {
		return ""
	}
	var first *sitter.Node
	for i := 0; i < int(body.NamedChildCount()); i++ {
		if c := body.NamedChild(i); c.Type() != "comment" {
			first = c
			break
		}
	}
	if first == nil || first.Type() != "expression_statement" || first.NamedChildCount() != 1 || first.NamedChild(0).Type() != "string" {
		return ""
	}
	s := unquote(first.NamedChild(0).Content(x.src))
	for _, line := range strings.Split(s, "\n") {
		if t := bytes.TrimSpace([]byte(line)); len(t) > 0 {
			return regex.Clip(t)
		}
	}
	return ""
}
