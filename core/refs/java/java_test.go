package java_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/refs"
	"github.com/rubi-dev/rubi/core/refs/java"
	"github.com/rubi-dev/rubi/core/refs/refstest"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

func load(t testing.TB) *refstest.Project {
	t.Helper()
	p, err := refstest.Parsed(context.Background(), "testdata/shop", regex.New().Parse)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func resolveAll(t testing.TB, p refs.Project) map[string][]refs.Ref {
	t.Helper()
	got, err := java.New(regex.MaskCode).Refs(context.Background(), p, p.Files(core.LangJava))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

var refLabel = regexp.MustCompile(`// @ref (.*)$`)

// labelled reads the fixture's hand labels: // @ref PATH::NAME, a label
// per use on the line, as "FILE:LINE PATH::NAME".
func labelled(t *testing.T, p *refstest.Project) map[string]int {
	t.Helper()
	want := map[string]int{}
	for _, f := range p.Files(core.LangJava) {
		src, err := p.Read(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if m := refLabel.FindStringSubmatch(line); m != nil {
				for _, target := range strings.Fields(m[1]) {
					want[fmt.Sprintf("%s:%d %s", f, i+1, target)]++
				}
			}
		}
	}
	if len(want) < 40 {
		t.Fatalf("only %d labelled references: the fixture was not read", len(want))
	}
	return want
}

// score compares the references rubi finds with want, each as
// "FILE:LINE PATH::NAME": precision and recall, the references found
// that want lacks (extra) and those of want not found (missed), sorted.
func score(got map[string][]refs.Ref, want map[string]int) (precision, recall float64, extra, missed []string) {
	found := map[string]int{}
	for f, rs := range got {
		for _, r := range rs {
			found[fmt.Sprintf("%s:%d %s::%s", f, r.Line, r.Path, r.Name)]++
		}
	}
	tp, nGot, nWant := 0, 0, 0
	for k, n := range found {
		nGot += n
		tp += min(n, want[k])
		if n > want[k] {
			extra = append(extra, k)
		}
	}
	for k, n := range want {
		nWant += n
		if n > found[k] {
			missed = append(missed, k)
		}
	}
	sort.Strings(extra)
	sort.Strings(missed)
	return float64(tp) / float64(max(nGot, 1)), float64(tp) / float64(max(nWant, 1)), extra, missed
}

// The fixture's references are labelled by hand, with decoys: a
// same-named class in another package that is not imported (legacy.Cart,
// with total and add), a same-named method of another type
// (Report.total, Cart.Line.total), a local variable of a library's type
// hiding a field of a project type, names in comments, strings and a text
// block, a library's List.add. Every reference found is a labelled one;
// the one missed needs inference (a lambda's parameter).
func TestFixturePrecisionRecall(t *testing.T) {
	p := load(t)
	precision, recall, extra, missed := score(resolveAll(t, p), labelled(t, p))
	t.Logf("precision %.3f, recall %.3f", precision, recall)
	for _, e := range extra {
		t.Errorf("not a reference: %s", e)
	}
	// The one miss: map's lambda gives other elements, whose type javac
	// infers.
	want := []string{"src/main/java/com/acme/report/Totals.java:31 src/main/java/com/acme/report/Totals.java::Coupon.cents"}
	if !slices.Equal(missed, want) {
		t.Errorf("missed %q, want only %q", missed, want)
	}
}

// javacRefs runs the ground truth, javac's tree API
// (testdata/javac/Refs.java, through java's source launcher), over the
// Java files of p at root.
func javacRefs(t *testing.T, root string, files []string, options ...string) map[string]int {
	t.Helper()
	if os.Getenv("RUBI_TEST_NO_JAVA") == "1" {
		t.Skip("RUBI_TEST_NO_JAVA=1: the comparison with javac is left out")
	}
	java, err := exec.LookPath("java")
	if err != nil {
		t.Fatal("no java command: install a JDK (make test installs Debian's default-jdk-headless), or set RUBI_TEST_NO_JAVA=1 to leave this test out")
	}
	oracle, err := filepath.Abs("testdata/javac/Refs.java")
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{oracle, root}, options...)
	args = append(append(args, "--"), files...)
	cmd := exec.Command(java, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("java %s: %v\n%s", strings.Join(args[:2], " "), err, stderr.String())
	}
	want := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if line != "" {
			want[line]++
		}
	}
	return want
}

