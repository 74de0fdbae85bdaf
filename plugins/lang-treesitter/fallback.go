package main

import (
	"context"
	"fmt"
	"sort"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/rubi-dev/rubi/core"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

// Where a grammar gives up, the regex parser still reads the lines: a C
// function behind attribute macros (static void NORETURN PRINTF(1, 2)
// die(...)) is an ERROR node to a grammar without a preprocessor. For a
// tree with errors, the regex parser's facts on the error's lines that the
// tree did not give are added, so lang.treesitter never knows less than
// lang.regex there. The regex parser is the stage's own (newFallback),
// configured with the same max_symbols.
func newFallback(maxSymbols int) *regex.Parser {
	p := regex.New()
	p.Configure(context.Background(), core.Setup{Settings: []byte(fmt.Sprintf(`{"max_symbols": %d}`, maxSymbols))})
	return p
}

// errorRows lists the row ranges of the tree's ERROR and MISSING nodes,
// visiting only the subtrees that hold one.
func errorRows(root *sitter.Node) [][2]int {
	var out [][2]int
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if n.IsError() || n.IsMissing() {
			out = append(out, [2]int{int(n.StartPoint().Row), int(n.EndPoint().Row)})
			return
		}
		for i := 0; i < int(n.ChildCount()); i++ {
			if c := n.Child(i); c.HasError() {
				walk(c)
			}
		}
	}
	walk(root)
	return out
}

func (x *extraction) fillFromRegex(ctx context.Context, fallback *regex.Parser, sf *core.SourceFile, root *sitter.Node) {
	rows := errorRows(root)
	if len(rows) == 0 {
		return
	}
	in := func(line int) bool {
		for _, r := range rows {
			if r[0] <= line-1 && line-1 <= r[1]+1 {
				return true
			}
		}
		return false
	}
	facts, err := fallback.Parse(ctx, []core.SourceFile{{Path: sf.Path, Language: x.facts.Language, Content: x.src}})
	if err != nil || len(facts) != 1 {
		return
	}
	haveImp := map[string]bool{}
	for _, im := range x.facts.Imports {
		haveImp[im.Spec] = true
	}
	added := false
	for _, im := range facts[0].Imports {
		if in(im.Line) && !haveImp[im.Spec] {
			x.facts.Imports = append(x.facts.Imports, im)
			added = true
		}
	}
	if added {
		sort.SliceStable(x.facts.Imports, func(a, b int) bool { return x.facts.Imports[a].Line < x.facts.Imports[b].Line })
	}
	haveSym := map[[2]string]bool{}
	for _, s := range x.facts.Symbols {
		haveSym[[2]string{s.Parent, s.Name}] = true
	}
	added = false
	for _, s := range facts[0].Symbols {
		if len(x.facts.Symbols) >= x.max {
			break
		}
		if in(s.Line) && !haveSym[[2]string{s.Parent, s.Name}] {
			x.facts.Symbols = append(x.facts.Symbols, s)
			added = true
		}
	}
	if added {
		sort.SliceStable(x.facts.Symbols, func(a, b int) bool { return x.facts.Symbols[a].Line < x.facts.Symbols[b].Line })
	}
}
