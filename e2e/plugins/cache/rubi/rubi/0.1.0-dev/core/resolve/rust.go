package resolve

import (
	"cmp"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/bmatcuk/doublestar/v4"
	"github.com/rubi-dev/rubi/core"
)

// rustCrate is a Cargo package of the project.
type rustCrate struct {
	name   string   // the name paths use: [lib] name or package name, '-' → '_'
	dir    string   // directory of its Cargo.toml
	lib    string   // library root file, "" when the crate has none
	bins   []string // [[bin]] root files with an explicit path
	member bool     // a workspace lists it among its members
	// deps maps the names this crate's paths use for project crates that
	// it renames or points to by path (also through workspace = true) to
	// their directories.
	deps map[string]string
}

// cargoDep is one entry of a [dependencies] table.
type cargoDep struct {
	path, pkg string
	workspace bool
}

func parseCargoDeps(tables ...map[string]any) map[string]cargoDep {
	out := map[string]cargoDep{}
	for _, t := range tables {
		for k, v := range t {
			m, ok := v.(map[string]any)
			if !ok {
				continue // a version string: a registry crate
			}
			d := cargoDep{}
			d.path, _ = m["path"].(string)
			d.pkg, _ = m["package"].(string)
			d.workspace, _ = m["workspace"].(bool)
			if d.path != "" || d.pkg != "" || d.workspace {
				out[k] = d
			}
		}
	}
	return out
}

func rustName(s string) string { return strings.ReplaceAll(s, "-", "_") }

