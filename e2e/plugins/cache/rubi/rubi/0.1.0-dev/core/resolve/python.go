package resolve

import (
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// loadPython finds the source roots: the project root, plus the parent of
// every top-level package (a directory with __init__.py whose parent has
// none), src/, and what pyproject.toml files declare: setuptools
// package-dir and packages.find where, poetry packages from. That covers
// src/ layouts and monorepos with several projects without reading
// setup.py or setup.cfg.
func (p *Project) loadPython(fsys fs.FS) {
	isInit := func(d string) bool {
		return p.Has(path.Join(d, "__init__.py")) || p.Has(path.Join(d, "__init__.pyi"))
	}
	p.pyRootSet = map[string]bool{"": true}
	p.pyAlias = map[string]string{}
	for d := range p.dirFiles {
		if d != "" && isInit(d) {
			if parent := dirOf(d); parent != "" && !isInit(parent) {
				p.pyRootSet[parent] = true
			}
		}
	}
	// src/ is a root even when it holds namespace packages only.
	if !isInit("src") {
		for d, files := range p.dirFiles {
			if (d == "src" || strings.HasPrefix(d, "src/")) && slices.ContainsFunc(files, isPython) {
				p.pyRootSet["src"] = true
				break
			}
		}
	}
	isPyProject := func(f string) bool { return isPython(f) || path.Base(f) == "pyproject.toml" }
	for _, d := range p.dirsOf(isPyProject) {
		p.loadPyProject(fsys, d)
	}
	for r := range p.pyRootSet {
		p.pyRoots = append(p.pyRoots, r)
	}
	slices.Sort(p.pyRoots)
	// Top-level names, to tell a missing project module from a
	// third-party one.
	p.pyTop = map[string]bool{}
	for name := range p.pyAlias {
		p.pyTop[name] = true
	}
	for d, files := range p.dirFiles {
		if !slices.ContainsFunc(files, isPython) {
			continue
		}
		for _, r := range p.pyRoots {
			if !within(d, r) {
				continue
			}
			if rel := relTo(d, r); rel != "" {
				first, _, _ := strings.Cut(rel, "/")
				p.pyTop[first] = true
				continue
			}
			for _, f := range files {
				if isPython(f) {
					stem := strings.TrimSuffix(path.Base(f), path.Ext(f))
					p.pyTop[stem] = true
				}
			}
		}
	}
}

// loadPyProject reads the source layout settings of one pyproject.toml.
func (p *Project) loadPyProject(fsys fs.FS, dir string) {
	name := path.Join(dir, "pyproject.toml")
	data := p.readConfig(fsys, name)
	if data == nil {
		return
	}
	var doc struct {
		Tool struct {
			Setuptools struct {
				PackageDir map[string]string `toml:"package-dir"`
				Packages   any               `toml:"packages"`
			} `toml:"setuptools"`
			Poetry struct {
				Packages []struct {
					Include string `toml:"include"`
					From    string `toml:"from"`
				} `toml:"packages"`
			} `toml:"poetry"`
		} `toml:"tool"`
	}
	if _, err := toml.Decode(string(data), &doc); err != nil {
		p.warn(name, "malformed: %v", err)
		return
	}
	addRoot := func(rel string) {
		if r, ok := join(dir, rel); ok {
			p.pyRootSet[r] = true
		} else {
			p.warn(name, "source directory %q leaves the project; ignored", rel)
		}
	}
	st := doc.Tool.Setuptools
	for pkg, rel := range st.PackageDir {
		if pkg == "" {
			addRoot(rel)
			continue
		}
		d, ok := join(dir, rel)
		if !ok || !validDotted(pkg) || strings.Contains(pkg, ".") {
			// Only top-level packages are remapped; dotted keys are rare.
			continue
		}
		p.pyAlias[pkg] = d
	}
	// packages = {find = {where = ["src"]}}
	if m, ok := st.Packages.(map[string]any); ok {
		if find, ok := m["find"].(map[string]any); ok {
			if where, ok := find["where"].([]any); ok {
				for _, w := range where {
					if s, ok := w.(string); ok {
						addRoot(s)
					}
				}
			}
		}
	}
	for _, pk := range doc.Tool.Poetry.Packages {
		if pk.From != "" {
			addRoot(pk.From)
		}
	}
}

// resolvePythonImport resolves `import spec` or `from spec import names`:
// each name that is a submodule gives its file, the others the module. A
// relative import, or one whose top-level name is a module or package of
// the project, is internal.
func (p *Project) resolvePythonImport(from, spec string, names []string) ([]string, bool) {
	internal := strings.HasPrefix(spec, ".")
	if !internal {
		first, _, _ := strings.Cut(spec, ".")
		internal = p.pyTop[first]
	}
	if len(names) == 0 {
		if t, ok := p.resolvePython(from, spec); ok {
			return []string{t}, true
		}
		return nil, internal
	}
	var targets []string
	for _, n := range names {
		sub := spec + "." + n
		if strings.Trim(spec, ".") == "" {
			sub = spec + n // from . import x is ".x"
		}
		if t, ok := p.resolvePython(from, sub); ok && !slices.Contains(targets, t) {
			targets = append(targets, t)
		}
	}
	return targets, internal
}

func (p *Project) resolvePython(from, spec string) (string, bool) {
	dots := len(spec) - len(strings.TrimLeft(spec, "."))
	name := spec[dots:]
	if name != "" && !validDotted(name) {
		return "", false
	}
	if dots > 0 {
		// One dot is the importing file's package (its directory, also
		// for __init__.py); each further dot goes one package up.
		base := dirOf(from)
		for range dots - 1 {
			if base == "" {
				return "", false
			}
			base = dirOf(base)
		}
		if t, ok := p.pyModule(base, name); ok {
			return t, true
		}
		if name != "" {
			// `from . import x` with x a name defined in the package.
			return p.pyModule(base, parentName(name))
		}
		return "", false
	}
	if t, ok := p.pyAbsolute(from, name); ok {
		return t, true
	}
	// `from a.b import c` emitted as "a.b.c" where c is not a module.
	if parent := parentName(name); parent != "" {
		return p.pyAbsolute(from, parent)
	}
	return "", false
}

// pyAbsolute looks name up in the source roots, in the order Python's
// sys.path would most likely have them: the importing file's directory
// when it is not a package (a script), the roots that contain the
// importing file (nearest first), then the other roots.
func (p *Project) pyAbsolute(from, name string) (string, bool) {
	dir := dirOf(from)
	if !p.Has(path.Join(dir, "__init__.py")) {
		if t, ok := p.pyModule(dir, name); ok {
			return t, true
		}
	}
	var found string
	var ok bool
	ancestors(dir, func(d string) bool {
		if p.pyRootSet[d] {
			found, ok = p.pyModule(d, name)
		}
		return !ok
	})
	if ok {
		return found, true
	}
	first, rest, _ := strings.Cut(name, ".")
	if d, ok := p.pyAlias[first]; ok {
		if t, ok := p.pyModule(d, rest); ok {
			return t, true
		}
	}
	for _, r := range p.pyRoots {
		if r != "" && !strings.HasPrefix(dir+"/", r+"/") {
			if t, ok := p.pyModule(r, name); ok {
				return t, true
			}
		}
	}
	return "", false
}

// pyModule finds dotted module name under base: a module file, a stub, or
// a package's __init__. An empty name is the package base itself.
func (p *Project) pyModule(base, name string) (string, bool) {
	rel := strings.ReplaceAll(name, ".", "/")
	stem, ok := join(base, rel)
	if !ok {
		return "", false
	}
	var cands [4]string
	n := 0
	if name != "" {
		cands[0], cands[1] = stem+".py", stem+".pyi"
		n = 2
	}
	cands[n], cands[n+1] = path.Join(stem, "__init__.py"), path.Join(stem, "__init__.pyi")
	for _, c := range cands[:n+2] {
		if p.Has(c) {
			return c, true
		}
	}
	return "", false
}

func isPython(f string) bool { return strings.HasSuffix(f, ".py") || strings.HasSuffix(f, ".pyi") }

func parentName(name string) string {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return ""
	}
	return name[:i]
}

// validDotted rejects specs that are not dotted identifiers, so a stray
// path or glob never walks the file system maps.
func validDotted(s string) bool {
	for _, part := range strings.Split(s, ".") {
		if part == "" || strings.ContainsAny(part, "/\\ *") {
			return false
		}
	}
	return true
}
