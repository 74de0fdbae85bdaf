// Package golang finds the references of Go files with the standard
// library's go/parser and go/types: which of the project's functions,
// types, methods, variables and constants each identifier uses, with the
// type information a name alone lacks (s.Send(r) calls the Send of s's
// type, not any Send; a method reached through an embedded field or an
// interface is that field's or that interface's method).
//
// Nothing outside the project is read, and no go command runs: the
// project's own packages are type-checked from source, in dependency
// order, each against the packages it imports as they were checked
// before it; an import of the standard library or of a module the
// project does not hold gets an empty package, one for the run, whose
// missing names go/types takes as no error (run.outside). go/types
// carries on past what that leaves undefined (an error handler counts
// the errors and drops them), so a use that still resolves to one of the
// project's definitions counts, and a use whose type came from outside
// (a method called on what a standard library function returned) is
// lost. A file that does not parse is checked as far as go/parser read
// it. On rubi's own tree this keeps 99.94% of the references a check
// that reads the standard library from GOROOT finds (29,625 of 29,642,
// none extra).
//
// Import paths are mapped to the project's directories by what
// core/resolve made of them (Project.Imports): go.mod module paths,
// nested modules, go.work and local replace directives, vendor copies
// are known there once. A package is the files of one directory that
// the build on this machine's GOOS and GOARCH includes (go/build's
// file name and //go:build rules, read from the contents the Project
// gives), with the package name most of them declare; its external
// tests (package x_test) are a package of their own. Importers see a
// package's non-test declarations, as the go command builds it for
// them; its external tests see it with its internal test files (the
// export_test.go idiom), so asking for them answers that whole package. A file the build
// leaves out (the other systems' variants, //go:build ignore) is
// resolved on its own by name: its selectors on imported project
// packages and its uses of its package's names, without types.
//
// Cost is most of the design. Packages are checked on a bounded number
// of workers, each as soon as the declarations of what it imports are
// checked: a package asked for is checked twice, its declarations alone
// first (IgnoreFuncBodies, without the unexported functions no
// variable's initializer names: dropFuncs; the types.Package its
// importers get, and all that stays of it) and then whole, in a package nothing keeps, whose
// references are collected and whose syntax and type information are
// then dropped. The second check costs about 10% more CPU than one, and
// saves a fifth of the peak memory on kubernetes: a checked body's local
// scopes hang from its package's scope, and would stay as long as the
// run. A package only imported by those asked for is checked for its
// declarations alone, and read without its function bodies (Skeleton);
// the bodies of generated files (a "Code generated … DO NOT EDIT."
// header) are not checked, nor read where their skeleton parses, as they
// are a large part of a big tree's code (43% of kubernetes' non-test
// bytes) and rarely where anyone looks for callers; nor is a body that
// holds no name a package it sees declares, which can hold no reference
// (prune.go: a fifth of kubernetes' other functions).
// A checked file's line table is emptied once its references are
// collected, and the references are kept packed (their strings once per
// run, packed.go) until every package is checked and the type
// information is let go. A package's methods are paired with the
// interfaces it sees as soon as its declarations are checked (those of
// everything it imports are by then), each type with the interfaces
// whose first method it has; so a package's declarations are kept only
// until the last package that sees them, directly or not, is done
// (run.finished), not to the end of the run: a tree's declarations are
// not all held at once, but those of the packages still to be imported
// or paired with (on six copies of kubernetes the step's live heap fell
// from 378 to about 165 MB). What is left is
// go/types checking the bodies that may hold a reference, and go/parser
// reading them: on kubernetes v1.31.0 resolving every Go file costs
// about 1.1 times the CPU of the rest of the cold index
// (bench/results/perf-2026-12-06-typecheck.md).
//
// A reference names its target as lang.go (plugins/lang-go) names the
// symbol: "Func", "Type", "Type.Method" with the receiver's base type
// (Stack for *Stack[T]), "Iface.Method" for an interface's method, in the
// file that declares it. Struct fields are not targets: lang.go makes no
// symbols of them. From is the function or method the use sits in, or
// the type whose declaration it is in; Call marks a call of a function or
// method and a composite literal of a type (Go's construction), not a
// conversion. Impl references sit at a method's declaration, one to each
// interface method of the project the method implements (its type or a
// pointer to it implementing the interface), so that a call through the
// interface can be counted among the method's callers, as gopls counts
// it.
package golang

import (
	"context"
	"go/build"
	"path"
	"runtime"
	"slices"
	"strings"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/refs"
)

// Resolver is the Go references resolver. It holds no state between
// calls; Refs may run concurrently.
type Resolver struct {
	opts Options
}

// Options tune a Resolver; the zero value is the default.
type Options struct {
	// Workers bounds the packages checked at once; 0 means GOMAXPROCS.
	Workers int
	// GeneratedBodies checks the function bodies of generated files too.
	GeneratedBodies bool
	// AllBodies checks every function body, also those whose names show
	// they hold no reference (prune.go): the same references, slower.
	AllBodies bool
}

