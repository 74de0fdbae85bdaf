// Package scripts finds the references of a project's JavaScript and
// TypeScript files: the names a file uses that resolve, through its ES
// imports or its own declarations, to a function, class, method,
// interface, type or module variable the project defines.
//
// It reads code as core/refs/python does: comments and string contents
// blanked (core.CodeMasker), tokens, then every name each scope declares
// gathered before any use is resolved. A method call is a reference only
// where the code states the receiver's type: this in a class's methods
// (and the arrows inside them), new Cls(), annotations (x: Cls,
// p?: Cls | null, Cls<T>), what a project function's `: Cls` says it
// returns, super. Members are found along extends, and not past a base
// the project does not define. Anything else is unknown and no
// reference: precision first.
//
// Not resolved: JSX files (.jsx, .tsx), whose text the masking lexer does
// not blank; CommonJS require; a name rebound to values of different
// types; inferred return types; generics' type arguments; narrowing;
// uses inside a ternary's middle or after case (name: reads as a key).
// Import and export lists are not references: the import graph holds
// them.
package scripts

import (
	"context"
	"path"
	"strings"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/refs"
)

// Resolver is the JavaScript and TypeScript refs.Resolver.
type Resolver struct {
	mask core.CodeMasker
}

// New returns a resolver reading code through mask; without one it
// resolves nothing.
func New(mask core.CodeMasker) *Resolver { return &Resolver{mask: mask} }

var _ refs.Resolver = (*Resolver)(nil)

// Languages are JavaScript and TypeScript.
func (r *Resolver) Languages() []string { return []string{core.LangJavaScript, core.LangTypeScript} }

// Version names the resolver's rules.
func (r *Resolver) Version() string { return "1" }

// Refs resolves the references of the script files of want.
func (r *Resolver) Refs(ctx context.Context, p refs.Project, want []string) (map[string][]refs.Ref, error) {
	out := map[string][]refs.Ref{}
	if r.mask == nil {
		return out, nil
	}
	st := &state{p: p, mask: r.mask, files: map[string]string{}, mods: map[string]*module{}, keys: map[string]map[symName]bool{}}
	for _, lang := range r.Languages() {
		for _, f := range p.Files(lang) {
			st.files[f] = lang
		}
	}
	for _, f := range want {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if m := st.load(f); m != nil {
			out[f] = st.refsOf(m)
		}
	}
	return out, nil
}

// Affected is the changed files and the files importing them; through
// an index file (which re-exports its folder), the files importing it
// too.
func (r *Resolver) Affected(p refs.Project, changed []string) []string {
	return refs.WithImporters(p, changed, func(f string) bool { return strings.HasPrefix(path.Base(f), "index.") })
}

type state struct {
	p     refs.Project
	mask  core.CodeMasker
	files map[string]string // the project's script files and their language
	mods  map[string]*module
	keys  map[string]map[symName]bool
}

type module struct {
	path    string
	src     []byte
	x       *lexed
	top     *scope
	scopeAt []*scope
	skip    []bool
	imports []string
	facts   core.FileFacts
}

// load reads and scans a script file once; nil for a JSX file or one
// that cannot be read.
func (st *state) load(f string) *module {
	if m, ok := st.mods[f]; ok {
		return m
	}
	st.mods[f] = nil
	lang, ok := st.files[f]
	if !ok || strings.HasSuffix(f, "x") { // .jsx, .tsx
		return nil
	}
	src, err := st.p.Read(f)
	if err != nil {
		return nil
	}
	code, ok := st.mask(lang, src)
	if !ok || len(code) != len(src) {
		return nil
	}
	m := &module{path: f, src: src, x: lex(code), imports: st.p.Imports(f)}
	m.facts, _ = st.p.Facts(f)
	m.scan()
	st.mods[f] = m
	return m
}

// exts are the script extensions a specifier may leave out.
var exts = []string{".d.ts", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"}

func stem(f string) string {
	for _, e := range exts {
		if strings.HasSuffix(f, e) {
			return strings.TrimSuffix(f, e)
		}
	}
	return f
}

// module finds the file an import specifier names, among the files the
// importing file's imports resolved to: a relative one by its path, any
// other by its tail (an alias such as @/ or ~/ left out), when exactly
// one import matches.
func (st *state) module(from *module, spec string) *module {
	var found string
	n := 0
	if strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") {
		base := path.Join(dirOf(from.path), spec)
		for _, f := range from.imports {
			if s := stem(f); s == base || s == stem(base) || s == base+"/index" {
				found, n = f, n+1
			}
		}
	} else {
		s := strings.TrimPrefix(strings.TrimPrefix(spec, "@/"), "~/")
		for _, f := range from.imports {
			t := stem(f)
			t = strings.TrimSuffix(t, "/index")
			if t == s || strings.HasSuffix(t, "/"+s) {
				found, n = f, n+1
			}
		}
	}
	if n != 1 {
		return nil
	}
	return st.load(found)
}

// has reports whether the facts of the defining file name the target.
func (st *state) has(t *target) bool {
	if t.known == 0 {
		t.known = 2
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
		if name != "" && k[symName{parent, name}] {
			t.known = 1
		}
	}
	return t.known == 1
}

type symName struct{ parent, name string }

func symKey(s core.Symbol) string {
	if s.Parent != "" {
		return s.Parent + "." + s.Name
	}
	return s.Name
}

func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}
