// Package resolve turns the raw import specs that parsers extract into
// files of the project. Parsers see one file at a time and cannot know
// where "github.com/x/y/pkg", "..models", "crate::a::b" or
// "@/components/Button" lead; a Project knows the whole file list and the
// project's configuration (go.mod, go.work, pyproject.toml, tsconfig and
// jsconfig, package.json, Cargo.toml, composer.json, pubspec.yaml, gem
// layouts) and answers from in-memory maps, so resolving every import of
// a large repository costs no filesystem access.
//
// Supported languages: Go, Python, JavaScript/TypeScript (also the script
// imports of Vue and Svelte files), Rust, Java/Kotlin, PHP, Ruby, C/C++,
// CSS/SCSS/LESS and Dart. Anything else resolves to nothing and is left
// out of Stats.
package resolve

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/store"
)

// Warning is a problem with one configuration file. Resolution goes on
// without that file's settings; the caller decides whether to print it.
type Warning struct {
	File    string // slash path relative to the project root
	Message string
}

func (w Warning) String() string { return w.File + ": " + w.Message }

// Project is the set of files of a project plus the configuration the
// resolvers need. It is immutable after construction and safe for
// concurrent use.
type Project struct {
	files    map[string]struct{}
	dirFiles map[string][]string // directory ("" is the root) → its files, sorted
	subdirs  map[string]bool     // every directory holding files, at any depth, and its ancestors

	// Go
	goMods   map[string]string // module directory → module path
	goByPath []goModule        // the same plus local replacements, longest module path first
	goFiles  map[string][]string

	// Python
	pyRoots   []string // source roots, "" first
	pyRootSet map[string]bool
	pyAlias   map[string]string // top-level package → directory (pyproject package-dir)
	pyTop     map[string]bool   // top-level module and package names under the roots

	// JS/TS
	jsConfig map[string]*tsConfig // directory → nearest tsconfig/jsconfig, nil if none
	jsPkgs   map[string]*jsPackage
	jsOwn    map[string]bool // directories with their own tsconfig, jsconfig or package.json

	// C/C++, PHP and Java/Kotlin fallbacks: suffix lookups by base name.
	byBase     map[string][]string // file base name → paths
	headerDirs map[string]bool     // directories holding C/C++ headers

	// Rust
	rustCrates map[string]*rustCrate // crate directory → crate
	rustByName map[string]*rustCrate // crate name as written in paths → crate

	// Java/Kotlin and PHP declarations known from paths alone; Analyze
	// refines them with the packages parsers report.
	jvmRoots map[string]bool // source roots: src/main/java, src, ...
	base     *factIndex

	// PHP
	psr4   []psr4Rule      // longest prefix first
	phpTop map[string]bool // first namespace segments the project owns

	// Ruby
	rbLibs []string // lib directories: the root's, then each gem's

	// Dart
	dartPkgs map[string]string // pubspec name → package directory

	warnings []Warning
}

// NewProject builds a Project from files, slash paths relative to root,
// reading configuration files (go.mod, go.work, pyproject.toml,
// tsconfig.json, jsconfig.json, package.json, Cargo.toml, composer.json,
// pubspec.yaml, *.gemspec) from disk under root. Configuration files are
// looked for in every directory that holds files of the language
// concerned and in its ancestors, whether or not files lists them.
// Malformed configuration files do not fail the call: see Warnings. The
// error is only for an unusable root.
func NewProject(root string, files []string) (*Project, error) {
	st, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("project root: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("project root %s is not a directory", root)
	}
	return NewProjectFS(projectFS{root}, files), nil
}

// maxConfigFile bounds what is read of one configuration file (go.mod,
// package.json, tsconfig.json, Cargo.toml...): real ones are kilobytes,
// the largest workspace roots some hundred; 4 MiB is room to spare. A
// larger one is a warning naming it, as a malformed one is.
const maxConfigFile = 4 << 20

