package resolve

import (
	"fmt"
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/rubi-dev/rubi/core"
)

// BenchmarkEdges resolves a synthetic project of 10k Go and 10k
// TypeScript files with five imports each.
func BenchmarkEdges(b *testing.B) {
	fsys := fstest.MapFS{
		"go.mod":        {Data: []byte("module example.com/big\n")},
		"tsconfig.json": {Data: []byte(`{"compilerOptions": {"paths": {"@/*": ["web/*"]}}}`)},
	}
	var files []string
	var facts []core.FileFacts
	for i := range 10_000 {
		goFile := fmt.Sprintf("pkg%d/f%d.go", i/10, i)
		tsFile := fmt.Sprintf("web/m%d/f%d.ts", i/10, i)
		files = append(files, goFile, tsFile)
		var goImps, tsImps []core.Import
		for k := range 5 {
			j := (i*7 + k*131) % 10_000
			goImps = append(goImps, core.Import{Spec: fmt.Sprintf("example.com/big/pkg%d", j/10)})
			tsImps = append(tsImps, core.Import{Spec: fmt.Sprintf("@/m%d/f%d", j/10, j)})
		}
		goImps = append(goImps, core.Import{Spec: "fmt"})
		tsImps = append(tsImps, core.Import{Spec: "react"})
		facts = append(facts,
			core.FileFacts{Path: goFile, Language: core.LangGo, Imports: goImps},
			core.FileFacts{Path: tsFile, Language: core.LangTypeScript, Imports: tsImps})
	}
	b.Run("NewProject", func(b *testing.B) {
		for b.Loop() {
			NewProjectFS(fsys, files)
		}
	})
	p := NewProjectFS(fsys, files)
	b.Run("Edges", func(b *testing.B) {
		n := 0
		for b.Loop() {
			n = len(Edges(p, facts))
		}
		b.ReportMetric(float64(n), "edges")
	})
}

// mixedProject is a synthetic project of n files in each of eleven
// languages, each file with four project imports and one external one,
// plus the configuration files their resolvers read.
func mixedProject(n int) (fstest.MapFS, []string, []core.FileFacts) {
	fsys := fstest.MapFS{
		"go.mod":        {Data: []byte("module example.com/mix\n")},
		"tsconfig.json": {Data: []byte(`{"compilerOptions": {"paths": {"@/*": ["web/*"]}}}`)},
		"Cargo.toml":    {Data: []byte("[workspace]\nmembers = [\"crates/*\"]\n")},
		"composer.json": {Data: []byte(`{"autoload": {"psr-4": {"App\\": "php/src/"}}}`)},
		"pubspec.yaml":  {Data: []byte("name: mix\n")},
		"mix.gemspec":   {},
	}
	const groups = 20
	var files []string
	files = append(files, "py/app/__init__.py")
	for g := range groups {
		fsys[fmt.Sprintf("crates/c%d/Cargo.toml", g)] = &fstest.MapFile{Data: []byte(fmt.Sprintf("[package]\nname = \"c%d\"\n", g))}
		files = append(files, fmt.Sprintf("py/app/m%d/__init__.py", g))
	}
	var facts []core.FileFacts
	add := func(path, lang, pkg string, imps ...core.Import) {
		files = append(files, path)
		facts = append(facts, core.FileFacts{Path: path, Language: lang, Package: pkg, Imports: imps})
	}
	imp := func(kind, format string, args ...any) core.Import {
		return core.Import{Spec: fmt.Sprintf(format, args...), Kind: kind}
	}
	per := n / groups
	for g := range groups {
		var mods []core.Import
		for i := range per {
			mods = append(mods, imp(core.ImportModule, "m%d", i))
		}
		add(fmt.Sprintf("crates/c%d/src/lib.rs", g), core.LangRust, "", mods...)
	}
	for i := range n {
		g, j := i/per, (i*7+13)%n
		gj, ij := j/per, j%per
		add(fmt.Sprintf("pkg%d/f%d.go", g, i), core.LangGo, "",
			imp("", "example.com/mix/pkg%d", gj), imp("", "example.com/mix/pkg%d", (gj+1)%groups),
			imp("", "example.com/mix/pkg%d", (gj+2)%groups), imp("", "example.com/mix/nope%d", g), imp("", "fmt"))
		add(fmt.Sprintf("web/m%d/f%d.ts", g, i), core.LangTypeScript, "",
			imp("", "@/m%d/f%d", gj, j), imp("", "../m%d/f%d", gj, j), imp("", "./f%d", i+1), imp("", "@/m%d/nope", g), imp("", "react"))
		add(fmt.Sprintf("py/app/m%d/f%d.py", g, i), core.LangPython, "",
			imp("", "app.m%d.f%d", gj, j), imp("", ".f%d", i+1), imp("", "app.m%d", gj), imp("", "..nope%d.x", g), imp("", "numpy"))
		add(fmt.Sprintf("crates/c%d/src/m%d.rs", g, i%per), core.LangRust, "",
			imp("", "crate::m%d::Item", ij), imp("", "c%d::m%d::Thing", gj, ij), imp("", "super::m%d", ij),
			imp("", "crate::{m%d, m%d::X}", ij, (ij+1)%per), imp("", "std::collections::HashMap"))
		add(fmt.Sprintf("jvm/g%d/src/main/java/com/acme/p%d/C%d.java", g, g, i), core.LangJava, fmt.Sprintf("com.acme.p%d", g),
			imp("", "com.acme.p%d.C%d", gj, j), imp("", "com.acme.p%d.*", gj), imp("", "static com.acme.p%d.C%d.run", gj, j),
			imp("", "com.acme.p%d.Missing", g), imp("", "java.util.List"))
		add(fmt.Sprintf("jvm/g%d/src/main/kotlin/K%d.kt", g, i), core.LangKotlin, fmt.Sprintf("com.acme.k%d", g),
			imp("", "com.acme.k%d.K%d", gj, j), imp("", "com.acme.p%d.C%d", gj, j), imp("", "com.acme.k%d.*", gj),
			imp("", "com.acme.k%d.Nope", g), imp("", "kotlinx.coroutines.flow.Flow"))
		add(fmt.Sprintf("php/src/M%d/C%d.php", g, i), core.LangPHP, fmt.Sprintf(`App\M%d`, g),
			imp("", `App\M%d\C%d`, gj, j), imp("", `\App\M%d\C%d`, gj, j), imp(core.ImportRequire, "__DIR__/C%d.php", i+1),
			imp("", `App\M%d\Nope`, g), imp("", `Symfony\Component\HttpFoundation\Request`))
		add(fmt.Sprintf("lib/mix/m%d/f%d.rb", g, i), core.LangRuby, "",
			imp(core.ImportRequire, "mix/m%d/f%d", gj, j), imp(core.ImportRelative, "f%d", i+1), imp(core.ImportRequire, "mix/m%d/f%d", g, i+2),
			imp(core.ImportRelative, "nope"), imp(core.ImportRequire, "json"))
		add(fmt.Sprintf("c/include/proj/m%d/h%d.h", g, i), core.LangC, "")
		add(fmt.Sprintf("c/src/m%d/f%d.c", g, i), core.LangC, "",
			imp("", "proj/m%d/h%d.h", gj, j), imp(core.ImportSystem, "proj/m%d/h%d.h", g, i), imp("", "m%d/h%d.h", gj, j),
			imp("", "gen%d.h", i), imp(core.ImportSystem, "stdio.h"))
		add(fmt.Sprintf("styles/m%d/_p%d.scss", g, i), core.LangCSS, "",
			imp("", "../m%d/p%d", gj, j), imp("", "p%d", i+1), imp("", "./_p%d.scss", i+1), imp("", "./nope"), imp("", "~bootstrap/scss/bootstrap"))
		add(fmt.Sprintf("lib/src/m%d/f%d.dart", g, i), core.LangDart, "",
			imp("", "package:mix/src/m%d/f%d.dart", gj, j), imp("", "f%d.dart", i+1), imp(core.ImportModule, "f%d.dart", i+1),
			imp("", "package:mix/nope.dart"), imp("", "dart:async"))
	}
	for _, f := range files {
		if _, ok := fsys[f]; !ok {
			fsys[f] = &fstest.MapFile{}
		}
	}
	return fsys, files, facts
}

