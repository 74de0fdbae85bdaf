// Package python finds the references of a project's Python files: the
// names a file uses that resolve, through its imports or its own
// definitions, to a function, class, method or module variable the
// project defines.
//
// It reads code, not a parser's guesses about it: each file's comments
// and string contents are blanked first (core.CodeMasker, the regex
// parser's lexer), so a name in a docstring or a log message is never a
// use. The file is cut into tokens and logical statements, and every name
// a scope binds is gathered with each of its definitions (imports, defs,
// classes, assignments, parameters, with and except targets) before any
// use is resolved, because Python binds a name for its whole scope.
//
// A method call is a reference only where the code states the receiver's
// type: self and cls in a class's methods, x = Cls(...), annotations
// (x: Cls, p: Optional[Cls], "Cls", Cls | None), with Cls() as x, what a
// project function's `-> Cls` says it returns, super(). Methods are found
// along the project's base classes, and not past a base the project does
// not define. A name whose definitions disagree, an untyped parameter's
// attribute, anything reached through a container or an operator, is
// unknown and no reference: precision first, so that a same-named method
// of another class is never reported.
//
// Not resolved: a name rebound to values of different types (names are
// not followed through the flow of a function), an unannotated
// function's return, a container's elements, generics' type arguments,
// narrowing (isinstance, walrus), getattr and other dynamic access. A
// use through another name (import Ledger as Book; Book()) is a
// reference to the definition, as a call through it runs it. Import
// statements are not references: the import graph holds them.
//
// Files are read, masked, cut and scanned on every core; names are then
// resolved on one, each binding once, lazily, across files.
package python

import (
	"context"
	"path"
	"runtime"
	"strings"
	"sync"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/refs"
)

// Resolver is the Python refs.Resolver.
type Resolver struct {
	mask core.CodeMasker
}

// New returns a resolver that reads code through mask (the regex
// parser's MaskCode in rubi's programs). Without a mask it resolves
// nothing: unmasked text would turn comments into references.
func New(mask core.CodeMasker) *Resolver { return &Resolver{mask: mask} }

var _ refs.Resolver = (*Resolver)(nil)

// Languages is Python alone.
func (r *Resolver) Languages() []string { return []string{core.LangPython} }

// Version names the resolver's rules.
func (r *Resolver) Version() string { return "1" }

// Refs resolves the references of the Python files of want. It reads, as
// it needs them, the files those import (and the files they re-export
// from), and answers for want's files only.
func (r *Resolver) Refs(ctx context.Context, p refs.Project, want []string) (map[string][]refs.Ref, error) {
	out := map[string][]refs.Ref{}
	if r.mask == nil {
		return out, nil
	}
	st := newState(p, r.mask)
	if err := st.preload(ctx, want); err != nil {
		return nil, err
	}
	for _, f := range want {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !st.files[f] {
			continue
		}
		m := st.load(f)
		if m == nil {
			continue
		}
		out[f] = st.refsOf(m)
	}
	return out, nil
}

// Affected is the changed files and the files importing them; through a
// package's __init__ (which re-exports what its modules define), the
// files importing the package too. A file that reaches a changed one by
// a longer way (a type returned by a function of a third module) keeps
// its references until it or its imports change.
func (r *Resolver) Affected(p refs.Project, changed []string) []string {
	return refs.WithImporters(p, changed, func(f string) bool {
		b := path.Base(f)
		return b == "__init__.py" || b == "__init__.pyi"
	})
}

// state is one Refs call's view of the project: the modules read so far.
type state struct {
	p    refs.Project
	mask core.CodeMasker
	// files are the project's Python files; dirs their folders, each a
	// package, a namespace one when it has no __init__.
	files map[string]bool
	dirs  map[string]bool
	mods  map[string]*module
	keys  map[string]map[symName]bool
}

func newState(p refs.Project, mask core.CodeMasker) *state {
	st := &state{p: p, mask: mask, files: map[string]bool{}, dirs: map[string]bool{}, mods: map[string]*module{},
		keys: map[string]map[symName]bool{}}
	for _, f := range p.Files(core.LangPython) {
		st.files[f] = true
		for d := dirOf(f); d != "" && !st.dirs[d]; d = dirOf(d) {
			st.dirs[d] = true
		}
	}
	return st
}

// module is one file read, masked, cut and scanned.
type module struct {
	path      string
	src       []byte
	x         *lexed
	top       *scope
	stmtScope []*scope
	imports   []string
	// stems are the imports' module paths: a/b for a/b.py and
	// a/b/__init__.py.
	stems []string
	facts core.FileFacts
}

