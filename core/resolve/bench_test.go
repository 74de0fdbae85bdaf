package resolve

import (
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/rubi-dev/rubi/core"
)

// BenchmarkEdges resolves a synthetic project of 10k Go and 10k
// TypeScript files with five imports each.
func BenchmarkEdges(b *testing.B) {
	fsys := fstest.MapFS{
		"go.mod":        {Data: []byte("module example.com/big\n")},
		"tsconfig.json": {Data: []byte(`{"compilerOptions": {"paths": {"@/*": ["web/*"]}}}`)},
	}
	var files []string
	var facts []core.FileFacts
	for i := range 10_000 {
		goFile := fmt.Sprintf("pkg%d/f%d.go", i/10, i)
		tsFile := fmt.Sprintf("web/m%d/f%d.ts", i/10, i)
		files = append(files, goFile, tsFile)
		var goImps, tsImps []core.Import
		for k := range 5 {
			j := (i*7 + k*131) % 10_000
			goImps = append(goImps, core.Import{Spec: fmt.Sprintf("example.com/big/pkg%d", j/10)})
			tsImps = append(tsImps, core.Import{Spec: fmt.Sprintf("@/m%d/f%d", j/10, j)})
		}
		goImps = append(goImps, core.Import{Spec: "fmt"})
		tsImps = append(tsImps, core.Import{Spec: "react"})
		facts = append(facts,
			core.FileFacts{Path: goFile, Language: core.LangGo, Imports: goImps},
			core.FileFacts{Path: tsFile, Language: core.LangTypeScript, Imports: tsImps})
	}
	b.Run("NewProject", func(b *testing.B) {
		for b.Loop() {
			NewProjectFS(fsys, files)
		}
	})
	p := NewProjectFS(fsys, files)
	b.Run("Edges", func(b *testing.B) {
		n := 0
		for b.Loop() {
			n = len(Edges(p, facts))
		}
		b.ReportMetric(float64(n), "edges")
	})
}