// What javac resolves agrees with rubi on the fixture: every reference
// rubi finds is one javac finds, and javac's are the hand labels.
//
// With RUBI_JAVAC_TREE naming a tree of Java files (RUBI_JAVAC_OPTIONS,
// space-separated, go to javac: --patch-module java.base=DIR for the
// JDK's own sources), the same comparison runs there too and its figures
// are logged (bench/results/refs-*.md's Java rows); a real tree's
// precision is a measure, not a bound, so only the fixture's fails.
func TestJavacAgrees(t *testing.T) {
	p := load(t)
	truth := javacRefs(t, "testdata/shop", p.Files(core.LangJava))
	if labels := labelled(t, p); !maps.Equal(truth, labels) {
		t.Errorf("javac's references are not the fixture's labels:\njavac %v\nlabels %v", truth, labels)
	}
	precision, recall, extra, _ := score(resolveAll(t, p), truth)
	for _, e := range extra {
		t.Errorf("not a reference for javac: %s", e)
	}
	if precision != 1 || recall < 0.98 {
		t.Errorf("against javac: precision %.3f (want 1), recall %.3f (want at least 0.98)", precision, recall)
	}
	root := os.Getenv("RUBI_JAVAC_TREE")
	if root == "" {
		return
	}
	tree, err := refstest.Parsed(context.Background(), root, regex.New().Parse)
	if err != nil {
		t.Fatal(err)
	}
	files := tree.Files(core.LangJava)
	truth = javacRefs(t, root, files, strings.Fields(os.Getenv("RUBI_JAVAC_OPTIONS"))...)
	found := resolveAll(t, tree)
	precision, recall, extra, missed := score(found, truth)
	n, m := 0, 0
	for _, rs := range found {
		n += len(rs)
	}
	for _, c := range truth {
		m += c
	}
	t.Logf("%s, %d files, %d references found, %d javac's: precision %.3f (%d not javac's), recall %.3f (%d missed)\nnot javac's, the first 40:\n%s\nmissed, the first 40:\n%s",
		root, len(files), n, m, precision, len(extra), recall, len(missed), strings.Join(extra[:min(len(extra), 40)], "\n"), strings.Join(missed[:min(len(missed), missedShown())], "\n"))
}

// A reference says where it is, which method it sits in, and whether it
// calls (or constructs).
func TestFromAndCall(t *testing.T) {
	got := resolveAll(t, load(t))
	report := "src/main/java/com/acme/report/Report.java"
	want := []refs.Ref{
		{Line: 18, Col: 21, Path: "src/main/java/com/acme/shop/Cart.java", Name: "Cart.total", From: "Report.total", Call: true},
		{Line: 23, Col: 27, Path: "src/main/java/com/acme/shop/Pricing.java", Name: "Pricing", From: "Report.render", Call: true},
		{Line: 10, Col: 19, Path: "src/main/java/com/acme/shop/Cart.java", Name: "Cart", From: "Report"},
		{Line: 44, Col: 22, Path: "src/main/java/com/acme/shop/Cart.java", Name: "Cart.total", From: "Report.supplier"},
	}
	for _, w := range want {
		if !slices.Contains(got[report], w) {
			t.Errorf("no %+v among %+v", w, got[report])
		}
	}
}

// Affected widens a change to the files importing it and to its
// package, whose files see its types without an import.
func TestAffected(t *testing.T) {
	p := load(t)
	got := java.New(regex.MaskCode).Affected(p, []string{"src/main/java/com/acme/shop/Item.java"})
	want := []string{
		"src/main/java/com/acme/report/Edges.java",  // import com.acme.shop.Item
		"src/main/java/com/acme/report/Ledger.java", // import com.acme.shop.Item
		"src/main/java/com/acme/report/Report.java", // import com.acme.shop.*
		"src/main/java/com/acme/report/Totals.java", // import com.acme.shop.Item
		"src/main/java/com/acme/shop/Cart.java",
		"src/main/java/com/acme/shop/Item.java",
		"src/main/java/com/acme/shop/Priced.java",
		"src/main/java/com/acme/shop/Pricing.java",
		"src/test/java/com/acme/shop/CartTest.java",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Affected(Item.java) = %q, want %q", got, want)
	}
}

