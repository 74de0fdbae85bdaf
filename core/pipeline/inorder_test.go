package pipeline

import (
	"slices"
	"testing"

	"github.com/rubi-dev/rubi/core/manifest"
)

// The lookups of a no-change run by path order find what the maps find:
// the removed paths, and each file's last record, asked in order, out of
// order, or absent.
func TestInOrderLookups(t *testing.T) {
	if got, want := missing([]string{"a", "b/c", "b/d", "e", "z"}, []string{"a0", "b/d", "e", "f"}), []string{"a", "b/c", "z"}; !slices.Equal(got, want) {
		t.Errorf("missing = %q, want %q", got, want)
	}
	if got := missing(nil, []string{"a"}); got != nil {
		t.Errorf("missing from nothing = %q", got)
	}

	dir := t.TempDir()
	m := manifest.New()
	paths := []string{"a.go", "b/c.go", "b/d.go", "e.md"}
	for _, p := range paths {
		m.Records()[p] = &manifest.Record{Path: p, Language: "go"}
	}
	if err := m.Save(dir, nil); err != nil {
		t.Fatal(err)
	}
	for _, whole := range []bool{true, false} {
		prev, err := manifest.Load(dir, whole, false)
		if err != nil {
			t.Fatal(err)
		}
		if (prev.ReadInOrder() != nil) != whole {
			t.Fatalf("whole %v: records in order %v", whole, prev.ReadInOrder() != nil)
		}
		lookup := recordsInOrder(prev)
		for _, p := range []string{"0.go", "a.go", "b/d.go", "b/c.go", "b/e.go", "e.md", "a.go", "z"} {
			got, want := lookup(p), prev.Records()[p]
			if got != want {
				t.Errorf("whole %v: %q gives %v, the map %v", whole, p, got, want)
			}
		}
	}
}
