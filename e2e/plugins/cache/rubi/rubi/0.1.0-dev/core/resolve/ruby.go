package resolve

import (
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/rubi-dev/rubi/core"
)

// loadRuby finds the lib directories `require` searches: the root's lib/
// and each gem's, a lib/ beside a *.gemspec (from the file list, else
// from fsys).
func (p *Project) loadRuby(fsys fs.FS) {
	for d := range p.subdirs {
		if path.Base(d) != "lib" {
			continue
		}
		parent := dirOf(d)
		gem := d == "lib" || slices.ContainsFunc(p.dirFiles[parent], func(f string) bool {
			return strings.HasSuffix(f, ".gemspec")
		})
		if !gem {
			m, _ := fs.Glob(fsys, path.Join(parent, "*.gemspec"))
			gem = len(m) > 0
		}
		if gem {
			p.rbLibs = append(p.rbLibs, d)
		}
	}
	// The root's lib/ first, then by path.
	slices.SortFunc(p.rbLibs, func(a, b string) int {
		switch {
		case a == "lib":
			return -1
		case b == "lib":
			return 1
		}
		return strings.Compare(a, b)
	})
}

// resolveRuby resolves require_relative (core.ImportRelative) from the
// file's directory, and require through the lib directories: the one of
// the importer's own gem first, then the root's, then the other gems'.
// ".rb" is added when missing. A require that no lib directory has is
// external (a gem or the standard library) unless its first segment names
// a file or directory of a lib directory; a require_relative is always
// internal.
func (p *Project) resolveRuby(from, spec, kind string) ([]string, bool) {
	probe := func(t string) (string, bool) {
		if !strings.HasSuffix(t, ".rb") {
			t += ".rb"
		}
		return t, p.Has(t)
	}
	relative := kind == core.ImportRelative || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../")
	if relative {
		if t, ok := join(dirOf(from), spec); ok {
			if t, ok := probe(t); ok {
				return []string{t}, true
			}
		}
		return nil, true
	}
	if strings.HasPrefix(spec, "/") || strings.Contains(spec, "://") {
		return nil, false
	}
	libs := make([]string, 0, len(p.rbLibs))
	for _, l := range p.rbLibs {
		if within(from, dirOf(l)) && dirOf(l) != "" {
			libs = append(libs, l)
		}
	}
	// The deepest enclosing gem first.
	slices.SortFunc(libs, func(a, b string) int { return len(b) - len(a) })
	for _, l := range p.rbLibs {
		if !slices.Contains(libs, l) {
			libs = append(libs, l)
		}
	}
	first, _, _ := strings.Cut(strings.TrimSuffix(spec, ".rb"), "/")
	internal := false
	for _, l := range libs {
		if t, ok := join(l, spec); ok {
			if t, ok := probe(t); ok {
				return []string{t}, true
			}
		}
		top := path.Join(l, first)
		internal = internal || p.subdirs[top] || p.Has(top+".rb")
	}
	return nil, internal
}
