package resolve

import (
	"path"
	"slices"
	"strings"

	"github.com/rubi-dev/rubi/core"
)

var cHeaderExts = map[string]bool{
	".h": true, ".hh": true, ".hpp": true, ".hxx": true, ".h++": true,
	".inc": true, ".inl": true, ".ipp": true, ".tpp": true, ".tcc": true, ".def": true,
}

// Languages whose imports may name a path suffix rather than a path from
// a known root: C/C++ includes (include directories are build settings
// rubi does not read), Java/Kotlin and PHP files outside any known source
// root or autoload prefix.
var suffixExts = map[string]bool{
	".c": true, ".cc": true, ".cpp": true, ".cxx": true,
	".java": true, ".kt": true, ".kts": true, ".php": true,
}

func (p *Project) loadSuffixIndex() {
	p.byBase = map[string][]string{}
	p.headerDirs = map[string]bool{}
	for d, files := range p.dirFiles {
		for _, f := range files {
			ext := path.Ext(f)
			if cHeaderExts[ext] {
				p.headerDirs[d] = true
			}
			if suffixExts[ext] || cHeaderExts[ext] {
				b := path.Base(f)
				p.byBase[b] = append(p.byBase[b], f)
			}
		}
	}
	for _, l := range p.byBase {
		slices.Sort(l)
	}
}

// hasPathSuffix reports whether p is suffix or ends with "/"+suffix.
func hasPathSuffix(p, suffix string) bool {
	return p == suffix || strings.HasSuffix(p, suffix) && p[len(p)-len(suffix)-1] == '/'
}

// bySuffix lists the indexed files whose path ends with the relative
// path rel.
func (p *Project) bySuffix(rel string) []string {
	var out []string
	for _, c := range p.byBase[path.Base(rel)] {
		if hasPathSuffix(c, rel) {
			out = append(out, c)
		}
	}
	return out
}

// System headers that a project file of the same name (a compatibility
// shim, a test double) must not capture unless it sits in an include
// directory.
var cStdHeaders = map[string]bool{
	"assert.h": true, "complex.h": true, "ctype.h": true, "errno.h": true, "fenv.h": true,
	"float.h": true, "inttypes.h": true, "iso646.h": true, "limits.h": true, "locale.h": true,
	"math.h": true, "setjmp.h": true, "signal.h": true, "stdalign.h": true, "stdarg.h": true,
	"stdatomic.h": true, "stdbool.h": true, "stddef.h": true, "stdint.h": true, "stdio.h": true,
	"stdlib.h": true, "stdnoreturn.h": true, "string.h": true, "tgmath.h": true, "threads.h": true,
	"time.h": true, "uchar.h": true, "wchar.h": true, "wctype.h": true,
	"unistd.h": true, "fcntl.h": true, "pthread.h": true, "dirent.h": true, "dlfcn.h": true,
	"poll.h": true, "sched.h": true, "semaphore.h": true, "strings.h": true, "syslog.h": true,
	"termios.h": true, "netdb.h": true, "windows.h": true, "winsock2.h": true,
}

func isStdHeader(spec string) bool {
	if cStdHeaders[spec] {
		return true
	}
	for _, pre := range []string{"sys/", "arpa/", "netinet/", "linux/", "mach/", "bits/"} {
		if strings.HasPrefix(spec, pre) {
			return true
		}
	}
	return false
}

// resolveC resolves an include the way compilers search, standing in for
// the -I directories of a build that rubi does not read:
//
//  1. a quoted include ("x.h", any kind but core.ImportSystem): next to
//     the including file;
//  2. the include directories: a file whose path is D/spec where D is
//     the root or a directory named include or inc, nearest to the
//     includer (a monorepo's own component first);
//  3. a file D/spec where D holds headers itself (quoted includes, and
//     system includes other than standard headers), nearest first;
//  4. the one file whose path ends with the spec; for a quoted include
//     also the single one nearest to the includer.
//
// Equally near candidates are all returned. A system include
// (<x.h>, core.ImportSystem) is never looked up next to the includer,
// and is external when not found; a quoted one is then unresolved.
func (p *Project) resolveC(from, spec, kind string) ([]string, bool) {
	system := kind == core.ImportSystem
	if !system {
		if t, ok := join(dirOf(from), spec); ok && p.Has(t) {
			return []string{t}, true
		}
	}
	clean := path.Clean(spec)
	if strings.HasPrefix(clean, "/") || clean == "." {
		return nil, false // an absolute path is outside the project
	}
	if strings.HasPrefix(clean, "../") || clean == ".." {
		return nil, !system
	}
	std := system && isStdHeader(clean)
	var inc, hdr, rest []string
	for _, c := range p.bySuffix(clean) {
		d := strings.TrimSuffix(c[:len(c)-len(clean)], "/")
		switch b := path.Base(d); {
		case d == "" || b == "include" || b == "inc":
			inc = append(inc, c)
		case p.headerDirs[d] && !std:
			hdr = append(hdr, c)
		default:
			rest = append(rest, c)
		}
	}
	switch {
	case len(inc) > 0:
		return Nearest(from, inc), true
	case len(hdr) > 0:
		return Nearest(from, hdr), true
	case std:
		return nil, false
	}
	if system {
		if len(rest) == 1 {
			return rest, true
		}
		return nil, false
	}
	if n := Nearest(from, rest); len(n) == 1 {
		return n, true
	}
	return nil, true
}
