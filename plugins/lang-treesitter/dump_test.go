package main

import (
	"context"
	"os"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// TestDump prints the syntax tree of the file named by TS_DUMP, for
// writing queries: TS_DUMP=x.py go test -run Dump .
func TestDump(t *testing.T) {
	path := os.Getenv("TS_DUMP")
	if path == "" {
		t.Skip("TS_DUMP not set")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	l := languages[os.Getenv("TS_LANG")]
	if l == nil {
		t.Fatalf("TS_LANG %q unknown", os.Getenv("TS_LANG"))
	}
	p := sitter.NewParser()
	p.SetLanguage(l.grammarFor(path).lang)
	tree, err := p.ParseCtx(context.Background(), nil, src)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(tree.RootNode().String())
}
