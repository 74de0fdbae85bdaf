package golang

import (
	"slices"
	"testing"
)

// A unit's closure is itself and what it imports, directly or not, each
// once, as a set over the run's units; the graph keeps none of them (a
// set per unit for the run grew with the square of the tree).
func TestClosure(t *testing.T) {
	// a imports b and c, b imports d, c imports d; e stands apart.
	g := &graph{}
	by := map[string]*unit{}
	for i, name := range []string{"a", "b", "c", "d", "e"} {
		u := &unit{dir: name, id: i}
		by[name] = u
		g.units = append(g.units, u)
	}
	by["a"].deps = []*unit{by["b"], by["c"]}
	by["b"].deps = []*unit{by["d"]}
	by["c"].deps = []*unit{by["d"]}
	members := func(name string) []string {
		sees := g.closure(by[name])
		var out []string
		for _, w := range g.units {
			if seen(sees, w) {
				out = append(out, w.dir)
			}
		}
		return out
	}
	for name, want := range map[string][]string{"a": {"a", "b", "c", "d"}, "b": {"b", "d"}, "d": {"d"}, "e": {"e"}} {
		if got := members(name); !slices.Equal(got, want) {
			t.Errorf("closure of %s = %v, want %v", name, got, want)
		}
	}
}
