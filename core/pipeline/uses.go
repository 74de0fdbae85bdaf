package pipeline

import (
	"cmp"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"sync"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/manifest"
	"github.com/rubi-dev/rubi/core/refs"
)

// The uses of the symbols a question names ("what calls Cart.Total"), for
// the stages that answer it (query.callers, rerank.units): the targets
// are resolved as `rubi refs` resolves them (refsquery.go), from the
// table of references alone, except that an ambiguous bare name stands
// for every one of its definitions rather than asking which. A query
// asks for them twice at most (a ranker, then a reranker), so each
// target's answer is kept for the query.

// maxUseDefs bounds the definitions an ambiguous name stands for: a name
// defined in a hundred places ("get", "run") says little of which uses
// the question means.
const maxUseDefs = 8

// useCache keeps each target's uses for one query, and the table of
// references it reads them from, opened at the first and closed with the
// query.
type useCache struct {
	mu    sync.Mutex
	seen  map[string]useAnswer
	calls map[[2]string][]core.Callee
	rd    *refs.Reader
	gen   string
}

// reader returns the table of m, opened once for the query; nil when the
// index keeps none. The caller holds mu.
func (f *queryFacts) reader(m *manifest.Manifest) (*refs.Reader, error) {
	if m.References == "" {
		return nil, nil
	}
	if f.uses.rd != nil && f.uses.gen == m.References {
		return f.uses.rd, nil
	}
	f.closeRefs()
	rd, err := refs.Open(f.e.folder.dir, m.References, f.e.oneShot)
	if err != nil {
		return nil, err
	}
	f.uses.rd, f.uses.gen = rd, m.References
	return rd, nil
}

// closeRefs closes the table of references the query opened, if any.
func (f *queryFacts) closeRefs() {
	if f.uses.rd != nil {
		f.uses.rd.Close()
		f.uses.rd = nil
	}
}

type useAnswer struct {
	uses core.SymbolUses
	err  error
}

// Uses implements core.Facts.
func (f *queryFacts) Uses(target string) (core.SymbolUses, error) {
	f.uses.mu.Lock()
	defer f.uses.mu.Unlock()
	if a, ok := f.uses.seen[target]; ok {
		return a.uses, a.err
	}
	m := f.manifest()
	var a useAnswer
	if m != nil {
		var rd *refs.Reader
		if rd, a.err = f.reader(m); rd != nil {
			a.uses, a.err = symbolUses(m, rd, target)
		}
		if errors.Is(a.err, fs.ErrNotExist) {
			// Another process indexed meanwhile and removed the table
			// this manifest names: the answer is made without uses
			// rather than failed.
			a.err = nil
		}
	}
	if f.uses.seen == nil {
		f.uses.seen = map[string]useAnswer{}
	}
	f.uses.seen[target] = a
	return a.uses, a.err
}

// symbolUses finds the definitions target names in m's table of
// references rd, and the references to them; none when the target names
// no definition.
func symbolUses(m *manifest.Manifest, rd *refs.Reader, target string) (core.SymbolUses, error) {
	var out core.SymbolUses
	q, ok := parseSymbol(target, m.Has)
	if !ok {
		return out, nil
	}
	targets, err := rd.Lookup(q.name)
	if err != nil {
		return out, err
	}
	defs := make([]Definition, 0, len(targets))
	for _, t := range targets {
		d := Definition{Path: t.Path, Line: t.Line, Kind: t.Kind, Name: q.name, Exported: t.Exported}
		d.Parent = strings.TrimSuffix(strings.TrimSuffix(t.Name, q.name), ".")
		if rec, ok := m.File(t.Path); ok {
			d.Role, d.rank = rec.Role, rec.Rank
		}
		defs = append(defs, d)
	}
	for _, d := range pick(defs, q, m) {
		if len(out.Defs) == maxUseDefs {
			break
		}
		for _, t := range targets {
			if t.Path != d.Path || t.Name != d.Qualified() {
				continue
			}
			sites, err := rd.To(t)
			if err != nil {
				return core.SymbolUses{}, err
			}
			// The calls that reach a method through an interface it
			// implements are its uses too, as rubi refs lists them.
			via, err := throughInterfaces(rd, d)
			if err != nil {
				return core.SymbolUses{}, err
			}
			sites = append(sites, via...)
			def := len(out.Defs)
			out.Defs = append(out.Defs, core.UsedDef{Path: t.Path, Name: t.Name, Line: t.Line})
			for _, s := range sites {
				// An implementing method's declaration is no use of
				// the interface method: a call through the interface
				// is.
				if !s.Impl {
					out.Sites = append(out.Sites, core.UseSite{Path: s.File, Line: s.Line, From: s.From, Call: s.Call, Def: def})
				}
			}
			break
		}
	}
	slices.SortStableFunc(out.Sites, func(a, b core.UseSite) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line))
	})
	return out, nil
}

// Calls implements core.Facts.
func (f *queryFacts) Calls(path, from string) ([]core.Callee, error) {
	f.uses.mu.Lock()
	defer f.uses.mu.Unlock()
	key := [2]string{path, from}
	if c, ok := f.uses.calls[key]; ok {
		return c, nil
	}
	m := f.manifest()
	if m == nil {
		return nil, nil
	}
	rd, err := f.reader(m)
	if rd == nil || err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
		return nil, err
	}
	in, err := rd.From(path)
	if err != nil {
		return nil, err
	}
	var out []core.Callee
	for _, r := range in {
		if r.From == from && !r.Impl {
			out = append(out, core.Callee{Path: r.Path, Name: r.Name, Line: r.Line, Call: r.Call})
		}
	}
	if f.uses.calls == nil {
		f.uses.calls = map[[2]string][]core.Callee{}
	}
	f.uses.calls[key] = out
	return out, nil
}