// New returns a resolver.
func New(opts Options) *Resolver { return &Resolver{opts: opts} }

// Languages says it resolves Go.
func (r *Resolver) Languages() []string { return []string{core.LangGo} }

// Version names the resolver's rules, and the options that change what
// it finds.
func (r *Resolver) Version() string {
	if r.opts.GeneratedBodies {
		return "1+generated"
	}
	return "1"
}

// Stats says what a run checked and what it could not.
type Stats struct {
	Packages int // packages type-checked, external test packages included
	Bodies   int // of which with their function bodies
	// Errors counts go/types' errors, most of them names of packages
	// outside the project, which are empty here.
	Errors int
	// Excluded counts the files asked whose build leaves them out on this
	// machine, resolved by name only.
	Excluded int
	// Failed counts the packages whose check panicked: their files are
	// not answered, their importers see them empty.
	Failed int
	// Pruned counts the function bodies left unchecked because none of
	// their names can be a reference (prune.go).
	Pruned int
	// Held is the most packages whose declarations the run held at once
	// (run.finished lets go of those no package left sees).
	Held int
	Refs int
}

// Refs returns the references of the files of want and of the other
// files of their packages.
func (r *Resolver) Refs(ctx context.Context, p refs.Project, want []string) (map[string][]refs.Ref, error) {
	out, _, err := r.Check(ctx, p, want)
	return out, err
}

// Check is Refs with the run's figures.
func (r *Resolver) Check(ctx context.Context, p refs.Project, want []string) (map[string][]refs.Ref, Stats, error) {
	a, st, err := r.answer(ctx, p, want)
	if err != nil {
		return nil, Stats{}, err
	}
	defer a.Close()
	out := make(map[string][]refs.Ref, len(a.found)+len(a.spilled))
	for _, f := range a.Paths() {
		if out[f], err = a.Refs(f); err != nil {
			return nil, Stats{}, err
		}
	}
	return out, st, nil
}

// Answer is Refs's answer as the run keeps it, packed and, where the
// project gives a spill (refs.Spiller), on disk: each file's references
// become refs.Ref when they are asked for.
func (r *Resolver) Answer(ctx context.Context, p refs.Project, want []string) (refs.Answer, error) {
	a, _, err := r.answer(ctx, p, want)
	if err != nil {
		return nil, err
	}
	return a, nil
}

func (r *Resolver) answer(ctx context.Context, p refs.Project, want []string) (*answer, Stats, error) {
	workers := r.opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	g := newGraph(p, want)
	run := &run{p: p, g: g, opts: r.opts, build: buildContext(), found: map[string]packed{}, spilled: map[string]spilled{}, targets: map[uint32]bool{}}
	if sp, ok := p.(refs.Spiller); ok {
		if f, err := sp.Spill(); err == nil {
			run.spill = &spill{f: f}
		}
	}
	if err := run.check(ctx, workers); err != nil {
		if run.spill != nil {
			run.spill.f.Close()
		}
		return nil, Stats{}, err
	}
	return newAnswer(run), run.stats, nil
}

// Affected widens changed files to the Go files whose references may
// have changed with them: every file of a changed file's package (a
// package is checked whole), and every file of the packages that import
// it directly (a Go import resolves to all of a package's non-test
// files, so the importers of any one of them are the package's, which
// also finds those of a file deleted since). The widening stops there: a
// package that reaches a changed type only through another package (z
// calls a function of y that returns x.T, then a method of it) is not
// re-resolved until it changes itself or the next full index, which keeps
// an edit of a package everything imports to its direct importers rather
// than the whole tree. A test file is imported by nobody, so it widens to
// its own package only.
func (r *Resolver) Affected(p refs.Project, changed []string) []string {
	dirs, api := map[string]bool{}, map[string]bool{}
	for _, f := range changed {
		if strings.HasSuffix(f, ".go") {
			dirs[path.Dir(f)] = true
			api[path.Dir(f)] = api[path.Dir(f)] || !isTest(f)
		}
	}
	files := p.Files(core.LangGo)
	for _, f := range files {
		if d := path.Dir(f); api[d] && !isTest(f) {
			api[d] = false // one file's importers are the package's
			for _, imp := range p.Importers(f) {
				if strings.HasSuffix(imp, ".go") {
					dirs[path.Dir(imp)] = true
				}
			}
		}
	}
	var out []string
	for _, f := range files {
		if dirs[path.Dir(f)] {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out
}

// buildContext is the build the files are selected for: this machine's
// GOOS and GOARCH, as go/build's default context reads them from the
// environment (no go command), with cgo as go/build sees it.
func buildContext() build.Context {
	c := build.Default
	c.GOROOT, c.GOPATH = "", ""
	return c
}

var _ refs.Answerer = (*Resolver)(nil)
