package resolve

import (
	"cmp"
	"encoding/json"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/rubi-dev/rubi/core"
)

// psr4Rule is one composer.json autoload entry.
type psr4Rule struct {
	prefix string   // namespace prefix with its trailing backslash; "" matches all
	dirs   []string // project directories
	owner  string   // directory of the composer.json
	psr0   bool     // PSR-0: the directory holds the full namespace path
}

func (p *Project) loadPHP(fsys fs.FS) {
	p.phpTop = map[string]bool{}
	isPHP := func(f string) bool { return path.Ext(f) == ".php" || path.Base(f) == "composer.json" }
	for _, d := range p.dirsOf(isPHP) {
		if strings.Contains("/"+d+"/", "/vendor/") {
			continue
		}
		name := path.Join(d, "composer.json")
		data := p.readConfig(fsys, name)
		if data == nil {
			continue
		}
		type autoload struct {
			PSR4 map[string]json.RawMessage `json:"psr-4"`
			PSR0 map[string]json.RawMessage `json:"psr-0"`
		}
		var doc struct {
			Autoload    autoload `json:"autoload"`
			AutoloadDev autoload `json:"autoload-dev"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			p.warn(name, "malformed: %v", err)
			continue
		}
		for _, al := range []autoload{doc.Autoload, doc.AutoloadDev} {
			for _, psr0 := range []bool{false, true} {
				m := al.PSR4
				if psr0 {
					m = al.PSR0
				}
				for prefix, raw := range m {
					var dirs []string
					var one string
					if json.Unmarshal(raw, &one) == nil {
						dirs = []string{one}
					} else if json.Unmarshal(raw, &dirs) != nil {
						p.warn(name, "autoload %q: directories must be a string or a list of strings", prefix)
						continue
					}
					rule := psr4Rule{prefix: strings.TrimLeft(prefix, `\`), owner: d, psr0: psr0}
					if rule.prefix != "" && !strings.HasSuffix(rule.prefix, `\`) && !psr0 {
						rule.prefix += `\`
					}
					for _, dir := range dirs {
						if t, ok := join(d, dir); ok {
							rule.dirs = append(rule.dirs, t)
						} else {
							p.warn(name, "autoload %q: directory %q leaves the project; ignored", prefix, dir)
						}
					}
					if first, _, _ := strings.Cut(rule.prefix, `\`); first != "" {
						p.phpTop[first] = true
					}
					p.psr4 = append(p.psr4, rule)
				}
			}
		}
	}
	slices.SortFunc(p.psr4, func(a, b psr4Rule) int {
		return cmp.Or(cmp.Compare(len(b.prefix), len(a.prefix)), cmp.Compare(a.prefix, b.prefix), cmp.Compare(a.owner, b.owner))
	})
}

// resolvePHP resolves a PHP import. A require/include path (core.ImportRequire,
// or any spec that looks like a path) is relative to the file's directory,
// then to the root; "__DIR__/x.php" to the file's directory only. A class
// name `A\B\C` is looked up
//  1. among the declared namespaces and top-level symbols (Analyze only);
//  2. through the composer.json PSR-4 and PSR-0 autoload rules (also
//     autoload-dev), longest prefix first, the importer's own
//     composer.json first among equal prefixes;
//  3. when no autoload rule covers the name, by path suffix, A/B/C.php,
//     then B/C.php (at least two segments), among files whose namespace
//     is unknown, the nearest one.
//
// Group uses (`A\{B, C as D}`) resolve each name. A class is internal
// when its first namespace segment is one the project declares or
// autoloads.
func (p *Project) resolvePHP(fx *factIndex, from, spec, kind string) ([]string, bool) {
	spec = strings.TrimSpace(spec)
	if kind == core.ImportRequire || strings.Contains(spec, "/") || strings.HasSuffix(strings.ToLower(spec), ".php") {
		return p.resolvePHPPath(from, spec)
	}
	// A group use: App\Models\{User, Post as P}.
	if i := strings.IndexByte(spec, '{'); i >= 0 {
		prefix := spec[:i]
		inner, _, _ := strings.Cut(spec[i+1:], "}")
		var targets []string
		internal := false
		for _, item := range strings.Split(inner, ",") {
			if item = strings.TrimSpace(item); item == "" {
				continue
			}
			ts, in := p.resolvePHPClass(fx, from, prefix+item)
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
	return p.resolvePHPClass(fx, from, spec)
}

func (p *Project) resolvePHPClass(fx *factIndex, from, spec string) ([]string, bool) {
	for _, pre := range []string{"function ", "const "} {
		spec = strings.TrimSpace(strings.TrimPrefix(spec, pre))
	}
	if before, _, ok := strings.Cut(spec, " as "); ok {
		spec = strings.TrimSpace(before)
	}
	name := strings.TrimPrefix(spec, `\`)
	if name == "" || strings.ContainsAny(name, " ./*{}") {
		return nil, false
	}
	first, _, _ := strings.Cut(name, `\`)
	internal := p.phpTop[first] || fx.phpTop[first]
	if files := fx.phpDecls[name]; len(files) > 0 {
		return Nearest(from, files), true
	}
	rel := strings.ReplaceAll(name, `\`, "/")
	var rules []psr4Rule
	for _, r := range p.psr4 {
		if strings.HasPrefix(name, r.prefix) {
			rules = append(rules, r)
		}
	}
	// Stable: equal prefixes keep their order unless one is the
	// importer's own composer.json.
	slices.SortStableFunc(rules, func(a, b psr4Rule) int {
		if len(a.prefix) != len(b.prefix) {
			return cmp.Compare(len(b.prefix), len(a.prefix))
		}
		ao, bo := within(from, a.owner), within(from, b.owner)
		switch {
		case ao && !bo:
			return -1
		case bo && !ao:
			return 1
		}
		return cmp.Compare(len(b.owner), len(a.owner))
	})
	for _, r := range rules {
		sub := rel[len(r.prefix):]
		if r.psr0 {
			// PSR-0 keeps the whole name, and _ in the class name
			// separates directories.
			d, c := path.Split(rel)
			sub = d + strings.ReplaceAll(c, "_", "/")
		}
		for _, d := range r.dirs {
			if t, ok := join(d, sub+".php"); ok && p.Has(t) {
				return []string{t}, true
			}
		}
	}
	if len(rules) > 0 && rules[0].prefix != "" {
		// The autoloader would look nowhere else.
		return nil, true
	}
	segs := strings.Split(rel, "/")
	for k := 0; len(segs)-k >= 2; k++ {
		var out []string
		for _, c := range p.bySuffix(strings.Join(segs[k:], "/") + ".php") {
			if !fx.phpPlaced[c] {
				out = append(out, c)
			}
		}
		if len(out) > 0 {
			return Nearest(from, out), true
		}
	}
	return nil, internal
}

// resolvePHPPath resolves a require/include path. Paths into vendor/ are
// composer's, hence external.
func (p *Project) resolvePHPPath(from, spec string) ([]string, bool) {
	dir := dirOf(from)
	if rest, ok := strings.CutPrefix(spec, "__DIR__"); ok {
		if t, ok := join(dir, strings.TrimPrefix(rest, "/")); ok && p.Has(t) {
			return []string{t}, true
		}
		return nil, !strings.Contains(rest, "vendor/")
	}
	if strings.Contains("/"+spec, "/vendor/") {
		return nil, false
	}
	if t, ok := join(dir, spec); ok && p.Has(t) {
		return []string{t}, true
	}
	if t, ok := join(strings.TrimPrefix(spec, "/")); ok && p.Has(t) {
		return []string{t}, true
	}
	return nil, true
}
