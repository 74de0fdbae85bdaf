package answer

import (
	"fmt"
	"testing"

	"github.com/rubi-dev/rubi/core/manifest"
)

// A module's summary names its six most central files, then "…".
func TestModuleSummary(t *testing.T) {
	m := manifest.New()
	files := m.Records()
	for i := range 8 {
		p := fmt.Sprintf("pkg/f%d.go", i)
		files[p] = &manifest.Record{Path: p, Module: "pkg", Rank: float64(i % 3)}
	}
	files["lib/a.go"] = &manifest.Record{Path: "lib/a.go", Module: "lib"}
	sums := m.ModuleSummaries()
	if got, want := renderModule("pkg", sums["pkg"]), "module pkg (8 files): f2.go, f5.go, f1.go, f4.go, f7.go, f0.go, …"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := renderModule("lib", sums["lib"]), "module lib (1 file): a.go"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