// Without a mask nothing is resolved: unmasked comments would be read as
// code.
func TestNoMaskNoReferences(t *testing.T) {
	got, err := java.New(nil).Refs(context.Background(), load(t), []string{"src/main/java/com/acme/report/Report.java"})
	if err != nil || len(got) != 0 {
		t.Errorf("Refs without a mask = %v, %v; want none", got, err)
	}
}

// Whatever a file holds, resolving it ends without a panic and every
// reference points into the file at a definition its facts hold.
func FuzzRefs(f *testing.F) {
	for _, s := range []string{
		"package a;\nclass A extends A { A m() { return this.m().m(); } }\n",
		"class B { B b; void f(B x) { x.b.b.f(null); new B<>().f(b); B.this.f(x); super.f(); } }\n",
		"class C { int f() { return a < b ? c > d : (e).f(); } String s = \"\"\"\n f() \n\"\"\"; }\n",
		"class D { enum E { X } record R(D d) {} @interface N {} void g() { E e = E.X; D::g; } }\n",
		"class F { <T> T h(java.util.List<? extends F>[] a, F... b) { F[] c = null; return (T) c[0].h(null); } }\n",
		"import static a.b.C.*; import a.b.*; class G { void g() { m(); G.G.G.g(); ((((g())))); } }\n(((\n",
	} {
		f.Add([]byte(s))
	}
	r := java.New(regex.MaskCode)
	f.Fuzz(func(t *testing.T, src []byte) {
		refstest.CheckOne(t, r, regex.New().Parse, core.LangJava, "A.java", src)
	})
}

// BenchmarkRefs resolves every Java file of the tree RUBI_REFS_TREE
// names, or of the fixture, from a cold start each time.
func BenchmarkRefs(b *testing.B) {
	root := os.Getenv("RUBI_REFS_TREE")
	if root == "" {
		root = "testdata/shop"
	}
	p, err := refstest.Parsed(context.Background(), root, regex.New().Parse)
	if err != nil {
		b.Fatal(err)
	}
	files := p.Files(core.LangJava)
	r := java.New(regex.MaskCode)
	n := 0
	for b.Loop() {
		got, err := r.Refs(context.Background(), p, files)
		if err != nil {
			b.Fatal(err)
		}
		n = 0
		for _, rs := range got {
			n += len(rs)
		}
	}
	b.ReportMetric(float64(len(files)), "files")
	b.ReportMetric(float64(n), "refs")
}

// A cancelled resolution says so instead of answering in part.
func TestCancelled(t *testing.T) {
	p := load(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got, err := java.New(regex.MaskCode).Refs(ctx, p, p.Files(core.LangJava)); err == nil {
		t.Errorf("Refs with a cancelled context = %d files, no error", len(got))
	}
}

// missedShown is how many missed references TestJavacAgrees lists for a
// tree: RUBI_JAVAC_MISSED, else 40.
func missedShown() int {
	if n, err := strconv.Atoi(os.Getenv("RUBI_JAVAC_MISSED")); err == nil && n >= 0 {
		return n
	}
	return 40
}

// A method inherited across packages is found, and a change to the type
// declaring it reaches, through the subclass's file, the files that call
// it on the subclass.
func TestInheritedAcrossPackages(t *testing.T) {
	root := t.TempDir()
	for name, src := range map[string]string{
		"a/Base.java": "package a;\n\npublic class Base {\n    public void m() {\n    }\n}\n",
		"b/Sub.java":  "package b;\n\nimport a.Base;\n\npublic class Sub extends Base {\n}\n",
		"c/User.java": "package c;\n\nimport b.Sub;\n\nclass User {\n    void f(Sub s) {\n        s.m();\n    }\n}\n",
	} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := refstest.Parsed(context.Background(), root, regex.New().Parse)
	if err != nil {
		t.Fatal(err)
	}
	r := java.New(regex.MaskCode)
	got, err := r.Refs(context.Background(), p, []string{"c/User.java"})
	if err != nil {
		t.Fatal(err)
	}
	want := refs.Ref{Line: 7, Col: 11, Path: "a/Base.java", Name: "Base.m", From: "User.f", Call: true}
	if !slices.Contains(got["c/User.java"], want) {
		t.Errorf("c/User.java: no %+v among %+v", want, got["c/User.java"])
	}
	if aff := r.Affected(p, []string{"a/Base.java"}); !slices.Contains(aff, "c/User.java") {
		t.Errorf("Affected(a/Base.java) = %q: the file calling Base.m on a Sub is not in it", aff)
	}
}
