// Package refs holds the references between a project's definitions: who
// calls a function, who uses a type, across files and packages. They
// answer `rubi refs SYMBOL` and "what calls X", and weigh the file graph
// PageRank and Personalized PageRank walk.
//
// A reference is found project-wide, like an import's target (core/resolve)
// and unlike a file's symbols: what `s.Send(r)` calls depends on the type
// of s, declared in another file, perhaps another package. So references
// are not a parser's facts; a Resolver per language finds them over the
// whole project after the imports are resolved: Go through go/types, the
// other languages from what their imports and their code state.
//
// A reference names its definition as a symbol key: the defining file and
// the symbol's qualified name (Parent.Name, as core.Symbol and core.Unit
// name it), the same key `rubi read PATH::Name` takes.
package refs

import (
	"context"
	"os"
	"slices"

	"github.com/rubi-dev/rubi/core"
)

// Ref is one use, in a file, of a symbol the project defines.
type Ref struct {
	// Line and Col locate the use in the referring file: 1-based, Col in
	// bytes, at the first byte of the name used.
	Line int `json:"line"`
	Col  int `json:"col"`
	// Path is the file that defines the symbol used, Name its qualified
	// name: "Estimate", "Session.send", "Engine".
	Path string `json:"path"`
	Name string `json:"name"`
	// From is the qualified name of the function, method or class the use
	// sits in; empty at a file's top level.
	From string `json:"from,omitempty"`
	// Call says the use calls the symbol (or constructs the class).
	Call bool `json:"call,omitempty"`
	// Impl says the use is the declaration of the method From, which
	// implements the interface method Name: a call through the interface
	// may land in From, so "who calls From" includes the interface
	// method's callers, and "who calls Name" the callers of From (as
	// gopls's references answer for a method).
	Impl bool `json:"impl,omitempty"`
}

// Project is what a resolver sees of the project: its indexed files,
// their facts, their resolved imports, and their contents read the way
// rubi reads any file a repository supplies (confined to the project,
// regular files only, capped).
type Project interface {
	// Files lists the indexed files of a language (core language names),
	// sorted.
	Files(language string) []string
	// Facts returns a file's facts as its parser found them.
	Facts(path string) (core.FileFacts, bool)
	// Imports lists the project files a file's imports resolve to, and
	// Importers the files whose imports resolve to it.
	Imports(path string) []string
	Importers(path string) []string
	// Read returns a file's contents.
	Read(path string) ([]byte, error)
}

// Spiller is a Project that gives a resolver somewhere to put what it
// found until its run ends, rather than memory: a large project's
// references outgrow what the rest of a run holds.
type Spiller interface {
	// Spill returns a new file for the resolver alone, empty, which no
	// name leads to (or none once it is closed): closing it is all its
	// taker does with it, and a run that crashes leaves nothing behind.
	Spill() (*os.File, error)
}

// Resolver finds the references of the files of its languages.
type Resolver interface {
	// Languages are the core language names it resolves.
	Languages() []string
	// Version names how it resolves: it changes whenever the same files
	// would get other references, so that a table an earlier version
	// wrote is rebuilt rather than patched file by file.
	Version() string
	// Refs returns the references in the files of want, by file, reading
	// whatever else of the project it needs. It may return more files
	// than asked, each with all its references (a Go package is resolved
	// whole); a file of want it cannot resolve is absent from the answer,
	// and keeps no references. The error is for a cancelled context only:
	// a file that does not parse or type-check is resolved as far as it
	// goes.
	Refs(ctx context.Context, p Project, want []string) (map[string][]Ref, error)
	// Affected widens a set of changed files to every file whose
	// references may have changed with them (a Go package's other files,
	// the files importing a changed one), so that an index run resolves
	// again only those.
	Affected(p Project, changed []string) []string
}

// Answer is a resolver's references held other than as Refs (packed,
// or on disk), handed out one file at a time: a large project's, as
// Refs, are the largest part of an index run's peak.
type Answer interface {
	// Paths are the files answered, sorted, each with all its
	// references, as Resolver.Refs's keys.
	Paths() []string
	// Targets are the files the references name (their Path), sorted.
	Targets() []string
	// Refs returns the references of a file of Paths.
	Refs(path string) ([]Ref, error)
	// Close lets go of what the answer holds.
	Close() error
}

// Answerer is a Resolver that can give its references as an Answer, for
// an index run to encode them file by file (Encoder).
type Answerer interface {
	Resolver
	// Answer is Refs's answer, as an Answer; the error is for a
	// cancelled context only.
	Answer(ctx context.Context, p Project, want []string) (Answer, error)
}

// MapAnswer is a Refs answer as an Answer.
func MapAnswer(m map[string][]Ref) Answer {
	a := &mapAnswer{m: m}
	targets := map[string]bool{}
	for f, rs := range m {
		a.paths = append(a.paths, f)
		for _, r := range rs {
			targets[r.Path] = true
		}
	}
	slices.Sort(a.paths)
	for t := range targets {
		a.targets = append(a.targets, t)
	}
	slices.Sort(a.targets)
	return a
}

type mapAnswer struct {
	m              map[string][]Ref
	paths, targets []string
}

func (a *mapAnswer) Paths() []string                 { return a.paths }
func (a *mapAnswer) Targets() []string               { return a.targets }
func (a *mapAnswer) Refs(path string) ([]Ref, error) { return a.m[path], nil }
func (a *mapAnswer) Close() error                    { return nil }

// WithImporters is the widening most resolvers' Affected makes: the
// changed files and the files importing them, and, through a file that
// re-exports what it imports (reexports: a Python package's __init__, a
// JavaScript folder's index), the files importing it too, as far as such
// files lead. Sorted.
func WithImporters(p Project, changed []string, reexports func(path string) bool) []string {
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
			if reexports(imp) {
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
