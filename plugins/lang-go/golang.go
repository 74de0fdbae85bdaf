// Package golang is the built-in parser "lang.go": it reads Go through the
// standard library's go/parser, so a file's declarations, receivers, doc
// comments and imports are those the compiler sees, where lang.regex can
// only guess them from lines. It is pure Go and needs neither the go
// command nor anything downloaded at run time, so it takes Go over from
// lang.regex in the built-in rubi.hcl.
//
// A file go/parser cannot read whole still gets its facts: the partial
// tree go/parser returns gives the declarations it holds, and the regex
// parser's facts fill in the lines of the declarations the errors fall
// in, or the whole file when go/parser returns no tree at all (its
// package clause is broken, or it gave up after too many errors). So
// lang.go never knows less than lang.regex about a file, which is how
// lang.treesitter falls back too.
//
// The facts are taken from the syntax tree by Extract, which is exported
// with ParseFile so that a later pass can type-check the very trees the
// symbols came from: go/types checks a package from its []*ast.File, and
// the objects it resolves a reference to are declared at the identifiers
// Extract read. A method's Parent is its receiver's base type name, the
// name of the types.Named a method set hangs from, so (file, Parent,
// Name) finds a reference's target among the symbols without a second
// parse.
package golang

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"slices"
	"strconv"

	"github.com/rubi-dev/rubi/core"
	gorefs "github.com/rubi-dev/rubi/core/refs/golang"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

// Name is the stage id.
const Name = "lang.go"

func init() {
	core.Register(Name, core.KindParser, func() core.Stage { return New() })
}

// maxParseBytes caps the files go/parser reads whole. A bigger Go file
// is generated (an embedded asset, an API table); lang.regex reads its
// first 4 MiB, where its imports and declarations begin, in bounded
// memory, as it does for every language.
const maxParseBytes = 4 << 20

// Parser is the go/parser stage. After Configure it holds no mutable
// state, so Parse may be called concurrently.
type Parser struct {
	settings core.ParserSettings
	// fallback reads what go/parser cannot, with the same max_symbols.
	fallback *regex.Parser
}

// New returns a parser with the default settings.
func New() *Parser {
	return &Parser{settings: core.ParserSettings{MaxSymbols: core.DefaultMaxSymbols}, fallback: regex.New()}
}

// Info describes the stage.
func (p *Parser) Info() core.Info {
	return core.Info{
		Name:        Name,
		Kind:        core.KindParser,
		Version:     "1.0.0",
		Description: "Go parser: declarations, receivers, doc comments and imports from the standard library's go/parser; lang.regex fills in what does not parse.",
		Languages:   []string{core.LangGo},
		Schema:      core.MustSchemaOf(&core.ParserSettings{}),
		Stateless:   true,
	}
}

// Configure reads max_symbols, for this parser and its fallback alike.
func (p *Parser) Configure(ctx context.Context, setup core.Setup) error {
	if err := p.settings.Decode(setup.Settings); err != nil {
		return err
	}
	raw := fmt.Appendf(nil, `{"max_symbols": %d}`, p.settings.MaxSymbols)
	return p.fallback.Configure(ctx, core.Setup{Root: setup.Root, StateDir: setup.StateDir, Settings: raw})
}

// Parse returns one FileFacts per file, in order. A file in another
// language gets facts with neither imports nor symbols.
func (p *Parser) Parse(ctx context.Context, files []core.SourceFile) ([]core.FileFacts, error) {
	out := make([]core.FileFacts, len(files))
	for i, sf := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = p.parseFile(ctx, sf)
	}
	return out, nil
}

func (p *Parser) parseFile(ctx context.Context, sf core.SourceFile) (ff core.FileFacts) {
	ff = sf.EmptyFacts()
	if ff.Language != core.LangGo {
		return ff
	}
	sf.Language = ff.Language
	if len(sf.Content) > maxParseBytes {
		return p.regexFacts(ctx, sf, ff)
	}
	// A bug in the extraction must cost one file's facts, not the index.
	defer ff.Recover(Name)
	fset, f, read, err := parseDecls(sf)
	if f == nil || f.Name == nil || f.Name.Name == "" {
		// No tree: the package clause is broken, or go/parser gave up.
		return p.regexFacts(ctx, sf, ff)
	}
	ff = Extract(fset, f, read, p.settings.MaxSymbols)
	if err != nil {
		p.fill(ctx, sf, &ff, fset, f, err)
	}
	return ff
}

// ParseFile parses a Go file as lang.go does: with its comments, which
// hold the docs, and without go/parser's object resolution, which
// go/types does not need. The tree is partial when err is not nil.
func ParseFile(fset *token.FileSet, sf core.SourceFile) (*ast.File, error) {
	return parser.ParseFile(fset, sf.Path, sf.Content, parser.ParseComments|parser.SkipObjectResolution)
}

// parseDecls parses sf for its declarations: its skeleton (gorefs.Skeleton)
// when the skeleton parses, else the file whole. read is the file the
// tree was parsed from, which Extract takes.
func parseDecls(sf core.SourceFile) (fset *token.FileSet, f *ast.File, read core.SourceFile, err error) {
	if skel := gorefs.Skeleton(sf.Content); skel != nil {
		fset = token.NewFileSet()
		read = core.SourceFile{Path: sf.Path, Language: sf.Language, Content: skel}
		if f, err = ParseFile(fset, read); err == nil {
			return fset, f, read, nil
		}
	}
	fset = token.NewFileSet()
	f, err = ParseFile(fset, sf)
	return fset, f, sf, err
}