// load reads and scans a Python file of the project once; nil when it
// cannot be read.
func (st *state) load(f string) *module {
	if m, ok := st.mods[f]; ok {
		return m
	}
	st.mods[f] = nil
	src, err := st.p.Read(f)
	if err != nil {
		return nil
	}
	code, ok := st.mask(core.LangPython, src)
	if !ok || len(code) != len(src) {
		return nil
	}
	m := &module{path: f, src: src, x: lex(code), imports: st.p.Imports(f)}
	m.facts, _ = st.p.Facts(f)
	m.scan()
	st.mods[f] = m
	return m
}

// preload reads the Python files of want and masks, cuts and scans them
// on every core: each file's work is its own until names are resolved
// across files. The project is asked from this goroutine only.
func (st *state) preload(ctx context.Context, want []string) error {
	var ms []*module
	for _, f := range want {
		if !st.files[f] {
			continue
		}
		if _, ok := st.mods[f]; ok {
			continue
		}
		st.mods[f] = nil
		src, err := st.p.Read(f)
		if err != nil {
			continue
		}
		m := &module{path: f, src: src, imports: st.p.Imports(f)}
		m.facts, _ = st.p.Facts(f)
		ms = append(ms, m)
	}
	next := make(chan *module)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(ms)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for m := range next {
				code, ok := st.mask(core.LangPython, m.src)
				if !ok || len(code) != len(m.src) {
					continue
				}
				m.x = lex(code)
				m.scan()
			}
		}()
	}
	var err error
	for _, m := range ms {
		if err = ctx.Err(); err != nil {
			break
		}
		next <- m
	}
	close(next)
	wg.Wait()
	for _, m := range ms {
		if m.x != nil {
			st.mods[m.path] = m
		}
	}
	return err
}

// module finds the module an import spec names in the file from: the
// module's file (nil for a namespace package) and, for a package, its
// folder. A relative spec is resolved from from's folder; an absolute one
// among the files from's imports resolved to, which is where the
// project's source roots were applied.
func (st *state) module(from *module, spec string) (*module, string, bool) {
	dots := len(spec) - len(strings.TrimLeft(spec, "."))
	name := spec[dots:]
	rel := strings.ReplaceAll(name, ".", "/")
	if dots > 0 {
		base := dirOf(from.path)
		for range dots - 1 {
			if base == "" {
				return nil, "", false
			}
			base = dirOf(base)
		}
		if base != "" && rel != "" {
			rel = base + "/" + rel
		} else if rel == "" {
			rel = base
		}
		return st.moduleAt(rel, name == "")
	}
	if from.stems == nil {
		from.stems = make([]string, len(from.imports))
		for i, f := range from.imports {
			f = strings.TrimSuffix(strings.TrimSuffix(f, ".pyi"), ".py")
			from.stems[i] = strings.TrimSuffix(f, "/__init__")
		}
	}
	for _, stem := range from.stems {
		if stem == rel || len(stem) > len(rel) && stem[len(stem)-len(rel)-1] == '/' && stem[len(stem)-len(rel):] == rel {
			return st.moduleAt(stem, false)
		}
	}
	return nil, "", false
}

// moduleAt is the module at stem: stem.py, else the package stem.
func (st *state) moduleAt(stem string, pkgOnly bool) (*module, string, bool) {
	if !pkgOnly {
		for _, f := range []string{stem + ".py", stem + ".pyi"} {
			if st.files[f] {
				return st.load(f), "", true
			}
		}
	}
	if v := st.packageVal(stem); v.k == vModule {
		return v.mod, v.pkg, true
	}
	return nil, "", false
}

// has reports whether the facts of a file name the symbol key, so that
// a reference always names a symbol the index knows.
func (st *state) has(t *target) bool {
	if t.known == 0 {
		t.known = 2
		if st.inFacts(t) {
			t.known = 1
		}
	}
	return t.known == 1
}

func (st *state) inFacts(t *target) bool {
	k, ok := st.keys[t.path]
	if !ok {
		k = map[symName]bool{}
		if ff, ok := st.p.Facts(t.path); ok {
			for _, s := range ff.Symbols {
				k[symName{s.Parent, s.Name}] = true
			}
		}
		st.keys[t.path] = k
	}
	parent, name := "", t.name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		parent, name = name[:i], name[i+1:]
	}
	return k[symName{parent, name}]
}

// symName is a symbol's parent and name.
type symName struct{ parent, name string }

// dirOf is a slash path's folder, "" at the root.
func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

func symKey(s core.Symbol) string {
	if s.Parent != "" {
		return s.Parent + "." + s.Name
	}
	return s.Name
}
