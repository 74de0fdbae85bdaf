package resolve

import (
	"cmp"
	"encoding/json"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/rubi-dev/rubi/core"
)

// tsConfig is the part of a tsconfig.json or jsconfig.json that affects
// module resolution, after following "extends".
type tsConfig struct {
	file    string
	baseURL string // project path; valid when hasBase
	hasBase bool
	paths   []pathRule // longest prefix first
}

// pathRule is one compilerOptions.paths entry, with its substitutions
// already made project paths.
type pathRule struct {
	prefix, suffix string
	star           bool
	targets        []string // may contain one "*"
}

// rawTSConfig is one config file with its extends chain merged in.
type rawTSConfig struct {
	baseURL  string
	hasBase  bool
	paths    map[string][]string
	pathsDir string // directory of the file that set paths
	hasPaths bool
}

// jsPackage is a package.json of the project, for imports by package name
// (workspaces in a monorepo, or a package importing itself).
type jsPackage struct {
	dir     string
	entries []string          // candidate entry points relative to dir, best first
	exports map[string]string // subpath ("./x", "./*") → target relative to dir
}

var (
	// Extensions tried after a specifier, in the order TypeScript and
	// Node try them.
	// Vue and Svelte components last: bundler setups that resolve them
	// without an extension exist, but most imports name it.
	tsExts = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs", ".json", ".vue", ".svelte"}
	jsExts = []string{".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".d.ts", ".mts", ".cts", ".json", ".vue", ".svelte"}
	// TypeScript sources of an emitted file: ESM TypeScript imports
	// "./x.js" to mean ./x.ts.
	tsSources = map[string][]string{
		".js":  {".ts", ".tsx", ".d.ts"},
		".jsx": {".tsx"},
		".mjs": {".mts", ".d.mts"},
		".cjs": {".cts", ".d.cts"},
	}
)

func isJSFamily(f string) bool {
	switch core.DetectLanguage(f) {
	case core.LangJavaScript, core.LangTypeScript, core.LangVue, core.LangSvelte:
		return true
	}
	switch path.Base(f) {
	case "package.json", "tsconfig.json", "jsconfig.json":
		return true
	}
	return false
}

func (p *Project) loadJS(fsys fs.FS) {
	p.jsConfig = map[string]*tsConfig{}
	p.jsPkgs = map[string]*jsPackage{}
	p.jsOwn = map[string]bool{}
	cache := map[string]*rawTSConfig{}
	// Sorted, so a parent comes before its children and can pass its
	// config down.
	for _, d := range p.dirsOf(isJSFamily) {
		if strings.Contains("/"+d+"/", "/node_modules/") {
			continue
		}
		var cfg *tsConfig
		for _, name := range []string{"tsconfig.json", "jsconfig.json"} {
			file := path.Join(d, name)
			if raw := p.readTSConfig(fsys, file, cache, 0); raw != nil {
				cfg = raw.compile(file)
				p.jsOwn[d] = true
				break
			}
		}
		if cfg == nil && d != "" {
			cfg = p.jsConfig[dirOf(d)]
		}
		p.jsConfig[d] = cfg

		file := path.Join(d, "package.json")
		if data := p.readConfig(fsys, file); data != nil {
			p.jsOwn[d] = true
			name, pkg, err := parsePackageJSON(data)
			switch first := p.jsPkgs[name]; {
			case err != nil:
				p.warn(file, "malformed: %v", err)
			case name == "":
				// A private root package.json often has no name.
			case first != nil:
				p.warn(file, "package name %q is also used by %s; imports use that one", name, path.Join(first.dir, "package.json"))
			default:
				pkg.dir = d
				p.jsPkgs[name] = pkg
			}
		}
	}
}

// readTSConfig reads and merges one config file and what it extends. It
// returns nil when the file does not exist or cannot be used.
func (p *Project) readTSConfig(fsys fs.FS, file string, cache map[string]*rawTSConfig, depth int) *rawTSConfig {
	if c, ok := cache[file]; ok {
		return c
	}
	cache[file] = nil // breaks extends cycles
	data := p.readConfig(fsys, file)
	if data == nil {
		return nil
	}
	var doc struct {
		Extends         json.RawMessage `json:"extends"`
		CompilerOptions struct {
			BaseURL *string             `json:"baseUrl"`
			Paths   map[string][]string `json:"paths"`
		} `json:"compilerOptions"`
	}
	if err := json.Unmarshal(stripJSONC(data), &doc); err != nil {
		p.warn(file, "malformed: %v", err)
		return nil
	}
	dir := dirOf(file)
	merged := &rawTSConfig{}
	var parents []string
	if len(doc.Extends) > 0 {
		var one string
		if json.Unmarshal(doc.Extends, &one) == nil {
			parents = []string{one}
		} else if json.Unmarshal(doc.Extends, &parents) != nil {
			p.warn(file, "extends must be a string or a list of strings")
		}
	}
	for _, ext := range parents {
		// Configs from npm packages (@tsconfig/node20) rarely set paths
		// and live in node_modules, which is not part of the project.
		if !strings.HasPrefix(ext, "./") && !strings.HasPrefix(ext, "../") {
			continue
		}
		target, ok := join(dir, ext)
		if !ok {
			continue
		}
		if !strings.HasSuffix(target, ".json") {
			target += ".json"
		}
		if depth >= 16 {
			p.warn(file, "extends chain too deep; stopped at %s", target)
			break
		}
		parent := p.readTSConfig(fsys, target, cache, depth+1)
		if parent == nil {
			p.warn(file, "extends %s, which cannot be read", ext)
			continue
		}
		// Later entries of an extends list override earlier ones.
		if parent.hasBase {
			merged.baseURL, merged.hasBase = parent.baseURL, true
		}
		if parent.hasPaths {
			merged.paths, merged.pathsDir, merged.hasPaths = parent.paths, parent.pathsDir, true
		}
	}
	if b := doc.CompilerOptions.BaseURL; b != nil {
		if u, ok := join(dir, *b); ok {
			merged.baseURL, merged.hasBase = u, true
		} else {
			p.warn(file, "baseUrl %q leaves the project; ignored", *b)
		}
	}
	if doc.CompilerOptions.Paths != nil {
		merged.paths, merged.pathsDir, merged.hasPaths = doc.CompilerOptions.Paths, dir, true
	}
	cache[file] = merged
	return merged
}

// compile turns merged settings into lookup rules. Substitutions are
// relative to baseUrl, or to the file that set paths when there is no
// baseUrl (TypeScript 4.1+).
func (r *rawTSConfig) compile(file string) *tsConfig {
	cfg := &tsConfig{file: file, baseURL: r.baseURL, hasBase: r.hasBase}
	base := r.pathsDir
	if r.hasBase {
		base = r.baseURL
	}
	for pattern, subs := range r.paths {
		rule := pathRule{prefix: pattern}
		if before, after, ok := strings.Cut(pattern, "*"); ok {
			rule = pathRule{prefix: before, suffix: after, star: true}
		}
		for _, s := range subs {
			if t, ok := join(base, s); ok {
				rule.targets = append(rule.targets, t)
			}
		}
		cfg.paths = append(cfg.paths, rule)
	}
	// TypeScript prefers an exact pattern, then the longest prefix.
	slices.SortFunc(cfg.paths, func(a, b pathRule) int {
		if a.star != b.star {
			if a.star {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(len(b.prefix), len(a.prefix)), cmp.Compare(a.prefix, b.prefix), cmp.Compare(a.suffix, b.suffix))
	})
	return cfg
}

func parsePackageJSON(data []byte) (string, *jsPackage, error) {
	var doc struct {
		Name    string          `json:"name"`
		Source  string          `json:"source"`
		Module  string          `json:"module"`
		Main    string          `json:"main"`
		Types   string          `json:"types"`
		Typings string          `json:"typings"`
		Exports json.RawMessage `json:"exports"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return "", nil, err
	}
	pkg := &jsPackage{exports: map[string]string{}}
	var exports any
	if len(doc.Exports) > 0 && json.Unmarshal(doc.Exports, &exports) == nil {
		if m, ok := exports.(map[string]any); ok && hasSubpathKeys(m) {
			for k, v := range m {
				if t := exportTarget(v); t != "" {
					pkg.exports[k] = t
				}
			}
		} else if t := exportTarget(exports); t != "" {
			pkg.exports["."] = t
		}
	}
	for _, e := range []string{pkg.exports["."], doc.Source, doc.Module, doc.Main, doc.Types, doc.Typings} {
		if e != "" && !slices.Contains(pkg.entries, e) {
			pkg.entries = append(pkg.entries, e)
		}
	}
	return doc.Name, pkg, nil
}

func hasSubpathKeys(m map[string]any) bool {
	for k := range m {
		if strings.HasPrefix(k, ".") {
			return true
		}
	}
	return false
}

// exportTarget picks one file from an exports value, preferring the
// conditions most likely to name source files.
func exportTarget(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		for _, e := range v {
			if t := exportTarget(e); t != "" {
				return t
			}
		}
	case map[string]any:
		for _, c := range []string{"source", "development", "import", "module", "default", "require", "node", "browser", "types"} {
			if e, ok := v[c]; ok {
				if t := exportTarget(e); t != "" {
					return t
				}
			}
		}
	}
	return ""
}

// resolveJSImport resolves one JS/TS specifier. Relative and
// root-relative specifiers, specifiers that a paths entry or the "@/"
// convention maps, and subpaths of project packages are internal.
func (p *Project) resolveJSImport(from, lang, spec string) ([]string, bool) {
	t, ok, internal := p.resolveJS(from, lang, spec)
	if ok {
		return []string{t}, true
	}
	return nil, internal
}

func (p *Project) resolveJS(from, lang, spec string) (target string, ok, internal bool) {
	spec, _, _ = strings.Cut(spec, "?") // "./icon.svg?raw"
	if spec == "" || strings.Contains(spec, ":") || strings.Contains(spec, "!") {
		// node:fs, https://..., virtual modules, webpack loaders.
		return "", false, false
	}
	tsFirst := lang == core.LangTypeScript
	dir := dirOf(from)
	if spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") {
		t, ok := join(dir, spec)
		if !ok {
			return "", false, true
		}
		t, ok = p.probeJS(t, tsFirst)
		return t, ok, true
	}
	if rest, ok := strings.CutPrefix(spec, "/"); ok {
		// Root-relative, as bundlers like Vite read it.
		t, ok := p.probeJS(path.Clean(rest), tsFirst)
		return t, ok, true
	}
	cfg := p.nearestJSConfig(dir)
	mapped := false
	if cfg != nil {
		for _, rule := range cfg.paths {
			star, ok := rule.match(spec)
			if !ok {
				continue
			}
			// A catch-all "*" maps bare package names too.
			mapped = rule.prefix != "" || !rule.star || rule.suffix != ""
			for _, t := range rule.targets {
				if t, ok := join(strings.Replace(t, "*", star, 1)); ok {
					if f, ok := p.probeJS(t, tsFirst); ok {
						return f, true, true
					}
				}
			}
			// TypeScript uses the best matching pattern only, then falls
			// back to baseUrl and packages.
			break
		}
		if cfg.hasBase {
			if t, ok := join(cfg.baseURL, spec); ok {
				if f, ok := p.probeJS(t, tsFirst); ok {
					return f, true, true
				}
			}
		}
	}
	if f, ok, known := p.resolveJSPackage(spec, tsFirst); ok || known {
		return f, ok, true
	}
	if rest, ok := strings.CutPrefix(spec, "@/"); ok && !mapped {
		// The "@/" alias of Vue CLI, Nuxt, Vite and Next templates, when
		// no paths entry says otherwise: src/ of the nearest directory
		// with its own tsconfig, jsconfig or package.json, else that
		// directory itself.
		base := ""
		ancestors(dir, func(d string) bool {
			if p.jsOwn[d] {
				base = d
				return false
			}
			return true
		})
		for _, b := range []string{path.Join(base, "src"), base} {
			if t, ok := join(b, rest); ok {
				if f, ok := p.probeJS(t, tsFirst); ok {
					return f, true, true
				}
			}
		}
		return "", false, true
	}
	return "", false, mapped
}

func (r pathRule) match(spec string) (star string, ok bool) {
	if !r.star {
		return "", spec == r.prefix
	}
	if len(spec) < len(r.prefix)+len(r.suffix) || !strings.HasPrefix(spec, r.prefix) || !strings.HasSuffix(spec, r.suffix) {
		return "", false
	}
	return spec[len(r.prefix) : len(spec)-len(r.suffix)], true
}

func (p *Project) nearestJSConfig(dir string) *tsConfig {
	var cfg *tsConfig
	ancestors(dir, func(d string) bool {
		c, known := p.jsConfig[d]
		cfg = c
		return !known
	})
	return cfg
}

// resolveJSPackage resolves "name" or "name/sub" against the package.json
// files of the project. known says whether name is a project package.
func (p *Project) resolveJSPackage(spec string, tsFirst bool) (target string, ok, known bool) {
	name, sub := spec, ""
	n := 1
	if strings.HasPrefix(spec, "@") {
		n = 2
	}
	if parts := strings.SplitN(spec, "/", n+1); len(parts) > n {
		name, sub = strings.Join(parts[:n], "/"), parts[n]
	}
	pkg := p.jsPkgs[name]
	if pkg == nil {
		return "", false, false
	}
	target, ok = p.resolveInPackage(pkg, sub, tsFirst)
	return target, ok, true
}

func (p *Project) resolveInPackage(pkg *jsPackage, sub string, tsFirst bool) (string, bool) {
	if sub == "" {
		for _, e := range pkg.entries {
			if f, ok := p.packageFile(pkg.dir, e, tsFirst); ok {
				return f, true
			}
		}
		for _, e := range []string{"index", "src/index"} {
			if f, ok := p.packageFile(pkg.dir, e, tsFirst); ok {
				return f, true
			}
		}
		return "", false
	}
	if t, ok := pkg.exports["./"+sub]; ok {
		if f, ok := p.packageFile(pkg.dir, t, tsFirst); ok {
			return f, true
		}
	}
	// Sorted so that overlapping patterns resolve the same way each run.
	for _, k := range slices.Sorted(maps.Keys(pkg.exports)) {
		t := pkg.exports[k]
		if before, after, ok := strings.Cut(k, "*"); ok {
			if s := "./" + sub; strings.HasPrefix(s, before) && strings.HasSuffix(s, after) && len(s) >= len(before)+len(after) {
				if f, ok := p.packageFile(pkg.dir, strings.Replace(t, "*", s[len(before):len(s)-len(after)], 1), tsFirst); ok {
					return f, true
				}
			}
		}
	}
	for _, e := range []string{sub, "src/" + sub} {
		if f, ok := p.packageFile(pkg.dir, e, tsFirst); ok {
			return f, true
		}
	}
	return "", false
}

// packageFile finds a package entry point, also where package.json names
// build output (dist/index.js) that the project holds as source
// (src/index.ts) because build directories are not indexed.
func (p *Project) packageFile(dir, entry string, tsFirst bool) (string, bool) {
	t, ok := join(dir, entry)
	if !ok {
		return "", false
	}
	if f, ok := p.probeJS(t, tsFirst); ok {
		return f, true
	}
	rel := strings.TrimPrefix(path.Clean(entry), "./")
	first, rest, _ := strings.Cut(rel, "/")
	switch first {
	case "dist", "lib", "build", "out", "esm", "cjs":
		rest = strings.TrimSuffix(rest, ".d.ts")
		for _, e := range []string{".js", ".mjs", ".cjs"} {
			rest = strings.TrimSuffix(rest, e)
		}
		// Nested output layouts: dist/esm/index.js.
		for _, r := range []string{rest, strings.TrimPrefix(strings.TrimPrefix(rest, "esm/"), "cjs/")} {
			if t, ok := join(dir, "src", r); ok {
				if f, ok := p.probeJS(t, tsFirst); ok {
					return f, true
				}
			}
		}
	}
	return "", false
}

// probeJS finds the file a module path refers to: the exact file, its
// TypeScript source for an emitted extension, the path with an extension
// added, or an index file in the directory.
func (p *Project) probeJS(t string, tsFirst bool) (string, bool) {
	exts := jsExts
	if tsFirst {
		exts = tsExts
	}
	if t == "" {
		// The project root as a directory: only an index file fits.
		return p.probeIndex("index", exts)
	}
	ext := path.Ext(t)
	if srcs, ok := tsSources[ext]; ok {
		stem := strings.TrimSuffix(t, ext)
		if !tsFirst && p.Has(t) {
			return t, true
		}
		for _, s := range srcs {
			if p.Has(stem + s) {
				return stem + s, true
			}
		}
	}
	if p.Has(t) {
		return t, true
	}
	if f, ok := p.probeIndex(t, exts); ok {
		return f, true
	}
	return p.probeIndex(t+"/index", exts)
}

func (p *Project) probeIndex(stem string, exts []string) (string, bool) {
	for _, e := range exts {
		if p.Has(stem + e) {
			return stem + e, true
		}
	}
	return "", false
}
