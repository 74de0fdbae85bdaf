package main

import (
	"embed"
	"fmt"
	"path"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
)

// The queries say what to read from a tree; the Go code of each language
// says only what a query cannot (who is exported, where a doc comment
// is). Capture names, shared by every query file:
//
//	@package                 the file's package or namespace name
//	@import.KIND             an import spec (a string literal is unquoted;
//	                         KIND is a core.Import* kind: static, side-effect,
//	                         reexport, require, dynamic, module, relative, system)
//	@import.tree             a node the language's Go code reads imports from
//	@import.name             a name imported from it (Python's from m import a)
//	@definition.KIND + @name a definition (KIND is a core.Symbol* kind) and its name
//	@parent                  the definition's parent type when it is not an
//	                         enclosing node (a Go method's receiver)
//	@scope + @scope.name     a container that is not a symbol itself but
//	                         makes the definitions inside members (a Rust impl)
//	@export.name             a name exported after the fact (export { a })
//	@definition.ignore       a node whose definitions are not reported (an
//	                         anonymous function's, a declare module's)
//	@definition.dead         the same, and its imports too (C's #if 0)
//	@definition.local        a node whose definitions are reported top-level
//	                         but not exported (C++'s namespace { })
//	@comment                 a comment, for doc comments and signatures
//
// Captures whose name starts with "_" serve predicates only. When two
// patterns capture the same node, the earlier pattern wins, so a specific
// pattern goes before a general one.
//
//go:embed queries/*.scm
var queryFiles embed.FS

// language is what a per-language file registers.
type language struct {
	name string
	// grammar parses the language's files; byExt overrides it for some
	// extensions (TypeScript's .tsx).
	grammar *grammar
	byExt   map[string]*grammar
	// exported says whether a definition is visible outside its file or
	// package; nil means every definition is.
	exported func(x *extraction, d *def) bool
	// doc reads a definition's doc; nil means the comment block above it
	// in docStyle.
	doc      func(x *extraction, d *def) string
	docStyle docStyle
	// wrappers are node types a definition sits in whose start is where
	// its doc comment ends (a decorated Python definition, a JS export);
	// attrs are sibling node types between a doc and its definition (Rust
	// attributes).
	wrappers map[string]bool
	attrs    map[string]bool
	// adopt are the symbol kinds whose nested definitions are members;
	// definitions nested in any other kind are local and not reported.
	adopt map[string]bool
	// transparent are the symbol kinds whose nested definitions are
	// top-level (a C++ namespace's).
	transparent map[string]bool
	// importTree reads an @import.tree capture, which may hold several
	// imports (a Rust use tree), and adds them with x.addImportSpec.
	importTree func(x *extraction, pattern int, n *sitter.Node)
	// importSpec reads an import capture's spec; nil means the node's
	// text, unquoted.
	importSpec func(x *extraction, n *sitter.Node) string
	// unique reports a name once per scope and kind: the first of a
	// TypeScript function's overloads, a getter and not its setter.
	unique bool
	// fileDoc reads the file's own description; nil means the first
	// comment block at the top that is not a license.
	fileDoc func(x *extraction, root *sitter.Node) string
}

// grammar is one tree-sitter grammar and the query run on its trees: the
// concatenation of the named files of queries/, compiled on first use and
// shared by every worker (a compiled query is read-only).
type grammar struct {
	lang  *sitter.Language
	query func() (*compiled, error)
}

type compiled struct {
	q *sitter.Query
	// names are the capture names by index, read once instead of
	// through cgo at every capture.
	names []string
}

func newGrammar(lang *sitter.Language, files ...string) *grammar {
	return &grammar{lang: lang, query: sync.OnceValues(func() (*compiled, error) {
		var src strings.Builder
		for _, f := range files {
			b, err := queryFiles.ReadFile("queries/" + f + ".scm")
			if err != nil {
				return nil, err
			}
			src.Write(b)
			src.WriteByte('\n')
		}
		q, err := sitter.NewQuery([]byte(src.String()), lang)
		if err != nil {
			return nil, fmt.Errorf("%s: queries %s: %w", Name, strings.Join(files, "+"), err)
		}
		c := &compiled{q: q, names: make([]string, q.CaptureCount())}
		for i := range c.names {
			c.names[i] = q.CaptureNameForId(uint32(i))
		}
		return c, nil
	})}
}

func (l *language) grammarFor(p string) *grammar {
	if g := l.byExt[path.Ext(p)]; g != nil {
		return g
	}
	return l.grammar
}

var languages = map[string]*language{}

func register(l *language) {
	if languages[l.name] != nil {
		panic("lang.treesitter: language registered twice: " + l.name)
	}
	languages[l.name] = l
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
