package java

import (
	"strings"

	"github.com/rubi-dev/rubi/core/resolve"
)

// scope is what a file sees beyond its own types: the type names of its
// package and imports (nil: two offer the name and neither is nearer),
// and the methods it imports statically, by name, with the type that
// declares them.
type scope struct {
	types   map[string]*typeDef
	statics map[string]*typeDef
}

// scope returns file fi's scope, made from its facts' imports (the
// parser reports import static a.b.C.m as a.b.C.m: a spec that names no
// type is tried as a type's member). Java's order: single-type imports
// shadow the package's types, which shadow on-demand imports.
func (ix *index) scope(fi *fileInfo) *scope {
	fi.scopeOnce.Do(func() { fi.sc = ix.makeScope(fi) })
	return fi.sc
}

func (ix *index) makeScope(fi *fileInfo) *scope {
	sc := &scope{types: map[string]*typeDef{}, statics: map[string]*typeDef{}}
	ff, _ := ix.p.Facts(fi.path)
	imported := map[string]bool{}
	for _, f := range ix.p.Imports(fi.path) {
		imported[f] = true
	}
	demand := map[string][]*typeDef{}
	single := map[string][]*typeDef{}
	statics := map[string][]*typeDef{}
	for _, im := range ff.Imports {
		spec := strings.ReplaceAll(im.Spec, " ", "")
		if pkg, ok := strings.CutSuffix(spec, ".*"); ok {
			if m := ix.pkgs[pkg]; len(m) > 0 {
				for n, ts := range m {
					demand[n] = append(demand[n], ts...)
				}
				continue
			}
			// import a.b.C.* (static or not): C's nested types and its
			// methods.
			if t, rest := ix.qualified(fi, pkg, imported); t != nil && len(rest) == 0 {
				for n, nt := range t.nested {
					demand[n] = append(demand[n], nt)
				}
				for m := range t.members {
					statics[m] = append(statics[m], t)
				}
			}
			continue
		}
		t, rest := ix.qualified(fi, spec, imported)
		switch {
		case t == nil:
		case len(rest) == 0:
			single[t.name] = append(single[t.name], t)
		case len(rest) == 1:
			if _, ok := t.members[rest[0]]; ok {
				statics[rest[0]] = append(statics[rest[0]], t)
			}
		}
	}
	for n, ts := range demand {
		sc.types[n] = nearest(fi.path, ts)
	}
	for n, ts := range ix.pkgs[fi.pkg] {
		sc.types[n] = nearest(fi.path, ts)
	}
	for n, ts := range single {
		sc.types[n] = nearest(fi.path, ts)
	}
	for n, ts := range statics {
		sc.statics[n] = nearest(fi.path, ts)
	}
	return sc
}

// qualified resolves a dotted name to a project type: the longest
// package that declares its next part as a top-level type, then nested
// types as far as they go. rest is what is left (a member's name). Where
// several files declare the type, those the file's imports resolved to
// are preferred, then the nearest.
func (ix *index) qualified(fi *fileInfo, dotted string, imported map[string]bool) (*typeDef, []string) {
	parts := strings.Split(dotted, ".")
	for k := len(parts) - 1; k >= 0; k-- {
		ts := ix.pkgs[strings.Join(parts[:k], ".")][parts[k]]
		if len(ts) == 0 {
			continue
		}
		var in []*typeDef
		for _, t := range ts {
			if imported[t.path] {
				in = append(in, t)
			}
		}
		if len(in) > 0 {
			ts = in
		}
		t := nearest(fi.path, ts)
		if t == nil {
			return nil, nil
		}
		for j := k + 1; j < len(parts); j++ {
			n := t.nested[parts[j]]
			if n == nil {
				return t, parts[j:]
			}
			t = n
		}
		return t, nil
	}
	return nil, nil
}

// nearest is the one type of ts, or the one whose file is nearest to
// from as an import's target is chosen (resolve.Nearest); nil when
// several files are as near.
func nearest(from string, ts []*typeDef) *typeDef {
	byPath := map[string]*typeDef{}
	var paths []string
	for _, t := range ts {
		if old, ok := byPath[t.path]; ok && old != t {
			return nil // two types of one name in one file: not Java
		}
		if _, ok := byPath[t.path]; !ok {
			paths = append(paths, t.path)
		}
		byPath[t.path] = t
	}
	if near := resolve.Nearest(from, paths); len(near) == 1 {
		return byPath[near[0]]
	}
	return nil
}
