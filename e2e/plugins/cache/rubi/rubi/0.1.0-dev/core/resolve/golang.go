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
	path string // module path from the module directive, or a replaced path
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
	type replace struct{ file, old, dir string }
	var replaces []replace
	localReplaces := func(file string, rs []*modfile.Replace) {
		for _, r := range rs {
			// A local replacement has no version and a relative path.
			np := r.New.Path
			if r.New.Version != "" || !(strings.HasPrefix(np, "./") || strings.HasPrefix(np, "../") || np == "." || np == "..") {
				continue
			}
			if d, ok := join(dirOf(file), np); ok {
				replaces = append(replaces, replace{file, r.Old.Path, d})
			}
		}
	}
	loadMod := func(d string) {
		if _, done := p.goMods[d]; done {
			return
		}
		name := path.Join(d, "go.mod")
		data := p.readConfig(fsys, name)
		if data == nil {
			return
		}
		mp := ""
		if f, err := modfile.Parse(name, data, nil); err == nil {
			// The strict parser keeps replace directives, which the lax
			// one drops.
			if f.Module != nil {
				mp = f.Module.Mod.Path
			}
			localReplaces(name, f.Replace)
		} else if f, err := modfile.ParseLax(name, data, nil); err != nil {
			p.warn(name, "malformed: %v", err)
			// The module line alone is enough for resolution, and
			// ModulePath finds it in files the full parser rejects.
			mp = modfile.ModulePath(data)
		} else if f.Module != nil {
			mp = f.Module.Mod.Path
		}
		if mp == "" {
			p.warn(name, "no module directive; its packages are not resolved")
			return
		}
		p.goMods[d] = mp
		p.goByPath = append(p.goByPath, goModule{path: mp, dir: d})
	}
	for _, d := range p.dirsOf(isGo) {
		loadMod(d)
	}
	// A go.work sits in a module directory or above one.
	workDirs := map[string]bool{}
	for d := range p.goMods {
		ancestors(d, func(a string) bool {
			if workDirs[a] {
				return false
			}
			workDirs[a] = true
			return true
		})
	}
	workDirs[""] = true
	var works []string
	for d := range workDirs {
		works = append(works, path.Join(d, "go.work"))
	}
	slices.Sort(works)
	// go.work: the modules it uses resolve each other, wherever their
	// go.mod is, and its replacements apply to all of them.
	for _, name := range works {
		data := p.readConfig(fsys, name)
		if data == nil {
			continue
		}
		w, err := modfile.ParseWork(name, data, nil)
		if err != nil {
			p.warn(name, "malformed: %v", err)
			continue
		}
		for _, u := range w.Use {
			d, ok := join(dirOf(name), u.Path)
			if !ok {
				p.warn(name, "use %s leaves the project; ignored", u.Path)
				continue
			}
			loadMod(d)
		}
		localReplaces(name, w.Replace)
	}
	// Replacements pointing at directories the project lacks are reported
	// once per file: a trimmed copy of a monorepo has dozens of them.
	missing := map[string][]string{}
	var missingFiles []string
	for _, r := range replaces {
		mp, ok := p.goMods[r.dir]
		switch {
		case !ok:
			if len(missing[r.file]) == 0 {
				missingFiles = append(missingFiles, r.file)
			}
			missing[r.file] = append(missing[r.file], r.old+" => "+r.dir)
		case mp != r.old && !slices.Contains(p.goByPath, goModule{path: r.old, dir: r.dir}):
			p.goByPath = append(p.goByPath, goModule{path: r.old, dir: r.dir})
		}
	}
	for _, f := range missingFiles {
		m := missing[f]
		if len(m) == 1 {
			p.warn(f, "replace %s: no go.mod there in the project; ignored", m[0])
			continue
		}
		p.warn(f, "%d replace directives point where the project has no go.mod (%s, …); ignored", len(m), m[0])
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

// resolveGo resolves an import path; it is internal when it lies under a
// module path of the project.
func (p *Project) resolveGo(from, spec string) ([]string, bool) {
	internal := false
	for _, m := range p.goByPath {
		rest, ok := strings.CutPrefix(spec, m.path)
		if !ok || rest != "" && rest[0] != '/' {
			continue
		}
		internal = true
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
			return files, true
		}
	}
	// Another module or the standard library: only a vendored copy is in
	// the project.
	if mod, ok := p.goModuleDir(dirOf(from)); ok {
		if dir, ok := join(mod, "vendor", spec); ok {
			if files := p.goFiles[dir]; len(files) > 0 {
				return files, true
			}
		}
	}
	return nil, internal
}
