// Package regex is the built-in parser "lang.regex": it finds imports and
// top-level definitions with regular expressions over a masked copy of
// each file, in which comments are blanked and string contents hidden, so
// that a pattern never matches inside either while line numbers and byte
// offsets stay those of the source. It needs no cgo and no grammar, which
// is why it is the default parser and the fallback when a parser plugin
// fails; its answers are best effort where a real parser would be exact.
//
// Each language lives in its own file and registers a language value
// (names, comment and string syntax, extractor) from init, so another
// language is one more file. The class languages (Java, Kotlin, Dart)
// register a classLang instead: the hooks of the one extractor they share
// (classlang.go).
//
// A language's regular expressions are compiled once, on first use, by a
// sync.OnceValue that returns them (goRE, pyRE, ...), never at package
// init: compiling them all costs milliseconds that every rubi process
// would pay at start, though most (rubi context, run on every prompt)
// never parse.
//
// The brace languages share the helpers of decl.go (body braces,
// statement starts, scopes, docs above attributes); the class languages'
// file is a classLang of hooks (directives, annotation syntax, modifiers,
// type keywords, who is exported, doc style, the reading of members).
// Besides imports and symbols it reports each file's own doc line, which
// the module pages and an answer show. Its fixtures are shared with
// lang.treesitter through core/parsertest (testdata/NAME.txtar), and its
// own tests hold what is its own: each language and its registration,
// inputs that could make a scan quadratic, fuzzing (FuzzParse), the
// benchmark's input.
package regex

import (
	"context"
	"sort"

	"github.com/rubi-dev/rubi/core"
)

// Name is the stage id.
const Name = "lang.regex"

func init() {
	core.Register(Name, core.KindParser, func() core.Stage { return New() })
}

// maxScanBytes caps the work per file: beyond it (a bundle, a generated
// table) the rest of the file is not scanned. Imports and definitions sit
// near the top of such files anyway.
const maxScanBytes = 4 << 20

// Parser is the regex parser. After Configure it holds no mutable state,
// so Parse may be called concurrently.
type Parser struct {
	settings core.ParserSettings
}

// New returns a parser with the default settings.
func New() *Parser {
	return &Parser{settings: core.ParserSettings{MaxSymbols: core.DefaultMaxSymbols}}
}

// language is what a per-language file registers.
type language struct {
	// names are the core.Language names the extractor handles.
	names   []string
	syntax  syntax
	extract func(f *file)
	// prepare, when set, rewrites the source before lexing into a copy of
	// the same length with the same line breaks (Vue and Svelte blank
	// what lies outside their script blocks); it appends to dst.
	prepare func(dst, src []byte) []byte
}

var languages = map[string]*language{}

func register(l *language) {
	for _, c := range []byte(l.syntax.special) {
		l.syntax.trigger[c] = true
	}
	for _, n := range l.names {
		languages[n] = l
	}
}

// languageNames lists the languages lang.regex understands, sorted.
func languageNames() []string {
	out := make([]string, 0, len(languages))
	for n := range languages {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Info describes the stage.
func (p *Parser) Info() core.Info {
	return core.Info{
		Name:        Name,
		Kind:        core.KindParser,
		Version:     "1.1.0",
		Description: "Regex parser: imports and top-level definitions from a comment- and string-masked scan, no grammar needed.",
		Languages:   languageNames(),
		Schema:      core.MustSchemaOf(&core.ParserSettings{}),
		Stateless:   true,
	}
}

// Configure reads max_symbols.
func (p *Parser) Configure(_ context.Context, setup core.Setup) error {
	return p.settings.Decode(setup.Settings)
}

// Parse returns one FileFacts per file, in order. A file in a language the
// parser does not know gets facts with neither imports nor symbols.
func (p *Parser) Parse(ctx context.Context, files []core.SourceFile) ([]core.FileFacts, error) {
	out := make([]core.FileFacts, len(files))
	var x lexed // buffers reused from file to file
	for i, sf := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = p.parseFile(&x, sf)
	}
	return out, nil
}

func (p *Parser) parseFile(x *lexed, sf core.SourceFile) (ff core.FileFacts) {
	ff = sf.EmptyFacts()
	l := languages[ff.Language]
	if l == nil {
		return ff
	}
	src := sf.Content
	if len(src) > maxScanBytes {
		src = src[:maxScanBytes]
	}
	// A bug in a pattern must cost one file's facts, not the whole index.
	defer ff.Recover(Name)
	if l.prepare != nil {
		x.pre = l.prepare(x.pre[:0], src)
		src = x.pre
	}
	lex(x, src, &l.syntax)
	f := &file{lexed: x, facts: &ff, max: p.settings.MaxSymbols}
	l.extract(f)
	f.fileDoc(ff.Language)
	f.flushImports()
	return ff
}

// file is the per-file state an extractor works on.
type file struct {
	*lexed
	facts   *core.FileFacts
	max     int
	imports []pendingImport
}

type pendingImport struct {
	off   int
	spec  string
	kind  string
	names []string
}

// addImport records an import whose spec literal (or module name) starts at
// byte offset off; its line is that of the spec.
func (f *file) addImport(off int, spec, kind string) {
	if spec != "" {
		f.imports = append(f.imports, pendingImport{off: off, spec: spec, kind: kind})
	}
}

// flushImports stores the imports in source order, whatever order the
// extractor found them in.
func (f *file) flushImports() {
	sort.SliceStable(f.imports, func(a, b int) bool { return f.imports[a].off < f.imports[b].off })
	for _, im := range f.imports {
		f.facts.Imports = append(f.facts.Imports, core.Import{Spec: im.spec, Line: f.lineOf(im.off) + 1, Kind: im.kind, Names: im.names})
	}
}

// full reports whether the file has reached its symbol cap.
func (f *file) full() bool { return len(f.facts.Symbols) >= f.max }

// addSymbol appends s and returns its index, or -1 at the cap.
func (f *file) addSymbol(s core.Symbol) int {
	if f.full() || s.Name == "" {
		return -1
	}
	f.facts.Symbols = append(f.facts.Symbols, s)
	return len(f.facts.Symbols) - 1
}

var _ core.Parser = (*Parser)(nil)
