package scripts_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/refs"
	"github.com/rubi-dev/rubi/core/refs/refstest"
	"github.com/rubi-dev/rubi/core/refs/scripts"
	"github.com/rubi-dev/rubi/core/resolve"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

// dirProject is a refs.Project over a folder: facts from the regex
// parser, imports from core/resolve, as an index run would give them.
type dirProject struct {
	files     map[string][]string
	all       []string
	src       map[string][]byte
	facts     map[string]core.FileFacts
	imports   map[string][]string
	importers map[string][]string
}

func loadProject(t testing.TB, root string) *dirProject {
	t.Helper()
	p := &dirProject{files: map[string][]string{}, src: map[string][]byte{}, facts: map[string]core.FileFacts{},
		imports: map[string][]string{}, importers: map[string][]string{}}
	var srcs []core.SourceFile
	err := filepath.WalkDir(root, func(f string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && f != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		lang := core.DetectLanguage(f)
		if d.IsDir() || lang != core.LangTypeScript && lang != core.LangJavaScript {
			return nil
		}
		rel, _ := filepath.Rel(root, f)
		rel = filepath.ToSlash(rel)
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		p.src[rel] = b
		srcs = append(srcs, core.SourceFile{Path: rel, Language: lang, Content: b})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	facts, err := regex.New().Parse(context.Background(), srcs)
	if err != nil {
		t.Fatal(err)
	}
	for _, ff := range facts {
		p.files[ff.Language] = append(p.files[ff.Language], ff.Path)
		p.all = append(p.all, ff.Path)
		p.facts[ff.Path] = ff
	}
	for _, fs := range p.files {
		sort.Strings(fs)
	}
	sort.Strings(p.all)
	rp, err := resolve.NewProject(root, p.all)
	if err != nil {
		t.Fatal(err)
	}
	for _, ff := range facts {
		for _, imp := range ff.Imports {
			ts, _ := rp.Resolve(ff.Path, ff.Language, imp)
			for _, to := range ts {
				if to != ff.Path && !slices.Contains(p.imports[ff.Path], to) {
					p.imports[ff.Path] = append(p.imports[ff.Path], to)
					p.importers[to] = append(p.importers[to], ff.Path)
				}
			}
		}
	}
	return p
}

func (p *dirProject) Files(lang string) []string            { return p.files[lang] }
func (p *dirProject) Facts(f string) (core.FileFacts, bool) { ff, ok := p.facts[f]; return ff, ok }
func (p *dirProject) Imports(f string) []string             { return p.imports[f] }
func (p *dirProject) Importers(f string) []string           { return p.importers[f] }
func (p *dirProject) Read(f string) ([]byte, error) {
	if b, ok := p.src[f]; ok {
		return b, nil
	}
	return nil, fs.ErrNotExist
}

var refLabel = regexp.MustCompile(`// @ref (.*)$`)

func resolveAll(t *testing.T, p *dirProject) map[string][]refs.Ref {
	t.Helper()
	got, err := scripts.New(regex.MaskCode).Refs(context.Background(), p, p.all)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// The fixture's references are labelled by hand, with decoys: a
// same-named method of another class in the same module and in others,
// a parameter shadowing an import, an object literal's key and method
// of the same names as the project's, aliases, names in strings and
// comments, an untyped parameter's method. Every reference found is a
// labelled one; what is missed needs inference (an array's element).
func TestFixturePrecisionRecall(t *testing.T) {
	p := loadProject(t, "testdata/shop")
	want := map[string]int{}
	for _, f := range p.all {
		for i, line := range strings.Split(string(p.src[f]), "\n") {
			if m := refLabel.FindStringSubmatch(line); m != nil {
				for _, target := range strings.Fields(m[1]) {
					want[fmt.Sprintf("%s:%d %s", f, i+1, target)]++
				}
			}
		}
	}
	got := map[string]int{}
	for f, rs := range resolveAll(t, p) {
		for _, r := range rs {
			got[fmt.Sprintf("%s:%d %s::%s", f, r.Line, r.Path, r.Name)]++
		}
	}
	tp, nGot, nWant := 0, 0, 0
	for k, n := range got {
		nGot += n
		tp += min(n, want[k])
		if n > want[k] {
			t.Errorf("not a reference: %s", k)
		}
	}
	var missed []string
	for k, n := range want {
		nWant += n
		if n > got[k] {
			missed = append(missed, k)
		}
	}
	sort.Strings(missed)
	precision, recall := float64(tp)/float64(nGot), float64(tp)/float64(nWant)
	t.Logf("precision %.3f (%d/%d), recall %.3f (%d/%d); missed:\n%s", precision, tp, nGot, recall, tp, nWant, strings.Join(missed, "\n"))
	if precision != 1 {
		t.Errorf("precision %.3f, want 1", precision)
	}
	if recall < minRecall {
		t.Errorf("recall %.3f, want at least %.2f", recall, minRecall)
	}
}

// minRecall is the fixture's recall: what it misses needs an array's
// element type.
const minRecall = 0.95

// A reference says which function, method or class it sits in and
// whether it calls.
func TestFromAndCall(t *testing.T) {
	p := loadProject(t, "testdata/shop")
	got := resolveAll(t, p)
	want := []refs.Ref{
		{Line: 26, Col: 20, Path: "src/cart.ts", Name: "Cart.total", From: "Cart.checkout", Call: true},
		{Line: 16, Col: 13, Path: "src/cart.ts", Name: "Item", From: "Cart.add"},
		{Line: 35, Col: 18, Path: "src/ledger.ts", Name: "Ledger.post", From: "Shop.close", Call: true},
	}
	files := []string{"src/cart.ts", "src/cart.ts", "src/app.ts"}
	for k, w := range want {
		if !slices.Contains(got[files[k]], w) {
			t.Errorf("%s: no %+v among %+v", files[k], w, got[files[k]])
		}
	}
}

// Affected widens a change to its importers and, through an index file
// re-exporting it, to the index's importers.
func TestAffected(t *testing.T) {
	p := loadProject(t, "testdata/shop")
	got := scripts.New(regex.MaskCode).Affected(p, []string{"src/ledger.ts"})
	want := []string{"src/app.ts", "src/base.ts", "src/index.ts", "src/ledger.ts"}
	if !slices.Equal(got, want) {
		t.Errorf("Affected(src/ledger.ts) = %q, want %q", got, want)
	}
}

// Whatever a file holds, resolving it ends without a panic and every
// reference points into the file at a definition its facts hold.
func FuzzRefs(f *testing.F) {
	for _, s := range []string{
		"class A extends A { m() { return this.m(); } }\nnew A().m();\n",
		"export default class { x = () => this; }\nconst f = (a: A | null) => a!.b;\n",
		"import * as n from './n'; export * from './m'; export { a as b }; const { c = d() } = e;\n",
		"const t = `${`${f(1)}`}`; const r = /a/g; function f<T>(x?: T): T { return x!; }\n",
		"interface I { m(): void; n: I }\ntype T = { a: I };\nenum E { A, B }\nlet v: E = E.A;\n",
		"class C { constructor(private d: C) {} get g(): C { return this.d; } }\n(((\n",
	} {
		f.Add([]byte(s))
	}
	r := scripts.New(regex.MaskCode)
	f.Fuzz(func(t *testing.T, src []byte) {
		refstest.CheckOne(t, r, regex.New().Parse, core.LangTypeScript, "m.ts", src)
	})
}

// BenchmarkRefs resolves every script file of the tree RUBI_REFS_TREE
// names, or of the fixture, from a cold start each time.
func BenchmarkRefs(b *testing.B) {
	root := os.Getenv("RUBI_REFS_TREE")
	if root == "" {
		root = "testdata/shop"
	}
	p := loadProject(b, root)
	r := scripts.New(regex.MaskCode)
	n := 0
	for b.Loop() {
		got, err := r.Refs(context.Background(), p, p.all)
		if err != nil {
			b.Fatal(err)
		}
		n = 0
		for _, rs := range got {
			n += len(rs)
		}
	}
	b.ReportMetric(float64(len(p.all)), "files")
	b.ReportMetric(float64(n), "refs")
}