// projectFS reads the configuration files under root as rubi reads every
// file a repository supplies (store.ReadWithin): never through a link out
// of the project nor a link at the file itself, regular files only (a FIFO
// would block the index, a link to /dev/zero feed it without end), at most
// maxConfigFile bytes.
type projectFS struct{ root string }

func (p projectFS) path(op, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return filepath.Join(p.root, filepath.FromSlash(name)), nil
}

// Open opens a regular file; folders are listed with ReadDir.
func (p projectFS) Open(name string) (fs.File, error) {
	full, err := p.path("open", name)
	if err != nil {
		return nil, err
	}
	return store.OpenWithin(p.root, full)
}

func (p projectFS) ReadFile(name string) ([]byte, error) {
	full, err := p.path("read", name)
	if err != nil {
		return nil, err
	}
	return store.ReadWithin(p.root, full, maxConfigFile)
}

func (p projectFS) ReadDir(name string) ([]fs.DirEntry, error) {
	full, err := p.path("readdir", name)
	if err != nil {
		return nil, err
	}
	if !store.Inside(p.root, full) {
		return nil, &fs.PathError{Op: "readdir", Path: full, Err: store.ErrNotOwned}
	}
	return os.ReadDir(full)
}

// NewProjectFS is NewProject reading configuration files from fsys, whose
// root is the project root. It is what tests and in-memory callers use.
func NewProjectFS(fsys fs.FS, files []string) *Project {
	p := &Project{
		files:    make(map[string]struct{}, len(files)),
		dirFiles: map[string][]string{},
		subdirs:  map[string]bool{},
	}
	for _, f := range files {
		c, ok := cleanRel(f)
		if !ok || c == "" {
			p.warn(f, "not a relative path inside the project; ignored")
			continue
		}
		if _, dup := p.files[c]; dup {
			continue
		}
		p.files[c] = struct{}{}
		d := dirOf(c)
		p.dirFiles[d] = append(p.dirFiles[d], c)
	}
	for d, list := range p.dirFiles {
		slices.Sort(list)
		ancestors(d, func(a string) bool {
			if p.subdirs[a] {
				return false
			}
			p.subdirs[a] = true
			return true
		})
	}
	p.loadGo(fsys)
	p.loadPython(fsys)
	p.loadJS(fsys)
	p.loadSuffixIndex()
	p.loadRust(fsys)
	p.loadJVM()
	p.loadPHP(fsys)
	p.loadRuby(fsys)
	p.loadDart(fsys)
	p.base = p.indexFacts(nil)
	slices.SortStableFunc(p.warnings, func(a, b Warning) int { return cmp.Compare(a.File, b.File) })
	return p
}

// Warnings lists problems found in configuration files, sorted by file.
func (p *Project) Warnings() []Warning { return slices.Clone(p.warnings) }

func (p *Project) warn(file, format string, args ...any) {
	p.warnings = append(p.warnings, Warning{File: file, Message: fmt.Sprintf(format, args...)})
}

// Has reports whether path is a file of the project.
func (p *Project) Has(path string) bool {
	_, ok := p.files[path]
	return ok
}

// outcome classifies one import.
type outcome int8

const (
	// external: standard library, third-party package, system header.
	external outcome = iota
	// unresolved: looks like part of the project (relative path, crate::,
	// a project package prefix, a quoted include...) but no file fits.
	unresolved
	// resolved: found in the project.
	resolved
)

