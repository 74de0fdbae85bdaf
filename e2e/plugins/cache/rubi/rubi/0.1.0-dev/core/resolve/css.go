package resolve

import (
	"path"
	"strings"
)

var cssExts = []string{".scss", ".sass", ".css", ".less"}

// resolveCSS resolves an @import, @use or @forward of a stylesheet. The
// spec is relative to the importing file (also without "./", as CSS and
// Sass read it) or, with a leading "/", to the root. Sass partials and
// index files are probed: x → x.scss, _x.scss, x/_index.scss,
// x/index.scss, with the importer's own extension first, then .scss,
// .sass, .css and .less. Relative and root-relative specs are internal;
// a bare spec that is not found relative to the file is external (a
// package or a load path rubi does not know), and so are "~pkg/x",
// "sass:math" and URLs.
func (p *Project) resolveCSS(from, spec string) ([]string, bool) {
	spec = strings.TrimSpace(spec)
	if inner, ok := strings.CutPrefix(spec, "url("); ok {
		spec = strings.Trim(strings.TrimSuffix(inner, ")"), `"' `)
	}
	spec, _, _ = strings.Cut(spec, "?")
	spec, _, _ = strings.Cut(spec, "#")
	if spec == "" || strings.HasPrefix(spec, "~") || strings.HasPrefix(spec, "//") || strings.Contains(spec, ":") {
		return nil, false
	}
	explicit := strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../")
	var t string
	var ok bool
	if rest, root := strings.CutPrefix(spec, "/"); root {
		explicit = true
		t, ok = join(rest)
	} else {
		t, ok = join(dirOf(from), spec)
	}
	if ok {
		if f, ok := p.probeCSS(t, path.Ext(from)); ok {
			return []string{f}, true
		}
	}
	return nil, explicit
}

func (p *Project) probeCSS(t, own string) (string, bool) {
	if t == "" {
		return "", false
	}
	dir, base := path.Split(t)
	if ext := path.Ext(t); ext != "" && (ext == ".css" || ext == ".scss" || ext == ".sass" || ext == ".less") {
		for _, c := range []string{t, dir + "_" + base} {
			if p.Has(c) {
				return c, true
			}
		}
		return "", false
	}
	exts := make([]string, 0, len(cssExts)+1)
	if own != "" {
		exts = append(exts, own)
	}
	for _, e := range cssExts {
		if e != own {
			exts = append(exts, e)
		}
	}
	for _, e := range exts {
		for _, c := range []string{t + e, dir + "_" + base + e} {
			if p.Has(c) {
				return c, true
			}
		}
	}
	for _, e := range exts {
		for _, c := range []string{t + "/_index" + e, t + "/index" + e} {
			if p.Has(c) {
				return c, true
			}
		}
	}
	return "", false
}
