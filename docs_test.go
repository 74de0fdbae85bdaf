package rubi_test

import (
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// architectureDoc is the map of the repository a newcomer reads first.
const architectureDoc = "docs/architecture.md"

// maxArchitectureLines is the length a newcomer reads in ten minutes.
// Details belong in the package doc comments, where they change with the
// code they describe; the map only says where to look.
const maxArchitectureLines = 250

// The map stays a map: short enough to read at once.
func TestArchitectureIsShort(t *testing.T) {
	doc := readDoc(t, architectureDoc)
	if n := strings.Count(doc, "\n"); n > maxArchitectureLines {
		t.Errorf("%s has %d lines, over %d: move the detail into the doc comment of the package it describes", architectureDoc, n, maxArchitectureLines)
	}
}

// Every path of the repository the map names in backticks exists, so a
// renamed, moved or removed file or folder fails here rather than
// misleading a reader. A word in capitals (NAME) stands for any name:
// its folder must exist. Paths under .rubi/ are a project's, not the
// repository's.
func TestArchitecturePathsExist(t *testing.T) {
	doc := readDoc(t, architectureDoc)
	top := topLevel(t)
	placeholder := regexp.MustCompile(`[A-Z]{3,}`)
	checked := 0
	for _, p := range docPaths(doc, top) {
		checked++
		for placeholder.MatchString(p) {
			p = path.Dir(p)
		}
		if strings.ContainsAny(p, "*?[") {
			if m, err := globRepo(p); err != nil || len(m) == 0 {
				t.Errorf("%s names `%s`, which matches nothing in the repository", architectureDoc, p)
			}
			continue
		}
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s names `%s`, which is not in the repository", architectureDoc, p)
		}
	}
	if checked < 40 {
		t.Errorf("only %d paths found in %s", checked, architectureDoc)
	}
}

// Every package of the module has its line in the map's package table
// (or is matched by a pattern there), so a new package cannot go
// unmapped.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	doc := readDoc(t, architectureDoc)
	var named []string
	for _, m := range regexp.MustCompile("`([^`\n]+)`").FindAllStringSubmatch(doc, -1) {
		named = append(named, m[1])
	}
	pkgs := goList(t, "Imports", "./...")
	for pkg := range pkgs {
		rel := strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")
		if rel == "" {
			rel = "rubi"
		}
		if !slices.ContainsFunc(named, func(n string) bool {
			ok, _ := path.Match(n, rel)
			return n == rel || ok
		}) {
			t.Errorf("%s does not name the package `%s`: give it a line in the package table", architectureDoc, rel)
		}
	}
}

func readDoc(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// topLevel is the set of names at the repository's root.
func topLevel(t *testing.T) map[string]bool {
	t.Helper()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	top := map[string]bool{}
	for _, e := range entries {
		if e.Name() != ".rubi" && e.Name() != ".git" {
			top[e.Name()] = true
		}
	}
	return top
}

// docPaths are the words inside the backticks of doc that name a path of
// the repository: those whose first element is an entry of its root
// (with or without a leading "./", as in `go doc ./core/codec`).
func docPaths(doc string, top map[string]bool) []string {
	var paths []string
	for _, m := range regexp.MustCompile("`([^`\n]+)`").FindAllStringSubmatch(doc, -1) {
		for _, w := range strings.Fields(m[1]) {
			w = strings.TrimPrefix(w, "./")
			first, _, _ := strings.Cut(w, "/")
			if top[first] {
				paths = append(paths, strings.TrimSuffix(w, "/"))
			}
		}
	}
	return paths
}

// globRepo matches pattern (path.Match syntax, each element on its own)
// against the repository's files and folders.
func globRepo(pattern string) ([]string, error) {
	matches := []string{"."}
	for _, elem := range strings.Split(pattern, "/") {
		var next []string
		for _, dir := range matches {
			entries, err := os.ReadDir(dir)
			if err != nil {
				continue
			}
			for _, e := range entries {
				ok, err := path.Match(elem, e.Name())
				if err != nil {
					return nil, err
				}
				if ok {
					next = append(next, path.Join(dir, e.Name()))
				}
			}
		}
		matches = next
	}
	return matches, nil
}
