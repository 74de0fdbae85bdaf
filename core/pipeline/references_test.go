package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/rubi-dev/rubi/core/refs"
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