// lookupFS is a MapFS whose missing files cost a map lookup, as a stat
// on disk costs little: fstest.MapFS scans every file to synthesize
// directories, which would dominate NewProject's many config probes.
type lookupFS fstest.MapFS

func (l lookupFS) Open(name string) (fs.File, error) {
	f, ok := l[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return fstest.MapFS{name: f}.Open(name)
}

// BenchmarkAnalyze resolves a synthetic mixed-language project: 2,000
// files in each of eleven languages (plus headers and crate roots), five
// imports each.
func BenchmarkAnalyze(b *testing.B) {
	mfs, files, facts := mixedProject(2_000)
	fsys := lookupFS(mfs)
	b.Run("NewProject", func(b *testing.B) {
		for b.Loop() {
			NewProjectFS(fsys, files)
		}
	})
	p := NewProjectFS(fsys, files)
	if w := p.Warnings(); len(w) > 0 {
		b.Fatalf("warnings: %v", w)
	}
	b.Run("Analyze", func(b *testing.B) {
		var edges []core.Edge
		var st Stats
		for b.Loop() {
			edges, st = Analyze(p, facts)
		}
		var res, unres, ext int
		for _, n := range st.Resolved {
			res += n
		}
		for _, n := range st.Unresolved {
			unres += n
		}
		for _, n := range st.External {
			ext += n
		}
		b.ReportMetric(float64(len(edges)), "edges")
		b.ReportMetric(float64(res+unres+ext), "imports")
		b.ReportMetric(100*float64(res)/float64(res+unres), "%resolved")
	})
}

// TestMixedProjectStats pins the classification of the benchmark's
// project: per language, every import is resolved, unresolved or
// external as designed.
func TestMixedProjectStats(t *testing.T) {
	fsys, files, facts := mixedProject(200)
	p := NewProjectFS(fsys, files)
	if w := p.Warnings(); len(w) > 0 {
		t.Fatalf("warnings: %v", w)
	}
	_, st := Analyze(p, facts)
	const n = 200
	langs := []string{core.LangGo, core.LangTypeScript, core.LangPython, core.LangJava, core.LangKotlin,
		core.LangPHP, core.LangRuby, core.LangC, core.LangCSS, core.LangDart}
	for _, l := range langs {
		// Each file has 3 resolvable imports (a tenth of the "next file"
		// ones point past the last file of its directory), 1 unresolved
		// and 1 external. CSS takes a missing bare @use for external.
		r, u, x := st.Resolved[l], st.Unresolved[l], st.External[l]
		if r+u+x != 5*n || r < 5*n/2 || u < n || u > 3*n/2 || x < n || x > 6*n/5 {
			t.Errorf("%s: resolved %d, unresolved %d, external %d", l, r, u, x)
		}
	}
	// Rust: 4 project imports per module file plus one mod line each in
	// lib.rs resolve; every module file has one std import.
	if r := st.Resolved[core.LangRust]; r != 5*n || st.Unresolved[core.LangRust] != 0 || st.External[core.LangRust] != n {
		t.Errorf("rust: resolved %d, unresolved %d, external %d", r, st.Unresolved[core.LangRust], st.External[core.LangRust])
	}
}
