// Package codemap turns the index of a project into what a newcomer (or an
// agent) reads first: its modules, how they depend on each other, and which
// files are central. It renders the level-0 map (.rubi/map.md, a few
// hundred tokens) and the level-1 pages (.rubi/modules/<module>.md, one per
// module). It works on plain data handed over by the index pipeline and
// touches no files itself.
package codemap

import (
	"path"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// manifests are the files that make a directory a package of its own: a
// workspace member of a monorepo, a crate, a Maven or Gradle project...
var manifests = map[string]bool{
	"go.mod": true, "package.json": true, "Cargo.toml": true, "pyproject.toml": true,
	"setup.py": true, "pom.xml": true, "build.gradle": true, "build.gradle.kts": true,
	"composer.json": true, "pubspec.yaml": true, "deno.json": true,
}

// fixtureDirs hold test inputs, whose manifests make no package of the
// project.
var fixtureDirs = map[string]bool{"testdata": true, "fixtures": true, "__fixtures__": true}

// Roots lists the module roots among paths: directories other than the
// project root that hold a package manifest (or a Ruby gemspec), the
// Python packages people name (pythonModules), outside test fixtures, and
// the directories the globs (index.module_roots) match. Roots nested in
// other roots are kept; the deepest one wins for a file.
func Roots(paths []string, globs ...string) []string {
	seen := map[string]bool{}
	// Directories a configured glob matches (index.module_roots): any
	// directory of a path may be one.
	if len(globs) > 0 {
		for _, p := range paths {
			for dir := path.Dir(p); dir != "." && !seen[dir]; dir = path.Dir(dir) {
				for _, g := range globs {
					if doublestar.MatchUnvalidated(g, dir) {
						seen[dir] = true
						break
					}
				}
			}
		}
	}
	for _, p := range paths {
		dir, base := path.Split(p)
		dir = strings.TrimSuffix(dir, "/")
		if dir == "" || seen[dir] || inFixture(dir) {
			continue
		}
		if manifests[base] || strings.HasSuffix(base, ".gemspec") {
			seen[dir] = true
		}
	}
	for _, dir := range pythonModules(paths) {
		seen[dir] = true
	}
	roots := make([]string, 0, len(seen))
	for r := range seen {
		roots = append(roots, r)
	}
	// Longest first, so the deepest root containing a file is found first.
	sort.Slice(roots, func(i, j int) bool {
		if len(roots[i]) != len(roots[j]) {
			return len(roots[i]) > len(roots[j])
		}
		return roots[i] < roots[j]
	})
	return roots
}

// splitAbove is the size past which a Python package below the top one is
// split into its subpackages on the map: pip's _internal (149 files) is
// named by its parts (cli, commands, req, resolution…), a package of a few
// dozen files is one module.
const splitAbove = 40

// pythonModules lists the Python packages that are modules of the map. A
// package is a folder with an __init__.py; a top package is one whose
// parent is not (src/pip in a src layout, pip at the root of a tree, or
// the root itself). A top package's own files are its module, each of its
// subpackages is one, and a subpackage of more than splitAbove files is
// split the same way into its own subpackages (a vendored one never is).
// Folders of files without
// an __init__.py stay with the package around them. Namespace packages
// (no __init__.py) are not told apart from folders: the two-directory
// rule names them.
func pythonModules(paths []string) []string {
	pkgs := map[string]bool{}
	size := map[string]int{}
	for _, p := range paths {
		dir := path.Dir(p)
		if path.Base(p) == "__init__.py" && !inFixture(dir) {
			pkgs[dir] = true
		}
		for d := dir; d != "."; d = path.Dir(d) {
			size[d]++
		}
		size["."]++
	}
	if len(pkgs) == 0 {
		return nil
	}
	children := map[string][]string{}
	var tops []string
	for pkg := range pkgs {
		parent := path.Dir(pkg)
		if pkg != "." && pkgs[parent] {
			children[parent] = append(children[parent], pkg)
		} else {
			tops = append(tops, pkg)
		}
	}
	var out []string
	var add func(pkg string, split bool)
	add = func(pkg string, split bool) {
		if pkg != "." {
			out = append(out, pkg)
		}
		if !split {
			return
		}
		for _, c := range children[pkg] {
			// A vendored package stays whole: one module the map leaves
			// out (Build), not one per library it bundles.
			add(c, size[c] > splitAbove && !inVendored(c+"/_"))
		}
	}
	for _, top := range tops {
		add(top, true)
	}
	sort.Strings(out)
	return out
}

func inFixture(dir string) bool {
	for _, part := range strings.Split(dir, "/") {
		if fixtureDirs[part] {
			return true
		}
	}
	return false
}

// IsTest reports whether a path (a file, or a module's directory) is a
// test, a test helper or a fixture, by the conventions of the languages
// rubi reads.
func IsTest(p string) bool {
	for _, dir := range strings.Split(p, "/") {
		if testDirs[dir] {
			return true
		}
	}
	base := path.Base(p)
	stem := strings.TrimSuffix(base, path.Ext(base))
	switch {
	case strings.HasSuffix(stem, "_test"), // Go, Python, Ruby, C++
		strings.HasPrefix(stem, "test_"),                                   // pytest
		strings.HasSuffix(stem, ".test"), strings.HasSuffix(stem, ".spec"), // JS/TS
		strings.HasSuffix(stem, "_spec"),                                  // RSpec
		strings.HasSuffix(stem, "Test"), strings.HasSuffix(stem, "Tests"): // JUnit, xUnit
		return true
	}
	return false
}

// IsTestCase reports whether a path is a test case or a fixture: a file
// named as a test, or anything under a fixtures directory (testdata,
// fixtures, __mocks__, Jest's __tests__). Unlike IsTest it leaves out the
// other files of test/ and spec/ trees (e2e frameworks, helpers), which are
// code in their own right; test cases repeat the words of the code they
// test, which is why rankings count them less.
func IsTestCase(p string) bool {
	for _, dir := range strings.Split(path.Dir(p), "/") {
		if caseDirs[dir] {
			return true
		}
	}
	return IsTest(path.Base(p))
}

// caseDirs hold only test cases and fixtures.
var caseDirs = map[string]bool{
	"testdata": true, "fixtures": true, "__fixtures__": true, "__mocks__": true, "__tests__": true,
}

// testDirs are directory names that hold tests or their fixtures.
var testDirs = map[string]bool{
	"test": true, "tests": true, "__tests__": true, "testdata": true,
	"spec": true, "specs": true, "fixtures": true, "__fixtures__": true, "__mocks__": true,
}

// ModuleOf names the module of a file: the root (Roots) that contains it
// (so a monorepo comes out as its packages, a Python project as its
// packages), or else its first depth directories (two when not given:
// index.module_depth; "src/checkout",
// "core/host", "cmd/rubi"), or its only one, or "." for files at the
// root. Two levels is the unit people name in
// most trees: deep enough to split src/ or internal/, shallow enough that
// a module is more than a folder of three files.
func ModuleOf(p string, roots []string, depth ...int) string {
	for _, r := range roots {
		if strings.HasPrefix(p, r+"/") {
			return r
		}
	}
	dir := path.Dir(p)
	if dir == "." {
		return "."
	}
	n := 2
	if len(depth) > 0 && depth[0] > 0 {
		n = depth[0]
	}
	parts := strings.SplitN(dir, "/", n+1)
	return strings.Join(parts[:min(n, len(parts))], "/")
}

// Slug is the file name of a module's level-1 page, without extension:
// "core/host" → "core-host", "." → "root".
func Slug(module string) string {
	if module == "." {
		return "root"
	}
	var b strings.Builder
	for _, r := range module {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-.")
}
