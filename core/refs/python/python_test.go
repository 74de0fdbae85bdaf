package python_test

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
	"github.com/rubi-dev/rubi/core/refs/python"
	"github.com/rubi-dev/rubi/core/refs/refstest"
	"github.com/rubi-dev/rubi/core/resolve"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

// dirProject is a refs.Project over a folder: facts from the regex
// parser, imports from core/resolve, as an index run would give them.
type dirProject struct {
	root      string
	files     []string
	src       map[string][]byte
	facts     map[string]core.FileFacts
	imports   map[string][]string
	importers map[string][]string
}

func loadProject(t testing.TB, root string) *dirProject {
	t.Helper()
	p := &dirProject{root: root, src: map[string][]byte{}, facts: map[string]core.FileFacts{}, imports: map[string][]string{}, importers: map[string][]string{}}
	var srcs []core.SourceFile
	err := filepath.WalkDir(root, func(f string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && f != root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || core.DetectLanguage(f) != core.LangPython {
			return nil
		}
		rel, _ := filepath.Rel(root, f)
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		p.src[rel] = b
		srcs = append(srcs, core.SourceFile{Path: rel, Language: core.LangPython, Content: b})
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
		p.files = append(p.files, ff.Path)
		p.facts[ff.Path] = ff
	}
	sort.Strings(p.files)
	rp, err := resolve.NewProject(root, p.files)
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

func (p *dirProject) Files(lang string) []string {
	if lang != core.LangPython {
		return nil
	}
	return p.files
}
func (p *dirProject) Facts(f string) (core.FileFacts, bool) { ff, ok := p.facts[f]; return ff, ok }
func (p *dirProject) Imports(f string) []string             { return p.imports[f] }
func (p *dirProject) Importers(f string) []string           { return p.importers[f] }
func (p *dirProject) Read(f string) ([]byte, error) {
	if b, ok := p.src[f]; ok {
		return b, nil
	}
	return nil, fs.ErrNotExist
}

var refLabel = regexp.MustCompile(`# @ref (.*)$`)

// labels reads the hand-written expected references of a fixture: each
// `# @ref PATH::NAME ...` comment names the definitions its line uses,
// one entry per use.
func labels(t *testing.T, p *dirProject) map[string]int {
	t.Helper()
	want := map[string]int{}
	for _, f := range p.files {
		b, err := p.Read(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := refLabel.FindStringSubmatch(line); m != nil {
				for _, target := range strings.Fields(m[1]) {
					want[fmt.Sprintf("%s:%d %s", f, i+1, target)]++
				}
			}
		}
	}
	return want
}

func resolveAll(t *testing.T, p *dirProject) map[string][]refs.Ref {
	t.Helper()
	got, err := python.New(regex.MaskCode).Refs(context.Background(), p, p.files)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// The fixture's references are labelled by hand, decoys included (a
// same-named method of another class in the same module and in others,
// a name shadowed locally, aliases, names in strings and comments, an
// untyped parameter's method): every reference found is a labelled one,
// and the labelled ones the resolver cannot tell (a type only inference
// would give, a quoted union) are the only ones missed.
func TestFixturePrecisionRecall(t *testing.T) {
	p := loadProject(t, "testdata/shop")
	want := labels(t, p)
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

// minRecall is the fixture's recall: what it misses needs inference
// rubi does not do (a list's element type, an unannotated function's
// return) or a quoted union.
const minRecall = 0.90

// BenchmarkRefs resolves every Python file of the tree RUBI_REFS_TREE
// names (a real project: django for the cost an index run pays), or of
// the fixture, from a cold start each time; the files are in memory, as
// the index has them.
func BenchmarkRefs(b *testing.B) {
	root := os.Getenv("RUBI_REFS_TREE")
	if root == "" {
		root = "testdata/shop"
	}
	p := loadProject(b, root)
	r := python.New(regex.MaskCode)
	n := 0
	for b.Loop() {
		got, err := r.Refs(context.Background(), p, p.files)
		if err != nil {
			b.Fatal(err)
		}
		n = 0
		for _, rs := range got {
			n += len(rs)
		}
	}
	b.ReportMetric(float64(len(p.files)), "files")
	b.ReportMetric(float64(n), "refs")
}

// A reference says which function, method or class it sits in, named as
// the facts name units (Class.method), and whether it calls: the callers
// of Cart.total are Cart.checkout and run, and a class body's base is a
// use that calls nothing.
func TestFromAndCall(t *testing.T) {
	p := loadProject(t, "testdata/shop")
	got := resolveAll(t, p)
	find := func(file string, line int, name string) refs.Ref {
		t.Helper()
		for _, r := range got[file] {
			if r.Line == line && r.Name == name {
				return r
			}
		}
		t.Fatalf("no reference to %s on %s:%d; got %+v", name, file, line, got[file])
		return refs.Ref{}
	}
	cases := []struct {
		file string
		line int
		name string
		want refs.Ref
	}{
		{"shop/cart.py", 29, "Cart.total", refs.Ref{Line: 29, Col: 18, Path: "shop/cart.py", Name: "Cart.total", From: "Cart.checkout", Call: true}},
		{"app/main.py", 11, "Cart.total", refs.Ref{Line: 11, Col: 10, Path: "shop/cart.py", Name: "Cart.total", From: "run", Call: true}},
		{"shop/base.py", 16, "Base", refs.Ref{Line: 16, Col: 13, Path: "shop/base.py", Name: "Base", From: "Order"}},
		{"app/main.py", 55, "Ledger.post", refs.Ref{Line: 55, Col: 21, Path: "shop/ledger.py", Name: "Ledger.post", From: "Shop.close", Call: true}},
		{"shop/cart.py", 26, "TAX", refs.Ref{Line: 26, Col: 56, Path: "shop/cart.py", Name: "TAX", From: "Cart.total"}},
	}
	for _, c := range cases {
		if r := find(c.file, c.line, c.name); r != c.want {
			t.Errorf("%s:%d: got %+v, want %+v", c.file, c.line, r, c.want)
		}
	}
}

// Affected widens a change to the files importing it and, through a
// package's __init__ that re-exports it, to the files importing the
// package.
func TestAffected(t *testing.T) {
	p := loadProject(t, "testdata/shop")
	r := python.New(regex.MaskCode)
	got := r.Affected(p, []string{"shop/ledger.py"})
	want := []string{"app/main.py", "shop/__init__.py", "shop/base.py", "shop/checkout.py", "shop/ledger.py"}
	if !slices.Equal(got, want) {
		t.Errorf("Affected(shop/ledger.py) = %q, want %q", got, want)
	}
	if got := r.Affected(p, []string{"app/main.py"}); !slices.Equal(got, []string{"app/main.py"}) {
		t.Errorf("Affected(app/main.py) = %q: nothing imports it", got)
	}
}

// A cancelled resolution says so instead of answering in part.
func TestCancelled(t *testing.T) {
	p := loadProject(t, "testdata/shop")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got, err := python.New(regex.MaskCode).Refs(ctx, p, p.files); err == nil {
		t.Errorf("Refs with a cancelled context = %d files, no error", len(got))
	}
}

// Whatever a file holds, resolving it ends without a panic, and every
// reference points into the file at a name of a definition its facts
// hold.
func FuzzRefs(f *testing.F) {
	for _, s := range []string{
		"class A:\n    def m(self): return self.m()\nA().m()\n",
		"def f(x: 'A | None' = (lambda y: y)(1)) -> 'A':\n  return f(\n",
		"from . import *\nimport a.b as c\nx = [y for y in f() if (z := y)]\nwith f() as (a, b): pass\n",
		"class A(A): pass\nclass B(C, A):\n  def m(self): super().m(); super(B, self).m()\n",
		"@property\ndef p(self) -> int: ...\nx: 'p' = ((((((\n",
		"def f():\n\tglobal g\n\tg = 1\n\treturn g\ng = f\ng()\n",
	} {
		f.Add([]byte(s))
	}
	r := python.New(regex.MaskCode)
	f.Fuzz(func(t *testing.T, src []byte) {
		refstest.CheckOne(t, r, regex.New().Parse, core.LangPython, "m.py", src)
	})
}
