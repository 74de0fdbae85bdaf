package mcpserver

import (
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core/pipeline"
	"github.com/rubi-dev/rubi/internal/rubitest"
	"github.com/rubi-dev/rubi/plugins/standard"
)

// The context tool answers "what calls Cart.Total" with its callers, as
// rubi context does: their functions first among the units to open, each
// with the line it calls at, then the definition; the files that call it
// lead the items; Invoice.Total's callers are none of them.
func TestContextWhatCalls(t *testing.T) {
	isolate(t)
	root := writeProject(t, rubitest.Callers)
	s, _ := newServer(t, Options{ProjectDir: root, Engine: pipeline.Options{Resolvers: standard.Resolvers()}})
	c := connect(t, s)
	out, res := ok(t, c, "context", map[string]any{"query": "what calls Cart.Total"})
	var got contextOutput
	structured(t, res, &got)
	want := []string{
		"shop/checkout.go:4-7 Checkout — calls Cart.Total at line 5",
		"shop/bill.go:4-6 Bill — calls Cart.Total at line 5",
		"shop/checkout.go:9-14 fee — calls Cart.Total at line 10",
	}
	if len(got.OpenFirst) <= len(want) || !slices.Equal(got.OpenFirst[:len(want)], want) ||
		!strings.HasPrefix(got.OpenFirst[len(want)], "shop/cart.go:7-13 Cart.Total — defines Cart.Total") {
		t.Errorf("open first %q, want the callers %q, then the definition\n%s", got.OpenFirst, want, out)
	}
	var paths []string
	for _, it := range got.Items {
		paths = append(paths, it.Path)
	}
	if len(paths) < 3 || !slices.Equal(paths[:3], []string{"shop/checkout.go", "shop/bill.go", "shop/cart.go"}) {
		t.Errorf("items %v, want the callers, then the definition\n%s", paths, out)
	}
	if !strings.HasPrefix(out, "open first:\n   "+want[0]+"\n") || strings.Contains(out, "calls Invoice.Total") {
		t.Errorf("text:\n%s", out)
	}
}