// Resolve maps an import of the file from, written in language lang (a
// core.Lang* name), to the project files it refers to. ok is false when
// the import is external (standard library, third-party package) or
// cannot be found; targets are then nil. Targets never include from.
// Resolve knows only paths and configuration files; Analyze also uses
// the packages and symbols that parsers report, which Java, Kotlin and
// PHP need for files whose package does not follow their path.
//
// What each language resolves to:
//   - Go: every non-test .go file of the imported package's directory,
//     sorted. Test files are left out because no importer can see them.
//     The module is found by longest module-path prefix among all go.mod
//     files of the project, so imports between nested modules of one
//     repository (and the modules a go.work uses) resolve too; local
//     replace directives of go.mod and go.work are followed; a vendor/
//     copy is used for other modules when the project includes it.
//   - Python: one file. "a.b" is a/b.py, a/b.pyi or a/b/__init__.py under
//     a source root; leading dots are relative to the importing file's
//     package. When "a.b" is not a module the spec falls back to "a",
//     so parsers may emit `from a import b` as "a.b" and `from . import x`
//     as ".x". Source roots: the root, src/, parents of top-level
//     packages, pyproject.toml package-dir and poetry packages.from.
//   - JavaScript/TypeScript: one file, with Node/TypeScript probing:
//     exact path, ".js"→".ts" source mapping, added extensions (also .vue
//     and .svelte), index files; tsconfig/jsconfig paths and baseUrl;
//     package.json names of packages inside the project (workspaces,
//     self-imports); "@/x" as src/x, else x, of the nearest directory with
//     a tsconfig, jsconfig or package.json when no paths entry maps "@/".
//   - Rust: one module file. See resolveRust.
//   - Java/Kotlin: the file declaring the imported class, or every file of
//     the package for a wildcard import. See resolveJVM.
//   - PHP: the class file by composer.json PSR-4 (or PSR-0) prefix, else
//     by declared namespace or path suffix; require/include paths
//     relative to the file, then to the root.
//   - Ruby: require_relative from the file's directory; require from the
//     lib directories of the root and of each gem.
//   - C/C++: one file (or several equally near). See resolveC.
//   - CSS/SCSS/LESS: one stylesheet, with Sass partial and index probing.
//   - Dart: package: URIs of the project's pubspec packages, relative
//     URIs and part directives.
func (p *Project) Resolve(from string, lang string, imp core.Import) (targets []string, ok bool) {
	targets, _ = p.lookup(p.base, from, lang, imp)
	return targets, len(targets) > 0
}

// resolvable reports whether lang has a resolver, and so a place in Stats.
func resolvable(lang string) bool {
	switch lang {
	case core.LangGo, core.LangPython, core.LangJavaScript, core.LangTypeScript, core.LangVue, core.LangSvelte,
		core.LangRust, core.LangJava, core.LangKotlin, core.LangPHP, core.LangRuby,
		core.LangC, core.LangCPP, core.LangCSS, core.LangDart:
		return true
	}
	return false
}

// lookup resolves one import with the declarations of fx. Targets are
// nil unless the outcome is resolved, and never include from; an import
// that resolves to from alone is resolved with no targets.
func (p *Project) lookup(fx *factIndex, from, lang string, imp core.Import) ([]string, outcome) {
	spec := strings.TrimSpace(imp.Spec)
	kind := imp.Kind
	if n := len(spec); n >= 2 {
		switch q, e := spec[0], spec[n-1]; {
		case (q == '"' || q == '\'' || q == '`') && e == q:
			spec = spec[1 : n-1]
		case q == '<' && e == '>':
			spec = spec[1 : n-1]
			kind = core.ImportSystem
		}
	}
	if spec == "" {
		return nil, external
	}
	var targets []string
	internal := false
	switch lang {
	case core.LangGo:
		targets, internal = p.resolveGo(from, spec)
	case core.LangPython:
		targets, internal = p.resolvePythonImport(from, spec, imp.Names)
	case core.LangJavaScript, core.LangTypeScript, core.LangVue, core.LangSvelte:
		targets, internal = p.resolveJSImport(from, lang, spec)
	case core.LangRust:
		targets, internal = p.resolveRust(from, spec, kind)
	case core.LangJava, core.LangKotlin:
		targets, internal = p.resolveJVM(fx, from, spec)
	case core.LangPHP:
		targets, internal = p.resolvePHP(fx, from, spec, kind)
	case core.LangRuby:
		targets, internal = p.resolveRuby(from, spec, kind)
	case core.LangC, core.LangCPP:
		targets, internal = p.resolveC(from, spec, kind)
	case core.LangCSS:
		targets, internal = p.resolveCSS(from, spec)
	case core.LangDart:
		targets, internal = p.resolveDart(from, spec, kind)
	}
	if len(targets) == 0 {
		if internal {
			return nil, unresolved
		}
		return nil, external
	}
	// A file can import its own package (Go) or itself through an alias;
	// that is not an edge.
	if i := slices.Index(targets, from); i >= 0 {
		targets = slices.Delete(slices.Clone(targets), i, i+1)
	}
	if len(targets) == 0 {
		return nil, resolved
	}
	return targets, resolved
}

