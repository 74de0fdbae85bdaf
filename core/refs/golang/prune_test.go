package golang_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/refs/golang"
	"github.com/rubi-dev/rubi/core/refs/refstest"
)

// pruneTree is a module whose app package has functions that can hold
// no reference (only names of the standard library, only locals) beside
// those that do, two of them through names pruning must not miss: a
// parameter named as an import, and a local interface's method.
var pruneTree = map[string]string{
	"go.mod": "module example.com/pr\n\ngo 1.22\n",
	"lib/lib.go": `package lib

// Store stores.
type Store struct{}

// Put puts k.
func (s *Store) Put(k string) {}

// New returns a Store.
func New() *Store { return &Store{} }
`,
	"app/app.go": `package app

import (
	"strings"

	"example.com/pr/lib"
)

func onlyOutside(s string) string {
	return strings.ToUpper(strings.TrimSpace(s))
}

func onlyLocals(n int) int {
	x := n * 2
	return x + 1
}

func shadowed(strings *lib.Store) {
	strings.Put("k")
}

func localInterface(v any) {
	type shouter interface{ Shout() }
	if s, ok := v.(shouter); ok {
		s.Shout()
	}
}

func calls() {
	lib.New().Put("x")
}
`,
}

// TestPrunedBodiesHoldNoReferences checks the bodies whose names show
// they hold no reference are left unchecked, and that the references
// found are those of checking every body.
func TestPrunedBodiesHoldNoReferences(t *testing.T) {
	for _, c := range []struct {
		name   string
		root   string
		pruned int
	}{
		{"fixture", writeTree(t, pruneTree), 3}, // Store.Put's empty body too
		{"shop", "testdata/shop", -1},
		{"rubi", repoRoot, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := refstest.Dir(context.Background(), c.root)
			if err != nil {
				t.Fatal(err)
			}
			files := p.Files(core.LangGo)
			all, _, err := golang.New(golang.Options{AllBodies: true}).Check(context.Background(), p, files)
			if err != nil {
				t.Fatal(err)
			}
			got, st, err := golang.New(golang.Options{}).Check(context.Background(), p, files)
			if err != nil {
				t.Fatal(err)
			}
			if c.pruned >= 0 && st.Pruned != c.pruned {
				t.Errorf("%d bodies pruned, want %d", st.Pruned, c.pruned)
			}
			if c.pruned < 0 && st.Pruned == 0 {
				t.Error("no body pruned")
			}
			for _, f := range files {
				if g, w := lines(got[f]), lines(all[f]); !slices.Equal(g, w) {
					t.Errorf("%s: %d references, %d checking every body; first differences:\n%s", f, len(g), len(w), firstDiff(g, w))
				}
			}
			if c.name == "fixture" {
				equalLines(t, "app/app.go", got["app/app.go"], []string{
					"18:28 Store lib/lib.go from=shadowed",
					"19:10 Store.Put lib/lib.go from=shadowed call",
					"25:5 shouter.Shout app/app.go from=localInterface call",
					"30:6 New lib/lib.go from=calls call",
					"30:12 Store.Put lib/lib.go from=calls call",
				})
			}
		})
	}
}

// TestOutsideNamesNoErrors uses many names of a package the project
// does not hold: none is an error.
func TestOutsideNamesNoErrors(t *testing.T) {
	var b strings.Builder
	b.WriteString("package big\n\nimport \"strings\"\n\nfunc f() {\n")
	for i := range 50 {
		fmt.Fprintf(&b, "\t_ = strings.Name%d\n", i)
	}
	b.WriteString("}\n")
	root := writeTree(t, map[string]string{"go.mod": "module example.com/big\n\ngo 1.22\n", "big.go": b.String()})
	p, err := refstest.Dir(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	_, st, err := golang.New(golang.Options{AllBodies: true}).Check(context.Background(), p, p.Files(core.LangGo))
	if err != nil {
		t.Fatal(err)
	}
	if st.Errors != 0 {
		t.Errorf("%d errors for 50 names of an outside package, want none", st.Errors)
	}
}
