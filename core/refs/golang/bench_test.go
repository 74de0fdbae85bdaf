package golang_test

import (
	"context"
	"os"
	"testing"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/refs/golang"
	"github.com/rubi-dev/rubi/core/refs/refstest"
)

// BenchmarkRefs resolves every Go file of a tree: RUBI_REFS_TREE, or
// rubi's own checkout. It reports the references found per run.
//
//	RUBI_REFS_TREE=/tmp/k8s go test -run '^$' -bench Refs -benchtime 3x ./core/refs/golang
func BenchmarkRefs(b *testing.B) {
	root := os.Getenv("RUBI_REFS_TREE")
	if root == "" {
		root = repoRoot
	}
	p, err := refstest.Dir(context.Background(), root)
	if err != nil {
		b.Fatal(err)
	}
	files := p.Files(core.LangGo)
	r := golang.New(golang.Options{})
	var st golang.Stats
	b.ResetTimer()
	for b.Loop() {
		_, st, err = r.Check(context.Background(), p, files)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(st.Refs), "refs")
	b.ReportMetric(float64(len(files)), "files")
}