// regexFacts returns lang.regex's facts for sf, or ff if it finds none.
func (p *Parser) regexFacts(ctx context.Context, sf core.SourceFile, ff core.FileFacts) core.FileFacts {
	facts, err := p.fallback.Parse(ctx, []core.SourceFile{sf})
	if err != nil || len(facts) != 1 {
		return ff
	}
	return facts[0]
}

// fill adds lang.regex's facts on the lines of the declarations that
// go/parser's errors fall in, and of the lines no declaration of the
// partial tree covers (what go/parser skipped to recover), unless the
// tree already has them: the same import spec, or a symbol of the same
// parent and name.
func (p *Parser) fill(ctx context.Context, sf core.SourceFile, ff *core.FileFacts, fset *token.FileSet, f *ast.File, err error) {
	// An error's line is taken from its offset: its Line follows //line
	// directives, the facts' lines do not.
	tf := fset.File(f.Package)
	var errLines []int
	if list, ok := err.(scanner.ErrorList); ok && tf != nil {
		for _, e := range list {
			if e.Pos.Offset >= 0 && e.Pos.Offset <= tf.Size() {
				errLines = append(errLines, tf.PositionFor(tf.Pos(e.Pos.Offset), false).Line)
			}
		}
	}
	// trusted lists the line ranges of the declarations read without an
	// error inside them.
	var trusted [][2]int
	for _, d := range f.Decls {
		if _, bad := d.(*ast.BadDecl); bad {
			continue
		}
		from, to := fset.PositionFor(d.Pos(), false).Line, fset.PositionFor(d.End(), false).Line
		if !slices.ContainsFunc(errLines, func(l int) bool { return from <= l && l <= to }) {
			trusted = append(trusted, [2]int{from, to})
		}
	}
	if pc := fset.PositionFor(f.Package, false).Line; pc > 0 {
		trusted = append(trusted, [2]int{pc, fset.PositionFor(f.Name.End(), false).Line})
	}
	untrusted := func(line int) bool {
		return !slices.ContainsFunc(trusted, func(r [2]int) bool { return r[0] <= line && line <= r[1] })
	}
	rf := p.regexFacts(ctx, sf, core.FileFacts{})
	if ff.Package == "" {
		ff.Package = rf.Package
	}
	haveImp := map[string]bool{}
	for _, im := range ff.Imports {
		haveImp[im.Spec] = true
	}
	for _, im := range rf.Imports {
		if untrusted(im.Line) && !haveImp[im.Spec] {
			ff.Imports = append(ff.Imports, im)
		}
	}
	slices.SortStableFunc(ff.Imports, func(a, b core.Import) int { return a.Line - b.Line })
	// Where an error fell, the tree's end of a declaration is where
	// go/parser stopped recovering, often far below: the regex parser's
	// end, from the braces, is nearer the truth.
	ends := map[core.Symbol]int{}
	for _, s := range rf.Symbols {
		ends[core.Symbol{Parent: s.Parent, Name: s.Name, Line: s.Line}] = s.EndLine
	}
	haveSym := map[[2]string]bool{}
	for i, s := range ff.Symbols {
		haveSym[[2]string{s.Parent, s.Name}] = true
		if end, ok := ends[core.Symbol{Parent: s.Parent, Name: s.Name, Line: s.Line}]; ok && untrusted(s.Line) && end >= s.Line {
			ff.Symbols[i].EndLine = end
		}
	}
	for _, s := range rf.Symbols {
		if untrusted(s.Line) && !haveSym[[2]string{s.Parent, s.Name}] {
			ff.Symbols = append(ff.Symbols, s)
		}
	}
	slices.SortStableFunc(ff.Symbols, func(a, b core.Symbol) int { return a.Line - b.Line })
	if len(ff.Symbols) > p.settings.MaxSymbols {
		ff.Symbols = ff.Symbols[:p.settings.MaxSymbols]
	}
}

// Extract returns the facts of the Go file f, parsed from sf.Content
// into fset: its package, its own doc (the package comment), its imports,
// and its first maxSymbols declarations in source order, a method with
// its receiver's base type as Parent and an interface's methods with the
// interface.
func Extract(fset *token.FileSet, f *ast.File, sf core.SourceFile, maxSymbols int) core.FileFacts {
	ff := core.FileFacts{Path: sf.Path, Language: core.LangGo, Package: f.Name.Name}
	x := &extraction{fset: fset, tf: fset.File(f.FileStart), src: sf.Content, comments: f.Comments, max: maxSymbols, facts: &ff}
	if x.tf == nil {
		x.tf = fset.File(f.Package)
	}
	ff.Doc = docLine(f.Doc)
	for _, im := range f.Imports {
		spec, err := strconv.Unquote(im.Path.Value)
		if err != nil || spec == "" {
			continue
		}
		kind := core.ImportStatic
		if im.Name != nil && im.Name.Name == "_" {
			kind = core.ImportSideEffect // imported for its init only
		}
		ff.Imports = append(ff.Imports, core.Import{Spec: spec, Line: x.line(im.Path.Pos()), Kind: kind})
	}
	for _, d := range f.Decls {
		if x.full() {
			break
		}
		switch d := d.(type) {
		case *ast.FuncDecl:
			x.funcDecl(d)
		case *ast.GenDecl:
			x.genDecl(d)
		}
	}
	return ff
}
