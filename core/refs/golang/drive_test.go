package golang

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/rubi-dev/rubi/core"
	"github.com/rubi-dev/rubi/core/refs/refstest"
)

func TestDriveTmp(t *testing.T) {
	root := os.Getenv("GOREFS_ROOT")
	if root == "" {
		t.Skip()
	}
	p, err := refstest.Dir(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	out, st, err := New(Options{}).Check(context.Background(), p, p.Files(core.LangGo))
	t.Logf("%v files=%d stats=%+v err=%v", time.Since(start), len(out), st, err)
	n := 0
	t.Logf("check.go: %d refs; keys sample", len(out["core/refs/golang/check.go"]))
	for f, rs := range out {
		for _, r := range rs {
			if f == os.Getenv("GOREFS_SHOW") {
				t.Logf("%s:%d:%d -> %s %s from=%s call=%v", f, r.Line, r.Col, r.Path, r.Name, r.From, r.Call)
			}
			n++
		}
	}
}

func TestDriveImports(t *testing.T) {
	root := os.Getenv("GOREFS_ROOT")
	if root == "" {
		t.Skip()
	}
	p, _ := refstest.Dir(context.Background(), root)
	f := "core/refs/golang/check.go"
	ff, _ := p.Facts(f)
	t.Logf("facts %+v\nimports %v", ff.Imports, p.Imports(f))
}
