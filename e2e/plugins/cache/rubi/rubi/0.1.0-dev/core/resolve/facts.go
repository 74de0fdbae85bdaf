package resolve

import (
	"path"
	"slices"
	"strings"

	"github.com/rubi-dev/rubi/core"
)

// factIndex holds the declarations that Java/Kotlin and PHP imports name:
// which files make up a package or namespace and which file declares a
// class. Project builds one from paths alone (source roots, file names);
// Analyze builds one that also knows the package each parser read from
// the file and the file's top-level symbols.
type factIndex struct {
	jvmPkgs map[string][]string // package → its source files, sorted
	// jvmPkgsMain holds the packages with test files: their files
	// outside test source sets, nil when all are tests.
	jvmPkgsMain map[string][]string
	jvmDecls    map[string][]string // "pkg.Name" → the files declaring it, sorted
	jvmOwned    map[string]bool     // package prefixes of the project, see ownedPrefix
	jvmPlaced   map[string]bool     // files whose package is known
	jvmLoose    map[string][]string // directory base name → directories of files of unknown package

	phpDecls  map[string][]string // `Ns\Name` → the files declaring it, sorted
	phpTop    map[string]bool     // first segments of declared namespaces
	phpPlaced map[string]bool     // files whose namespace is known
}

func isJVMSource(f string) bool {
	ext := path.Ext(f)
	return ext == ".java" || ext == ".kt"
}

// indexFacts builds the declaration index from paths and, when given,
// parser facts.
func (p *Project) indexFacts(facts []core.FileFacts) *factIndex {
	fx := &factIndex{
		jvmPkgs:   map[string][]string{},
		jvmDecls:  map[string][]string{},
		jvmOwned:  map[string]bool{},
		jvmPlaced: map[string]bool{},
		jvmLoose:  map[string][]string{},
		phpDecls:  map[string][]string{},
		phpTop:    map[string]bool{},
		phpPlaced: map[string]bool{},
	}
	declared := map[string]string{}  // file → package or namespace the parser read
	symbols := map[string][]string{} // file → names of top-level symbols
	roots := cloneSet(p.jvmRoots)
	for i := range facts {
		f := &facts[i]
		if !p.Has(f.Path) {
			continue
		}
		switch f.Language {
		case core.LangJava, core.LangKotlin, core.LangPHP:
		default:
			continue
		}
		for _, s := range f.Symbols {
			if s.Parent == "" && s.Name != "" {
				symbols[f.Path] = append(symbols[f.Path], s.Name)
			}
		}
		pkg := strings.TrimSpace(f.Package)
		if pkg == "" {
			continue
		}
		declared[f.Path] = pkg
		if f.Language == core.LangPHP {
			continue
		}
		// A directory whose files' package matches their path suffix is a
		// source root: files of that root the parser found no package
		// for are placed by their path.
		rel := strings.ReplaceAll(pkg, ".", "/")
		if d := dirOf(f.Path); hasPathSuffix(d, rel) {
			r := strings.TrimSuffix(strings.TrimSuffix(d, rel), "/")
			roots[r] = true
		}
	}
	addDecl := func(m map[string][]string, key, file string) {
		if !slices.Contains(m[key], file) {
			m[key] = append(m[key], file)
		}
	}
	for f := range p.files {
		switch {
		case isJVMSource(f):
			pkg, ok := declared[f]
			if !ok {
				pkg, ok = jvmPathPackage(roots, f)
			}
			if !ok {
				d := dirOf(f)
				b := path.Base(d)
				if !slices.Contains(fx.jvmLoose[b], d) {
					fx.jvmLoose[b] = append(fx.jvmLoose[b], d)
				}
				continue
			}
			fx.jvmPlaced[f] = true
			fx.jvmPkgs[pkg] = append(fx.jvmPkgs[pkg], f)
			fx.jvmOwned[ownedPrefix(pkg, ".")] = true
			prefix := ""
			if pkg != "" {
				prefix = pkg + "."
			}
			addDecl(fx.jvmDecls, prefix+stem(f), f)
			for _, s := range symbols[f] {
				addDecl(fx.jvmDecls, prefix+s, f)
			}
		case path.Ext(f) == ".php":
			ns, ok := declared[f]
			if !ok {
				continue
			}
			ns = strings.Trim(ns, `\`)
			fx.phpPlaced[f] = true
			first, _, _ := strings.Cut(ns, `\`)
			if first != "" {
				fx.phpTop[first] = true
			}
			prefix := ""
			if ns != "" {
				prefix = ns + `\`
			}
			addDecl(fx.phpDecls, prefix+stem(f), f)
			for _, s := range symbols[f] {
				addDecl(fx.phpDecls, prefix+s, f)
			}
		}
	}
	for _, m := range []map[string][]string{fx.jvmPkgs, fx.jvmDecls, fx.jvmLoose, fx.phpDecls} {
		for _, l := range m {
			slices.Sort(l)
		}
	}
	fx.jvmPkgsMain = map[string][]string{}
	for pkg, files := range fx.jvmPkgs {
		if slices.ContainsFunc(files, isTestPath) {
			fx.jvmPkgsMain[pkg] = slices.DeleteFunc(slices.Clone(files), isTestPath)
		}
	}
	return fx
}

func cloneSet(m map[string]bool) map[string]bool {
	c := make(map[string]bool, len(m)+1)
	for k, v := range m {
		c[k] = v
	}
	return c
}

// stem is a file's base name without its extension.
func stem(f string) string {
	b := path.Base(f)
	return strings.TrimSuffix(b, path.Ext(b))
}

// ownedPrefix is the part of a package name that says whose it is: the
// first two segments ("com.acme" of com.acme.app), or the whole name when
// it has one segment. An import sharing it with a package of the project
// is taken for project-internal.
func ownedPrefix(pkg, sep string) string {
	i := strings.Index(pkg, sep)
	if i < 0 {
		return pkg
	}
	if j := strings.Index(pkg[i+len(sep):], sep); j >= 0 {
		return pkg[:i+len(sep)+j]
	}
	return pkg
}