// Stats counts imports by the language of the importing file, each
// import once. Languages without a resolver are not counted.
type Stats struct {
	// Resolved counts imports that reached project files (an import of
	// the importing file's own package included).
	Resolved map[string]int
	// Unresolved counts imports that look project-internal (a relative
	// path, crate:: or super::, a project namespace or package prefix, a
	// quoted C include...) but found no file.
	Unresolved map[string]int
	// External counts imports recognized as external: standard library,
	// third-party packages, system headers.
	External map[string]int
}

// Edges is Analyze without the statistics.
func Edges(p *Project, facts []core.FileFacts) []core.Edge {
	edges, _ := Analyze(p, facts)
	return edges
}

// Analyze resolves every import of facts into core.EdgeImports edges
// between file document ids, sorted by source then target, without
// duplicates or self-loops, and counts how the imports fared. An import
// of a Go package (or a Java wildcard) with n files gives n edges of
// weight 1/n, so depending on a package weighs the same however it is
// split into files; importing the same target twice keeps the larger
// weight. Edge weights are always positive.
//
// Unlike Resolve, Analyze knows the declared package and the top-level
// symbols of every file, so Java/Kotlin and PHP classes are found by
// package even where directories do not follow packages.
func Analyze(p *Project, facts []core.FileFacts) ([]core.Edge, Stats) {
	stats := Stats{Resolved: map[string]int{}, Unresolved: map[string]int{}, External: map[string]int{}}
	fx := p.indexFacts(facts)
	// Work file by file in path order: dedup needs only a small per-file
	// map, and sorting targets per file is much cheaper than sorting all
	// edges by their long id strings.
	order := make([]int, len(facts))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(facts[a].Path, facts[b].Path) })
	// Targets are gathered flat first so the edge slice, large for big
	// projects, is allocated once at its final size.
	type span struct {
		from       string
		start, end int
	}
	var spans []span
	var targets []string
	var tweights []float64
	weights := map[string]float64{}
	for k := 0; k < len(order); {
		from := facts[order[k]].Path
		clear(weights)
		// Facts for the same path (should a caller pass duplicates) merge.
		for ; k < len(order) && facts[order[k]].Path == from; k++ {
			f := &facts[order[k]]
			counted := resolvable(f.Language)
			for _, imp := range f.Imports {
				ts, out := p.lookup(fx, f.Path, f.Language, imp)
				if counted {
					switch out {
					case resolved:
						stats.Resolved[f.Language]++
					case unresolved:
						stats.Unresolved[f.Language]++
					default:
						stats.External[f.Language]++
					}
				}
				if len(ts) == 0 {
					continue
				}
				w := 1 / float64(len(ts))
				for _, t := range ts {
					weights[t] = max(weights[t], w)
				}
			}
		}
		if len(weights) == 0 {
			continue
		}
		start := len(targets)
		for t := range weights {
			targets = append(targets, t)
		}
		slices.Sort(targets[start:])
		for _, t := range targets[start:] {
			tweights = append(tweights, weights[t])
		}
		spans = append(spans, span{from, start, len(targets)})
	}
	edges := make([]core.Edge, 0, len(targets))
	// A popular file is the target of many edges; share its id string.
	ids := map[string]string{}
	for _, s := range spans {
		fromID := core.DocID(core.DocFile, s.from)
		for i := s.start; i < s.end; i++ {
			to, ok := ids[targets[i]]
			if !ok {
				to = core.DocID(core.DocFile, targets[i])
				ids[targets[i]] = to
			}
			edges = append(edges, core.Edge{
				From:   fromID,
				To:     to,
				Kind:   core.EdgeImports,
				Weight: tweights[i],
			})
		}
	}
	return edges, stats
}

