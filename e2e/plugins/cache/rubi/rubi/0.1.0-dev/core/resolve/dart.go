package resolve

import (
	"io/fs"
	"path"
	"strings"

	"github.com/rubi-dev/rubi/core"
	"go.yaml.in/yaml/v3"
)

// loadDart reads the name of every pubspec.yaml package of the project.
func (p *Project) loadDart(fsys fs.FS) {
	p.dartPkgs = map[string]string{}
	isDart := func(f string) bool { return path.Ext(f) == ".dart" || path.Base(f) == "pubspec.yaml" }
	for _, d := range p.dirsOf(isDart) {
		name := path.Join(d, "pubspec.yaml")
		data := p.readConfig(fsys, name)
		if data == nil {
			continue
		}
		var doc struct {
			Name string `yaml:"name"`
		}
		if err := yaml.Unmarshal(data, &doc); err != nil {
			p.warn(name, "malformed: %v", err)
			continue
		}
		switch first, dup := p.dartPkgs[doc.Name]; {
		case doc.Name == "":
			p.warn(name, "no name; package: imports of it are not resolved")
		case dup:
			p.warn(name, "package name %q is also used by %s; imports use that one", doc.Name, path.Join(first, "pubspec.yaml"))
		default:
			p.dartPkgs[doc.Name] = d
		}
	}
}

// resolveDart resolves a Dart URI: "package:NAME/x.dart" is NAME's
// lib/x.dart when NAME is a pubspec package of the project; a relative
// URI, and a part or part of directive (core.ImportModule), is relative
// to the importing file. dart: libraries and other packages are
// external; `part of a.b;` names a library, not a file, and is
// unresolved.
func (p *Project) resolveDart(from, spec, kind string) ([]string, bool) {
	if rest, ok := strings.CutPrefix(spec, "package:"); ok {
		name, sub, _ := strings.Cut(rest, "/")
		dir, ok := p.dartPkgs[name]
		if !ok {
			return nil, false
		}
		if t, ok := join(dir, "lib", sub); ok && sub != "" && p.Has(t) {
			return []string{t}, true
		}
		return nil, true
	}
	if strings.Contains(spec, ":") {
		return nil, false // dart:core, http:, file:
	}
	if kind == core.ImportModule && !strings.HasSuffix(spec, ".dart") && !strings.Contains(spec, "/") {
		return nil, true
	}
	if t, ok := join(dirOf(from), spec); ok && p.Has(t) {
		return []string{t}, true
	}
	return nil, true
}
