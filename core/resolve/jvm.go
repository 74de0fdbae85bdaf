package resolve

import (
	"path"
	"slices"
	"strings"
)

// loadJVM finds the conventional Java/Kotlin source roots: src/<set>/java
// and src/<set>/kotlin at any depth (Maven, Gradle and its multi-project
// and Android layouts: app/src/main/java, src/test/kotlin,
// src/commonMain/kotlin), and any directory named src that holds Java or
// Kotlin files below it. A file belongs to its nearest root.
func (p *Project) loadJVM() {
	p.jvmRoots = map[string]bool{}
	for d, files := range p.dirFiles {
		if !slices.ContainsFunc(files, isJVMSource) {
			continue
		}
		ancestors(d, func(a string) bool {
			switch path.Base(a) {
			case "java", "kotlin":
				if set := dirOf(a); set != "" && path.Base(dirOf(set)) == "src" {
					p.jvmRoots[a] = true
				}
			case "src":
				p.jvmRoots[a] = true
			}
			return true
		})
	}
}

// jvmPathPackage derives a file's package from its nearest source root.
func jvmPathPackage(roots map[string]bool, f string) (string, bool) {
	dir := dirOf(f)
	pkg, ok := "", false
	ancestors(dir, func(d string) bool {
		if roots[d] {
			pkg, ok = strings.ReplaceAll(relTo(dir, d), "/", "."), true
			return false
		}
		return true
	})
	return pkg, ok
}

// isTestPath reports whether f lies in a test source set or directory:
// src/test, src/androidTest, src/commonTest, testFixtures, tests/.
func isTestPath(f string) bool {
	for d := dirOf(f); d != ""; {
		seg := d
		if i := strings.IndexByte(d, '/'); i >= 0 {
			seg, d = d[:i], d[i+1:]
		} else {
			d = ""
		}
		if seg == "test" || seg == "tests" || seg == "testFixtures" || strings.HasSuffix(seg, "Test") {
			return true
		}
	}
	return false
}

// preferMain drops test files from candidates unless the importer is a
// test itself or nothing else is left: main code does not import tests.
func preferMain(from string, cands []string) []string {
	if isTestPath(from) || !slices.ContainsFunc(cands, isTestPath) {
		return cands
	}
	main := slices.DeleteFunc(slices.Clone(cands), isTestPath)
	if len(main) == 0 {
		return cands
	}
	return main
}

// resolveJVM resolves a Java or Kotlin import:
//   - "a.b.C" is the file that declares class (or, for Kotlin, top-level
//     function or property) C of package a.b, the nearest one to the
//     importer when several do; a file's package is the one its parser
//     reported, else its path below its source root;
//   - "a.b.C.D" (a nested class or a static member, also "static a.b.C.m")
//     falls back to a.b.C, but never past a package: "a.b.Missing" is not
//     taken for the file a/b.kt;
//   - "a.b.*" is every file of package a.b (all source sets and modules
//     that hold it, test sources only for test importers), and
//     "a.b.C.*" the file of class a.b.C;
//   - files whose package is unknown (outside every source root, no
//     package reported) are found by path suffix: a/b/C.java.
//
// An import whose first two segments ("com.acme") are shared with a
// package of the project is internal when not found.
func (p *Project) resolveJVM(fx *factIndex, from, spec string) ([]string, bool) {
	spec = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(spec), ";"))
	spec = strings.TrimSpace(strings.TrimPrefix(spec, "static "))
	if before, _, ok := strings.Cut(spec, " as "); ok { // Kotlin alias
		spec = strings.TrimSpace(before)
	}
	wildcard := false
	if pkg, ok := strings.CutSuffix(spec, ".*"); ok {
		spec, wildcard = pkg, true
	}
	if !validDotted(spec) {
		return nil, false
	}
	parts := strings.Split(spec, ".")
	internal := fx.jvmOwned[ownedPrefix(spec, ".")]
	if wildcard {
		if files := fx.jvmPkgs[spec]; len(files) > 0 {
			if main := fx.jvmPkgsMain[spec]; len(main) > 0 && !isTestPath(from) {
				return main, true
			}
			return files, true
		}
	}
	for k := len(parts); k >= 1; k-- {
		q := strings.Join(parts[:k], ".")
		if k < len(parts) && len(fx.jvmPkgs[q]) > 0 {
			// A member of a known package that no file declares.
			break
		}
		if files := fx.jvmDecls[q]; len(files) > 0 && (k >= 2 || len(parts) == 1) {
			return Nearest(from, preferMain(from, files)), true
		}
	}
	// Files of unknown package, by path suffix.
	if wildcard {
		rel := strings.ReplaceAll(spec, ".", "/")
		var out []string
		for _, d := range fx.jvmLoose[path.Base(rel)] {
			if !hasPathSuffix(d, rel) {
				continue
			}
			for _, f := range p.dirFiles[d] {
				if isJVMSource(f) && !fx.jvmPlaced[f] {
					out = append(out, f)
				}
			}
		}
		if len(out) > 0 {
			slices.Sort(out)
			return preferMain(from, out), true
		}
	}
	for k := len(parts); k >= 2; k-- {
		rel := strings.Join(parts[:k], "/")
		var out []string
		for _, ext := range []string{".java", ".kt"} {
			for _, f := range p.byBase[parts[k-1]+ext] {
				if !fx.jvmPlaced[f] && hasPathSuffix(f, rel+ext) {
					out = append(out, f)
				}
			}
		}
		if len(out) > 0 {
			return Nearest(from, preferMain(from, out)), true
		}
	}
	return nil, internal
}