// loadRust reads every Cargo.toml of the project: crate names, library
// roots, workspace members and path or renamed dependencies.
func (p *Project) loadRust(fsys fs.FS) {
	p.rustCrates = map[string]*rustCrate{}
	p.rustByName = map[string]*rustCrate{}
	type workspace struct {
		dir              string
		members, exclude []string
		deps             map[string]cargoDep
	}
	var workspaces []workspace
	crateDeps := map[*rustCrate]map[string]cargoDep{}
	isRust := func(f string) bool { return path.Ext(f) == ".rs" || path.Base(f) == "Cargo.toml" }
	for _, d := range p.dirsOf(isRust) {
		name := path.Join(d, "Cargo.toml")
		data := p.readConfig(fsys, name)
		if data == nil {
			continue
		}
		type target struct {
			Name string `toml:"name"`
			Path string `toml:"path"`
		}
		var doc struct {
			Package *struct {
				Name string `toml:"name"`
			} `toml:"package"`
			Lib       *target  `toml:"lib"`
			Bin       []target `toml:"bin"`
			Workspace *struct {
				Members      []string       `toml:"members"`
				Exclude      []string       `toml:"exclude"`
				Dependencies map[string]any `toml:"dependencies"`
			} `toml:"workspace"`
			Dependencies      map[string]any `toml:"dependencies"`
			DevDependencies   map[string]any `toml:"dev-dependencies"`
			BuildDependencies map[string]any `toml:"build-dependencies"`
		}
		if _, err := toml.Decode(string(data), &doc); err != nil {
			p.warn(name, "malformed: %v", err)
			continue
		}
		if w := doc.Workspace; w != nil {
			workspaces = append(workspaces, workspace{d, w.Members, w.Exclude, parseCargoDeps(w.Dependencies)})
		}
		if doc.Package == nil {
			continue // a virtual workspace manifest
		}
		c := &rustCrate{dir: d, name: rustName(doc.Package.Name), deps: map[string]string{}}
		libPath := "src/lib.rs"
		if doc.Lib != nil {
			if doc.Lib.Name != "" {
				c.name = rustName(doc.Lib.Name)
			}
			if doc.Lib.Path != "" {
				libPath = doc.Lib.Path
			}
		}
		if t, ok := join(d, libPath); ok && p.Has(t) {
			c.lib = t
		}
		for _, b := range doc.Bin {
			if t, ok := join(d, b.Path); ok && b.Path != "" && p.Has(t) {
				c.bins = append(c.bins, t)
			}
		}
		if c.name == "" {
			p.warn(name, "package has no name; paths naming it are not resolved")
		}
		p.rustCrates[d] = c
		crateDeps[c] = parseCargoDeps(doc.Dependencies, doc.DevDependencies, doc.BuildDependencies)
	}
	globMatch := func(base string, globs []string, dir string) bool {
		if !within(dir, base) {
			return false
		}
		rel := relTo(dir, base)
		for _, g := range globs {
			if ok, _ := doublestar.Match(path.Clean(g), rel); ok {
				return true
			}
		}
		return false
	}
	for _, w := range workspaces {
		for d, c := range p.rustCrates {
			if d == w.dir || globMatch(w.dir, w.members, d) && !globMatch(w.dir, w.exclude, d) {
				c.member = true
			}
		}
	}
	// Workspace members take a name first, then the crates nearest the
	// root: fixtures and vendored copies come last.
	crates := make([]*rustCrate, 0, len(p.rustCrates))
	for _, c := range p.rustCrates {
		crates = append(crates, c)
	}
	slices.SortFunc(crates, func(a, b *rustCrate) int {
		if a.member != b.member {
			if a.member {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(strings.Count(a.dir, "/"), strings.Count(b.dir, "/")), cmp.Compare(a.dir, b.dir))
	})
	for _, c := range crates {
		if c.name == "" {
			continue
		}
		if first, taken := p.rustByName[c.name]; !taken {
			p.rustByName[c.name] = c
		} else if first.member && c.member {
			p.warn(path.Join(c.dir, "Cargo.toml"), "crate name %q is also used by %s; paths use that one", c.name, path.Join(first.dir, "Cargo.toml"))
		}
	}
	for _, c := range crates {
		for key, dep := range crateDeps[c] {
			base := c.dir
			if dep.workspace {
				// The nearest enclosing workspace defines it.
				found := false
				for _, w := range workspaces {
					if wd, ok := w.deps[key]; ok && within(c.dir, w.dir) && (!found || len(w.dir) > len(base)) {
						pkg := dep.pkg
						if pkg == "" {
							pkg = wd.pkg
						}
						dep, base, found = cargoDep{path: wd.path, pkg: pkg}, w.dir, true
					}
				}
				if !found {
					continue
				}
			}
			var target *rustCrate
			if dep.path != "" {
				if d, ok := join(base, dep.path); ok {
					target = p.rustCrates[d]
				}
			} else if dep.pkg != "" {
				target = p.rustByName[rustName(dep.pkg)]
			}
			if target != nil {
				c.deps[rustName(key)] = target.dir
			}
		}
	}
}

// rustCrateOf returns the crate whose directory holds f, nil if none.
func (p *Project) rustCrateOf(f string) *rustCrate {
	var c *rustCrate
	ancestors(dirOf(f), func(d string) bool {
		c = p.rustCrates[d]
		return c == nil
	})
	return c
}

// rustRoot returns the directory that crate:: paths of f start from and
// the crate root file (lib.rs, main.rs, a bin, test or example file), ""
// when unknown; ok is false when not even the directory is known. A
// module of src/ belongs to the library when the crate has one, else to
// src/main.rs: a file that both declare is read as the library's.
func (p *Project) rustRoot(f string) (dir, root string, ok bool) {
	c := p.rustCrateOf(f)
	if c != nil {
		if f == c.lib || slices.Contains(c.bins, f) {
			return dirOf(f), f, true
		}
		rel := relTo(f, c.dir)
		first, rest, _ := strings.Cut(rel, "/")
		switch first {
		case "build.rs":
			return c.dir, f, true
		case "src":
			if binRest, ok := strings.CutPrefix(rest, "bin/"); ok {
				name, _, nested := strings.Cut(binRest, "/")
				if !nested {
					return dirOf(f), f, true
				}
				d := path.Join(c.dir, "src/bin", name)
				return d, p.rustFirst(path.Join(d, "main.rs")), true
			}
		case "tests", "examples", "benches":
			td := path.Join(c.dir, first)
			name, _, nested := strings.Cut(rest, "/")
			if !nested {
				return td, f, true
			}
			if m := path.Join(td, name, "main.rs"); p.Has(m) {
				return path.Join(td, name), m, true
			}
			return td, "", true
		}
		if c.lib != "" && within(f, dirOf(c.lib)) {
			return dirOf(c.lib), c.lib, true
		}
		src := path.Join(c.dir, "src")
		if within(f, src) {
			return src, p.rustFirst(path.Join(src, "main.rs")), true
		}
	}
	// No Cargo.toml: the nearest directory with a lib.rs or main.rs.
	ancestors(dirOf(f), func(d string) bool {
		for _, r := range []string{"lib.rs", "main.rs"} {
			if t := path.Join(d, r); p.Has(t) {
				dir, root, ok = d, t, true
				return false
			}
		}
		return true
	})
	return dir, root, ok
}

func (p *Project) rustFirst(cands ...string) string {
	for _, c := range cands {
		if p.Has(c) {
			return c
		}
	}
	return ""
}

// rustModDir is the directory where the child modules of file f live:
// its own directory for crate roots and mod.rs files, else the directory
// named after it (src/a.rs → src/a).
func rustModDir(f, rootDir, root string) string {
	d, b := dirOf(f), path.Base(f)
	if f == root || b == "mod.rs" || d == rootDir && (b == "lib.rs" || b == "main.rs") {
		return d
	}
	return path.Join(d, strings.TrimSuffix(b, ".rs"))
}

// rustModFile is the file of the module whose children live in dir.
func (p *Project) rustModFile(dir, rootDir, root string) string {
	if dir == rootDir {
		return root
	}
	return p.rustFirst(dir+".rs", path.Join(dir, "mod.rs"))
}

// rustModule finds the longest prefix of segs that is a module file
// under base, falling back to the module file itself (the path names an
// item, or an inline module, of it).
func (p *Project) rustModule(base string, segs []string, fallback string) []string {
	for k := len(segs); k >= 1; k-- {
		stem, ok := join(base, path.Join(segs[:k]...))
		if !ok {
			return nil
		}
		if t := p.rustFirst(stem+".rs", path.Join(stem, "mod.rs")); t != "" {
			return []string{t}
		}
	}
	if fallback != "" {
		return []string{fallback}
	}
	return nil
}

// expandRustUse turns a use tree into paths: "a::{b, c::{d as e}}" is
// a::b and a::c::d. Renames, trailing globs and `self` are dropped.
func expandRustUse(s string) []string {
	i := strings.IndexByte(s, '{')
	if i < 0 {
		s, _, _ = strings.Cut(s, " as ")
		s = strings.Join(strings.Fields(s), "")
		s = strings.TrimSuffix(strings.TrimSuffix(s, "::*"), "::self")
		if s == "" {
			return nil
		}
		return []string{s}
	}
	prefix := s[:i]
	depth, start := 0, i+1
	var out []string
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '{':
			depth++
		case '}', ',':
			if s[j] == '}' {
				depth--
			}
			if depth == 1 && s[j] == ',' || depth == 0 {
				if item := strings.TrimSpace(s[start:j]); item != "" {
					if item == "self" {
						out = append(out, expandRustUse(strings.TrimSuffix(strings.TrimSpace(prefix), "::"))...)
					} else {
						out = append(out, expandRustUse(prefix+item)...)
					}
				}
				start = j + 1
			}
			if depth == 0 {
				return out
			}
		}
	}
	return out
}