// cleanRel cleans a slash path relative to the root and rejects paths that
// leave it. The root itself is "".
func cleanRel(p string) (string, bool) {
	if p == "" || strings.HasPrefix(p, "/") {
		return "", false
	}
	c := path.Clean(p)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", false
	}
	if c == "." {
		return "", true
	}
	return c, true
}

// join joins project-relative elements, reporting false when the result
// leaves the project.
func join(elem ...string) (string, bool) {
	j := path.Join(elem...)
	switch {
	case j == "" || j == ".":
		return "", true
	case j == ".." || strings.HasPrefix(j, "../") || strings.HasPrefix(j, "/"):
		return "", false
	}
	return j, true
}

// dirOf is path.Dir with "" for the root.
func dirOf(p string) string {
	d := path.Dir(p)
	if d == "." || d == "/" {
		return ""
	}
	return d
}

// ancestors calls fn for dir and each of its parents up to the root "",
// stopping when fn returns false.
func ancestors(dir string, fn func(d string) bool) {
	for {
		if !fn(dir) {
			return
		}
		if dir == "" {
			return
		}
		dir = dirOf(dir)
	}
}

// dirsOf returns the directories holding files that keep accepts, with
// all their ancestors, sorted (so "" comes first).
func (p *Project) dirsOf(keep func(file string) bool) []string {
	set := map[string]bool{}
	for d, files := range p.dirFiles {
		if !slices.ContainsFunc(files, keep) {
			continue
		}
		ancestors(d, func(a string) bool {
			if set[a] {
				return false
			}
			set[a] = true
			return true
		})
	}
	out := make([]string, 0, len(set))
	for d := range set {
		out = append(out, d)
	}
	slices.Sort(out)
	return out
}

// readConfig reads a configuration file, returning nil without a warning
// when it does not exist.
func (p *Project) readConfig(fsys fs.FS, name string) []byte {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrInvalid) {
			p.warn(name, "cannot read: %v", err)
		}
		return nil
	}
	return data
}

// within reports whether p is dir or lies inside it; every path lies
// within the root "".
func within(p, dir string) bool {
	return dir == "" || p == dir || strings.HasPrefix(p, dir) && p[len(dir)] == '/'
}

// relTo returns p relative to dir, which must contain it.
func relTo(p, dir string) string {
	if dir == "" {
		return p
	}
	if p == dir {
		return ""
	}
	return p[len(dir)+1:]
}

// Nearest returns the candidates sharing the most leading directories
// with from: the files of the importer's own part of a monorepo first.
// Equally near candidates are all kept, sorted. The resolvers of
// references choose among same-named definitions the same way.
func Nearest(from string, cands []string) []string {
	best, out := -1, []string(nil)
	for _, c := range cands {
		switch s := commonDirs(from, c); {
		case s > best:
			best, out = s, append(out[:0], c)
		case s == best:
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// commonDirs counts the leading directories a and b share.
func commonDirs(a, b string) int {
	n := 0
	for {
		i, j := strings.IndexByte(a, '/'), strings.IndexByte(b, '/')
		if i < 0 || j < 0 || a[:i] != b[:j] {
			return n
		}
		n++
		a, b = a[i+1:], b[j+1:]
	}
}
