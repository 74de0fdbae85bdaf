package main

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"time"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/rubi-dev/rubi/core"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

// Name is the stage id.
const Name = "lang.treesitter"

// maxParseBytes caps the work per file, as lang.regex does: beyond it (a
// bundle, a generated table) the rest is not parsed.
const maxParseBytes = 4 << 20

// maxParseTime bounds the parse of one file: a pathological input costs
// that file's facts, not the batch's time budget.
const maxParseTime = 5 * time.Second

// Parser is the tree-sitter parser. Parse may be called concurrently: the
// files of every call go to one pool of workers, a worker per core, each
// with its own tree-sitter parsers and trees (a tree must not be read from
// two goroutines: node methods fill a cache); the compiled queries are
// shared. The pool starts on the first Parse, so a process that is only
// asked for Info starts no thread.
type Parser struct {
	settings core.ParserSettings
	start    sync.Once
	jobs     chan job
}

type job struct {
	ctx  context.Context
	file *core.SourceFile
	out  *core.FileFacts
	done *sync.WaitGroup
}

// New returns a parser with the default settings.
func New() *Parser {
	return &Parser{settings: core.ParserSettings{MaxSymbols: core.DefaultMaxSymbols}}
}

// Info describes the stage.
func (p *Parser) Info() core.Info {
	names := make([]string, 0, len(languages))
	for n := range languages {
		names = append(names, n)
	}
	sort.Strings(names)
	return core.Info{
		Name:        Name,
		Kind:        core.KindParser,
		Version:     "0.1.0",
		Description: "Tree-sitter parser: imports and definitions from real syntax trees, read by the queries in queries/<language>.scm.",
		Languages:   names,
		Schema:      core.MustSchemaOf(&core.ParserSettings{}),
		Stateless:   true,
	}
}

// Configure reads max_symbols, as lang.regex does.
func (p *Parser) Configure(_ context.Context, setup core.Setup) error {
	return p.settings.Decode(setup.Settings)
}

// Parse returns one FileFacts per file, in order. A file in a language
// without a grammar here gets lang.regex's facts (none for a language
// neither knows).
func (p *Parser) Parse(ctx context.Context, files []core.SourceFile) ([]core.FileFacts, error) {
	p.start.Do(p.startWorkers)
	out := make([]core.FileFacts, len(files))
	var wg sync.WaitGroup
	wg.Add(len(files))
	for i := range files {
		p.jobs <- job{ctx: ctx, file: &files[i], out: &out[i], done: &wg}
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

func (p *Parser) startWorkers() {
	n := runtime.GOMAXPROCS(0)
	p.jobs = make(chan job, n)
	for range n {
		go p.work()
	}
}

// work runs for the life of the process with its own tree-sitter parsers,
// one per grammar, created when first needed.
func (p *Parser) work() {
	w := &worker{parsers: map[*sitter.Language]*sitter.Parser{}, max: p.settings.MaxSymbols, fallback: newFallback(p.settings.MaxSymbols)}
	for j := range p.jobs {
		if j.ctx.Err() == nil {
			*j.out = w.parseFile(j.ctx, j.file)
		}
		j.done.Done()
	}
}

type worker struct {
	parsers  map[*sitter.Language]*sitter.Parser
	max      int
	fallback *regex.Parser // for the lines a grammar cannot parse
}

func (w *worker) parseFile(ctx context.Context, sf *core.SourceFile) (ff core.FileFacts) {
	ff = sf.EmptyFacts()
	l := languages[ff.Language]
	if l == nil {
		// A language without a grammar here (Kotlin, PHP, Vue, ...) named
		// in rubi.hcl's languages gets lang.regex's facts, not none.
		if facts, err := w.fallback.Parse(ctx, []core.SourceFile{{Path: sf.Path, Language: ff.Language, Content: sf.Content}}); err == nil && len(facts) == 1 {
			return facts[0]
		}
		return ff
	}
	g := l.grammarFor(sf.Path)
	q, err := g.query()
	if err != nil {
		ff.Error = err.Error()
		return ff
	}
	src := sf.Content
	if len(src) > maxParseBytes {
		src = src[:maxParseBytes]
	}
	// A bug in a language's code must cost one file's facts, not the
	// whole batch.
	defer ff.Recover(Name)
	ps := w.parsers[g.lang]
	if ps == nil {
		ps = sitter.NewParser()
		ps.SetLanguage(g.lang)
		ps.SetOperationLimit(int(maxParseTime / time.Microsecond))
		w.parsers[g.lang] = ps
	}
	// Not ParseCtx with the call's context: the binding's watcher
	// goroutine may raise the parser's cancel flag after the parse ended,
	// once the call's context is done, and nothing lowers it again, so
	// every later parse with that parser fails ("operation limit was
	// hit"). A time limit per file bounds the work instead; the context
	// is checked between files.
	tree, err := ps.ParseCtx(context.Background(), nil, src)
	if err != nil {
		ps.Reset()
		ff.Error = fmt.Sprintf("%s: %v (over %v)", Name, err, maxParseTime)
		return ff
	}
	defer tree.Close()
	x := &extraction{lang: l, src: src, facts: &ff, max: w.max}
	root := tree.RootNode()
	x.run(q, root)
	if root.HasError() {
		x.fillFromRegex(ctx, w.fallback, sf, root)
	}
	return ff
}

var _ core.Parser = (*Parser)(nil)