// resolveRust resolves a Rust `mod x;` (core.ImportModule) or use path:
//   - mod x; is x.rs or x/mod.rs in the declaring module's directory: the
//     file's own directory for crate roots (lib.rs, main.rs, bins, tests,
//     examples, build.rs) and mod.rs, else the directory named after the
//     file (src/a.rs → src/a/b.rs);
//   - crate::a::b::C is the longest prefix that is a module file from the
//     crate's source directory, else the crate root file (C or a is then
//     an item or inline module of it); self:: starts from the file's
//     module, super:: from its parent ("super::*" alone is taken for the
//     inline `mod tests` idiom and stays in the file);
//   - name::x is a child module of the file's module when there is one
//     (2018 uniform paths), else crate name's library module tree when
//     name is a crate of the project (renamed and path dependencies of the
//     importing crate first), else external (std, core, alloc, registry
//     crates).
//
// Use trees with braces are expanded. crate::, self::, super::, mod and
// project crates are internal when not found.
func (p *Project) resolveRust(from, spec, kind string) ([]string, bool) {
	spec = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(spec), ";"))
	rootDir, root, known := p.rustRoot(from)
	modDir := rustModDir(from, rootDir, root)
	if kind == core.ImportModule {
		name := strings.TrimPrefix(spec, "r#")
		if name == "" || strings.ContainsAny(name, "/\\:. ") {
			return nil, true
		}
		dirs := []string{modDir}
		if !known && modDir != dirOf(from) {
			// Whether from is a crate root is unknown: its directory
			// may hold its modules too.
			dirs = append(dirs, dirOf(from))
		}
		for _, d := range dirs {
			if t := p.rustFirst(path.Join(d, name+".rs"), path.Join(d, name, "mod.rs")); t != "" {
				return []string{t}, true
			}
		}
		return nil, true
	}
	var targets []string
	internal := false
	if strings.Join(strings.Fields(spec), "") == "super::*" {
		return []string{from}, true
	}
	for _, use := range expandRustUse(spec) {
		ts, in := p.rustPath(from, use, rootDir, root, modDir, known)
		internal = internal || in
		for _, t := range ts {
			if !slices.Contains(targets, t) {
				targets = append(targets, t)
			}
		}
	}
	slices.Sort(targets)
	return targets, internal
}

