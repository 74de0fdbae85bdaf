package resolve

import (
	"path"
	"slices"
	"strings"
)

// Languages whose imports name a path suffix rather than a path from a
// known root: C/C++ includes (include directories are build settings rubi
// does not read) and Java/Kotlin (source roots such as src/main/java vary).
var suffixExts = map[string]bool{
	".h": true, ".hh": true, ".hpp": true, ".hxx": true, ".inc": true,
	".c": true, ".cc": true, ".cpp": true, ".cxx": true,
	".java": true, ".kt": true, ".kts": true,
}

func (p *Project) loadSuffixIndex() {
	p.byBase = map[string][]string{}
	p.dirByBase = map[string][]string{}
	for d, files := range p.dirFiles {
		jvm := false
		for _, f := range files {
			ext := path.Ext(f)
			if suffixExts[ext] {
				b := path.Base(f)
				p.byBase[b] = append(p.byBase[b], f)
			}
			jvm = jvm || ext == ".java" || ext == ".kt"
		}
		if jvm {
			b := path.Base(d)
			p.dirByBase[b] = append(p.dirByBase[b], d)
		}
	}
	for _, l := range p.byBase {
		slices.Sort(l)
	}
	for _, l := range p.dirByBase {
		slices.Sort(l)
	}
}

// hasPathSuffix reports whether p is suffix or ends with "/"+suffix.
func hasPathSuffix(p, suffix string) bool {
	return p == suffix || strings.HasSuffix(p, suffix) && p[len(p)-len(suffix)-1] == '/'
}

// resolveC resolves a quoted include the way compilers search: next to the
// including file, then from the root; failing both, the file whose path
// ends with the spec and shares the longest directory prefix with the
// includer, which stands in for the -I directories of the build.
func (p *Project) resolveC(from, spec string) (string, bool) {
	if t, ok := join(dirOf(from), spec); ok && p.Has(t) {
		return t, true
	}
	if t, ok := join(spec); ok && p.Has(t) {
		return t, true
	}
	clean := path.Clean(spec)
	if strings.HasPrefix(clean, "../") || strings.HasPrefix(clean, "/") {
		return "", false
	}
	best, bestScore := "", -1
	for _, c := range p.byBase[path.Base(clean)] {
		if !hasPathSuffix(c, clean) {
			continue
		}
		if s := commonDirs(from, c); s > bestScore {
			best, bestScore = c, s
		}
	}
	return best, best != ""
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

// resolveJVM resolves a Java or Kotlin import. "a.b.C" is the file C.java
// or C.kt under a directory ending in a/b, wherever the source root is;
// "a.b.C.D" (a nested class or a static member) falls back to a.b.C;
// "a.b.*" is every source file of the package.
func (p *Project) resolveJVM(spec string) []string {
	spec = strings.TrimSpace(strings.TrimPrefix(spec, "static "))
	if pkg, ok := strings.CutSuffix(spec, ".*"); ok {
		rel := strings.ReplaceAll(pkg, ".", "/")
		var out []string
		for _, d := range p.dirByBase[path.Base(rel)] {
			if !hasPathSuffix(d, rel) {
				continue
			}
			for _, f := range p.dirFiles[d] {
				if ext := path.Ext(f); ext == ".java" || ext == ".kt" {
					out = append(out, f)
				}
			}
		}
		return out
	}
	parts := strings.Split(spec, ".")
	for k := len(parts); k >= 2; k-- {
		rel := strings.Join(parts[:k], "/")
		var out []string
		for _, ext := range []string{".java", ".kt"} {
			for _, f := range p.byBase[parts[k-1]+ext] {
				if hasPathSuffix(f, rel+ext) {
					out = append(out, f)
				}
			}
		}
		if len(out) > 0 {
			slices.Sort(out)
			return out
		}
	}
	return nil
}
