package resolve

import (
	"cmp"
	"io/fs"
	"path"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
)

type goModule struct {
	path string // module path from the module directive
	dir  string // directory of its go.mod, "" for the root
}

func (p *Project) loadGo(fsys fs.FS) {
	p.goMods = map[string]string{}
	p.goFiles = map[string][]string{}
	for d, files := range p.dirFiles {
		for _, f := range files {
			if strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") {
				p.goFiles[d] = append(p.goFiles[d], f)
			}
		}
	}
	isGo := func(f string) bool { return strings.HasSuffix(f, ".go") || path.Base(f) == "go.mod" }
	for _, d := range p.dirsOf(isGo) {
		name := path.Join(d, "go.mod")
		data := p.readConfig(fsys, name)
		if data == nil {
			continue
		}
		mp := ""
		if f, err := modfile.ParseLax(name, data, nil); err != nil {
			p.warn(name, "malformed: %v", err)
			// The module line alone is enough for resolution, and
			// ModulePath finds it in files the full parser rejects.
			mp = modfile.ModulePath(data)
		} else if f.Module != nil {
			mp = f.Module.Mod.Path
		}
		if mp == "" {
			p.warn(name, "no module directive; its packages are not resolved")
			continue
		}
		p.goMods[d] = mp
		p.goByPath = append(p.goByPath, goModule{path: mp, dir: d})
	}
	slices.SortFunc(p.goByPath, func(a, b goModule) int {
		return cmp.Or(cmp.Compare(len(b.path), len(a.path)), cmp.Compare(a.path, b.path), cmp.Compare(a.dir, b.dir))
	})
}

// goModuleDir returns the directory of the go.mod governing dir.
func (p *Project) goModuleDir(dir string) (string, bool) {
	found, ok := "", false
	ancestors(dir, func(d string) bool {
		if _, is := p.goMods[d]; is {
			found, ok = d, true
			return false
		}
		return true
	})
	return found, ok
}

func (p *Project) resolveGo(from, spec string) []string {
	for _, m := range p.goByPath {
		rest, ok := strings.CutPrefix(spec, m.path)
		if !ok || rest != "" && rest[0] != '/' {
			continue
		}
		dir, ok := join(m.dir, strings.TrimPrefix(rest, "/"))
		if !ok {
			continue
		}
		// The directory must belong to this module and not to a nested
		// one, which would own it under its own module path.
		if owner, _ := p.goModuleDir(dir); owner != m.dir {
			continue
		}
		if files := p.goFiles[dir]; len(files) > 0 {
			return files
		}
	}
	// Another module or the standard library: only a vendored copy is in
	// the project.
	if mod, ok := p.goModuleDir(dirOf(from)); ok {
		if dir, ok := join(mod, "vendor", spec); ok {
			return p.goFiles[dir]
		}
	}
	return nil
}