func (p *Project) rustPath(from, use, rootDir, root, modDir string, known bool) ([]string, bool) {
	externOnly := strings.HasPrefix(use, "::")
	segs := strings.Split(strings.TrimPrefix(use, "::"), "::")
	for i, s := range segs {
		segs[i] = strings.TrimPrefix(s, "r#")
		if segs[i] == "" {
			return nil, false
		}
	}
	switch segs[0] {
	case "crate", "$crate":
		if !known {
			return nil, true
		}
		return p.rustModule(rootDir, segs[1:], root), true
	case "self":
		return p.rustModule(modDir, segs[1:], from), true
	case "super":
		dir, n := modDir, 0
		for n < len(segs) && segs[n] == "super" {
			if known && dir == rootDir || dir == "" {
				return nil, true // above the crate root
			}
			dir, n = dirOf(dir), n+1
		}
		return p.rustModule(dir, segs[n:], p.rustModFile(dir, rootDir, root)), true
	}
	if !externOnly {
		if t := p.rustFirst(path.Join(modDir, segs[0]+".rs"), path.Join(modDir, segs[0], "mod.rs")); t != "" {
			return p.rustModule(modDir, segs, ""), true
		}
	}
	var target *rustCrate
	if c := p.rustCrateOf(from); c != nil {
		if d, ok := c.deps[segs[0]]; ok {
			target = p.rustCrates[d]
		}
	}
	if target == nil {
		target = p.rustByName[segs[0]]
	}
	if target == nil {
		return nil, false
	}
	if target.lib == "" {
		return nil, true
	}
	return p.rustModule(dirOf(target.lib), segs[1:], target.lib), true
}
