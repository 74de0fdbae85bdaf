// Package resolve turns the raw import specs that parsers extract into
// files of the project. Parsers see one file at a time and cannot know
// where "github.com/x/y/pkg", "..models" or "@/components/Button" lead; a
// Project knows the whole file list and the project's configuration
// (go.mod files, Python source roots, tsconfig/jsconfig paths, package.json
// names) and answers from in-memory maps, so resolving every import of a
// large repository costs no filesystem access.
//
// Supported languages: Go, Python, JavaScript/TypeScript (also the script
// imports of Vue and Svelte files), C/C++ quoted includes and Java/Kotlin
// imports. Anything else resolves to nothing.
package resolve

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/rubi-dev/rubi/core"
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

	// Go
	goMods   map[string]string // module directory → module path
	goByPath []goModule        // the same, longest module path first
	goFiles  map[string][]string

	// Python
	pyRoots   []string // source roots, "" first
	pyRootSet map[string]bool

	// JS/TS
	jsConfig map[string]*tsConfig // directory → nearest tsconfig/jsconfig, nil if none
	jsPkgs   map[string]*jsPackage

	// C/C++ and Java/Kotlin: suffix lookups by base name.
	byBase    map[string][]string // file base name → paths
	dirByBase map[string][]string // directory base name → directories

	warnings []Warning
}

// NewProject builds a Project from files, slash paths relative to root,
// reading go.mod, tsconfig.json, jsconfig.json and package.json files from
// disk under root. Configuration files are looked for in every directory
// that holds files of the language concerned and in its ancestors, whether
// or not files lists them. Malformed configuration files do not fail the
// call: see Warnings. The error is only for an unusable root.
func NewProject(root string, files []string) (*Project, error) {
	st, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("project root: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("project root %s is not a directory", root)
	}
	return NewProjectFS(os.DirFS(root), files), nil
}

// NewProjectFS is NewProject reading configuration files from fsys, whose
// root is the project root. It is what tests and in-memory callers use.
func NewProjectFS(fsys fs.FS, files []string) *Project {
	p := &Project{
		files:    make(map[string]struct{}, len(files)),
		dirFiles: map[string][]string{},
	}
	for _, f := range files {
		c, ok := cleanRel(f)
		if !ok {
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
	for _, list := range p.dirFiles {
		slices.Sort(list)
	}
	p.loadGo(fsys)
	p.loadPython()
	p.loadJS(fsys)
	p.loadSuffixIndex()
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

// Resolve maps an import of the file from, written in language lang (a
// core.Lang* name), to the project files it refers to. ok is false when
// the import is external (standard library, third-party package) or
// cannot be found; targets are then nil. Targets never include from.
//
// What each language resolves to:
//   - Go: every non-test .go file of the imported package's directory,
//     sorted. Test files are left out because no importer can see them.
//     The module is found by longest module-path prefix among all go.mod
//     files of the project, so imports between nested modules of one
//     repository resolve too; a vendor/ copy is used for other modules
//     when the project includes it.
//   - Python: one file. "a.b" is a/b.py, a/b.pyi or a/b/__init__.py under
//     a source root; leading dots are relative to the importing file's
//     package. When "a.b" is not a module the spec falls back to "a",
//     so parsers may emit `from a import b` as "a.b" and `from . import x`
//     as ".x".
//   - JavaScript/TypeScript: one file, with Node/TypeScript probing:
//     exact path, ".js"→".ts" source mapping, added extensions, index
//     files; tsconfig/jsconfig paths and baseUrl; package.json names of
//     packages inside the project (workspaces, self-imports).
//   - C/C++: one file for a quoted include: next to the includer, at the
//     root, or the nearest file whose path ends with the spec.
//   - Java/Kotlin: the file declaring the imported class, or every file of
//     the package for a wildcard import.
func (p *Project) Resolve(from string, lang string, imp core.Import) (targets []string, ok bool) {
	spec := strings.TrimSpace(imp.Spec)
	if n := len(spec); n >= 2 {
		if q, e := spec[0], spec[n-1]; (q == '"' || q == '\'' || q == '`') && e == q || q == '<' && e == '>' {
			spec = spec[1 : n-1]
		}
	}
	if spec == "" {
		return nil, false
	}
	switch lang {
	case core.LangGo:
		targets = p.resolveGo(from, spec)
	case core.LangPython:
		targets = p.resolvePythonImport(from, spec, imp.Names)
	case core.LangJavaScript, core.LangTypeScript, core.LangVue, core.LangSvelte:
		if t, ok := p.resolveJS(from, lang, spec); ok {
			targets = []string{t}
		}
	case core.LangC, core.LangCPP:
		if t, ok := p.resolveC(from, spec); ok {
			targets = []string{t}
		}
	case core.LangJava, core.LangKotlin:
		targets = p.resolveJVM(spec)
	}
	// A file can import its own package (Go) or itself through an alias;
	// that is not an edge.
	if i := slices.Index(targets, from); i >= 0 {
		targets = slices.Delete(slices.Clone(targets), i, i+1)
	}
	if len(targets) == 0 {
		return nil, false
	}
	return targets, true
}

// Edges resolves every import of facts into core.EdgeImports edges between
// file document ids, sorted by source then target, without duplicates or
// self-loops. An import of a Go package with n files gives n edges of
// weight 1/n, so depending on a package weighs the same however it is
// split into files; importing the same target twice keeps the larger
// weight. Edge weights are always positive.
func Edges(p *Project, facts []core.FileFacts) []core.Edge {
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
			for _, imp := range f.Imports {
				ts, ok := p.Resolve(f.Path, f.Language, imp)
				if !ok {
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
	return edges
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
