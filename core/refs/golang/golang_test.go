package golang_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/refs"
	"github.com/rubi-dev/rubi/core/refs/golang"
	"github.com/rubi-dev/rubi/core/refs/refstest"
	langgo "github.com/rubi-dev/rubi/plugins/lang-go"
)

// resolve returns the references of want in the project at root (every
// Go file when want is nil).
func resolve(t *testing.T, root string, want []string) (*refstest.Project, map[string][]refs.Ref) {
	t.Helper()
	p, err := refstest.Dir(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if want == nil {
		want = p.Files(core.LangGo)
	}
	out, err := golang.New(golang.Options{}).Refs(context.Background(), p, want)
	if err != nil {
		t.Fatal(err)
	}
	return p, out
}

// lines renders a file's references one a line, as line:col name path
// from [call] [impl], for exact comparisons.
func lines(rs []refs.Ref) []string {
	var out []string
	for _, r := range rs {
		s := fmt.Sprintf("%d:%d %s %s from=%s", r.Line, r.Col, r.Name, r.Path, r.From)
		if r.Call {
			s += " call"
		}
		if r.Impl {
			s += " impl"
		}
		out = append(out, s)
	}
	return out
}

func equalLines(t *testing.T, file string, got []refs.Ref, want []string) {
	t.Helper()
	if g := lines(got); !slices.Equal(g, want) {
		t.Errorf("%s:\ngot\n  %s\nwant\n  %s", file, strings.Join(g, "\n  "), strings.Join(want, "\n  "))
	}
}

// writeTree writes files (slash path → contents) under a new folder.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestMethodsByTypeNotName reads the references of the shop fixture's
// main, where three types have a Total: each use names the method of
// its value's type, with the function it sits in, calls and composite
// literals marked, a method value not.
func TestMethodsByTypeNotName(t *testing.T) {
	_, out := resolve(t, "testdata/shop", nil)
	equalLines(t, "cmd/shop/main.go", out["cmd/shop/main.go"], []string{
		"13:34 Stack stack/stack.go from=receipt",
		"15:10 receipt cmd/shop/main.go from=receipt.Total",
		"15:19 Totaler.Total cart/totaler.go from=receipt.Total impl",
		"18:12 New cart/cart.go from=main call",
		"19:4 Cart.Add cart/cart.go from=main call",
		"19:13 Item cart/cart.go from=main call",
		"20:13 Place order/order.go from=main call",
		"21:16 Order.Describe order/order.go from=main call",
		"21:34 Totals order/order.go from=main call",
		"21:49 Cart cart/cart.go from=main",
		"22:8 receipt cmd/shop/main.go from=main",
		"23:10 Stack.Push stack/stack.go from=main call",
		"23:17 Cart.Names cart/cart.go from=main call",
		"24:10 Stack.Push stack/stack.go from=main call",
		"24:28 receipt.Total cmd/shop/main.go from=main call",
		"25:14 Stack stack/stack.go from=main call",
		"26:4 Stack.Push stack/stack.go from=main call",
		"26:14 Max cart/cart.go from=main",
		"27:14 Stack.Pop stack/stack.go from=main call",
		"28:17 Map stack/stack.go from=main call",
		"28:28 Item cart/cart.go from=main",
		"28:60 Item cart/cart.go from=main",
		"29:43 Sum cart/totaler.go from=main call",
		"29:55 Default cart/cart.go from=main",
	})
	equalLines(t, "order/order.go", out["order/order.go"], []string{
		"13:8 Cart cart/cart.go from=Order",
		"18:28 Cart cart/cart.go from=Place",
		"18:35 Order order/order.go from=Place",
		"19:10 Order order/order.go from=Place call",
		"24:10 Order order/order.go from=Order.Describe",
		"25:13 Cart.Total cart/cart.go from=Order.Describe",
		"26:17 Of invoice/invoice.go from=Order.Describe call",
		"27:62 Invoice.Total invoice/invoice.go from=Order.Describe call",
		"31:20 Totaler cart/totaler.go from=Totals",
		"34:23 Totaler.Total cart/totaler.go from=Totals call",
	})
}

// TestImplementations marks each method that implements an interface's
// method of the project, at its declaration, and nothing else.
func TestImplementations(t *testing.T) {
	_, out := resolve(t, "testdata/shop", nil)
	var impl []string
	for _, f := range []string{"cart/cart.go", "invoice/invoice.go", "cmd/shop/main.go", "stack/stack.go", "order/order.go"} {
		for _, r := range out[f] {
			if r.Impl {
				impl = append(impl, fmt.Sprintf("%s:%d:%d %s implements %s (%s)", f, r.Line, r.Col, r.From, r.Name, r.Path))
			}
		}
	}
	want := []string{
		"cart/cart.go:37:16 Cart.Total implements Totaler.Total (cart/totaler.go)",
		"cart/cart.go:59:19 Wishlist.Total implements Totaler.Total (cart/totaler.go)",
		"invoice/invoice.go:13:18 Invoice.Total implements Totaler.Total (cart/totaler.go)",
		"cmd/shop/main.go:15:19 receipt.Total implements Totaler.Total (cart/totaler.go)",
	}
	if !slices.Equal(impl, want) {
		t.Errorf("implementations:\ngot\n  %s\nwant\n  %s", strings.Join(impl, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestTargetsAreLangGoSymbols holds the names of references to the names
// lang.go gives the symbols, on the fixture and on rubi's own tree: every
// target is a symbol of its file, Parent.Name for a method, so that
// `rubi refs` and `rubi read` find the same definitions.
func TestTargetsAreLangGoSymbols(t *testing.T) {
	for _, root := range []string{"testdata/shop", repoRoot} {
		p, out := resolve(t, root, nil)
		symbols := map[[2]string]bool{}
		var sfs []core.SourceFile
		for _, f := range p.Files(core.LangGo) {
			src, err := p.Read(f)
			if err != nil {
				t.Fatal(err)
			}
			sfs = append(sfs, core.SourceFile{Path: f, Language: core.LangGo, Content: src})
		}
		facts, err := langgo.New().Parse(context.Background(), sfs)
		if err != nil {
			t.Fatal(err)
		}
		for _, ff := range facts {
			for _, s := range ff.Symbols {
				name := s.Name
				if s.Parent != "" {
					name = s.Parent + "." + s.Name
				}
				symbols[[2]string{ff.Path, name}] = true
			}
		}
		n, bad := 0, map[[2]string]int{}
		for _, rs := range out {
			for _, r := range rs {
				n++
				if !symbols[[2]string{r.Path, r.Name}] {
					bad[[2]string{r.Path, r.Name}]++
				}
			}
		}
		if len(bad) > 0 || n < 50 {
			t.Errorf("%s: %d references, %d targets lang.go has no symbol for: %v", root, n, len(bad), bad)
		}
	}
}

// TestFileTheBuildLeavesOut resolves a Windows-only file by name: its
// calls of its package's functions and its constant, not the method
// whose receiver's type it would need.
func TestFileTheBuildLeavesOut(t *testing.T) {
	_, out := resolve(t, "testdata/shop", nil)
	equalLines(t, "cart/total_windows.go", out["cart/total_windows.go"], []string{
		"6:9 New cart/cart.go from=windowsTotal call",
		"6:25 Max cart/cart.go from=windowsTotal",
		"6:31 Sum cart/totaler.go from=windowsTotal call",
	})
}

// TestModulesReplacesAndRoots resolves imports between two modules of a
// project through a replace directive, of a module's root package (whose
// directory ends in none of its import path) and of a package whose name
// is not its directory's, and from a file that does not parse past its
// first function.
func TestModulesReplacesAndRoots(t *testing.T) {
	root := writeTree(t, map[string]string{
		"go.mod":                         "module example.com/app\n\ngo 1.22\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => ./third_party/lib\n",
		"app.go":                         "package app\n\n// Version is the app's.\nconst Version = \"1\"\n",
		"cmd/main.go":                    "package main\n\nimport (\n\t\"example.com/app\"\n\t\"example.com/lib/v2util\"\n)\n\nfunc main() {\n\tprintln(app.Version, util.Twice(2))\n}\n",
		"broken/broken.go":               "package broken\n\nimport \"example.com/app\"\n\nfunc Good() string { return app.Version }\n\nfunc Bad() {\n\tif {\n}\n",
		"third_party/lib/go.mod":         "module example.com/lib\n\ngo 1.22\n",
		"third_party/lib/v2util/util.go": "package util\n\n// Twice doubles.\nfunc Twice(n int) int { return 2 * n }\n",
	})
	_, out := resolve(t, root, nil)
	equalLines(t, "cmd/main.go", out["cmd/main.go"], []string{
		"9:14 Version app.go from=main",
		"9:28 Twice third_party/lib/v2util/util.go from=main call",
	})
	if got := lines(out["broken/broken.go"]); len(got) == 0 || got[0] != "5:33 Version app.go from=Good" {
		t.Errorf("broken/broken.go: %v, want Version from Good first", got)
	}
}

// TestOnlyAskedPackagesAnswered resolves one file: its package comes
// whole, the packages it imports are checked for their declarations and
// not answered.
func TestOnlyAskedPackagesAnswered(t *testing.T) {
	_, out := resolve(t, "testdata/shop", []string{"invoice/invoice.go"})
	var files []string
	for f := range out {
		files = append(files, f)
	}
	slices.Sort(files)
	if !slices.Equal(files, []string{"invoice/invoice.go"}) {
		t.Fatalf("answered %v, want invoice/invoice.go only", files)
	}
	equalLines(t, "invoice/invoice.go", out["invoice/invoice.go"], []string{
		"8:13 Cart cart/cart.go from=Invoice",
		"13:9 Invoice invoice/invoice.go from=Invoice.Total",
		"13:18 Totaler.Total cart/totaler.go from=Invoice.Total impl",
		"14:16 Cart.Total cart/cart.go from=Invoice.Total call",
		"18:17 Cart cart/cart.go from=Of",
		"18:23 Invoice invoice/invoice.go from=Of",
		"19:9 Invoice invoice/invoice.go from=Of call",
		"19:33 Cart.Total cart/cart.go from=Of call",
	})
	// External tests come with the package they test, checked whole
	// with its internal tests (which they may use): all answered.
	_, out = resolve(t, "testdata/shop", []string{"cart/sum_test.go"})
	if len(out["cart/sum_test.go"]) != 8 || len(out["cart/cart_test.go"]) != 5 || len(out["cart/cart.go"]) == 0 || len(out["invoice/invoice.go"]) != 0 {
		t.Errorf("asked cart/sum_test.go: got %d references in it, %d in cart/cart_test.go, %d in cart/cart.go, %d in invoice/invoice.go", len(out["cart/sum_test.go"]), len(out["cart/cart_test.go"]), len(out["cart/cart.go"]), len(out["invoice/invoice.go"]))
	}
}

// TestAffected widens a change to its package and the packages importing
// it directly; a test file to its package alone.
func TestAffected(t *testing.T) {
	p, err := refstest.Dir(context.Background(), "testdata/shop")
	if err != nil {
		t.Fatal(err)
	}
	r := golang.New(golang.Options{})
	for _, c := range []struct {
		changed []string
		want    string
	}{
		{[]string{"cart/cart.go"}, "cart/cart.go cart/cart_test.go cart/export_test.go cart/sum_test.go cart/total_windows.go cart/totaler.go cmd/shop/main.go invoice/invoice.go order/order.go"},
		{[]string{"cart/cart_test.go"}, "cart/cart.go cart/cart_test.go cart/export_test.go cart/sum_test.go cart/total_windows.go cart/totaler.go"},
		{[]string{"stack/stack.go", "README.md"}, "cmd/shop/main.go stack/stack.go"},
		{[]string{"invoice/invoice.go"}, "invoice/invoice.go order/order.go"},
		// A file deleted since: its package's importers still are.
		{[]string{"stack/gone.go"}, "cmd/shop/main.go stack/stack.go"},
	} {
		if got := strings.Join(r.Affected(p, c.changed), " "); got != c.want {
			t.Errorf("Affected(%v) = %s, want %s", c.changed, got, c.want)
		}
	}
}

// TestCancelled returns the context's error.
func TestCancelled(t *testing.T) {
	p, err := refstest.Dir(context.Background(), "testdata/shop")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := golang.New(golang.Options{}).Refs(ctx, p, p.Files(core.LangGo)); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// TestGeneratedBodies leaves the bodies of a generated file unchecked
// unless asked: its signatures' references stay.
func TestGeneratedBodies(t *testing.T) {
	root := writeTree(t, map[string]string{
		"go.mod":    "module example.com/gen\n\ngo 1.22\n",
		"api.go":    "package gen\n\n// Kind is a kind.\ntype Kind int\n\n// Name names k.\nfunc Name(k Kind) string { return \"\" }\n",
		"zz_gen.go": "// Code generated by hand. DO NOT EDIT.\n\npackage gen\n\nfunc describe(k Kind) string {\n\treturn Name(k)\n}\n",
	})
	p, err := refstest.Dir(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		opts golang.Options
		want []string
	}{
		{golang.Options{}, []string{"5:17 Kind api.go from=describe"}},
		{golang.Options{GeneratedBodies: true}, []string{"5:17 Kind api.go from=describe", "6:9 Name api.go from=describe call"}},
	} {
		out, err := golang.New(c.opts).Refs(context.Background(), p, p.Files(core.LangGo))
		if err != nil {
			t.Fatal(err)
		}
		equalLines(t, fmt.Sprintf("zz_gen.go %+v", c.opts), out["zz_gen.go"], c.want)
	}
}

// TestSameAnswerWhateverTheWorkers resolves a tree with an import cycle
// (which Go forbids, and a broken tree has) on one worker and on eight:
// the same references, the cycle cut the same way.
func TestSameAnswerWhateverTheWorkers(t *testing.T) {
	root := writeTree(t, map[string]string{
		"go.mod":   "module example.com/cyc\n\ngo 1.22\n",
		"a/a.go":   "package a\n\nimport \"example.com/cyc/b\"\n\n// A calls b.\nfunc A() int { return b.B() }\n\n// One is one.\nconst One = 1\n",
		"b/b.go":   "package b\n\nimport \"example.com/cyc/a\"\n\n// B calls a.\nfunc B() int { return a.One }\n",
		"c/c.go":   "package c\n\nimport (\n\t\"example.com/cyc/a\"\n\t\"example.com/cyc/b\"\n)\n\nfunc C() int { return a.A() + b.B() }\n",
		"shop.txt": "not go",
	})
	p, err := refstest.Dir(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	var answers [][]string
	for _, w := range []int{1, 8} {
		out, err := golang.New(golang.Options{Workers: w}).Refs(context.Background(), p, p.Files(core.LangGo))
		if err != nil {
			t.Fatal(err)
		}
		var all []string
		for _, f := range []string{"a/a.go", "b/b.go", "c/c.go"} {
			for _, l := range lines(out[f]) {
				all = append(all, f+" "+l)
			}
		}
		answers = append(answers, all)
	}
	if !slices.Equal(answers[0], answers[1]) {
		t.Errorf("one worker:\n  %s\neight:\n  %s", strings.Join(answers[0], "\n  "), strings.Join(answers[1], "\n  "))
	}
	// Outside the cycle, both packages are whole.
	want := []string{"c/c.go 8:25 A a/a.go from=C call", "c/c.go 8:33 B b/b.go from=C call"}
	if got := answers[0][len(answers[0])-2:]; !slices.Equal(got, want) {
		t.Errorf("c/c.go: %v, want %v", got, want)
	}
}

// TestPackageAloneAsInFull resolves packages one at a time, as an index
// run does after an edit, and gets the references a run over every file
// gives their files: on the fixture every package, on rubi's tree one
// package in ten.
func TestPackageAloneAsInFull(t *testing.T) {
	for _, c := range []struct {
		root  string
		every int
	}{{"testdata/shop", 1}, {repoRoot, 10}} {
		p, full := resolve(t, c.root, nil)
		byDir := map[string][]string{}
		var dirs []string
		for _, f := range p.Files(core.LangGo) {
			d := filepath.ToSlash(filepath.Dir(f))
			if byDir[d] == nil {
				dirs = append(dirs, d)
			}
			byDir[d] = append(byDir[d], f)
		}
		r := golang.New(golang.Options{})
		for i := 0; i < len(dirs); i += c.every {
			files := byDir[dirs[i]]
			out, err := r.Refs(context.Background(), p, files)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				if g, w := lines(out[f]), lines(full[f]); !slices.Equal(g, w) {
					t.Errorf("%s alone: %d references, %d in a full run; first differences:\n%s", f, len(g), len(w), firstDiff(g, w))
				}
			}
		}
	}
}

func firstDiff(a, b []string) string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) && len(out) < 5 {
			out = append(out, "  alone only: "+s)
		}
	}
	for _, s := range b {
		if !slices.Contains(a, s) && len(out) < 10 {
			out = append(out, "  full only: "+s)
		}
	}
	return strings.Join(out, "\n")
}

// spilling is a project that gives the resolver a spill (refs.Spiller),
// kept under dir to be looked at after the run.
type spilling struct {
	*refstest.Project
	dir   string
	files []string
}

func (s *spilling) Spill() (*os.File, error) {
	f, err := os.CreateTemp(s.dir, "spill-*")
	if err == nil {
		s.files = append(s.files, f.Name())
	}
	return f, err
}

// Given a spill, a run puts the references it finds there until it ends
// rather than in memory, and answers exactly as without one.
func TestSpilledAsInMemory(t *testing.T) {
	p, inMemory := resolve(t, "testdata/shop", nil)
	sp := &spilling{Project: p, dir: t.TempDir()}
	spilled, err := golang.New(golang.Options{}).Refs(context.Background(), sp, p.Files(core.LangGo))
	if err != nil {
		t.Fatal(err)
	}
	if len(inMemory) == 0 {
		t.Fatal("the shop has no references")
	}
	for f, rs := range inMemory {
		equalLines(t, f, spilled[f], lines(rs))
	}
	if len(spilled) != len(inMemory) {
		t.Errorf("%d files answered with a spill, %d without", len(spilled), len(inMemory))
	}
	if len(sp.files) != 1 {
		t.Fatalf("the run took %d spills, want 1", len(sp.files))
	}
	if fi, err := os.Stat(sp.files[0]); err != nil || fi.Size() == 0 {
		t.Errorf("the spill holds nothing (%v): the references stayed in memory", err)
	}
}

// The declarations kept for importers leave out the functions they
// cannot name (dropFuncs), and nothing of what is found changes: a
// variable whose type comes from an unexported function keeps it for its
// importers' selectors, a file the build leaves out still finds the
// unexported function it calls, and the package's own calls are there.
func TestDroppedFunctionsChangeNothing(t *testing.T) {
	root := writeTree(t, map[string]string{
		"go.mod":         "module example.com/app\n\ngo 1.22\n",
		"a/a.go":         "package a\n\n// T is a thing.\ntype T struct{}\n\n// M does it.\nfunc (*T) M() {}\n\n// V is made by mk.\nvar V = mk()\n\nfunc mk() *T { return helper() }\n\nfunc helper() *T { return &T{} }\n",
		"a/a_windows.go": "package a\n\nfunc onWindows() { helper() }\n",
		"b/b.go":         "package b\n\nimport \"example.com/app/a\"\n\n// Use uses V.\nfunc Use() { a.V.M() }\n",
	})
	_, out := resolve(t, root, nil)
	equalLines(t, "b/b.go", out["b/b.go"], []string{
		"6:16 V a/a.go from=Use",
		"6:18 T.M a/a.go from=Use call",
	})
	equalLines(t, "a/a_windows.go", out["a/a_windows.go"], []string{
		"3:20 helper a/a.go from=onWindows call",
	})
	equalLines(t, "a/a.go", out["a/a.go"], []string{
		"7:8 T a/a.go from=T.M",
		"10:9 mk a/a.go from= call",
		"12:12 T a/a.go from=mk",
		"12:23 helper a/a.go from=mk call",
		"14:16 T a/a.go from=helper",
		"14:28 T a/a.go from=helper call",
	})
}

// TestDeclarationsLetGoWhenNoPackageSeesThem resolves a tree of a core
// package and twenty services that import it and nothing else, and a
// method of each service implements the core's interface: every
// service is paired, while the run holds the declarations of the core
// and of the services being checked, not of all of them.
func TestDeclarationsLetGoWhenNoPackageSeesThem(t *testing.T) {
	files := map[string]string{
		"go.mod":       "module example.com/mono\n\ngo 1.22\n",
		"core/core.go": "package core\n\n// Runner runs.\ntype Runner interface{ Run() int }\n\n// Start runs r.\nfunc Start(r Runner) int { return r.Run() }\n",
	}
	const services = 20
	for i := range services {
		files[fmt.Sprintf("svc%02d/svc.go", i)] = fmt.Sprintf("package svc%02d\n\nimport \"example.com/mono/core\"\n\n// S is a service.\ntype S struct{ N int }\n\n// Run runs it.\nfunc (s *S) Run() int { return s.N }\n\n// Main starts it.\nfunc Main() int { return core.Start(&S{}) }\n", i)
	}
	root := writeTree(t, files)
	p, err := refstest.Dir(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	out, st, err := golang.New(golang.Options{Workers: 2}).Check(context.Background(), p, p.Files(core.LangGo))
	if err != nil {
		t.Fatal(err)
	}
	for i := range services {
		f := fmt.Sprintf("svc%02d/svc.go", i)
		if !slices.Contains(lines(out[f]), "9:13 Runner.Run core/core.go from=S.Run impl") {
			t.Errorf("%s: S.Run not paired with core.Runner:\n  %s", f, strings.Join(lines(out[f]), "\n  "))
		}
	}
	if st.Packages != services+1 {
		t.Errorf("%d packages checked, want %d", st.Packages, services+1)
	}
	// The core, and at most a service a worker besides.
	if st.Held > 3 {
		t.Errorf("declarations of %d packages held at once, want at most 3 (the core and a service on each of 2 workers)", st.Held)
	}
}

// TestAnswerAsRefs takes the shop's references as an Answer, spilled, one
// file at a time: the files and references Refs gives, and the files
// they name.
func TestAnswerAsRefs(t *testing.T) {
	p, inMemory := resolve(t, "testdata/shop", nil)
	sp := &spilling{Project: p, dir: t.TempDir()}
	a, err := golang.New(golang.Options{}).Answer(context.Background(), sp, p.Files(core.LangGo))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	want := slices.Sorted(maps.Keys(inMemory))
	if !slices.Equal(a.Paths(), want) {
		t.Errorf("paths %v, want %v", a.Paths(), want)
	}
	targets, n := map[string]bool{}, 0
	for _, f := range a.Paths() {
		rs, err := a.Refs(f)
		if err != nil {
			t.Fatal(err)
		}
		equalLines(t, f, rs, lines(inMemory[f]))
		n += len(rs)
		for _, r := range rs {
			targets[r.Path] = true
		}
	}
	found := 0
	for _, rs := range inMemory {
		found += len(rs)
	}
	if n != found || n == 0 {
		t.Errorf("%d references read, %d found in memory", n, found)
	}
	if got := slices.Sorted(maps.Keys(targets)); !slices.Equal(a.Targets(), got) {
		t.Errorf("targets %v, want %v", a.Targets(), got)
	}
}
