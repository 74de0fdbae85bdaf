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
package python

import (
	"context"
	"path"
	"slices"
	"strings"

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

// Refs resolves the references of the Python files of want. It reads, as
// it needs them, the files those import (and the files they re-export
// from), and answers for want's files only.
func (r *Resolver) Refs(ctx context.Context, p refs.Project, want []string) (map[string][]refs.Ref, error) {
	out := map[string][]refs.Ref{}
	if r.mask == nil {
		return out, nil
	}
	st := newState(p, r.mask)
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
	seen := map[string]bool{}
	var out []string
	queue := slices.Clone(changed)
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		if seen[f] {
			continue
		}
		seen[f] = true
		out = append(out, f)
		for _, imp := range p.Importers(f) {
			if seen[imp] {
				continue
			}
			if b := path.Base(imp); b == "__init__.py" || b == "__init__.pyi" {
				queue = append(queue, imp)
				continue
			}
			seen[imp] = true
			out = append(out, imp)
		}
	}
	slices.Sort(out)
	return out
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
	keys  map[string]map[string]bool
}

func newState(p refs.Project, mask core.CodeMasker) *state {
	st := &state{p: p, mask: mask, files: map[string]bool{}, dirs: map[string]bool{}, mods: map[string]*module{},
		keys: map[string]map[string]bool{}}
	for _, f := range p.Files(core.LangPython) {
		st.files[f] = true
		for d := path.Dir(f); d != "." && d != "/" && !st.dirs[d]; d = path.Dir(d) {
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
	facts     core.FileFacts
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
		base := path.Dir(from.path)
		for range dots - 1 {
			if base == "." {
				return nil, "", false
			}
			base = path.Dir(base)
		}
		if base == "." {
			base = ""
		}
		return st.moduleAt(path.Join(base, rel), name == "")
	}
	for _, f := range from.imports {
		for _, suf := range [...]string{".py", ".pyi", "/__init__.py", "/__init__.pyi"} {
			s := rel + suf
			if f == s || strings.HasSuffix(f, "/"+s) {
				return st.moduleAt(f[:len(f)-len(s)]+rel, false)
			}
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
func (st *state) has(t target) bool {
	k, ok := st.keys[t.path]
	if !ok {
		k = map[string]bool{}
		if ff, ok := st.p.Facts(t.path); ok {
			for _, s := range ff.Symbols {
				k[symKey(s)] = true
			}
		}
		st.keys[t.path] = k
	}
	return k[t.name]
}

func symKey(s core.Symbol) string {
	if s.Parent != "" {
		return s.Parent + "." + s.Name
	}
	return s.Name
}
