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

// Roots lists the package roots among paths: directories other than the
// project root that hold a package manifest (or a Ruby gemspec), outside
// test fixtures. Roots nested in other roots are kept; the deepest one
// wins for a file.
func Roots(paths []string) []string {
	seen := map[string]bool{}
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

// ModuleOf names the module of a file: the package root that contains it
// (so a monorepo comes out as its packages), or else its first two
// directories ("src/checkout", "core/host", "cmd/rubi"), or its only one,
// or "." for files at the root. Two levels is the unit people name in
// most trees: deep enough to split src/ or internal/, shallow enough that
// a module is more than a folder of three files.
func ModuleOf(p string, roots []string) string {
	for _, r := range roots {
		if strings.HasPrefix(p, r+"/") {
			return r
		}
	}
	dir := path.Dir(p)
	if dir == "." {
		return "."
	}
	parts := strings.SplitN(dir, "/", 3)
	if len(parts) >= 2 {
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
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
