package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/answer"
	"github.com/rubi-dev/rubi/core/messages"
	"github.com/rubi-dev/rubi/core/refs"
	"github.com/rubi-dev/rubi/core/refs/golang"
	"github.com/rubi-dev/rubi/internal/rubitest"
	regex "github.com/rubi-dev/rubi/plugins/lang-regex"
)

// table reads the table of references the engine's index names.
func table(t *testing.T, e *Engine) *refs.Table {
	t.Helper()
	e.folder.set(nil)
	m, err := e.folder.indexed()
	if err != nil || m.References == "" {
		t.Fatalf("no table: %v", err)
	}
	data, err := os.ReadFile(refs.File(e.folder.dir, m.References))
	if err != nil {
		t.Fatal(err)
	}
	tb, err := refs.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// An incremental run leaves the table a full run would write: after a
// file that adds calls, one whose call goes, and one removed, the
// references and definitions are the same as those of a --full run.
func TestIncrementalReferencesEqualFull(t *testing.T) {
	root := rubitest.Project(t, rubitest.Callers)
	e := engineWith(t, root, Options{MaskComments: regex.MaskComments, Resolvers: []refs.Resolver{rubitest.GoCalls{}}})
	ctx := context.Background()
	if _, err := e.Index(ctx, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	write := func(p, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, p), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("shop/refund.go", "package shop\n\nfunc Refund(c *Cart) int { return -c.Total() + fee(c) }\n")
	write("shop/bill.go", "package shop\n\n// Bill is an invoice alone now.\nfunc Bill(i Invoice) int {\n\treturn i.Total()\n}\n")
	if err := os.Remove(filepath.Join(root, "shop", "checkout.go")); err != nil {
		t.Fatal(err)
	}
	// fee went with checkout.go: Refund's call of it is no reference.
	st, err := e.Index(ctx, IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.References.State != "incremental" || st.References.Found != 2 {
		t.Errorf("incremental run: %+v", st.References)
	}
	incremental := table(t, e)
	if _, err := e.Index(ctx, IndexOptions{Full: true}); err != nil {
		t.Fatal(err)
	}
	if full := table(t, e); !reflect.DeepEqual(incremental, full) {
		t.Errorf("incremental:\n%+v\nfull:\n%+v", incremental, full)
	}
	want := map[string][]refs.Ref{
		"shop/bill.go":   {{Line: 5, Col: 11, Path: "shop/invoice.go", Name: "Invoice.Total", From: "Bill", Call: true}},
		"shop/refund.go": {{Line: 3, Col: 38, Path: "shop/cart.go", Name: "Cart.Total", From: "Refund", Call: true}},
	}
	if !reflect.DeepEqual(incremental.Refs, want) {
		t.Errorf("references:\n%+v\nwant:\n%+v", incremental.Refs, want)
	}
	if _, ok := incremental.Defs["shop/checkout.go"]; ok || len(incremental.Defs["shop/refund.go"]) != 1 {
		t.Errorf("definitions: %+v", incremental.Defs)
	}
}

// A method's references take in the calls that reach it through an
// interface it implements, each saying which interface method it calls,
// and no call of another implementation; the interface method's list
// shows its implementations' declarations.
func TestReferencesThroughInterfaces(t *testing.T) {
	root := t.TempDir()
	src := filepath.Join("..", "refs", "golang", "testdata", "shop")
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	e := engineWith(t, root, Options{MaskComments: regex.MaskComments, Resolvers: []refs.Resolver{golang.New(golang.Options{})}})
	if _, err := e.Index(context.Background(), IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	type site struct {
		at, via string
		impl    bool
	}
	list := func(target string) []site {
		t.Helper()
		r, err := e.References(target, 0)
		if err != nil || r.Definition == nil {
			t.Fatalf("references of %s: %+v, %v", target, r, err)
		}
		var out []site
		for _, s := range r.Refs {
			out = append(out, site{fmt.Sprintf("%s:%d", s.Path, s.Line), s.Via, s.Impl})
		}
		return out
	}
	got := list("Cart.Total")
	through := 0
	for _, s := range got {
		switch {
		case s.via == "Totaler.Total":
			through++
		case s.via != "":
			t.Errorf("Cart.Total's references include %+v, through another method", s)
		}
		if s.impl {
			t.Errorf("Cart.Total's references include a declaration: %+v", s)
		}
	}
	// Sum's t.Total() and order.go's x.Total() call Totaler.Total.
	if through != 2 {
		t.Errorf("Cart.Total: %d calls through Totaler.Total, want 2: %+v", through, got)
	}
	impls := 0
	for _, s := range list("Totaler.Total") {
		if s.impl {
			impls++
		}
	}
	// Cart, Wishlist, invoice.Invoice and main's receipt implement it.
	if impls != 4 {
		t.Errorf("Totaler.Total: %d implementations listed, want 4", impls)
	}
	r, err := e.References("Cart.Total", 0)
	if err != nil {
		t.Fatal(err)
	}
	text := r.Render(messages.English, messages.RefsMore)
	if !strings.Contains(text, "cart/totaler.go:12: s += t.Total()  (through Totaler.Total)\n") {
		t.Errorf("the listing does not say which interface a call goes through:\n%s", text)
	}
}

// "What calls Cart.Total" takes in the calls through the interface it
// implements, as rubi refs lists them: Sum's t.Total() and order.go's
// x.Total() on a Totaler.
func TestUsesThroughInterfaces(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "refs", "golang", "testdata", "shop"))); err != nil {
		t.Fatal(err)
	}
	e := engineWith(t, root, Options{MaskComments: regex.MaskComments, Resolvers: []refs.Resolver{golang.New(golang.Options{})}})
	if _, err := e.Index(context.Background(), IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	res, err := e.Retrieve(context.Background(), answer.Query{Text: "what calls Cart.Total", Kinds: []string{core.DocFile}, Limit: 10, Budget: 4000})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, it := range res.Items {
		for _, u := range it.Units {
			lines = append(lines, it.Path+" "+u.Name+": "+u.Why)
		}
	}
	got := strings.Join(lines, "\n")
	for _, want := range []string{"cart/totaler.go Sum: calls Cart.Total at line 12", "order/order.go"} {
		if !strings.Contains(got, want) {
			t.Errorf("the callers of Cart.Total leave out %q (through Totaler.Total):\n%s", want, got)
		}
	}
}

// versioned is GoCalls under another version of its rules.
type versioned struct {
	rubitest.GoCalls
	v string
}

func (r versioned) Version() string { return r.v }

// A table an earlier version of a resolver wrote is rebuilt in full on
// the next run, although no file changed: its references were found by
// other rules. The same version keeps it.
func TestNewResolverVersionRebuildsTheTable(t *testing.T) {
	root := rubitest.Project(t, rubitest.Callers)
	ctx := context.Background()
	run := func(v string) ReferenceStats {
		t.Helper()
		e := engineWith(t, root, Options{MaskComments: regex.MaskComments, Resolvers: []refs.Resolver{versioned{v: v}}})
		st, err := e.Index(ctx, IndexOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return st.References
	}
	if st := run("1"); st.State != "full" {
		t.Fatalf("first run: %+v", st)
	}
	if st := run("1"); st.State != "up to date" {
		t.Errorf("same version, nothing changed: %+v, want up to date", st)
	}
	if st := run("2"); st.State != "full" || st.Resolved == 0 {
		t.Errorf("new version: %+v, want a full rebuild", st)
	}
}

// The Go resolver puts what it finds in a spill in the index folder
// until its run ends (refProject.Spill): a run leaves no spill behind,
// and removes one a crashed run left.
func TestReferencesLeaveNoSpill(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "refs", "golang", "testdata", "shop"))); err != nil {
		t.Fatal(err)
	}
	e := engineWith(t, root, Options{MaskComments: regex.MaskComments, Resolvers: []refs.Resolver{golang.New(golang.Options{})}})
	if _, err := e.Index(context.Background(), IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	left := filepath.Join(e.folder.dir, ".spill-4242")
	if err := os.WriteFile(left, []byte("a crashed run's"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Index(context.Background(), IndexOptions{Full: true}); err != nil {
		t.Fatal(err)
	}
	if spills, _ := filepath.Glob(filepath.Join(e.folder.dir, spillPattern)); len(spills) != 0 {
		t.Errorf("spills left in the index folder: %v", spills)
	}
	if tb := table(t, e); len(tb.Refs) == 0 {
		t.Error("the table holds no references")
	}
}

// A resolver asks the files a file imports: answered from the edges
// themselves when they come sorted by importing file, as from the maps of
// both ways otherwise, the same.
func TestRefProjectImports(t *testing.T) {
	file := func(p string) string { return core.DocID(core.DocFile, p) }
	sorted := []core.Edge{
		{From: file("a.go"), To: file("b.go"), Kind: core.EdgeImports},
		{From: file("a.go"), To: file("c.go"), Kind: core.EdgeImports},
		{From: file("a.go"), To: file("d.go"), Kind: core.EdgeReferences},
		{From: file("b.go"), To: file("c.go"), Kind: core.EdgeImports},
		{From: file("c.go"), To: file("a.go"), Kind: core.EdgeImports},
	}
	unsorted := slices.Clone(sorted)
	slices.Reverse(unsorted)
	paths := []string{"a.go", "b.go", "c.go", "d.go"}
	for _, edges := range [][]core.Edge{sorted, unsorted} {
		p := &refProject{paths: paths}
		p.from, p.to = numberImports(paths, edges)
		for path, want := range map[string][]string{"a.go": {"b.go", "c.go"}, "b.go": {"c.go"}, "c.go": {"a.go"}, "d.go": nil, "e.go": nil} {
			if got := p.Imports(path); !slices.Equal(got, want) {
				t.Errorf("sorted %v: Imports(%s) = %v, want %v", slices.Equal(edges, sorted), path, got, want)
			}
		}
		if p.imports != nil && slices.Equal(edges, sorted) {
			t.Error("the maps of both ways were made for sorted edges")
		}
	}
}
